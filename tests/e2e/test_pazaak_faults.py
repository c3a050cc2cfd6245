"""When Discord refuses a request or the bot stops half-way: a saved move is never reported as a
failure, a stuck board heals (on the next click, at startup, or when the publisher tries again),
escrowed wagers always get exactly one board, and a late outcome never overwrites newer hands."""

from __future__ import annotations

import asyncio
import dataclasses

from bot.rules import pazaak
from bot.rules.pazaak import HAND_SIZE
from bot.services.challenges import table_key
from tests.e2e.pazaak_support import (
    Table,
    code_of,
    hand_version,
    moves_log,
    refusal,
    seat_two,
    settle,
)
from tests.fakediscord import BotHarness, FakeDiscord, FakeMessage

POST = "POST /channels/{channel_id}/messages"
STALE = "That button is out of date: the table has moved on. Nothing was changed."
ACCEPTED = "**Bastila** accepted **Ahsoka**'s challenge (250 cr each). The board is below."
BOARD_LATE = (
    "The match is open and both wagers are held, but I could not post the board yet. "
    "I will post it as soon as Discord lets me."
)
AFTER_BOB = ["Bastila ends the turn.", "Ahsoka draws 4."]  # seed 1234: Bastila starts


def refuse(fake: FakeDiscord, route: str) -> None:
    fake.fail(route, status=403, code=50013, message="Missing Access")


def refuse_edits(fake: FakeDiscord, message: FakeMessage) -> None:
    """Discord refuses to edit the message, whichever way the bot asks (the click's token, then
    the channel route): not a message that is gone, so the bot keeps it and tries again."""
    fake.fail_message(message.id, status=400, code=50035, count=2, message="Invalid Form Body")


def versions(message: FakeMessage) -> set[str]:
    """The table versions the message's move buttons (End turn, Stand) carry."""
    ids = [b["custom_id"] for b in message.buttons]
    return {i.split(":")[2] for i in ids if i.endswith((":end", ":stand"))}


def hand_versions(message: FakeMessage) -> set[str]:
    """How many cards were played from the hand the message's card buttons were drawn for, by
    the versions they carry: each must be the version of the very hand the buttons show (else
    the version itself is returned, as "stale:<version>")."""
    cards = [b for b in message.buttons if ":card:" in b["custom_id"]]
    expected = hand_version(*(code_of(b["label"]) for b in cards))
    found = {int(b["custom_id"].split(":")[2]) for b in cards}
    return {str(HAND_SIZE - len(cards)) if v == expected else f"stale:{v}" for v in found}


def boards(fake: FakeDiscord) -> list[FakeMessage]:
    return [m for m in fake.tavern.messages if m.embeds]


async def bob_ends_the_turn_on_a_board_discord_will_not_edit(
    fake: FakeDiscord, harness: BotHarness, table: Table
) -> FakeMessage:
    board = table.board
    assert board is not None
    opening = moves_log(board)
    refuse_edits(fake, board)
    await table.move(("B", "end"))

    # The move is saved and nobody is told otherwise; only the board stayed behind.
    assert (await table.services.tables.get(1)).version == 2
    assert [m for m in fake.ephemeral(table.users["B"]) if not m.embeds] == []
    assert moves_log(board) == opening and board.history == [] and versions(board) == {"1"}
    # The hands need no redraw for a turn: Ahsoka may play from her DM as it was sent.
    hand = table.hand_dm("A")
    assert hand_versions(hand) == {"0"} and hand.history == []
    assert [b.get("disabled", False) for b in hand.buttons] == [False] * 4
    return board


async def test_a_refused_board_edit_keeps_the_move_and_a_stale_hand_click_heals_the_board(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    alice, bob = table.users["A"], table.users["B"]
    await table.open(wager="250 cr")
    old_hand = await table.show_hand("B")  # at version 1
    board = await bob_ends_the_turn_on_a_board_discord_will_not_edit(fake, harness, table)
    assert [m.text for m in fake.ephemeral(bob)] == [old_hand.text]

    late = await fake.click(bob, old_hand, "End turn")
    assert (await refusal(late)).text == STALE
    await settle(fake, harness, late)

    assert moves_log(board) == AFTER_BOB and versions(board) == {"2"}
    assert board.content == f"{alice.mention} **Ahsoka** to play."
    await table.move(("A", "end"))  # from the healed board
    assert moves_log(board) == ["Ahsoka ends the turn.", "Bastila draws 9."]
    assert fake.ephemeral(alice) == []
    assert (await table.balance("A"), await table.balance("B")) == (750, 750)


async def test_a_stuck_board_is_healed_when_the_publisher_tries_again(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    await table.open(wager="250 cr")
    board = await bob_ends_the_turn_on_a_board_discord_will_not_edit(fake, harness, table)
    await harness.clock.advance(1.999)  # the publisher tries again after 2 s
    await settle(fake, harness)
    assert versions(board) == {"1"}

    await harness.clock.advance(0.001)
    await fake.wait_for(lambda: versions(board) == {"2"}, timeout=5, what="the retried edit")
    await settle(fake, harness)
    assert moves_log(board) == AFTER_BOB and len(board.history) == 1
    assert len(boards(fake)) == 1


async def test_after_a_restart_a_stuck_board_is_redrawn_before_any_click(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    bob = table.users["B"]
    await table.open(wager="250 cr")
    board = await bob_ends_the_turn_on_a_board_discord_will_not_edit(fake, harness, table)
    await harness.restart()
    await settle(fake, harness)

    # redrawn at version 2, with the step's log (the events are kept with the table)
    assert versions(board) == {"2"} and len(board.history) == 1 and moves_log(board) == AFTER_BOB
    assert board.content == f"{table.users['A'].mention} **Ahsoka** to play."
    assert fake.ephemeral(bob) == [] and len(boards(fake)) == 1
    await table.move(("A", "end"))
    assert moves_log(board) == ["Ahsoka ends the turn.", "Bastila draws 9."]


async def test_a_refused_result_announcement_still_finishes_the_match(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    bob = table.users["B"]
    board = await table.open(wager="100")
    refuse(fake, POST)  # the match result is not announced
    forfeit = await fake.click(bob, board, "Forfeit")
    confirm = await forfeit.reply()
    await settle(fake, harness, forfeit)
    yes = await fake.click(bob, confirm, custom_id=confirm.buttons[0]["custom_id"])
    await settle(fake, harness, yes)

    assert [m.text for m in fake.ephemeral(bob)][-1] == "**Bastila** has forfeited."
    assert board.button_labels == ["History"] and "Ahsoka wins" in board.embeds[0]["title"]
    assert table.hand_dm("B").buttons == []
    assert (await table.balance("A"), await table.balance("B")) == (1100, 900)


async def accept_with_the_board_refused(fake: FakeDiscord, table: Table) -> FakeMessage:
    """Bob accepts; Discord refuses the board (not the hand DMs)."""
    challenge = await table.send_challenge(wager="250 cr")
    refuse(fake, POST)  # the board
    first = await fake.click(table.users["B"], challenge, "Accept")
    await settle(fake, table.harness, first)

    assert challenge.content == ACCEPTED and challenge.buttons == []
    assert [m.text for m in fake.ephemeral(table.users["B"])] == [BOARD_LATE]
    assert boards(fake) == []
    assert [len(fake.dms(table.users["A"])), len(fake.dms(table.users["B"]))] == [1, 1]
    assert (await table.balance("A"), await table.balance("B")) == (750, 750)
    return challenge


async def test_accept_whose_board_cannot_be_posted_gets_it_when_the_publisher_tries_again(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    alice, bob = table.users["A"], table.users["B"]
    await accept_with_the_board_refused(fake, table)
    await harness.clock.advance(2)  # the publisher tries again after 2 s

    await fake.wait_for(lambda: boards(fake), timeout=5, what="the board, posted again")
    await settle(fake, harness)

    found = boards(fake)
    assert len(found) == 1 and versions(found[0]) == {"1"}
    assert (await harness.bot.services.surfaces.marks(1)).message_id == found[0].id
    assert [len(fake.dms(alice)), len(fake.dms(bob))] == [1, 1]
    assert [m.text for m in fake.ephemeral(bob)] == [BOARD_LATE]
    assert (await table.balance("A"), await table.balance("B")) == (750, 750)


async def test_accept_whose_board_cannot_be_posted_gets_it_with_the_next_move(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    alice, bob = table.users["A"], table.users["B"]
    await accept_with_the_board_refused(fake, table)

    hand = table.hand_dm("B")  # Bastila starts: she plays a card from her DM
    card = hand.buttons[0]
    await settle(fake, harness, await fake.click(bob, hand, custom_id=card["custom_id"]))

    found = boards(fake)
    assert len(found) == 1 and versions(found[0]) == {"2"}
    assert moves_log(found[0]) == [f"Bastila plays {card['label']}."]
    assert hand_versions(hand) == {"1"} and len(hand.buttons) == 3
    assert [len(fake.dms(alice)), len(fake.dms(bob))] == [1, 1]
    assert [m.text for m in fake.ephemeral(bob)] == [BOARD_LATE]


async def accept_behind_the_bots_back(table: Table) -> pazaak.PazaakState:
    """The Accept's transaction (the table opened, the challenge accepted), as if the bot
    stopped right after the commit: before the challenge message or the board was drawn."""
    services = table.services
    a, b = table.characters["A"], table.characters["B"]
    cards = (
        await services.characters.match_selection(a.id),
        await services.characters.match_selection(b.id),
    )
    settings = pazaak.PazaakSettings(wager=250, turn_timeout=300)
    assert table.challenge_id is not None
    outcome = await services.challenges.accept(
        table.challenge_id,
        lambda rng: pazaak.new_match(settings, a.id, cards[0], b.id, cards[1], rng),
        actor_id=table.users["B"].id,
    )
    state: pazaak.PazaakState = outcome.state
    return state


async def test_a_challenge_accepted_before_a_crash_heals_at_startup_with_no_click(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    alice, bob = table.users["A"], table.users["B"]
    challenge = await table.send_challenge(wager="250 cr")
    await accept_behind_the_bots_back(table)
    await harness.restart()
    await settle(fake, harness)

    assert challenge.content == ACCEPTED and challenge.buttons == []
    found = boards(fake)
    assert len(found) == 1 and versions(found[0]) == {"1"}
    assert [len(fake.dms(alice)), len(fake.dms(bob))] == [1, 1]
    assert fake.ephemeral(bob) == []
    assert (await table.balance("A"), await table.balance("B")) == (750, 750)

    table.board = found[0]
    await table.move(("B", "end"))
    assert moves_log(found[0]) == AFTER_BOB


async def test_a_late_older_outcome_does_not_overwrite_newer_hands(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    board = await table.open(wager="250 cr")
    assert table.challenge_id is not None
    # the outcome of the opening step (version 1), as a slow timer might deliver it late
    services = table.services
    opening = await services.tables.create(
        pazaak.GAME,
        lambda rng: (_ for _ in ()).throw(AssertionError("not a repeat")),
        guild_id=fake.guild.id,
        channel_id=fake.tavern.id,
        actor_id=table.users["B"].id,
        key=table_key(table.challenge_id),
    )
    assert opening.repeated and opening.version == 1
    await table.play([("B", "card", 0), ("B", "end")])
    hands = {who: table.hand_dm(who) for who in "AB"}
    shown = {who: (len(hand.history), hand.text) for who, hand in hands.items()}

    harness.bot.dispatch("table_outcome", dataclasses.replace(opening, repeated=False))
    await asyncio.sleep(0)  # the listener starts
    await settle(fake, harness)

    assert {who: (len(hand.history), hand.text) for who, hand in hands.items()} == shown
    assert hand_versions(hands["A"]) == {"0"} and hand_versions(hands["B"]) == {"1"}
    assert versions(board) == {"3"}
    assert moves_log(board) == AFTER_BOB
