"""How a match ends besides sets: a forfeit (confirmed), and turns that time out: the player
stands, and three timeouts in a row forfeit. Timers are short (1 s turns) so the waits are too."""

# ruff: noqa: RUF001 (the bot writes en dashes)

from __future__ import annotations

from typing import Any

from tests.e2e.pazaak_support import masked, moves_log, seat_two, settle
from tests.fakediscord import MANAGE_GUILD, BotHarness, FakeDiscord


async def test_a_forfeit_is_confirmed_and_the_other_takes_the_pot(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    stranger = fake.add_player("Carth")
    board = await table.open(wager="250 cr")
    await table.play([("B", "end"), ("A", "end"), ("B", "end")])  # Ahsoka to play at 11
    assert moves_log(board) == ["Bastila ends the turn.", "Ahsoka draws 7."]

    refused = await (await fake.click(stranger, board, "Forfeit")).reply()
    assert refused.text == "You don't sit at this table." and refused.ephemeral

    asked = await fake.click(table.users["B"], board, "Forfeit")  # not her turn: still allowed
    confirm = await asked.reply()
    assert (
        confirm.text
        == "Forfeit the match as **Bastila**? **Ahsoka** wins and takes the pot (500 cr)."
    )
    assert confirm.ephemeral and confirm.button_labels == ["Yes, forfeit"]
    assert len(board.history) == 3 and (await table.balance("B")) == 750  # nothing yet

    done = await fake.click(table.users["B"], confirm, "Yes, forfeit")
    await settle(fake, harness, done)

    assert confirm.text == "**Bastila** has forfeited." and confirm.buttons == []
    assert table.channel_texts()[2:] == [
        "**Bastila** forfeits. **Ahsoka** wins the match. Ahsoka takes the pot: 500 cr."
    ]
    assert board.text == (
        "Pazaak: Ahsoka vs Bastila · Ahsoka wins\n"
        "**Bastila** forfeits. **Ahsoka** wins the match. Ahsoka takes the pot: 500 cr.\n\n"
        "Cards played by Ahsoka: none\n"
        "Cards played by Bastila: none\n"
        "Table 1"
    )
    assert table.hand_dm("A").text == (
        "Your hand: Ahsoka vs Bastila\n"
        "Hand: +4 · +1 · +1 · +5\n\n"
        "The match is over: Ahsoka wins.\n"
        "Table 1"
    )
    assert table.hand_dm("B").text.endswith("The match is over: Ahsoka wins.\nTable 1")
    # no card played: the DMs were sent once and edited once, at the end
    assert [len(table.hand_dm(who).history) for who in "AB"] == [1, 1]
    assert table.hand_dm("A").buttons == table.hand_dm("B").buttons == []
    assert (await table.balance("A"), await table.balance("B")) == (1250, 750)


async def test_timeouts_stand_and_three_in_a_row_forfeit(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    board = await table.open(wager="250 cr", turn_timeout=1)
    await harness.restart()  # the turn timers live in the database: they survive it

    # Nobody moves: every turn times out. Bastila starts set 1, Ahsoka set 2, Bastila set 3,
    # where her third timeout in a row forfeits the match: five timeouts, one second each.
    await settle(fake, harness)
    for _ in range(5):
        assert table.channel_texts()[-1] != FORFEIT
        await harness.clock.advance(1)
        await settle(fake, harness)
    assert table.channel_texts()[-1] == FORFEIT
    logs = [_lines(version) for version in [*board.edits, board.snapshot()]]
    assert logs == [
        ["Bastila draws 1."],
        ["Time is up for Bastila, who stands (timeout 1 of 3 in a row).", "Ahsoka draws 4."],
        [
            "Time is up for Ahsoka, who stands (timeout 1 of 3 in a row).",
            "Set 1 goes to Ahsoka.",
            "Set 2 begins; Ahsoka starts.",
            "Ahsoka draws 5.",
        ],
        ["Time is up for Ahsoka, who stands (timeout 2 of 3 in a row).", "Bastila draws 9."],
        [
            "Time is up for Bastila, who stands (timeout 2 of 3 in a row).",
            "Set 2 goes to Bastila.",
            "Set 3 begins; Bastila starts.",
            "Bastila draws 5.",
        ],
        [],  # the summary
    ]
    assert board.edits[0]["embeds"][0]["footer"]["text"] == (
        "Table 1 · 1 s per turn; 3 timeouts in a row forfeit"
    )
    assert table.channel_texts()[1:] == [
        "Pazaak: Ahsoka vs Bastila · Ahsoka wins\n"
        f"{FORFEIT}\n\n"
        "Set 1: Ahsoka 4–1 Bastila · Ahsoka (higher total)\n"
        "Set 2: Ahsoka 5–9 Bastila · Bastila (higher total)\n"
        "Cards played by Ahsoka: none\n"
        "Cards played by Bastila: none\n"
        "Table 1",
        "**Set 1**: Ahsoka wins, 4 to 1. Sets: Ahsoka 1–0 Bastila.",
        "**Set 2**: Bastila wins, 9 to 5. Sets: Ahsoka 1–1 Bastila.",
        FORFEIT,
    ]
    assert table.hand_dm("A").text == (
        "Your hand: Ahsoka vs Bastila\n"
        "Hand: +4 · +1 · +1 · +5\n\n"
        "The match is over: Ahsoka wins.\n"
        "Table 1"
    )
    assert table.hand_dm("B").text == (
        "Your hand: Bastila vs Ahsoka\n"
        "Hand: +5 · +1 · +1 · +5\n\n"
        "The match is over: Ahsoka wins.\n"
        "Table 1"
    )
    assert (await table.balance("A"), await table.balance("B")) == (1250, 750)


FORFEIT = (
    "**Bastila** let the clock run out 3 turns in a row and forfeits. **Ahsoka** wins the match. "
    "Ahsoka takes the pot: 500 cr."
)


def _lines(version: dict[str, Any]) -> list[str]:
    description = version["embeds"][0].get("description") or ""
    return [line[2:] for line in description.split("\n") if line.startswith("• ")]


async def test_the_player_on_turn_is_warned_before_the_timeout(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    bob = table.users["B"]
    await table.open(wager="10", turn_timeout=61)  # the warning comes 60 s before the end
    await harness.clock.advance(0.999)
    await settle(fake, harness)
    assert len(fake.tavern.messages) == 2  # the challenge and the board: no warning yet

    await harness.clock.advance(0.001)
    warning = await fake.wait_for(
        lambda: len(fake.tavern.messages) == 3 and fake.tavern.messages[2], timeout=5
    )
    await settle(fake, harness)
    assert masked(warning.content) == (
        f"{bob.mention} **Bastila**, your turn ends <t:…:R>; then you stand automatically."
    )
    deadline = (await harness.bot.services.tables.get(1)).deadline
    assert deadline is not None and warning.content.count(f"<t:{deadline // 1000}:R>") == 1
    assert table.channel_texts()[1].startswith(f"{bob.mention} **Bastila** to play.")


async def test_a_gm_closing_the_table_gives_both_wagers_back(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    gm = fake.add_player("Game Master", permissions=MANAGE_GUILD)
    board = await table.open(wager="250 cr")
    await table.play([("B", "end"), ("A", "end")])
    assert (await table.balance("A"), await table.balance("B")) == (750, 750)

    closing = await fake.slash(gm, "table close", table=1)
    await closing.reply()
    await settle(fake, harness, closing)

    assert board.text == (
        "Pazaak: Ahsoka vs Bastila · cancelled\n"
        "A GM closed this table: each wager went back to its purse.\n"
        "Table 1"
    )
    assert board.button_labels == ["History"]
    for who, text in (("A", "Hand: +4 · +1 · +1 · +5"), ("B", "Hand: +5 · +1 · +1 · +5")):
        name, other = ("Ahsoka", "Bastila") if who == "A" else ("Bastila", "Ahsoka")
        assert table.hand_dm(who).text == (
            f"Your hand: {name} vs {other}\n{text}\n\n"
            "A GM closed this table: each wager went back to its purse.\n"
            "Table 1"
        )
        assert table.hand_dm(who).buttons == []
    assert (await table.balance("A"), await table.balance("B")) == (1000, 1000)
    assert await harness.bot.services.tables.seated_at(table.characters["A"].id) == []
