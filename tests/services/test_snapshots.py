"""Snapshots: a cache of live states. Restoring from them equals a full replay equals the live
table; a snapshot from other code, or damaged, is ignored; a closed table keeps none."""

from __future__ import annotations

import random

from bot.rules import pazaak
from bot.services.outcomes import TableOutcome
from tests.services.conftest import GM, GUILD, World
from tests.services.test_full_games import pazaak_choice

SNAPSHOT_EVERY = 8  # only to size the histories below


async def half_played_match(world: World, steps: int) -> TableOutcome:
    a = await world.characters.create(GUILD, "Revan", owner_id=201)
    b = await world.characters.create(GUILD, "Bastila", owner_id=202)
    for who in (a, b):
        await world.purses.grant(who.id, "cr", 500, actor_id=GM)
    settings = pazaak.PazaakSettings(wager=20, sets_to_win=50)
    sel = pazaak.STARTER_COLLECTION
    outcome = await world.tables.create(
        "pazaak",
        lambda r: pazaak.new_match(settings, a.id, sel, b.id, sel, r),
        guild_id=GUILD,
        channel_id=1,
        actor_id=201,
        key="m",
    )
    rng = random.Random(3)
    for n in range(steps):
        action = pazaak_choice(rng, pazaak.legal_actions(outcome.state))
        if isinstance(action, pazaak.Forfeit):
            action = pazaak.EndTurn(action.player)
        outcome = await world.tables.act(
            outcome.table_id, action, key=n, expected_version=outcome.version, actor_id=None
        )
    return outcome


async def snapshot_row(world: World, table_id: int) -> tuple[int, int] | None:
    async with world.db.read() as tx:
        row = await tx.fetchone(
            "SELECT version, next_seq FROM table_snapshots WHERE table_id = ?", (table_id,)
        )
    return None if row is None else (row[0], row[1])


async def test_restoring_from_snapshots_equals_a_full_replay_and_the_live_table(
    world: World,
) -> None:
    outcome = await half_played_match(world, 3 * SNAPSHOT_EVERY + 3)
    live = await world.tables.get(outcome.table_id)
    assert live.version == 3 * SNAPSHOT_EVERY + 4
    assert await snapshot_row(world, outcome.table_id) == (
        live.version,
        outcome.state and await event_count(world, live.table_id),
    )
    await world.reopen()
    assert await world.tables.restore() == [live]
    assert await world.tables.restore(snapshots=False) == [live]
    await world.reopen()  # a cold cache loads through the snapshot too
    assert await world.tables.get(outcome.table_id) == live
    # and the table plays on from the restored state
    action = pazaak.legal_actions(live.state)[-2]  # Stand
    after = await world.tables.act(
        outcome.table_id, action, key="on", expected_version=live.version, actor_id=None
    )
    assert after.version == live.version + 1


async def event_count(world: World, table_id: int) -> int:
    async with world.db.read() as tx:
        return int(
            await tx.fetchval("SELECT count(*) FROM table_events WHERE table_id = ?", (table_id,))
        )


async def test_a_stale_foreign_or_damaged_snapshot_is_ignored(world: World) -> None:
    outcome = await half_played_match(world, 2 * SNAPSHOT_EVERY)
    live = await world.tables.get(outcome.table_id)
    async with world.db.transaction() as tx:
        old = await tx.fetchone("SELECT data FROM table_snapshots")
        assert old is not None
    await half_played_match_step(world, outcome.table_id, live.version)
    live = await world.tables.get(outcome.table_id)
    for change in (
        ("UPDATE table_snapshots SET data = ?, version = version - 1", (old[0],)),
        ("UPDATE table_snapshots SET format = 'pazaak:0:old'", ()),
        ("UPDATE table_snapshots SET data = ?", (b"{}",)),  # unreadable in that format
    ):
        async with world.db.transaction() as tx:
            await tx.execute(*change)
        await world.reopen()
        assert await world.tables.restore() == [live]
        await world.reopen()
        assert await world.tables.get(outcome.table_id) == live


async def half_played_match_step(world: World, table_id: int, version: int) -> None:
    view = await world.tables.get(table_id)
    action = pazaak.EndTurn(view.state.current_player)
    await world.tables.act(table_id, action, key="step", expected_version=version, actor_id=None)


async def test_a_closed_table_keeps_no_snapshot(world: World) -> None:
    outcome = await half_played_match(world, SNAPSHOT_EVERY + 1)
    assert await snapshot_row(world, outcome.table_id) is not None
    await world.tables.cancel(outcome.table_id, key="c", actor_id=GM)
    assert await snapshot_row(world, outcome.table_id) is None
    assert await world.tables.restore() == []
