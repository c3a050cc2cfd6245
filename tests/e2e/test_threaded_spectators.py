"""The whole visual table at once: a Pegaz game that talks in its own thread, watched by a
spectator who backs a seat with a side bet and is paid when the game ends."""

from __future__ import annotations

import pytest

from tests.e2e.pegaz_kit import GC, S, Tavern, field
from tests.e2e.test_spectators import bet, cards_of, refresh
from tests.e2e.test_table_threads import only_thread, talk
from tests.fakediscord import BotHarness, FakeDiscord


@pytest.mark.seed(20)
async def test_a_pegaz_game_in_a_thread_with_a_spectator_and_a_side_bet_settled(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    alice, bob = await tv.player("Alice"), await tv.player("Bob")
    carol = await tv.player("Carol", 1 * GC)
    table = await tv.open(side_bets=True, thread=True)
    thread = only_thread(fake, table)
    await tv.press(alice.user, table, "Join")
    await tv.press(bob.user, table, "Join")

    watch = await tv.press(carol.user, table, "Watch")  # in the channel, on the table message
    assert watch.ephemeral and watch.channel is fake.tavern
    await bet(fake, carol.user, watch, bob.id, "10 s")
    assert await tv.purse(carol) == 1 * GC - 10 * S  # in escrow

    await tv.press(tv.gm, table, "Start")
    hands = cards_of(tv.hand_dm(alice)) + cards_of(tv.hand_dm(bob))
    await refresh(fake, carol.user, watch)
    assert hands and not any(card in watch.text for card in hands)
    await tv.press(alice.user, table, "Fold")
    await tv.press(bob.user, table, "Keep it all")
    await fake.state.wait_for(lambda: thread.archived, what="the thread archived")

    assert field(table, "Side bets") == (
        "Side bets (10 s): Bob won, and their backers share the pool."
    )
    assert await tv.purse(carol) == 1 * GC  # her stake back: she alone backed the winner
    await tv.books_balance(table_id=1, pot=0)
    said = talk(thread)
    assert any("Alice" in line and "fold" in line.lower() for line in said), said
    assert talk(fake.tavern) == []  # the table's talk stayed in its thread
    assert not any(card in line for card in hands for line in said + talk(fake.tavern))
