"""The hand history end to end: the "History" button on a finished table's board, its copies
(a player's with their own hand, a stranger's with what the table saw, a GM's with everything),
``/table history``, its refusals, and its pages turned with Previous / Next, also after a
restart."""

from __future__ import annotations

import pytest

from bot.render import history as render
from tests.e2e.pazaak_support import seat_two, settle
from tests.e2e.pegaz_kit import Tavern, hand_of
from tests.e2e.test_characters import say
from tests.fakediscord import MANAGE_GUILD, BotHarness, FakeDiscord, FakeMessage

HAND_A = "Ahsoka's hand: "
HAND_B = "Bastila's hand: "


async def forfeited_match(fake: FakeDiscord, harness: BotHarness):  # type: ignore[no-untyped-def]
    """Ahsoka and Bastila play two turns, then Bastila forfeits: the table is finished."""
    table = await seat_two(fake, harness)
    board = await table.open(wager="250 cr")
    await table.play([("B", "end"), ("A", "end")])
    asked = await fake.click(table.users["B"], board, "Forfeit")
    confirm = await asked.reply()
    await settle(fake, harness, await fake.click(table.users["B"], confirm, "Yes, forfeit"))
    return table, board


async def test_the_finished_board_offers_each_reader_their_own_copy(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table, board = await forfeited_match(fake, harness)
    stranger = fake.add_player("Carth")
    gm = fake.add_player("Gunther", permissions=MANAGE_GUILD)
    assert board.button_labels == ["History"]
    assert board.buttons[0]["custom_id"] == "hist:1:0"

    mine = await (await fake.click(table.users["A"], board, "History")).reply()
    assert mine.ephemeral and mine.buttons == []  # one page: no Previous / Next
    embed = mine.embeds[0]
    assert embed["title"] == "History of table #1: Pazaak"
    assert embed["footer"]["text"] == "Your copy, with your own cards · page 1 of 1"
    lines = embed["description"].split("\n")
    assert lines[0] == "Ahsoka against Bastila, 250 cr each: a pot of 500 cr."
    assert sum(line.startswith(HAND_A) for line in lines) == 1
    assert not any(line.startswith(HAND_B) for line in lines)
    assert lines[-1] == (
        "**Bastila** forfeits. **Ahsoka** wins the match. Ahsoka takes the pot: 500 cr."
    )
    assert "Bastila ends the turn." in lines and "Ahsoka ends the turn." in lines

    theirs = await (await fake.click(stranger, board, "History")).reply()
    seen = theirs.embeds[0]
    assert seen["footer"]["text"] == "Public copy: what the table saw · page 1 of 1"
    assert "hand: " not in seen["description"]
    public = seen["description"].split("\n")
    assert public == [line for line in lines if not line.startswith(HAND_A)]

    bobs = await (await fake.click(table.users["B"], board, "History")).reply()
    assert HAND_B in bobs.embeds[0]["description"] and HAND_A not in bobs.embeds[0]["description"]

    gms = await say(fake, gm, "table history", table=1)
    assert gms.ephemeral
    assert gms.embeds[0]["footer"]["text"] == "GM's copy: every hand, roll and swap · page 1 of 1"
    assert HAND_A in gms.embeds[0]["description"] and HAND_B in gms.embeds[0]["description"]
    assert (await table.balance("A"), await table.balance("B")) == (1250, 750)


async def test_a_cancelled_pegaz_table_shows_each_player_only_their_own_deal(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann, bob = await tv.player("Ann"), await tv.player("Bob")
    stranger = fake.add_player("Nobody")
    table = await tv.open()
    await tv.press(ann.user, table, "Join")
    await tv.press(bob.user, table, "Join")
    await tv.press(tv.gm, table, "Start")
    dealt = {who.name: ", ".join(hand_of(tv.hand_dm(who))) for who in (ann, bob)}
    assert all(dealt.values())
    await tv.press(tv.gm, table, "Cancel game")
    assert table.button_labels == ["History"]

    def deals(message: FakeMessage) -> list[str]:
        lines = message.embeds[0]["description"].split("\n")
        return [line for line in lines if line.startswith("🂠")]

    anns = await (await fake.click(ann.user, table, "History")).reply()
    assert anns.embeds[0]["title"] == "History of table #1: Three-Card Pegasus"
    assert deals(anns) == [f"🂠 **Ann** is dealt {dealt['Ann']}."]
    lines = anns.embeds[0]["description"].split("\n")
    assert lines[:2] == [
        "**Ann** sits down and pays the ante of 1 s.",
        "**Bob** sits down and pays the ante of 1 s.",
    ]
    assert lines[-1] == "The game is called off. The stakes go back: **Ann** 1 s, **Bob** 1 s."
    bobs = await (await fake.click(bob.user, table, "History")).reply()
    assert deals(bobs) == [f"🂠 **Bob** is dealt {dealt['Bob']}."]
    nobodys = await (await fake.click(stranger, table, "History")).reply()
    assert deals(nobodys) == []
    assert [line for line in lines if not line.startswith("🂠")] == nobodys.embeds[0][
        "description"
    ].split("\n")
    gms = await say(fake, tv.gm, "table history", table=1)
    assert sorted(deals(gms)) == sorted(deals(anns) + deals(bobs))


async def test_a_live_or_unknown_table_has_no_history_yet(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    await table.open(wager="250 cr")
    live = await say(fake, table.users["A"], "table history", table=1)
    assert live.ephemeral
    assert live.content == ("Table #1 is still in play: its history opens once the game is over.")
    unknown = await say(fake, table.users["A"], "table history", table=99)
    assert unknown.ephemeral and unknown.content == "I don't know that table."


async def test_a_long_history_pages_and_its_buttons_survive_a_restart(
    fake: FakeDiscord, harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    # short pages (the cog is loaded afresh as an extension: the render's own default changes)
    monkeypatch.setattr(render.paginate, "__defaults__", (120,))
    table, board = await forfeited_match(fake, harness)
    reader = table.users["A"]
    first = await (await fake.click(reader, board, "History")).reply()
    footer = first.embeds[0]["footer"]["text"]
    pages = int(footer.rsplit(" ", 1)[1])
    assert pages >= 3 and footer.endswith(f"page 1 of {pages}")
    assert first.button_labels == ["Previous", "Next"]
    assert [b.get("disabled", False) for b in first.buttons] == [True, False]
    shown = [first.embeds[0]["description"]]

    await harness.restart()  # the page buttons are persistent: a restart keeps them working
    for number in range(2, pages + 1):
        await settle(fake, harness, await fake.click(reader, first, "Next"))
        assert first.embeds[0]["footer"]["text"].endswith(f"page {number} of {pages}")
        shown.append(first.embeds[0]["description"])
    assert [b.get("disabled", False) for b in first.buttons] == [False, True]
    await settle(fake, harness, await fake.click(reader, first, "Previous"))
    assert first.embeds[0]["description"] == shown[-2]

    whole = await say(fake, reader, "table history", table=1)
    assert whole.embeds[0]["description"] == shown[0]
    assert all(len(text) <= 120 for text in shown)
    monkeypatch.undo()
    one = await say(fake, reader, "table history", table=1)
    assert one.embeds[0]["description"] == "\n".join(shown)
