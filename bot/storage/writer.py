"""The one read-write SQLite connection, the thread that does its waiting, and its group
commits (see :mod:`bot.storage.db`).

A write transaction's statements run inline, on the event loop: they are short and indexed,
and a trip to a worker thread and back costs more than any of them (and, under load, waits
behind every other task the loop has ready, while the writer's lock is held). What may wait runs
on the writer's own thread instead, so the loop never blocks on it:

- ``BEGIN IMMEDIATE`` when another connection (another process, a backup, the sqlite3 shell)
  holds the write lock: inline it fails at once (``busy_timeout`` is 0 on the loop), then it is
  retried on the thread, which waits up to ``busy_ms``;
- ``COMMIT``: its fsync (``synchronous = FULL``) and any checkpoint of the WAL;
- opening, the checks, the migrations, a checkpoint, closing.

The thread runs its jobs in order, and nothing runs inline while a job of its is unfinished
(:meth:`Writer.idle`), so the connection is never used from two threads at once. The price: a
long write holds the loop for its length. The bot's writes are a step's few rows; the long ones
(the stats projection rebuilt from scratch, ``StatsService.rebuild``) are for maintenance, not
for a running bot.

**Group commit.** Each ``Database.transaction()`` is a ``SAVEPOINT`` of a :class:`Batch`: one
SQLite transaction that the transactions queued behind it join, and that commits when nobody
else is waiting for the writer. Its callers return only once the batch's ``COMMIT`` is durable,
so each still sees its own transaction as atomic and durable when it returns; a transaction that
fails rolls back to its savepoint and leaves the others in. Under load, one fsync and one trip
to the thread serve many transactions.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from bot.storage.reader import Jobs, submit, work

T = TypeVar("T")
THREAD_NAME = "szulernia-db-writer"


class Writer:
    """See the module docstring. :attr:`conn` is for inline statements, only between
    :meth:`idle` and the next :meth:`call`."""

    __slots__ = ("_closing", "_jobs", "_last", "busy_ms", "conn", "thread")

    def __init__(
        self, conn: sqlite3.Connection, jobs: Jobs, thread: threading.Thread, busy_ms: int
    ) -> None:
        self.conn = conn
        self.busy_ms = busy_ms
        self.thread = thread
        self._jobs = jobs
        self._last: asyncio.Future[Any] | None = None
        self._closing: asyncio.Future[None] | None = None

    @classmethod
    async def open(cls, path: Path, busy_ms: int) -> Writer:
        jobs: Jobs = queue.SimpleQueue()
        # A daemon: a COMMIT still running when the process ends does not hold it up.
        thread = threading.Thread(target=work, args=(jobs,), name=THREAD_NAME, daemon=True)
        thread.start()
        try:
            conn = await submit(jobs, _connect, path)
        except BaseException:
            jobs.put(None)
            raise
        return cls(conn, jobs, thread, busy_ms)

    def queue(self, fn: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """Run ``fn(conn, *args)`` on the thread, after what is queued; do not wait for it."""
        future = submit(self._jobs, fn, self.conn, *args)
        self._last = future
        return future

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(conn, *args)`` on the thread and wait for it. A cancelled wait leaves the job
        running; :meth:`idle` still waits for it."""
        return await asyncio.shield(self.queue(fn, *args))

    @property
    def busy(self) -> bool:
        return self._last is not None and not self._last.done()

    async def idle(self) -> None:
        """Wait until the thread has run every job queued."""
        last = self._last
        if last is not None and not last.done():
            await asyncio.wait({last})

    def begin(self) -> bool:
        """``BEGIN IMMEDIATE`` inline; False if another connection holds the write lock (then
        :func:`begin_waiting` on the thread waits for it)."""
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorcode in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                return False
            raise
        return True

    def rollback(self) -> None:
        """End a transaction left open by an error: inline, or after the thread's job in flight
        (a COMMIT whose wait was cancelled), without waiting for it."""
        if self.busy:
            self.queue(_rollback)
            return
        with contextlib.suppress(sqlite3.ProgrammingError):  # closed (abandoned): rolled back
            _rollback(self.conn)

    async def close(self, within: float | None = None) -> None:
        """Close the connection after what is queued; the thread then ends. Again: wait for
        that same close (the thread takes no more jobs)."""
        if self._closing is None:
            self._closing = self.queue(_close)
            self._jobs.put(None)
        await asyncio.wait_for(asyncio.shield(self._closing), within)


class Gate:
    """The writer's lock, with one difference from ``asyncio.Lock``: a release wakes every
    waiter at once, not the first alone. They resume in the order they came, in one turn of the
    event loop, and the first takes the gate; as a transaction's statements run inline, it
    usually ends before the next one resumes, which then takes the gate in the same turn (a
    waiter that finds it taken waits again). So a queue of transactions drains in one turn,
    not one turn each (a turn, under load, is every ready callback of the bot)."""

    __slots__ = ("_held", "_waiters")

    def __init__(self) -> None:
        self._held = False
        self._waiters: list[asyncio.Future[None]] = []

    def locked(self) -> bool:
        return self._held

    async def acquire(self) -> None:
        while self._held:
            waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            try:
                await waiter
            finally:
                if not waiter.done() or waiter.cancelled():
                    with contextlib.suppress(ValueError):
                        self._waiters.remove(waiter)
        self._held = True

    def release(self) -> None:
        self._held = False
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def __aenter__(self) -> None:
        await self.acquire()

    async def __aexit__(self, *exc: object) -> None:
        self.release()


class Batch:
    """One SQLite transaction shared by the ``Database.transaction()`` blocks that joined it;
    :attr:`durable` resolves when its ``COMMIT`` is (or fails with the error that stopped it)."""

    __slots__ = ("durable", "members")

    def __init__(self) -> None:
        self.durable: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.durable.add_done_callback(_retrieved)  # every member may have been cancelled
        self.members = 0

    def fail(self, exc: BaseException) -> None:
        if not self.durable.done():
            self.durable.set_exception(exc)


def commit_batch(writer: Writer, batch: Batch) -> asyncio.Future[None]:
    """Queue the batch's ``COMMIT``; it resolves :attr:`Batch.durable` whoever still waits
    (a cancelled wait leaves it running: the next statement waits for it, see :meth:`idle`)."""
    job = writer.queue(commit)

    def finished(job: asyncio.Future[None]) -> None:
        error = None if job.cancelled() else job.exception()
        if error is None:
            if not batch.durable.done():
                batch.durable.set_result(None)
            return
        with contextlib.suppress(sqlite3.ProgrammingError):  # closed meanwhile
            _rollback(writer.conn)
        batch.fail(error)

    job.add_done_callback(finished)
    return job


def undo(writer: Writer, batch: Batch) -> bool:
    """Roll back the failed transaction of ``batch`` to its savepoint; False if SQLite had
    rolled the whole batch back already (an I/O error, a full disk) or the file was closed."""
    conn = writer.conn
    try:
        if not conn.in_transaction:
            return False
        conn.execute("ROLLBACK TO tx")
        conn.execute("RELEASE tx")
    except sqlite3.Error:
        return False
    return True


def _retrieved(future: asyncio.Future[None]) -> None:
    if not future.cancelled():
        future.exception()


def patient(conn: sqlite3.Connection, busy_ms: int, fn: Callable[..., T], *args: Any) -> T:
    """Run ``fn(conn, *args)`` waiting up to ``busy_ms`` for the write lock (on the thread)."""
    conn.execute(f"PRAGMA busy_timeout = {busy_ms:d}")
    try:
        return fn(conn, *args)
    finally:
        conn.execute("PRAGMA busy_timeout = 0")


def begin_waiting(conn: sqlite3.Connection, busy_ms: int) -> None:
    patient(conn, busy_ms, sqlite3.Connection.execute, "BEGIN IMMEDIATE")


def commit(conn: sqlite3.Connection) -> None:
    conn.execute("COMMIT")


def checkpoint(conn: sqlite3.Connection, busy_ms: int) -> None:
    patient(conn, busy_ms, sqlite3.Connection.execute, "PRAGMA wal_checkpoint(TRUNCATE)")


def _rollback(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        with contextlib.suppress(sqlite3.OperationalError):  # the COMMIT went through after all
            conn.execute("ROLLBACK")


def _connect(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)


def _close(conn: sqlite3.Connection) -> None:
    conn.close()
