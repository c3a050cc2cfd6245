"""Spectators end to end: "Watch" on a table message gives an ephemeral view of the public
board (never a hand, never the turn clock), "Refresh" redraws it, and at a table with the option
``side_bets`` a spectator backs a seat from their own purse and is paid at the game's end."""

from __future__ import annotations

import pytest

from tests.e2e.pazaak_support import seat_two, settle
from tests.e2e.pegaz_kit import GC, S, Tavern, field, hand_of
from tests.fakediscord import BotHarness, FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.interactions import DEFERRED_UPDATE

PICK = "Back a seat with a side bet…"


def cards_of(message: FakeMessage) -> list[str]:
    """A hand DM's cards by name (``🐎 Pegasus``), without the "(new)" marks."""
    return [card.removesuffix(" (new)") for card in hand_of(message)]


async def bet(
    fake: FakeDiscord,
    user: FakeUser,
    watch: FakeMessage,
    seat: int,
    amount: str,
    *,
    placed: bool = True,
) -> FakeMessage:
    """Back ``seat`` from the watch view: the menu, then the dialog; the bot's answer (and,
    once ``placed``, the view redrawn with the bet)."""
    opened = await fake.select(user, watch, [str(seat)], placeholder=PICK)
    await opened.wait_modal()
    edits = len(watch.history)
    submitted = await fake.submit_modal(user, opened, {"amount": amount, "character": ""})
    assert await submitted.ack() == DEFERRED_UPDATE
    answer = await submitted.followup(0)
    if placed:
        await submitted.state.wait_for(lambda: len(watch.history) > edits, what="the view")
    return answer


async def refresh(fake: FakeDiscord, user: FakeUser, watch: FakeMessage) -> FakeMessage:
    handle = await fake.click(user, watch, "Refresh")
    assert await handle.ack() == DEFERRED_UPDATE  # an update of that ephemeral message
    edits = len(watch.history)
    await handle.state.wait_for(lambda: len(watch.history) > edits, what="the refreshed view")
    return watch


@pytest.mark.seed(20)
async def test_a_pegaz_game_with_a_spectator_who_watches_and_wins_a_side_bet(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    alice = await tv.player("Alice")
    bob = await tv.player("Bob")
    carol = await tv.player("Carol", 1 * GC)
    dave = await tv.player("Dave", 1 * GC)
    table = await tv.open(side_bets=True)
    assert "Watch" in table.button_labels
    assert "Side bets: taken until Start" in field(table, "Settings")
    await tv.press(alice.user, table, "Join")
    await tv.press(bob.user, table, "Join")

    watch = await tv.press(carol.user, table, "Watch")
    assert watch.ephemeral and watch.content.startswith("You are watching table #1")
    assert watch.embeds[0]["title"] == table.embeds[0]["title"]
    assert watch.button_labels == ["Refresh"]
    assert [s["placeholder"] for s in watch.selects] == [PICK]
    assert "Dave" not in watch.text  # nothing about another spectator

    done = await bet(fake, carol.user, watch, bob.id, "10 s")
    assert done.ephemeral and done.content == (
        "Carol bets 10 s on Bob at table #1. The stake is held in escrow until the game ends."
    )
    assert await tv.purse(carol) == 1 * GC - 10 * S
    assert "Your bet: 10 s on Bob." in watch.text and "On Bob: 10 s" in watch.text
    dave_view = await tv.press(dave.user, table, "Watch")
    refused = await bet(fake, dave.user, dave_view, alice.id, "2 GC", placed=False)
    assert refused.ephemeral and refused.content == (
        "Not enough in the purse: it holds 1 GC, and this needs 2 GC."
    )
    assert await tv.purse(dave) == 1 * GC
    await bet(fake, dave.user, dave_view, alice.id, "5 s")
    assert "Carol" not in dave_view.text  # the pools, never who placed them

    # A seated player gets the same public view, without the side bets' menu.
    seated = await tv.press(alice.user, table, "Watch")
    assert seated.ephemeral and seated.selects == [] and seated.button_labels == ["Refresh"]

    await tv.press(tv.gm, table, "Start")
    hands = cards_of(tv.hand_dm(alice)) + cards_of(tv.hand_dm(bob))
    assert hands
    await refresh(fake, carol.user, watch)
    assert "Round 1 of 2" in watch.text and "Bets are closed" in watch.text
    assert watch.selects == []
    assert not any(card in watch.text for card in hands)  # never a hand before it is revealed
    assert "<t:" in table.text and "<t:" not in watch.text  # no turn clock for spectators

    # Alice folds; Bob takes the pot and keeps the offering: the table finishes, bets settle.
    await tv.press(alice.user, table, "Fold")
    await tv.press(bob.user, table, "Keep it all")
    assert (
        field(table, "Side bets") == "Side bets (15 s): Bob won, and their backers share the pool."
    )
    assert await tv.purse(carol) == 1 * GC + 5 * S  # her 10 s back and Dave's 5 s
    assert await tv.purse(dave) == 1 * GC - 5 * S
    await tv.books_balance(table_id=1, pot=0)
    await refresh(fake, carol.user, watch)
    assert watch.content == "Table #1 is over." and watch.components == []


async def test_a_seated_player_and_a_closed_table_refuse_side_bets(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    alice = await tv.player("Alice")
    bob = await tv.player("Bob")
    carol = await tv.player("Carol")
    table = await tv.open(side_bets=True)
    await tv.press(alice.user, table, "Join")
    await tv.press(bob.user, table, "Join")
    watch = await tv.press(carol.user, table, "Watch")
    await tv.press(tv.gm, table, "Start")
    late = await fake.select(carol.user, watch, [str(alice.id)], placeholder=PICK)
    refused = await late.reply()
    assert refused.ephemeral and refused.content.startswith("Side bets at table #1 are closed")
    await tv.press(tv.gm, table, "Cancel game")
    assert await tv.purse(carol) == 1 * GC


async def test_a_table_without_the_option_shows_no_bets(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    carol = await tv.player("Carol")
    table = await tv.open()
    watch = await tv.press(carol.user, table, "Watch")
    assert watch.selects == [] and "Side bets" not in watch.text


async def test_a_pazaak_watch_shows_the_public_board(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    match = await seat_two(fake, harness)
    board = await match.open(side_bets=True)
    assert "Watch" in board.button_labels
    spectator = fake.add_player("Spectator")
    watch_button = next(b for b in board.buttons if b["custom_id"].endswith(":watch"))
    handle = await fake.click(spectator, board, custom_id=watch_button["custom_id"])
    assert await handle.ack() == DEFERRED_UPDATE
    watch = await handle.followup(0)
    await settle(fake, harness, handle)
    assert watch.ephemeral and watch.content.startswith("You are watching table #")
    shown = dict(watch.embeds[0])
    public = dict(board.embeds[0])
    fields = [f for f in shown.pop("fields") if f["name"] != "Side bets"]
    assert fields == public.pop("fields") and shown == public  # the board, as the channel sees it
    for who in ("A", "B"):  # nothing of either hand
        hand = match.hand_dm(who)
        assert not any(f"[{label}]" in watch.text for label in hand.button_labels)
    assert "Bets are open" in watch.text and [s["placeholder"] for s in watch.selects] == [PICK]
    assert "Refresh" in watch.button_labels
    await refresh(fake, spectator, watch)
    assert watch.embeds[0]["title"] == board.embeds[0]["title"]


async def test_a_pazaak_side_bet_is_paid_when_the_match_ends(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    match = await seat_two(fake, harness)
    board = await match.open(side_bets=True)
    assert "side bets" in board.embeds[0]["footer"]["text"]
    services = harness.bot.services
    spectator = fake.add_player("Spectator")
    wedge = await services.characters.create(fake.guild.id, "Wedge", owner_id=spectator.id)
    await services.purses.grant(wedge.id, "cr", 300, actor_id=fake.owner.id)
    watch_button = next(b for b in board.buttons if b["custom_id"].endswith(":watch"))
    handle = await fake.click(spectator, board, custom_id=watch_button["custom_id"])
    watch = await handle.followup(0)
    bastila = match.characters["B"]
    done = await bet(fake, spectator, watch, bastila.id, "200 cr")
    assert done.content.startswith("Wedge bets 200 cr on Bastila")
    assert await services.purses.balance(wedge.id, "cr") == 100
    other = fake.add_player("Other")
    luke = await services.characters.create(fake.guild.id, "Luke", owner_id=other.id)
    await services.purses.grant(luke.id, "cr", 300, actor_id=fake.owner.id)
    handle = await fake.click(other, board, custom_id=watch_button["custom_id"])
    await bet(fake, other, await handle.followup(0), match.characters["A"].id, "50 cr")

    await match.move(("B", "end"))  # the first move closes the bets
    await refresh(fake, spectator, watch)
    assert "Bets are closed" in watch.text and watch.selects == []

    asked = await fake.click(match.users["A"], board, "Forfeit")
    confirm = await asked.reply()
    finished = await fake.click(match.users["A"], confirm, "Yes, forfeit")
    await settle(fake, harness, finished)
    assert await services.purses.balance(wedge.id, "cr") == 350  # 200 back and Luke's 50
    assert await services.purses.balance(luke.id, "cr") == 250
    assert "Side bets (250 cr): Bastila won" in board.text
    audit = await services.purses.audit()
    assert audit.unbalanced_movements == () and audit.drifted_accounts == ()
