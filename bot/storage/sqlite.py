"""The SQLite backend (the default): one writer connection behind a lock, and a few read-only
connections beside it. The interface it implements is :mod:`bot.storage.db`.

WAL lets readers and one writer work at once: a reader sees the last commit made before its
first statement, whatever the writer is doing meanwhile. So:

    async with db.transaction() as tx:   # the writer: BEGIN IMMEDIATE ... COMMIT (ROLLBACK on
        await tx.execute(...)            # any error), one at a time, behind Database._lock
    async with db.read() as tx:          # a reader of the pool: never waits behind the writer;
        await tx.fetchall(...)           # its statements see one snapshot (one read transaction)

- The writer is one connection (``bot.storage.writer``). Its statements run inline on the event
  loop (a trip to a thread would cost more than they do); what may wait (``BEGIN IMMEDIATE``
  behind another process, ``COMMIT`` and its fsync, migrations) runs on its own thread. Two
  coroutines doing ``BEGIN ... COMMIT`` on it would mix their statements into one transaction,
  so every transaction holds :attr:`Database._lock`. Reads that must see the transaction's own
  writes are made through its ``tx``.
- Each reader is a ``sqlite3`` connection with ``query_only`` on, and a worker thread of its own
  (``bot.storage.reader``). Its statements run on the event loop too, unless one runs long or
  would wait for a lock: that one runs again on the thread, in the same read transaction (and a
  statement made while it runs there queues behind it). The first statement of a ``read()`` block
  begins the read transaction; the block's end ends it. Readers are opened when needed, up to
  ``readers``; a read waits only when all of them are busy with other reads (a block that awaits
  something else holds its reader).
- One task may not nest uses (a read inside its own transaction would not see that
  transaction's writes; a transaction inside its own read would wait for nothing): refused.

Pragmas (set on every connection, since SQLite does not store them in the file except WAL):
- ``foreign_keys = ON``: the schema relies on them.
- ``journal_mode = WAL``: readers (the pool, a backup, the sqlite3 shell) do not block the bot,
  and a commit is one append to the WAL.
- ``synchronous = FULL``: money is at stake. With WAL, NORMAL may lose the last transactions on a
  power cut or OS crash (never on a process crash), and a purse that paid a stake while its game
  event vanished would be a confusing loss. FULL costs one fsync per commit; the benchmark
  (bench/storage.py) shows that still leaves well over the 500 actions/s target.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from bot.storage import writer as writing
from bot.storage.db import READERS, Database, Params, Row, Tx
from bot.storage.errors import ConstraintKind, ConstraintViolated, DatabaseError, DatabaseUnreadable
from bot.storage.migrations import LATEST, migrate
from bot.storage.reader import Reader, Statement, rowcount, rows
from bot.storage.sqlite_files import BUSY_MS, check_path, prepare, quick_check
from bot.storage.writer import Batch, Gate, Writer

T = TypeVar("T")


class SqliteTx(Tx):
    """Statements of one transaction on the writer (or, for :class:`ReadTx`, of one snapshot).
    The writer's run inline (see :mod:`bot.storage.writer`)."""

    __slots__ = ("_conn",)

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        try:
            return self._conn.execute(sql, params).rowcount
        except sqlite3.IntegrityError as exc:
            raise _violated(exc) from exc

    async def insert(self, sql: str, params: Params = ()) -> int:
        try:
            rowid = self._conn.execute(sql, params).lastrowid
        except sqlite3.IntegrityError as exc:
            raise _violated(exc) from exc
        if rowid is None:  # pragma: no cover - sqlite3 always sets it after an INSERT
            raise RuntimeError("INSERT gave no row id")
        return rowid

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        try:
            self._conn.executemany(sql, rows)
        except sqlite3.IntegrityError as exc:
            raise _violated(exc) from exc

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return self._conn.execute(sql, params).fetchall()


def _violated(exc: sqlite3.IntegrityError) -> ConstraintViolated:
    text = str(exc)
    for prefix, kind in _KINDS:
        if text.startswith(prefix):
            return ConstraintViolated(kind, text)
    return ConstraintViolated("check", text)


_KINDS: tuple[tuple[str, ConstraintKind], ...] = (
    ("UNIQUE", "unique"),
    ("FOREIGN KEY", "foreign_key"),
    ("NOT NULL", "not_null"),
    ("CHECK", "check"),
)


class ReadTx(SqliteTx):
    """The statements of one ``read()`` block, on one reader, all in one read transaction."""

    __slots__ = ("_begun", "_reader")

    def __init__(self, reader: Reader) -> None:  # no writer connection of its own
        self._reader = reader
        self._begun = False

    async def execute(self, sql: str, params: Params = ()) -> int:
        return await self._run(rowcount, sql, params)

    async def insert(self, sql: str, params: Params = ()) -> int:
        raise sqlite3.OperationalError("attempt to write a readonly database (use transaction())")

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        raise sqlite3.OperationalError("attempt to write a readonly database (use transaction())")

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return await self._run(rows, sql, params)

    async def _run(self, statement: Statement[T], sql: str, params: Params) -> T:
        if self._begun:
            return await self._reader.call(statement, sql, params)
        self._begun = True
        return await self._reader.first(statement, sql, params)

    def end(self) -> None:
        if self._begun:
            self._reader.end()


class SqliteDatabase(Database):
    """The bot's SQLite file. Open it with :meth:`Database.open`; close it with :meth:`close`."""

    def __init__(self, writer: Writer, path: Path, readers: int = READERS) -> None:
        if readers < 1:
            raise ValueError("at least one reader")
        self._writer = writer
        self.path = path
        self._lock = Gate()
        self._owner: asyncio.Task[Any] | None = None
        self._waiting = 0
        """Tasks waiting for :attr:`_lock`: a transaction ending while any wait leaves its batch
        open for them (see ``bot.storage.writer``)."""
        self._batch: Batch | None = None
        self._committer: asyncio.Task[None] | None = None
        self._reading: set[asyncio.Task[Any] | None] = set()
        self._idle: list[Reader] = []
        self._readers: list[Reader] = []
        self._free = asyncio.Semaphore(readers)
        self._size = readers
        self._closed = False
        self._checking: asyncio.Future[None] | None = None

    @classmethod
    async def connect(
        cls,
        path: Path | str,
        *,
        upgrade_to: int = LATEST,
        readers: int = READERS,
        check_later: bool = False,
    ) -> SqliteDatabase:
        """Open (or create) the file, check that it is SQLite, and bring its schema up to date.

        Raises :class:`DatabaseUnreadable` (naming the file) for a directory, a file without
        permission, random bytes or a damaged database; never replaces the file. The damage
        only ``PRAGMA quick_check`` finds is raised by :meth:`checked` with ``check_later``
        (the check runs meanwhile on a thread of its own), unless a migration is due: a
        damaged file is never migrated.
        """
        path = Path(path)
        check_path(path)
        try:
            writer = await Writer.open(path, BUSY_MS)
        except sqlite3.Error as exc:
            raise DatabaseUnreadable(path, str(exc)) from exc
        checking: asyncio.Future[None] | None = None
        try:
            version = await writer.call(prepare, path)
            checking = asyncio.get_running_loop().run_in_executor(None, quick_check, path)
            if not check_later or version < upgrade_to:
                await checking
            await writer.call(writing.patient, BUSY_MS, migrate, path, upgrade_to)
        except BaseException:
            if checking is not None:
                await asyncio.wait({checking})  # its thread reads the file: let it finish
            await writer.close()
            raise
        db = cls(writer, path, readers)
        db._checking = checking
        return db

    async def checked(self) -> None:
        if self._checking is not None:
            await asyncio.shield(self._checking)

    @property
    def target(self) -> Path:
        return self.path

    @property
    def name(self) -> str:
        return self.path.name

    async def close(self) -> None:
        """Wait for the transaction and the reads in flight, then close every connection (the
        readers first, so the writer is the last one and folds the WAL into the file)."""
        if self._closed:
            return  # closed already
        checking = self._checking
        if checking is not None:
            await asyncio.wait({checking})  # its thread reads the file: let it end first
            if not checking.cancelled():
                checking.exception()  # a verdict no one asked for (a failed login) is no error
        async with self._lock:
            await self._commit()
            for _ in range(self._size):
                await self._free.acquire()
            self._closed = True
            # Every reader is closed before the writer, so the writer is the last connection and
            # SQLite folds the WAL into the file and removes it; a reader still closing meanwhile
            # would make both skip that.
            await asyncio.gather(*(reader.aclose() for reader in self._take_readers()))
            await self._writer.close()
            for _ in range(self._size):  # a read still waiting for a reader learns it is closed
                self._free.release()

    async def abandon(self, within: float = 5.0) -> None:
        """Close every connection now, without waiting for the tasks that hold them (they were
        killed): what SQLite would see if the process died. Their open transactions roll back."""
        self._closed = True
        self._close_readers()
        if self._batch is not None:  # never committed: what a dead process would leave
            self._batch.fail(DatabaseError(self.path, "closed before the commit"))
            self._batch = None
        with contextlib.suppress(Exception):  # a daemon thread still busy does not hold us up
            await self._writer.close(within)

    async def schema_version(self) -> int:
        async with self.read() as tx:
            return int(await tx.fetchval("PRAGMA user_version"))

    async def checkpoint(self) -> None:
        """Fold the WAL into the file and empty it (as far as the reads in flight allow)."""
        async with self._hold():
            await self._commit()
            await self._writer.call(writing.checkpoint, BUSY_MS)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Tx]:
        """A few reads that see one snapshot: the last commit before the first of them."""
        task = self._enter()
        self._reading.add(task)
        try:
            reader = await self._take_reader()
            tx = ReadTx(reader)
            try:
                yield tx
            finally:
                tx.end()
                self._idle.append(reader)
                self._free.release()
        finally:
            self._reading.discard(task)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """One atomic transaction: committed, and durable, when the block ends; rolled back on
        any exception (then re-raised). It is a savepoint of a group commit (see
        :mod:`bot.storage.writer`), which is invisible to the block."""
        async with self._hold():
            try:
                batch = await self._join()
                conn = self._writer.conn
                conn.execute("SAVEPOINT tx")
                try:
                    yield SqliteTx(conn)
                    conn.execute("RELEASE tx")
                except BaseException as exc:
                    self._undo(batch, exc)
                    raise
                batch.members += 1
            finally:
                if self._waiting == 0:  # nobody to join the batch: commit it now
                    await self._commit()
        await asyncio.shield(batch.durable)

    async def _join(self) -> Batch:
        """The open batch, or a new one (``BEGIN IMMEDIATE``; off the loop when another
        connection holds the write lock)."""
        if self._batch is not None:
            return self._batch
        writer = self._writer
        if writer.conn.in_transaction:  # a BEGIN whose wait was cancelled went through after all
            writer.rollback()
        if not writer.begin():
            await writer.call(writing.begin_waiting, BUSY_MS)
        self._batch = Batch()
        return self._batch

    def _undo(self, batch: Batch, exc: BaseException) -> None:
        """A transaction failed: only its own writes go, unless SQLite dropped the whole batch,
        which then fails for every member."""
        if batch.members == 0:  # alone in it: end the SQLite transaction too
            self._batch = None
            self._writer.rollback()
        elif not writing.undo(self._writer, batch):
            self._batch = None
            batch.fail(DatabaseError(self.path, f"the transaction was lost: {exc!r}"))

    async def _commit(self) -> None:
        """Commit the open batch, holding the writer until it is durable: the transactions
        that come meanwhile wait, and then make the next batch together."""
        batch, self._batch = self._batch, None
        if batch is not None:
            await asyncio.wait({writing.commit_batch(self._writer, batch)})

    async def _commit_later(self) -> None:
        """A batch whose last waiter gave up: nobody else would commit it."""
        with contextlib.suppress(ValueError):  # closed meanwhile: close() committed it
            async with self._hold():
                await self._commit()

    def trace(self, callback: Callable[[str], object] | None) -> None:
        """Call ``callback`` with each statement the writer runs (tests and benchmarks)."""
        self._writer.conn.set_trace_callback(callback)

    def _enter(self) -> asyncio.Task[Any] | None:
        task = asyncio.current_task()
        if task is not None and (task is self._owner or task in self._reading):
            raise RuntimeError("nested use of the database inside one task would deadlock")
        if self._closed:
            raise ValueError(f"the database {self.path.name} is closed")
        return task

    async def _take_reader(self) -> Reader:
        await self._free.acquire()
        try:
            if self._closed:
                raise ValueError(f"the database {self.path.name} is closed")
            if self._idle:
                return self._idle.pop()
            reader = await Reader.open(self.path, BUSY_MS)
            if self._closed:  # abandoned while this one opened
                reader.close()
                raise ValueError(f"the database {self.path.name} is closed")
        except BaseException:
            self._free.release()
            raise
        self._readers.append(reader)
        return reader

    def _close_readers(self) -> None:
        for reader in self._take_readers():
            reader.close()

    def _take_readers(self) -> list[Reader]:
        readers = list(self._readers)
        self._readers.clear()
        self._idle.clear()
        return readers

    @asynccontextmanager
    async def _hold(self) -> AsyncIterator[None]:
        task = self._enter()
        self._waiting += 1
        try:
            await self._lock.acquire()
        except BaseException:
            self._waiting -= 1
            if self._batch is not None and self._waiting == 0 and not self._lock.locked():
                self._committer = asyncio.create_task(self._commit_later(), name="szulernia-commit")
            raise
        self._waiting -= 1
        try:
            self._owner = task
            await self._writer.idle()  # the last COMMIT, or one whose wait was cancelled
            yield
        finally:
            self._owner = None
            self._lock.release()
