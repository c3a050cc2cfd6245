"""The startup's restore (``keep_open``) keeps each open table's state encoded, and decodes it
when the table is first used: a peek, a read or a step then see the table exactly as it was."""

from __future__ import annotations

from bot.rules import pazaak
from bot.services.table_loads import Dormant
from tests.services.conftest import World
from tests.services.test_snapshots import half_played_match


async def test_kept_tables_stay_encoded_until_first_used(world: World) -> None:
    outcome = await half_played_match(world, 11)
    live = await world.tables.get(outcome.table_id)
    await world.reopen()
    assert await world.tables.keep_open() == [outcome.table_id]
    kept = world.tables._cache[outcome.table_id]
    assert isinstance(kept, Dormant) and kept.live.state is None and not kept.replay
    assert kept.live.version == live.version
    seen = world.tables.peek(outcome.table_id)  # decodes it
    assert seen is not None and seen.table == live
    assert not isinstance(world.tables._cache[outcome.table_id], Dormant)


async def test_a_kept_table_plays_on_and_a_damaged_snapshot_is_read_afresh(world: World) -> None:
    outcome = await half_played_match(world, 9)
    live = await world.tables.get(outcome.table_id)
    async with world.db.transaction() as tx:
        await tx.execute("UPDATE table_snapshots SET data = ?", (b"{}",))  # does not decode
    await world.reopen()
    await world.tables.keep_open()
    assert isinstance(world.tables._cache[outcome.table_id], Dormant)
    assert await world.tables.get(outcome.table_id) == live  # replayed from the events
    action = pazaak.legal_actions(live.state)[-2]
    after = await world.tables.act(
        outcome.table_id, action, key="on", expected_version=live.version, actor_id=None
    )
    assert after.version == live.version + 1


async def test_a_table_without_a_snapshot_is_kept_as_its_events(world: World) -> None:
    outcome = await half_played_match(world, 4)
    live = await world.tables.get(outcome.table_id)
    async with world.db.transaction() as tx:
        await tx.execute("DELETE FROM table_snapshots")
    await world.reopen()
    await world.tables.keep_open()
    kept = world.tables._cache[outcome.table_id]
    assert isinstance(kept, Dormant) and kept.replay and len(kept.blobs) == 1  # one JSON array
    assert await world.tables.get(outcome.table_id) == live
