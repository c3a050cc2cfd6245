"""Whole games through the services, with moves picked from ``legal_actions`` by a seeded RNG;
then the database is closed and reopened: the restored tables equal the live ones, and the
ledger balances (entries sum to zero, purses + pots + offerings = what the GM granted)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.rules import pazaak, pegaz
from bot.services.errors import AlreadyInMatch
from bot.services.outcomes import TableOutcome
from tests.services.conftest import GM, GUILD, World


async def balanced(world: World, granted: dict[str, int]) -> None:
    audit = await world.purses.audit()
    assert audit.entries_total == 0
    assert audit.unbalanced_movements == ()
    assert audit.drifted_accounts == ()
    assert all(total == 0 for total in audit.balances_by_currency.values())
    async with world.db.read() as tx:
        rows = await tx.fetchall(
            "SELECT currency, SUM(balance) FROM accounts WHERE kind <> 'world' GROUP BY currency"
        )
    assert {c: s for c, s in rows if s} == granted


async def play(
    world: World, outcome: TableOutcome, rng: random.Random, choose: Any, *, timeouts: int = 0
) -> tuple[TableOutcome, int]:
    """Play until the table closes; every ``timeouts``-th step lets the turn timer fire instead."""
    spec = world.tables_games[outcome.game]
    steps = 0
    while outcome.status not in ("finished", "cancelled"):
        steps += 1
        assert steps < 3000, "the game should end"
        if timeouts and steps % timeouts == 0 and outcome.deadline is not None:
            world.clock.now = outcome.deadline
            fired = await world.tables.fire_timeout(outcome.table_id, outcome.version)
            assert fired is not None
            outcome = fired
        else:
            action = choose(rng, spec.rules.legal_actions(outcome.state))
            outcome = await world.tables.act(
                outcome.table_id,
                action,
                key=f"{outcome.table_id}:{steps}",
                expected_version=outcome.version,
                actor_id=None,
            )
            world.clock.now += 1000
        assert await world.tables.pot_balance(outcome.table_id) == spec.pot(outcome.state)
    return outcome, steps


def pegaz_choice(rng: random.Random, actions: list[Any]) -> Any:
    starts = [a for a in actions if isinstance(a, pegaz.Start)]
    if starts:
        return starts[0]
    return rng.choice(actions)


def pazaak_choice(rng: random.Random, actions: list[Any]) -> Any:
    if rng.random() < 0.98:
        actions = [a for a in actions if not isinstance(a, pazaak.Forfeit)]
    return rng.choice(actions)


async def pegaz_table(world: World, players: list[int], key: str) -> TableOutcome:
    settings = pegaz.PegazSettings(stake=12, exchanges=3, raise_limit=6, source="deck")
    outcome = await world.tables.create(
        "pegaz",
        lambda rng: pegaz.new_table(settings),
        guild_id=GUILD,
        channel_id=7,
        actor_id=GM,
        key=key,
    )
    for player in players:
        who = await world.characters.get(player)
        funds = await world.purses.balance(player, "wh")
        join = pegaz.Join(player, who.luck, who.gamble, who.perception, funds)
        outcome = await world.tables.act(
            outcome.table_id,
            join,
            key=f"{key}:join:{player}",
            expected_version=outcome.version,
            actor_id=who.owner_id,
        )
    return outcome


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_a_full_pegaz_game_then_a_restart(world: World, seed: int) -> None:
    rng = random.Random(seed)
    traits = [(True, False, 40), (False, True, 60), (True, True, 30), (False, False, 80)]
    players = []
    for n, (luck, gamble, perception) in enumerate(traits):
        who = await world.characters.create(
            GUILD, f"Player {n}", owner_id=100 + n, luck=luck, gamble=gamble, perception=perception
        )
        await world.purses.grant(who.id, "wh", 2400, actor_id=GM)
        players.append(who.id)
    done, steps = await play(
        world, await pegaz_table(world, players, "a"), rng, pegaz_choice, timeouts=7
    )
    assert steps > 3 and done.state.phase is pegaz.Phase.FINISHED
    # a second table left half-played, to be restored
    live = await pegaz_table(world, players[:3], "b")
    live = await world.tables.act(
        live.table_id,
        pegaz.Start(players[0]),
        key="b:start",
        expected_version=live.version,
        actor_id=100,
    )
    before = await world.tables.get(live.table_id)
    await world.reopen()
    assert await world.tables.restore() == [before]
    assert (await world.tables.get(done.table_id)).state == done.state
    await balanced(world, {"wh": 4 * 2400})
    offered = await world.purses.audit()
    assert offered.balances_by_currency["wh"] == 0
    # finishing the restored table after the restart keeps the books right
    finished, _ = await play(world, live, rng, pegaz_choice)
    assert finished.state == (await world.tables.get(live.table_id)).state
    await balanced(world, {"wh": 4 * 2400})


@pytest.mark.parametrize("seed", [1, 2])
async def test_a_full_pazaak_match_then_a_restart(world: World, seed: int) -> None:
    rng = random.Random(seed)
    a = await world.characters.create(GUILD, "Revan", owner_id=201)
    b = await world.characters.create(GUILD, "Bastila", owner_id=202)
    c = await world.characters.create(GUILD, "Carth", owner_id=203)
    for who in (a, b, c):
        await world.purses.grant(who.id, "cr", 1000, actor_id=GM)
    settings = pazaak.PazaakSettings(wager=150)
    sel_a = await world.characters.match_selection(a.id)
    sel_b = await world.characters.match_selection(b.id)
    start = await world.tables.create(
        "pazaak",
        lambda r: pazaak.new_match(settings, a.id, sel_a, b.id, sel_b, r),
        guild_id=GUILD,
        channel_id=8,
        actor_id=201,
        key="m",
    )
    assert start.version == 1 and start.status == "running"
    assert {t.source for t in start.transfers} == {a.id, b.id}
    assert await world.tables.pot_balance(start.table_id) == 300
    with pytest.raises(AlreadyInMatch):
        await world.tables.create(
            "pazaak",
            lambda r: pazaak.new_match(settings, c.id, sel_a, a.id, sel_b, r),
            guild_id=GUILD,
            channel_id=8,
            actor_id=203,
            key="m2",
        )
    assert await world.purses.balance(c.id, "cr") == 1000
    middle = await world.tables.get(start.table_id)
    await world.reopen()
    assert await world.tables.restore() == [middle]
    done, _ = await play(world, start, rng, pazaak_choice, timeouts=11)
    winner = done.state.winner
    assert winner in (a.id, b.id)
    assert await world.purses.balance(winner, "cr") == 1150
    assert await world.tables.seated_at(a.id) == []
    await world.reopen()
    assert await world.tables.restore() == []
    assert (await world.tables.get(done.table_id)).state == done.state
    await balanced(world, {"cr": 3000})
