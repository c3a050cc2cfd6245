"""The writer's group commit (``bot.storage.writer``): transactions queued behind one another
share one SQLite COMMIT, yet each is atomic, and durable when its block ends. On a real SQLite
file in WAL mode; durability is checked through a connection of another "process" (a raw
sqlite3 connection that shares nothing with the bot's)."""

from __future__ import annotations

import asyncio
import sqlite3
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.storage.db import Database
from bot.storage.opening import open_database

PATIENCE = 10.0


class Boom(Exception):
    pass


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    db = await open_database(tmp_path / "szulernia.db")
    yield db
    await db.close()


def seen_elsewhere(path: Path, key: str) -> bool:
    """Whether another connection, sharing nothing with the bot's, sees the row."""
    conn = sqlite3.connect(path, timeout=5)
    try:
        return conn.execute("SELECT 1 FROM meta WHERE key = ?", (key,)).fetchone() is not None
    finally:
        conn.close()


async def write(db: Database, key: str, *, fail: bool = False, pause: float | None = None) -> bool:
    """One transaction writing ``key``; True if, once it returned, another connection saw it.
    ``pause``: it waits that long inside, holding the writer, so that the others queue up."""
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO meta (key, value) VALUES (?, 'v')", (key,))
        if pause is not None:
            await asyncio.sleep(pause)
        if fail:
            raise Boom(key)
    return seen_elsewhere(db.path, key)


def commits(db: Database) -> list[str]:
    seen: list[str] = []
    db.trace(lambda sql: seen.append(sql) if sql.startswith("COMMIT") else None)
    return seen


async def test_queued_transactions_share_commits_and_each_is_durable_when_it_returns(
    db: Database,
) -> None:
    committed = commits(db)
    first = asyncio.create_task(write(db, "k0", pause=0.05))
    await asyncio.sleep(0)  # it holds the writer now
    others = [asyncio.create_task(write(db, f"k{n}")) for n in range(1, 40)]
    durable = await asyncio.wait_for(asyncio.gather(first, *others), PATIENCE)
    assert durable == [True] * 40
    assert 1 <= len(committed) < 10  # not one fsync each


async def test_a_failed_transaction_leaves_the_rest_of_its_batch_in(db: Database) -> None:
    first = asyncio.create_task(write(db, "a", pause=0.05))
    await asyncio.sleep(0)
    failing = asyncio.create_task(write(db, "bad", fail=True))
    last = asyncio.create_task(write(db, "b"))
    assert await asyncio.wait_for(first, PATIENCE) and await asyncio.wait_for(last, PATIENCE)
    with pytest.raises(Boom):
        await failing
    assert not seen_elsewhere(db.path, "bad")
    async with db.transaction() as tx:  # the writer is usable after it
        assert await tx.fetchval("SELECT count(*) FROM meta WHERE key IN ('a', 'b')") == 2


async def test_a_cancelled_wait_for_the_commit_loses_nothing_and_blocks_nobody(
    db: Database,
) -> None:
    first = asyncio.create_task(write(db, "c0", pause=0.05))
    await asyncio.sleep(0)
    waiting = [asyncio.create_task(write(db, f"c{n}")) for n in range(1, 6)]
    await asyncio.sleep(0)
    waiting[2].cancel()  # gives up before its turn: it never wrote
    waiting[4].cancel()
    done = await asyncio.wait_for(asyncio.gather(first, *waiting, return_exceptions=True), PATIENCE)
    assert [type(d).__name__ for d in done] == ["bool"] * 3 + ["CancelledError", "bool"] * 1 + [
        "CancelledError"
    ]
    assert [seen_elsewhere(db.path, f"c{n}") for n in range(6)] == [True] * 3 + [False, True] + [
        False
    ]


async def test_a_write_lock_held_elsewhere_is_waited_for_off_the_event_loop(
    db: Database,
) -> None:
    other = sqlite3.connect(db.path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    ticking = asyncio.create_task(ticker())
    began = time.monotonic()
    writing = asyncio.create_task(write(db, "late"))
    await asyncio.sleep(0.3)
    assert not writing.done() and ticks >= 10  # it waits, and the loop goes on meanwhile
    other.execute("COMMIT")
    other.close()
    assert await asyncio.wait_for(writing, PATIENCE)
    assert time.monotonic() - began >= 0.3
    ticking.cancel()


async def scenario(path: Path, plan: list[tuple[bool, bool]]) -> None:
    db = await open_database(path)
    try:
        tasks = [
            asyncio.create_task(write(db, f"r{n}", fail=fail, pause=0 if pause else None))
            for n, (fail, pause) in enumerate(plan)
        ]
        results = await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), PATIENCE)
    finally:
        await db.close()
    for n, ((fail, _), result) in enumerate(zip(plan, results, strict=True)):
        assert isinstance(result, Boom) if fail else result is True, (n, result)
        assert seen_elsewhere(path, f"r{n}") is not fail


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=25))
def test_whatever_the_interleaving_exactly_the_successful_transactions_stay(
    plan: list[tuple[bool, bool]],
) -> None:
    """Concurrent transactions, some failing, some pausing inside (so others queue): after
    all, exactly those that succeeded are in the file, each seen as soon as it returned."""
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(scenario(Path(folder) / "szulernia.db", plan))
