"""The PostgreSQL backend (asyncpg), for several bot processes over one database.

Chosen by a ``postgresql://`` URL (``[database] url``). The repositories' SQL is rewritten by
:mod:`bot.storage.dialect`; the migrations are the same as SQLite's (``bot.storage.schema``),
with a ``schema_version`` row for SQLite's ``user_version``.

How it stays correct, with transactions side by side (up to ``WRITERS`` in a process, and
those of other processes): the database decides, not an in-process lock.
- **A table step** first holds the table's row (``tables.get(..., lock=True)``, ``FOR UPDATE``)
  or moves it with the guarded ``UPDATE tables ... WHERE version = ?``
  (``bot.storage.tables.advance``): a second step at the same version waits on that row's lock
  and then finds no row at its version (a :class:`~bot.storage.errors.VersionConflict`).
- **A debit** is ``UPDATE ... WHERE balance >= ?``, which PostgreSQL re-checks on the row it
  waited for, so two transactions never spend one coin twice.
- **An idempotency key** is a primary key, so a repeat is refused across processes as well.
- **A read-modify-write done in Python** (a character's stats) takes an advisory lock
  (:meth:`PgTx.lock`), in one order of keys.
- Two transactions that lock the same rows in opposite orders (rare: a GM's correction beside
  a game ending) deadlock; PostgreSQL rolls one back, which fails as a
  :class:`~bot.storage.errors.DatabaseError` with nothing of it written.
- **Reads** see one snapshot (``REPEATABLE READ, READ ONLY``) on connections of their own, and
  never wait behind a writer.
- **Migrations** take an advisory lock, so two processes starting at once apply each one once.

Money columns are ``BIGINT``; sums come back as ``numeric``, read here as ``int``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.storage import dialect
from bot.storage.db import READERS, Database, Params, Row, Tx
from bot.storage.dialect import redact
from bot.storage.errors import (
    ConstraintKind,
    ConstraintViolated,
    DatabaseError,
    DatabaseUnreadable,
    SchemaTooNew,
)
from bot.storage.migrations import LATEST, statements
from bot.storage.pg_links import CONNECT_SECONDS as CONNECT_SECONDS
from bot.storage.pg_links import Link, connect

MIGRATION_LOCK = 0x537A756C  # the advisory lock two starting processes migrate under
SNAPSHOT = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
WRITERS = 4
LOST = (asyncpg.PostgresConnectionError, asyncpg.InterfaceError, ConnectionError, OSError)
_VIOLATIONS: tuple[tuple[type[Exception], ConstraintKind], ...] = (
    (asyncpg.UniqueViolationError, "unique"),
    (asyncpg.ForeignKeyViolationError, "foreign_key"),
    (asyncpg.NotNullViolationError, "not_null"),
)
Trace = Callable[[str], object]
Connection = asyncpg.Connection | PoolConnectionProxy


class PgTx(Tx):
    """The statements of one transaction (or snapshot) on one connection."""

    __slots__ = ("_conn", "_points", "_trace", "busy")
    dialect = "postgres"

    def __init__(self, conn: Connection, trace: Trace | None) -> None:
        self._conn = conn
        self._trace = trace
        self._points = 0
        self.busy = False
        """A statement is on its way: a block that ends now leaves the connection unusable."""

    async def execute(self, sql: str, params: Params = ()) -> int:
        status = await self._run(self._conn.execute, sql, params)
        count = status.rpartition(" ")[2]
        return int(count) if count.isdigit() else 0

    async def insert(self, sql: str, params: Params = ()) -> int:
        return int(await self._run(self._conn.fetchval, sql + " RETURNING id", params))

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        batch = [tuple(row) for row in rows]
        if not batch:
            return
        if self._trace is not None:
            self._trace(sql)
        self.busy = True
        try:
            await self._conn.executemany(dialect.postgres(sql), batch)
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise _violated(exc) from exc
        finally:
            self.busy = False

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        records = await self._run(self._conn.fetch, sql, params)
        return [tuple(record) for record in records]

    async def _run(self, call: Callable[..., Any], sql: str, params: Params) -> Any:
        if self._trace is not None:
            self._trace(dialect.inline(sql, params))
        self.busy = True
        try:
            result = await call(dialect.postgres(sql), *params)
        except asyncpg.IntegrityConstraintViolationError as exc:
            self.busy = False
            raise _violated(exc) from exc
        except asyncpg.PostgresError:
            self.busy = False  # the server answered: the connection is fine
            raise
        self.busy = False
        return result

    async def lock(self, topic: int, keys: Iterable[int]) -> None:
        for key in sorted(set(keys)):  # one order everywhere: two holders never wait in a ring
            await self._run(
                self._conn.execute, "SELECT pg_advisory_xact_lock(?, ?)", (topic, key % 2**31)
            )

    def savepoint(self) -> AbstractAsyncContextManager[None]:
        return self._savepoint()

    @asynccontextmanager
    async def _savepoint(self) -> AsyncIterator[None]:
        self._points += 1
        name = f"sp{self._points}"
        await self._step(f"SAVEPOINT {name}")
        try:
            yield
        except BaseException:
            if not self.busy:
                await self._step(f"ROLLBACK TO SAVEPOINT {name}")
            raise
        await self._step(f"RELEASE SAVEPOINT {name}")

    async def _step(self, sql: str) -> None:
        self.busy = True
        await self._conn.execute(sql)
        self.busy = False


def _violated(exc: asyncpg.IntegrityConstraintViolationError) -> ConstraintViolated:
    for cls, kind in _VIOLATIONS:
        if isinstance(exc, cls):
            return ConstraintViolated(kind, str(exc))
    return ConstraintViolated("check", str(exc))


class PostgresDatabase(Database):
    """See the module docstring. Open it with :meth:`Database.open` and a URL.

    Its connections are its own, not a pool's (a pool's checkout and reset cost a round trip
    or two each, more than most statements): up to ``WRITERS`` for transactions, which run side
    by side (each statement is a round trip that waits for a turn of the busy event loop, so one
    writer at a time would make every transaction wait for all the trips of those before it),
    and up to ``READERS`` readers.
    A reader waits between reads inside ``BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY``,
    whose snapshot PostgreSQL takes at the next read's first statement; a read's end sends its
    ROLLBACK and the next BEGIN in one message, without waiting for them. A connection left
    mid-statement (a cancelled read or transaction) is dropped, which rolls it back, and
    another is opened when needed."""

    def __init__(self, url: str) -> None:
        self._url = url
        self._writers: list[Link] = []
        self._writing_now = asyncio.Semaphore(WRITERS)
        self._owners: set[asyncio.Task[Any] | None] = set()
        self._reading: set[asyncio.Task[Any] | None] = set()
        self._idle: list[Link] = []
        self._links: set[Link] = set()
        self._free = asyncio.Semaphore(READERS)
        self._trace: Trace | None = None
        self._closed = False

    @classmethod
    async def connect(cls, url: str, *, upgrade_to: int = LATEST) -> PostgresDatabase:
        shown = redact(url)
        try:
            conn = await connect(url)
        except (TimeoutError, OSError, ValueError, OverflowError, asyncpg.PostgresError) as exc:
            raise DatabaseUnreadable(shown, _reason(exc)) from exc
        db = cls(url)
        try:
            await _migrate(conn, shown, upgrade_to)
        except BaseException:
            conn.terminate()
            raise
        db._writers.append(db._keep(conn))
        return db

    @property
    def target(self) -> str:
        return self._url

    @property
    def name(self) -> str:
        return redact(self._url)

    def trace(self, callback: Trace | None) -> None:
        self._trace = callback

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Tx]:
        async with self._explained(), self._reading_block() as tx:
            yield tx

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        async with self._explained(), self._writing_block() as tx:
            yield tx

    @asynccontextmanager
    async def _explained(self) -> AsyncIterator[None]:
        """The server's troubles, told as the operator's: one line naming the database."""
        try:
            yield
        except LOST as exc:
            raise DatabaseError(self.name, f"the connection to the server was lost: {exc}") from exc
        except asyncpg.TransactionRollbackError as exc:  # a deadlock with another process
            raise DatabaseError(self.name, f"the transaction was rolled back: {exc}") from exc

    @asynccontextmanager
    async def _reading_block(self) -> AsyncIterator[Tx]:
        task = self._enter()
        self._reading.add(task)
        try:
            await self._free.acquire()
            try:
                link = await self._reader()
                tx = PgTx(link.conn, None)
                try:
                    yield tx
                finally:
                    if tx.busy or self._closed:
                        self._drop(link)
                    else:
                        link.later(f"ROLLBACK; {SNAPSHOT}")
                        self._idle.append(link)
            finally:
                self._free.release()
        finally:
            self._reading.discard(task)

    @asynccontextmanager
    async def _writing_block(self) -> AsyncIterator[Tx]:
        task = self._enter()
        await self._writing_now.acquire()
        self._owners.add(task)
        try:
            link = await self._begin()
            tx = PgTx(link.conn, self._trace)
            try:
                yield tx
            except BaseException:
                if tx.busy or self._closed:
                    self._drop(link)
                else:
                    link.later("ROLLBACK")
                    self._writers.append(link)
                raise
            link.later("COMMIT")
            self._writers.append(link)  # the next user waits for the COMMIT (Link.usable)
            await link.settled()  # durable; a cancelled wait leaves it running
        finally:
            self._owners.discard(task)
            self._writing_now.release()

    async def schema_version(self) -> int:
        async with self.read() as tx:
            return int(await tx.fetchval("SELECT version FROM schema_version"))

    async def close(self) -> None:
        if self._closed:
            return
        for _ in range(WRITERS):
            await self._writing_now.acquire()
        for _ in range(READERS):
            await self._free.acquire()
        self._closed = True
        links = list(self._links)
        self._links.clear()
        self._idle.clear()
        self._writers.clear()
        await asyncio.gather(*(link.close() for link in links))
        for _ in range(READERS):
            self._free.release()
        for _ in range(WRITERS):
            self._writing_now.release()

    async def abandon(self, within: float = 5.0) -> None:
        self._closed = True
        for link in list(self._links):
            self._drop(link)
        self._idle.clear()
        self._writers.clear()

    def _enter(self) -> asyncio.Task[Any] | None:
        task = asyncio.current_task()
        if task is not None and (task in self._owners or task in self._reading):
            raise RuntimeError("nested use of the database inside one task would deadlock")
        if self._closed:
            raise ValueError(f"the database {self.name} is closed")
        return task

    async def _reader(self) -> Link:
        while self._idle:
            link = self._idle.pop()
            if await link.usable():
                return link
            self._drop(link)
        conn = await connect(self._url)
        await conn.execute(SNAPSHOT)
        return self._keep(conn)

    async def _writing(self) -> Link:
        while self._writers:
            link = self._writers.pop()
            if await link.usable():
                return link
            self._drop(link)
        return self._keep(await connect(self._url))

    async def _begin(self) -> Link:
        """A writer, in a new transaction; a connection found dropped (the server restarted)
        is replaced once, since nothing of the transaction was sent yet."""
        link = await self._writing()
        try:
            await link.conn.execute("BEGIN")
        except (asyncpg.PostgresConnectionError, ConnectionError, OSError):
            self._drop(link)
            link = await self._writing()
            await link.conn.execute("BEGIN")
        return link

    def _keep(self, conn: asyncpg.Connection) -> Link:
        link = Link(conn)
        self._links.add(link)
        if self._closed:
            self._drop(link)
            raise ValueError(f"the database {self.name} is closed")
        return link

    def _drop(self, link: Link) -> None:
        self._links.discard(link)
        link.conn.terminate()


async def _migrate(conn: asyncpg.Connection, shown: str, target: int) -> None:
    """Apply every migration above the database's version up to ``target``, each in its own
    transaction with the new version, under an advisory lock."""
    async with conn.transaction():  # two processes starting at once: one creates it
        await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
        await conn.execute(
            "INSERT INTO schema_version (version) SELECT 0 "
            "WHERE NOT EXISTS (SELECT 1 FROM schema_version)"
        )
    for version in range(1, target + 1):
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            current = int(await conn.fetchval("SELECT version FROM schema_version"))
            if current > LATEST:
                raise SchemaTooNew(shown, current, LATEST)
            if current >= version:
                continue
            try:
                for sql in statements(version, "postgres"):
                    await conn.execute(dialect.postgres(sql))
            except asyncpg.PostgresError as exc:
                raise DatabaseError(
                    shown, f"migration to schema version {version} failed: {exc}"
                ) from exc
            await conn.execute("UPDATE schema_version SET version = $1", version)
    current = int(await conn.fetchval("SELECT version FROM schema_version"))
    if current > LATEST:
        raise SchemaTooNew(shown, current, LATEST)


def _reason(exc: BaseException) -> str:
    if isinstance(exc, asyncio.TimeoutError):
        return "the server did not answer"
    with contextlib.suppress(Exception):
        return str(exc) or type(exc).__name__
    return type(exc).__name__  # pragma: no cover
