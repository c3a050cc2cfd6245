"""A read's statements run on the event loop, except the ones that take long or would wait for a
lock: those go to the reader's thread, in the same snapshot, and the loop never stalls for them
(``bot.storage.reader``). On a real SQLite file in WAL mode."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

import pytest

from bot.storage import reader as reading
from bot.storage.db import Database
from tests.storage import test_db_readers

db = test_db_readers.db  # the fixture: a file whose meta has one row, k = "committed"
PATIENCE = 10.0
LONG = (
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) "
    "SELECT sum(i) FROM n"
)


class Threads:
    """Which threads ran the readers' statements (a trace on every reader connection)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.seen: list[str] = []
        connect = reading._connect

        def traced(path: Path) -> sqlite3.Connection:
            conn = connect(path)
            conn.set_trace_callback(lambda sql: self.seen.append(threading.current_thread().name))
            return conn

        monkeypatch.setattr(reading, "_connect", traced)

    def clear(self) -> None:
        self.seen.clear()


async def test_a_short_read_runs_on_the_loop(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    threads = Threads(monkeypatch)
    async with db.read() as tx:  # opens a reader (on its thread)
        await tx.fetchval("SELECT 1")
    threads.clear()
    async with db.read() as tx:
        assert await tx.fetchval("SELECT value FROM meta WHERE key = 'k'") == "committed"
    assert threads.seen and set(threads.seen) == {threading.current_thread().name}


async def test_a_long_read_moves_to_the_thread_and_the_loop_goes_on(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads = Threads(monkeypatch)
    ticks = 0
    stop = asyncio.Event()

    async def ticker() -> None:
        nonlocal ticks
        while not stop.is_set():
            ticks += 1
            await asyncio.sleep(0)

    ticking = asyncio.create_task(ticker())
    count = 2_000_000
    async with db.read() as tx:
        threads.clear()
        total = await tx.fetchval(LONG, (count,))
        after = await tx.fetchval("SELECT value FROM meta WHERE key = 'k'")  # the same snapshot
    stop.set()
    await ticking
    assert total == count * (count + 1) // 2 and after == "committed"
    assert reading.THREAD_NAME in threads.seen  # interrupted on the loop, run on the thread
    assert ticks > 10  # the loop turned while it ran


async def test_a_lock_refused_on_the_loop_is_waited_for_on_the_thread(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On the loop the busy timeout is 0: SQLite refuses a lock at once (SQLITE_BUSY, as when
    another process runs a recovery), and the statement runs again on the thread, which waits."""
    threads = Threads(monkeypatch)
    async with db.read() as tx:
        await tx.fetchval("SELECT 1")
    loop_thread = threading.current_thread().name
    begin = reading._begin_then
    refused: list[int] = []

    def refusing(conn: sqlite3.Connection, *args: object) -> object:
        if threading.current_thread().name == loop_thread and not refused:
            assert conn.execute("PRAGMA busy_timeout").fetchone() == (0,)
            refused.append(1)
            exc = sqlite3.OperationalError("database is locked")
            exc.sqlite_errorcode = sqlite3.SQLITE_BUSY  # type: ignore[attr-defined]
            raise exc
        return begin(conn, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(reading, "_begin_then", refusing)
    threads.clear()
    async with db.read() as tx:
        assert await tx.fetchval("SELECT value FROM meta WHERE key = 'k'") == "committed"
        assert await tx.fetchval("PRAGMA busy_timeout") == 0  # back on the loop, without it
    assert refused == [1]
    assert reading.THREAD_NAME in threads.seen


async def test_a_cancelled_long_read_leaves_its_reader_usable(db: Database) -> None:
    async def long_read() -> None:
        async with db.read() as tx:
            await tx.fetchval(LONG, (3_000_000,))

    task = asyncio.create_task(long_read())
    await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    for _ in range(3):  # every reader, whichever it takes: each answers from a fresh snapshot
        async with db.read() as tx:
            assert await tx.fetchval("SELECT value FROM meta WHERE key = 'k'") == "committed"
    async with db.transaction() as tx:
        await tx.execute("UPDATE meta SET value = 'later' WHERE key = 'k'")
    async with db.read() as tx:
        assert await tx.fetchval("SELECT value FROM meta WHERE key = 'k'") == "later"
