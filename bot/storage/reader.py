"""One read-only SQLite connection, and a thread of its own for the statements that take long
(see :mod:`bot.storage.db`).

A statement runs on the event loop, as the writer's do: most are a few rows by an index, and a
trip to a thread, then back through a busy loop, cost far more than they do (under load each
trip waited on the loop, and a move's reads added up to most of its table update's delay). Two
things send it to the thread instead, where it runs again in the same read transaction: SQLite's
progress handler interrupts it once it has run :data:`INLINE_STEPS` virtual-machine steps (a long
export, a startup read of every table), and a lock it would have to wait for (``busy_timeout`` is
0 on the loop: it never sleeps there). Calls run in the order they are made: one still on the
thread has the next ones (and the end) queued behind it there.
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
INLINE_STEPS = 100_000
"""SQLite virtual-machine steps a statement may run on the event loop (about a millisecond)
before it is interrupted and runs on the reader's thread."""


class Reader:
    """A ``query_only`` connection. :meth:`first` begins a read transaction (its snapshot is the
    last commit before it) with a statement; :meth:`call` runs the next ones in that
    transaction; :meth:`end` ends it without waiting."""

    __slots__ = ("_busy_ms", "_conn", "_inline", "_jobs", "_queued")

    def __init__(self, conn: sqlite3.Connection, jobs: Jobs, busy_ms: int) -> None:
        self._conn = conn
        self._jobs = jobs
        self._busy_ms = busy_ms
        self._inline = False
        """Whether a statement runs on the loop now (the progress handler interrupts it)."""
        self._queued: asyncio.Future[Any] | None = None
        """The newest call sent to the thread: while it runs, the next calls go there too."""
        conn.set_progress_handler(self._too_long, INLINE_STEPS)

    @classmethod
    async def open(cls, path: Path, busy_ms: int) -> Reader:
        jobs: Jobs = queue.SimpleQueue()
        # A daemon: a statement still running when the process ends does not hold it up.
        threading.Thread(target=work, args=(jobs,), name=THREAD_NAME, daemon=True).start()
        opening = submit(jobs, _connect, path)
        try:
            conn = await asyncio.shield(opening)
        except BaseException:
            opening.add_done_callback(_close_opened)  # cancelled: close it once it is open
            jobs.put(None)
            raise
        return cls(conn, jobs, busy_ms)

    async def first(self, statement: Statement[T], sql: str, params: Params) -> T:
        return await self._run(_begin_then, statement, sql, params)

    async def call(self, statement: Statement[T], sql: str, params: Params) -> T:
        return await self._run(_within, statement, sql, params)

    def end(self) -> None:
        if self._on_thread():
            self._jobs.put((None, _end, (self._conn,)))
        else:
            with contextlib.suppress(sqlite3.ProgrammingError):  # closed under it (abandoned)
                _end(self._conn)

    def close(self) -> None:
        """Close the connection after what is queued, and let the thread end. Waits for nothing."""
        self._jobs.put((None, _close, (self._conn,)))
        self._jobs.put(None)

    async def aclose(self) -> None:
        """Close the connection after what is queued, and wait until it is closed."""
        closing = submit(self._jobs, _close, self._conn)
        self._jobs.put(None)
        await closing

    async def _run(
        self, how: Callable[..., T], statement: Statement[T], sql: str, params: Params
    ) -> T:
        if not self._on_thread():
            self._inline = True
            try:
                return how(self._conn, statement, sql, params)
            except sqlite3.OperationalError as exc:
                if not _should_wait(exc):
                    raise
            finally:
                self._inline = False
            how = _resumed  # interrupted, or locked: again on the thread, in the same snapshot
        queued = submit(
            self._jobs, _patiently, self._busy_ms, how, self._conn, statement, sql, params
        )
        queued.add_done_callback(_retrieved)  # a cancelled wait leaves nobody to read it
        self._queued = queued
        return await asyncio.shield(queued)  # cancelled: the thread still has it, till it ends

    def _on_thread(self) -> bool:
        return self._queued is not None and not self._queued.done()

    def _too_long(self) -> int:
        return 1 if self._inline else 0


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
    if conn.in_transaction:  # a ROLLBACK was lost (it never is): never reuse a snapshot
        conn.execute("ROLLBACK")
    conn.execute("BEGIN")
    return statement(conn, sql, params)


def _within(conn: sqlite3.Connection, statement: Statement[T], sql: str, params: Params) -> T:
    return statement(conn, sql, params)


def _resumed(conn: sqlite3.Connection, statement: Statement[T], sql: str, params: Params) -> T:
    """A statement the loop gave up (its BEGIN stands: a SELECT's interrupt keeps its
    transaction, and a lock refused the first statement before any snapshot was taken)."""
    if not conn.in_transaction:
        conn.execute("BEGIN")
    return statement(conn, sql, params)


def _patiently(busy_ms: int, how: Callable[..., T], conn: sqlite3.Connection, *args: Any) -> T:
    """On the thread: ``how`` with the busy timeout that the loop never waits for."""
    conn.execute(f"PRAGMA busy_timeout = {busy_ms:d}")
    try:
        return how(conn, *args)
    finally:
        conn.execute("PRAGMA busy_timeout = 0")


def _should_wait(exc: sqlite3.OperationalError) -> bool:
    """Interrupted by the progress handler, or refused a lock: it runs on the thread."""
    code = getattr(exc, "sqlite_errorcode", None)
    primary = None if code is None else code & 0xFF  # SQLITE_BUSY_SNAPSHOT is a SQLITE_BUSY
    return primary in (sqlite3.SQLITE_INTERRUPT, sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def _retrieved(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()


def _end(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        conn.execute("ROLLBACK")


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    try:
        conn.execute("PRAGMA busy_timeout = 0")  # on the loop: a lock sends a read to the thread
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
