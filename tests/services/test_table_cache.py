"""The table service's read cache for clicks (``peek`` / ``look``), against a real SQLite file:
the table, its roster and its opener at the newest version with no SQL; carried by steps, read
again only where it changed; refilled by the restore; dropped on close, on a rename and when
another process moved the table; bounded."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.services import TableService
from bot.services.errors import StaleAction
from bot.services.table_rosters import Member, Rosters
from bot.storage import tables
from bot.storage.db import Database
from bot.storage.opening import open_database
from tests.services import dice_game
from tests.services.conftest import ALICE_USER, BOB_USER, GM, GUILD, World
from tests.services.test_tables import seat_two


class Touches:
    """Counts the reads and transactions opened on a database, and its writer's statements."""

    def __init__(self) -> None:
        self.count = 0
        self.statements: list[str] = []

    async def watch(self, db: Database) -> None:
        read, transaction = db.read, db.transaction

        @contextlib.asynccontextmanager
        async def watched_read() -> AsyncIterator[Any]:
            self.count += 1
            async with read() as tx:
                yield tx

        @contextlib.asynccontextmanager
        async def watched_transaction() -> AsyncIterator[Any]:
            self.count += 1
            async with transaction() as tx:
                yield tx

        db.read = watched_read  # type: ignore[method-assign]
        db.transaction = watched_transaction  # type: ignore[method-assign]
        db.trace(self._statement)

    def _statement(self, sql: str) -> None:
        self.count += 1
        self.statements.append(sql)


async def test_a_step_keeps_the_table_and_its_roster_for_the_next_click(world: World) -> None:
    table_id, alice, bob = await seat_two(world)
    touches = Touches()
    await touches.watch(world.db)
    seen = world.tables.peek(table_id)
    assert seen is not None and seen.table.version == 3 and seen.opener == GM
    assert dict(seen.roster) == {
        alice: Member(alice, "Alice", ALICE_USER, False),
        bob: Member(bob, "Bob", BOB_USER, False),
    }
    assert await world.tables.look(table_id) == seen
    assert await world.tables.opener(table_id) == GM
    assert touches.count == 0

    await world.tables.act(
        table_id, dice_game.Start(alice), key="start", expected_version=3, actor_id=ALICE_USER
    )
    after = world.tables.peek(table_id)
    assert after is not None and after.table.version == 4
    assert after.roster == seen.roster  # no seat moved: carried as it was


async def test_a_join_reads_only_the_new_seat(world: World) -> None:
    table_id, alice, bob = await seat_two(world)
    cid = await world.characters.create(GUILD, "Cid", owner_id=77, npc=True)
    await world.purses.grant(cid.id, "wh", 100, actor_id=GM)
    touches = Touches()
    await touches.watch(world.db)
    await world.tables.act(
        table_id, dice_game.Join(cid.id), key="join-cid", expected_version=None, actor_id=77
    )
    seen = world.tables.peek(table_id)
    assert seen is not None and set(seen.roster) == {alice, bob, cid.id}
    assert seen.roster[cid.id] == Member(cid.id, "Cid", 77, True)
    read = [s for s in touches.statements if "FROM characters WHERE id" in s]
    assert read == [read[0]] and f"id = {cid.id} " in read[0] + " ", touches.statements


async def test_a_rename_is_read_again_and_a_closed_table_is_forgotten(world: World) -> None:
    table_id, alice, _ = await seat_two(world)
    await world.characters.edit(alice, actor_id=ALICE_USER, name="Alicja")
    world.tables.forget_character(alice)
    assert world.tables.peek(table_id) is None
    seen = await world.tables.look(table_id)
    assert seen.roster[alice].name == "Alicja"
    assert world.tables.peek(table_id) == seen

    await world.tables.cancel(table_id, key="cancel", actor_id=GM)
    assert world.tables.peek(table_id) is None
    closed = await world.tables.look(table_id)  # still readable, not kept
    assert closed.table.status == "cancelled" and world.tables.peek(table_id) is None


async def test_the_restore_fills_it_again(world: World) -> None:
    table_id, alice, bob = await seat_two(world)
    await world.reopen()
    assert world.tables.peek(table_id) is None  # a fresh service knows nothing yet
    await world.tables.restore()
    touches = Touches()
    await touches.watch(world.db)
    seen = world.tables.peek(table_id)
    assert seen is not None and set(seen.roster) == {alice, bob} and seen.opener == GM
    assert touches.count == 0


async def test_another_process_moving_the_table_makes_the_step_stale(world: World) -> None:
    """The cache says version 3; another process took version 4. The step is refused inside
    its transaction (nothing written), and the cache forgets the table."""
    table_id, alice, _ = await seat_two(world)
    other_db = await open_database(world.path)
    try:
        other = TableService(other_db, games=world.tables_games, clock=world.clock)
        await other.act(
            table_id, dice_game.Start(alice), key="elsewhere", expected_version=3, actor_id=GM
        )
    finally:
        await other_db.close()
    assert world.tables.peek(table_id) is not None  # stale: it cannot know
    with pytest.raises(StaleAction):
        await world.tables.act(
            table_id, dice_game.Start(alice), key="here", expected_version=3, actor_id=GM
        )
    assert world.tables.peek(table_id) is None
    assert (await world.tables.look(table_id)).table.version == 4
    async with world.db.read() as tx:  # nothing of the refused step was written
        assert await tables.action_key(tx, "here") is None


def test_the_rosters_kept_are_bounded() -> None:
    rosters = Rosters(limit=2)
    for table_id in (1, 2, 3):
        rosters.put(table_id, 1, frozenset(), {})
    assert rosters.get(1, 1) is None and rosters.get(3, 1) is not None
    assert rosters.get(2, 1) is not None
    rosters.put(4, 1, frozenset(), {})  # 3 is now the least recently used
    assert rosters.get(3, 1) is None and rosters.get(2, 1) is not None
    assert rosters.get(2, 2) is None  # another version: not this roster


async def test_a_read_that_a_close_overtook_is_not_kept(world: World) -> None:
    """Reads run beside the writer: a read of an uncached table that started before a close
    committed must not put the table back in the cache as open."""
    table_id, _, _ = await seat_two(world)
    world.tables._cache.pop(table_id)  # as after an error: the next read misses
    loader = world.tables._loader
    load, read_done, go_on = loader.load, asyncio.Event(), asyncio.Event()

    async def slow_load(tx: Any, wanted: int, **kwargs: Any) -> Any:
        live = await load(tx, wanted, **kwargs)
        read_done.set()
        await go_on.wait()
        return live

    loader.load = slow_load  # type: ignore[method-assign]
    reading = asyncio.ensure_future(world.tables.get(table_id))
    await read_done.wait()
    loader.load = load  # type: ignore[method-assign]
    await world.tables.cancel(table_id, key="cancel", actor_id=GM)
    go_on.set()

    assert (await reading).status == "open"  # what it read, before the close
    assert world.tables.peek(table_id) is None
    assert (await world.tables.get(table_id)).status == "cancelled"
