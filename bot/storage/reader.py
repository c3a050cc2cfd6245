"""One read-only SQLite connection and the one thread that uses it (see :mod:`bot.storage.db`).

Calls run on the thread in the order they are made, so a ROLLBACK queued without waiting still
ends a read transaction before the next read's first statement begins a new one.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeAlias, TypeVar

Row = tuple[Any, ...]
Params = Sequence[object]
T = TypeVar("T")
Statement = Callable[[sqlite3.Connection, str, Params], T]
Job: TypeAlias = "tuple[asyncio.Future[Any] | None, Callable[..., Any], tuple[Any, ...]]"
Jobs: TypeAlias = "queue.SimpleQueue[Job | None]"
THREAD_NAME = "szulernia-db-reader"


class Reader:
    """A ``query_only`` connection. :meth:`first` begins a read transaction (its snapshot is the
    last commit before it) and runs a statement in the same trip to the thread; :meth:`call` runs
    the next ones in that transaction; :meth:`end` ends it without waiting."""

    __slots__ = ("_conn", "_jobs")

    def __init__(self, conn: sqlite3.Connection, jobs: Jobs) -> None:
        self._conn = conn
        self._jobs = jobs

    @classmethod
    async def open(cls, path: Path, busy_ms: int) -> Reader:
        jobs: Jobs = queue.SimpleQueue()
        # A daemon: a statement still running when the process ends does not hold it up.
        threading.Thread(target=work, args=(jobs,), name=THREAD_NAME, daemon=True).start()
        opening = submit(jobs, _connect, path, busy_ms)
        try:
            conn = await asyncio.shield(opening)
        except BaseException:
            opening.add_done_callback(_close_opened)  # cancelled: close it once it is open
            jobs.put(None)
            raise
        return cls(conn, jobs)

    async def first(self, statement: Statement[T], sql: str, params: Params) -> T:
        return await submit(self._jobs, _begin_then, self._conn, statement, sql, params)

    async def call(self, statement: Statement[T], sql: str, params: Params) -> T:
        return await submit(self._jobs, statement, self._conn, sql, params)

    def end(self) -> None:
        self._jobs.put((None, _end, (self._conn,)))

    def close(self) -> None:
        """Close the connection after what is queued, and let the thread end. Waits for nothing."""
        self._jobs.put((None, _close, (self._conn,)))
        self._jobs.put(None)

    async def aclose(self) -> None:
        """Close the connection after what is queued, and wait until it is closed."""
        closing = submit(self._jobs, _close, self._conn)
        self._jobs.put(None)
        await closing


def submit(jobs: Jobs, fn: Callable[..., T], *args: Any) -> asyncio.Future[T]:
    future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
    jobs.put((future, fn, args))
    return future


def work(jobs: Jobs) -> None:
    """The reader's thread: run each job in order; answer on the job's event loop; end at None."""
    while (job := jobs.get()) is not None:
        future, fn, args = job
        try:
            result = fn(*args)
        except BaseException as exc:
            if future is not None:
                _answer(future, _fail, exc)
        else:
            if future is not None:
                _answer(future, _succeed, result)


def _answer(future: asyncio.Future[Any], how: Callable[..., None], value: object) -> None:
    with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
        future.get_loop().call_soon_threadsafe(how, future, value)


def _succeed(future: asyncio.Future[Any], result: object) -> None:
    if not future.done():  # a cancelled wait
        future.set_result(result)


def _fail(future: asyncio.Future[Any], exc: BaseException) -> None:
    if not future.done():
        future.set_exception(exc)


def rows(conn: sqlite3.Connection, sql: str, params: Params) -> list[Row]:
    return conn.execute(sql, params).fetchall()


def rowcount(conn: sqlite3.Connection, sql: str, params: Params) -> int:
    return conn.execute(sql, params).rowcount


def _begin_then(conn: sqlite3.Connection, statement: Statement[T], sql: str, params: Params) -> T:
    if conn.in_transaction:  # a queued ROLLBACK was lost (it never is): never reuse a snapshot
        conn.execute("ROLLBACK")
    conn.execute("BEGIN")
    return statement(conn, sql, params)


def _end(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        conn.execute("ROLLBACK")


def _connect(path: Path, busy_ms: int) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    try:
        conn.execute(f"PRAGMA busy_timeout = {busy_ms:d}")
        conn.execute("PRAGMA foreign_keys = ON")  # as on the writer, though a reader writes nothing
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA query_only = ON")
    except BaseException:
        conn.close()
        raise
    return conn


def _close(conn: sqlite3.Connection) -> None:
    conn.close()


def _close_opened(opening: asyncio.Future[sqlite3.Connection]) -> None:
    if not opening.cancelled() and opening.exception() is None:
        opening.result().close()
