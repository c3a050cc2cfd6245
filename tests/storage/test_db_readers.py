"""Reads never wait behind the writer: a pool of read-only connections beside the one writer,
each ``read()`` one snapshot of the last commit. On a real SQLite file in WAL mode."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage.db import Database
from bot.storage.opening import open_database
from bot.storage.sqlite import SqliteDatabase

# Generous: only a read stuck behind the writer (which never commits until told) reaches it.
PATIENCE = 10.0


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    db = await SqliteDatabase.connect(tmp_path / "szulernia.db", readers=3)
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO meta (key, value) VALUES ('k', 'committed')")
    yield db
    await db.close()


async def value(db: Database) -> str | None:
    async with db.read() as tx:
        found: str | None = await tx.fetchval("SELECT value FROM meta WHERE key = 'k'")
        return found


class OpenWrite:
    """A transaction that has written ``uncommitted`` and waits, holding the writer's lock."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.written = asyncio.Event()
        self.release = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        async with self.db.transaction() as tx:
            await tx.execute("UPDATE meta SET value = 'uncommitted' WHERE key = 'k'")
            self.written.set()
            await self.release.wait()

    async def __aenter__(self) -> OpenWrite:
        self.task = asyncio.create_task(self._run())
        await self.written.wait()
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.release.set()
        assert self.task is not None
        await self.task


def reader_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("szulernia-db-reader")]


def db_threads() -> list[threading.Thread]:
    """The readers' threads and the writer's."""
    return [t for t in threading.enumerate() if t.name.startswith("szulernia-db-")]


async def test_a_read_during_an_open_write_returns_the_last_commit(db: Database) -> None:
    async with OpenWrite(db) as write:
        assert await asyncio.wait_for(value(db), PATIENCE) == "committed"
        assert write.task is not None and not write.task.done()  # the writer still holds it
    assert await value(db) == "uncommitted"  # it committed when released


async def test_a_read_after_a_commit_sees_it(db: Database) -> None:
    for n in range(50):
        async with db.transaction() as tx:
            await tx.execute("UPDATE meta SET value = ? WHERE key = 'k'", (f"v{n}",))
        assert await value(db) == f"v{n}"


async def test_many_readers_finish_while_the_writer_holds_the_lock(db: Database) -> None:
    async with OpenWrite(db) as write:
        reads = [value(db) for _ in range(25)]  # more than the 3 readers: they take turns
        assert await asyncio.wait_for(asyncio.gather(*reads), PATIENCE) == ["committed"] * 25
        assert write.task is not None and not write.task.done()
    assert len(reader_threads()) <= 3


async def test_the_statements_of_one_read_see_one_snapshot(db: Database) -> None:
    async def commit_later() -> None:
        async with db.transaction() as tx:
            await tx.execute("UPDATE meta SET value = 'later' WHERE key = 'k'")

    async with db.read() as tx:
        first = await tx.fetchval("SELECT value FROM meta WHERE key = 'k'")
        await asyncio.wait_for(commit_later(), PATIENCE)  # another task commits, mid-read
        assert await asyncio.wait_for(value(db), PATIENCE) == "later"  # a new read sees it
        second = await tx.fetchval("SELECT value FROM meta WHERE key = 'k'")
    assert first == second == "committed"
    assert await value(db) == "later"


async def test_the_writer_sees_its_own_writes_and_nobody_else_does(db: Database) -> None:
    async with db.transaction() as tx:
        await tx.execute("UPDATE meta SET value = 'mine' WHERE key = 'k'")
        assert await tx.fetchval("SELECT value FROM meta WHERE key = 'k'") == "mine"
        outside = asyncio.create_task(value(db))
        assert await asyncio.wait_for(outside, PATIENCE) == "committed"


async def test_a_read_cannot_write(db: Database) -> None:
    async with db.read() as tx:
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            await tx.execute("UPDATE meta SET value = 'sneaky' WHERE key = 'k'")
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            await tx.insert("INSERT INTO meta (key, value) VALUES ('x', 'y')")
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            await tx.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", [("x", "y")])
    assert await value(db) == "committed"


async def test_a_transaction_inside_a_read_of_the_same_task_is_refused(db: Database) -> None:
    async with db.read():
        with pytest.raises(RuntimeError, match="nested"):
            async with db.transaction():
                pass
        with pytest.raises(RuntimeError, match="nested"):
            async with db.read():
                pass


async def test_a_cancelled_read_gives_its_reader_back(tmp_path: Path) -> None:
    db = await SqliteDatabase.connect(tmp_path / "szulernia.db", readers=1)
    inside = asyncio.Event()

    async def stuck() -> None:
        async with db.read() as tx:
            await tx.fetchval("SELECT count(*) FROM meta")
            inside.set()
            await asyncio.sleep(60)

    task = asyncio.create_task(stuck())
    await inside.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO meta (key, value) VALUES ('k', 'after')")
    assert await asyncio.wait_for(value(db), PATIENCE) == "after"  # a fresh snapshot, too
    await db.close()


async def test_close_waits_for_reads_then_frees_the_file(tmp_path: Path) -> None:
    path = tmp_path / "szulernia.db"
    db = await open_database(path)
    inside, finish = asyncio.Event(), asyncio.Event()

    async def slow_read() -> int:
        async with db.read() as tx:
            inside.set()
            await finish.wait()
            return int(await tx.fetchval("SELECT count(*) FROM meta"))

    reading = asyncio.create_task(slow_read())
    await asyncio.wait_for(asyncio.gather(*(value(db) for _ in range(6))), PATIENCE)
    await inside.wait()
    closing = asyncio.create_task(db.close())
    await asyncio.sleep(0.05)
    assert not closing.done()  # a read is in flight
    finish.set()
    assert await reading == 0
    await asyncio.wait_for(closing, PATIENCE)
    await db.close()  # twice is harmless
    with pytest.raises(ValueError, match="closed"):
        await value(db)
    await assert_released(path)


async def test_abandon_frees_the_file_from_killed_tasks(tmp_path: Path) -> None:
    """What the e2e harness does after killing a bot: its tasks still hold a read and an open
    transaction; abandoning closes everything, the write rolls back, the file is free."""
    path = tmp_path / "szulernia.db"
    db = await open_database(path)
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO meta (key, value) VALUES ('k', 'committed')")
    write = OpenWrite(db)
    await write.__aenter__()
    holding = asyncio.Event()

    async def held_read() -> None:
        async with db.read() as tx:
            await tx.fetchval("SELECT count(*) FROM meta")
            holding.set()
            await asyncio.sleep(60)

    reading = asyncio.create_task(held_read())
    await asyncio.wait_for(holding.wait(), PATIENCE)
    await db.abandon(PATIENCE)
    await assert_released(path)
    await asyncio.wait_for(db.abandon(PATIENCE), 1.0)  # again: at once (its threads are gone)
    for task in (reading, write.task):
        assert task is not None
        task.cancel()
        with pytest.raises((asyncio.CancelledError, ValueError)):
            await task
    again = await open_database(path)
    assert await value(again) == "committed"  # the open write never happened
    await again.close()


async def assert_released(path: Path) -> None:
    """No thread of ours is left, and another connection can take the file exclusively."""
    for _ in range(100):
        if not db_threads():
            break
        await asyncio.sleep(0.02)
    assert db_threads() == []
    raw = sqlite3.connect(path, isolation_level=None, timeout=0)
    try:
        raw.execute("BEGIN EXCLUSIVE")
        raw.execute("ROLLBACK")
    finally:
        raw.close()


async def test_close_folds_the_wal_into_the_file_every_time(tmp_path: Path) -> None:
    """The writer closes last, so SQLite removes the WAL: a reader still closing beside it would
    make both skip that, and the file would stay split in two."""
    for n in range(20):
        path = tmp_path / f"szulernia{n}.db"
        db = await open_database(path)
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO meta (key, value) VALUES ('k', 'v')")
        await asyncio.gather(*(value(db) for _ in range(8)))  # every reader opened and used
        await db.close()
        wal = Path(f"{path}-wal")
        assert not await asyncio.to_thread(wal.exists), f"close {n} left the WAL"
