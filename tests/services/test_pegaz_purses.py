"""A Pegaz table follows its players' purses: coins given or spent outside the game count at the
next step, and the ledger and the rules agree on every seat's money all along."""

from __future__ import annotations

import pytest

from bot.rules import pegaz
from bot.rules.common import InsufficientFunds
from bot.services.outcomes import TableOutcome
from tests.services.conftest import ALICE_USER, GM, GUILD, World

S = 12


async def table_with(world: World, coins: dict[str, int]) -> tuple[int, list[int]]:
    ids = []
    created = await world.tables.create(
        "pegaz",
        lambda rng: pegaz.new_table(pegaz.PegazSettings(stake=S)),
        guild_id=GUILD,
        channel_id=1,
        actor_id=GM,
        key="open",
    )
    for n, (name, amount) in enumerate(coins.items()):
        who = await world.characters.create(GUILD, name, owner_id=ALICE_USER + n)
        await world.purses.grant(who.id, "wh", amount, actor_id=GM)
        ids.append(who.id)
        await act(world, created.table_id, pegaz.Join(who.id, False, False, 0, amount), f"j{n}")
    return created.table_id, ids


async def act(world: World, table_id: int, action: object, key: str) -> TableOutcome:
    return await world.tables.act(table_id, action, key=key, expected_version=None, actor_id=GM)


def funds(outcome: TableOutcome) -> dict[int, int]:
    return {seat.player: seat.funds for seat in outcome.state.seats}


async def test_a_grant_during_the_game_saves_a_player_from_the_forced_fold(world: World) -> None:
    table, (ann, bob, _cid) = await table_with(world, {"Ann": 240, "Bob": S, "Cid": 240})
    await world.purses.grant(bob, "wh", 240, actor_id=GM)  # Bob had only the ante

    started = await act(world, table, pegaz.Start(ann), "start")
    assert pegaz.FundsSynced(bob, 240) in started.events
    done = await act(world, table, pegaz.Fold(ann), "fold")

    assert pegaz.TurnStarted(bob, 1, "exchange") in done.events
    assert not any(isinstance(e, pegaz.Folded) and e.player == bob for e in done.events)
    assert funds(done)[bob] == await world.purses.balance(bob, "wh") == 240


async def test_coins_spent_elsewhere_are_not_offered_to_the_game(world: World) -> None:
    table, (ann, bob) = await table_with(world, {"Ann": 240, "Bob": 240})
    await act(world, table, pegaz.Start(ann), "start")
    await world.purses.pay(ann, bob, "wh", 240 - S - 5, actor_id=ALICE_USER)  # Ann keeps 5 p

    with pytest.raises(InsufficientFunds):  # the rules see 5 p, not the purse at Join
        await act(world, table, pegaz.Exchange(ann, (), S), "exchange")
    done = await act(world, table, pegaz.Fold(ann), "fold")

    assert funds(done) == {
        ann: await world.purses.balance(ann, "wh"),
        bob: await world.purses.balance(bob, "wh"),
    }
    assert funds(done) == {ann: 5, bob: 240 - S + (240 - S - 5) + 2 * S}
    audit = await world.purses.audit()
    assert audit.drifted_accounts == () and audit.unbalanced_movements == ()
