"""Two processes over one database (two ``Database`` objects, each with its own connections, on
the same SQLite file or PostgreSQL database): a table moved by one is refused as stale by the
other, and an action repeated with the same key, even at the same moment, applies once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.services import TableService
from bot.services.errors import StaleAction
from bot.storage.opening import open_database
from tests.services import dice_game
from tests.services.conftest import GM, World
from tests.services.test_tables import seat_two


@pytest.fixture
async def other(world: World) -> AsyncIterator[TableService]:
    """The table service of a second process over the same database."""
    db = await open_database(world.path)
    yield TableService(db, games=world.tables_games, clock=world.clock)
    await db.close()


async def test_the_same_key_at_the_same_moment_in_two_processes_applies_once(
    world: World, other: TableService
) -> None:
    table_id, alice, _ = await seat_two(world)
    outcomes = await asyncio.gather(
        *(
            service.act(
                table_id, dice_game.Start(alice), key="start", expected_version=3, actor_id=GM
            )
            for service in (world.tables, other, world.tables, other)
        )
    )
    assert {o.version for o in outcomes} == {4}
    async with world.db.read() as tx:
        versions = await tx.fetchall(
            "SELECT DISTINCT version FROM table_events WHERE table_id = ? AND version > 3",
            (table_id,),
        )
    assert versions == [(4,)]


async def test_a_different_move_at_the_same_version_in_the_other_process_is_stale(
    world: World, other: TableService
) -> None:
    table_id, alice, _ = await seat_two(world)
    results = await asyncio.gather(
        world.tables.act(
            table_id, dice_game.Start(alice), key="here", expected_version=3, actor_id=GM
        ),
        other.act(table_id, dice_game.Start(alice), key="there", expected_version=3, actor_id=GM),
        return_exceptions=True,
    )
    stale = [r for r in results if isinstance(r, StaleAction)]
    applied = [r for r in results if not isinstance(r, BaseException)]
    assert len(stale) == 1 and len(applied) == 1 and applied[0].version == 4
    with pytest.raises(StaleAction):  # and it stays refused: the version moved on
        await (other if stale[0] is results[1] else world.tables).act(
            table_id, dice_game.Start(alice), key="late", expected_version=3, actor_id=GM
        )
