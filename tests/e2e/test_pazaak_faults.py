"""When Discord refuses a request or the bot stops half-way: a saved move is never reported as a
failure, a stuck board heals on the next click, escrowed wagers always get their board, and a
late outcome never overwrites newer hands."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from bot.rules import pazaak
from tests.e2e.pazaak_support import Table, flow, moves_log, seat_two, settle
from tests.fakediscord import BotHarness, FakeDiscord, FakeMessage

EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
POST = "POST /channels/{channel_id}/messages"
STALE = "That button is out of date: the table has moved on. Nothing was changed."
ACCEPTED = "**Bastila** accepted **Ahsoka**'s challenge (250 cr each). The board is below."
BOARD_FAILED = (
    "The match is open and both wagers are held, but I could not post the board. "
    "Press Accept again to post it."
)
ANSWERED = "This challenge was already answered."
AFTER_BOB = ["Bastila ends the turn.", "Ahsoka draws 4."]  # seed 1234: Bastila starts


def refuse(fake: FakeDiscord, route: str) -> None:
    fake.fail(route, status=403, code=50013, message="Missing Access")


def versions(message: FakeMessage) -> set[str]:
    """The table versions the message's move buttons carry."""
    ids = [b["custom_id"] for b in message.buttons]
    return {i.split(":")[2] for i in ids if i.endswith((":end", ":stand")) or ":c" in i}


async def bob_ends_the_turn_on_a_board_discord_will_not_edit(
    fake: FakeDiscord, harness: BotHarness, table: Table
) -> FakeMessage:
    board = table.board
    assert board is not None
    opening = moves_log(board)
    refuse(fake, EDIT)
    await table.move(("B", "end"))

    # The move is saved and nobody is told otherwise; only the board stayed behind.
    assert (await table.services.tables.get(1)).version == 2
    assert [m for m in fake.ephemeral(table.users["B"]) if not m.embeds] == []
    assert moves_log(board) == opening and board.history == [] and versions(board) == {"1"}
    # The hands were refreshed all the same: Ahsoka may play from her DM.
    hand = table.hand_dm("A")
    assert versions(hand) == {"2"}
    assert [b.get("disabled", False) for b in hand.buttons][-2:] == [False, False]
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
    assert (await late.reply()).text == STALE
    await settle(fake, harness, late)

    assert moves_log(board) == AFTER_BOB and versions(board) == {"2"}
    assert board.content == f"{alice.mention} **Ahsoka** to play."
    await table.move(("A", "end"))  # from the healed board
    assert moves_log(board) == ["Ahsoka ends the turn.", "Bastila draws 9."]
    assert fake.ephemeral(alice) == []
    assert (await table.balance("A"), await table.balance("B")) == (750, 750)


async def test_after_a_restart_a_stale_click_on_a_stuck_board_redraws_it(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    bob = table.users["B"]
    await table.open(wager="250 cr")
    board = await bob_ends_the_turn_on_a_board_discord_will_not_edit(fake, harness, table)
    await harness.restart()

    late = await fake.click(bob, board, "Stand")  # still shows version 1
    await settle(fake, harness, late)
    assert [m.text for m in fake.ephemeral(bob)] == [STALE]

    # redrawn at version 2 (the step's log was not kept across the restart)
    assert versions(board) == {"2"} and len(board.history) == 1 and moves_log(board) == []
    assert board.content == f"{table.users['A'].mention} **Ahsoka** to play."
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
    assert board.buttons == [] and "Ahsoka wins" in board.embeds[0]["title"]
    assert table.hand_dm("B").buttons == []
    assert (await table.balance("A"), await table.balance("B")) == (1100, 900)


async def test_accept_whose_board_cannot_be_posted_keeps_the_challenge_open_to_retry(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    alice, bob = table.users["A"], table.users["B"]
    challenge = await table.send_challenge(wager="250 cr")
    offered = challenge.content
    refuse(fake, POST)  # the board

    first = await fake.click(bob, challenge, "Accept")
    assert (await first.reply()).text == BOARD_FAILED
    await settle(fake, harness, first)

    assert challenge.content == offered and challenge.button_labels == ["Accept", "Decline"]
    assert [m for m in fake.tavern.messages if m.embeds] == []
    assert (await table.balance("A"), await table.balance("B")) == (750, 750)

    again = await fake.click(bob, challenge, "Accept")
    await settle(fake, harness, again)

    assert challenge.content == ACCEPTED and challenge.buttons == []
    boards = [m for m in fake.tavern.messages if m.embeds]
    assert len(boards) == 1 and versions(boards[0]) == {"1"}
    assert (await harness.bot.services.tables.get(1)).message_id == boards[0].id
    assert [len(fake.dms(alice)), len(fake.dms(bob))] == [1, 1]
    assert [m.text for m in fake.ephemeral(bob)] == [BOARD_FAILED]
    assert (await table.balance("A"), await table.balance("B")) == (750, 750)


async def open_behind_the_bots_back(table: Table, challenge: FakeMessage) -> pazaak.PazaakState:
    """The table the Accept opens, as if the bot stopped right after the commit."""
    services = table.services
    a, b = table.characters["A"], table.characters["B"]
    cards = (
        await services.characters.match_selection(a.id),
        await services.characters.match_selection(b.id),
    )
    settings = pazaak.PazaakSettings(wager=250, turn_timeout=300)
    outcome = await services.tables.create(
        pazaak.GAME,
        lambda rng: pazaak.new_match(settings, a.id, cards[0], b.id, cards[1], rng),
        guild_id=table.fake.guild.id,
        channel_id=table.fake.tavern.id,
        actor_id=table.users["B"].id,
        key=f"pazaak:challenge:{challenge.id}",
    )
    state: pazaak.PazaakState = outcome.state
    return state


@pytest.mark.parametrize("label", ["Accept", "Decline"])
async def test_a_table_opened_before_a_crash_counts_as_accepted(
    fake: FakeDiscord, harness: BotHarness, label: str
) -> None:
    table = await seat_two(fake, harness)
    alice, bob = table.users["A"], table.users["B"]
    challenge = await table.send_challenge(wager="250 cr")
    await open_behind_the_bots_back(table, challenge)
    await harness.restart()

    click = await fake.click(bob, challenge, label)
    await settle(fake, harness, click)

    assert challenge.content == ACCEPTED and challenge.buttons == []
    boards = [m for m in fake.tavern.messages if m.embeds]
    assert len(boards) == 1 and versions(boards[0]) == {"1"}
    assert [len(fake.dms(alice)), len(fake.dms(bob))] == [1, 1]
    answers = [m.text for m in fake.ephemeral(bob)]
    assert answers == ([] if label == "Accept" else [ANSWERED])
    assert (await table.balance("A"), await table.balance("B")) == (750, 750)

    table.board = boards[0]
    await table.move(("B", "end"))
    assert moves_log(boards[0]) == AFTER_BOB


async def test_a_late_older_outcome_does_not_overwrite_newer_hands(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    board = await table.open(wager="250 cr")
    assert table.challenge is not None
    # the outcome of the opening step (version 1), as a slow timer might deliver it late
    services = table.services
    opening = await services.tables.create(
        pazaak.GAME,
        lambda rng: (_ for _ in ()).throw(AssertionError("not a repeat")),
        guild_id=fake.guild.id,
        channel_id=fake.tavern.id,
        actor_id=table.users["B"].id,
        key=f"pazaak:challenge:{table.challenge.id}",
    )
    assert opening.repeated and opening.version == 1
    await table.move(("B", "end"))
    hands = {who: table.hand_dm(who) for who in "AB"}
    shown = {who: (len(hand.history), hand.text) for who, hand in hands.items()}

    harness.bot.dispatch("table_outcome", dataclasses.replace(opening, repeated=False))
    await asyncio.sleep(0)  # the listener starts
    await settle(fake, harness)

    assert {who: (len(hand.history), hand.text) for who, hand in hands.items()} == shown
    assert versions(hands["A"]) == {"2"} and versions(board) == {"2"}
    assert moves_log(board) == AFTER_BOB
    assert flow(harness).busy == 0
