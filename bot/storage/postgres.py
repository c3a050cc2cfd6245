"""The PostgreSQL backend (asyncpg), for several bot processes over one database.

Chosen by a ``postgresql://`` URL (``[database] url``). The repositories' SQL is rewritten by
:mod:`bot.storage.dialect`; the migrations are the same as SQLite's (``bot.storage.schema``),
with a ``schema_version`` row for SQLite's ``user_version``.

How it stays correct across processes:
- **One writer per process**, as on SQLite: the process's transactions take turns on one
  connection, so two of its own never lock rows in opposite orders.
- **Across processes, the database decides.** Every table step begins with the guarded
  ``UPDATE tables ... WHERE version = ?`` (``bot.storage.tables.advance``): a second process
  at the same version waits on that row's lock and then finds no row at its version (a
  :class:`~bot.storage.errors.VersionConflict`). A debit is ``UPDATE ... WHERE balance >= ?``,
  which PostgreSQL re-checks on the row it waited for, so two processes never spend one coin
  twice. An idempotency key is a primary key, so a repeat is refused across processes as well.
- **Reads** see one snapshot (``REPEATABLE READ, READ ONLY``) on a pool of their own
  connections, and never wait behind the writer.
- **Migrations** take an advisory lock, so two processes starting at once apply each one once.

Money columns are ``BIGINT``; sums come back as ``numeric``, read here as ``int``.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from decimal import Decimal
from typing import Any

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.storage import dialect
from bot.storage.db import READERS, Database, Params, Row, Tx
from bot.storage.errors import (
    ConstraintKind,
    ConstraintViolated,
    DatabaseError,
    DatabaseUnreadable,
    SchemaTooNew,
)
from bot.storage.migrations import LATEST, statements

MIGRATION_LOCK = 0x537A756C  # the advisory lock two starting processes migrate under
CONNECT_SECONDS = 10.0
_VIOLATIONS: tuple[tuple[type[Exception], ConstraintKind], ...] = (
    (asyncpg.UniqueViolationError, "unique"),
    (asyncpg.ForeignKeyViolationError, "foreign_key"),
    (asyncpg.NotNullViolationError, "not_null"),
)
Trace = Callable[[str], object]
Connection = asyncpg.Connection | PoolConnectionProxy


class PgTx(Tx):
    """The statements of one transaction (or snapshot) on one connection."""

    __slots__ = ("_conn", "_points", "_trace")
    dialect = "postgres"

    def __init__(self, conn: Connection, trace: Trace | None) -> None:
        self._conn = conn
        self._trace = trace
        self._points = 0

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
        try:
            await self._conn.executemany(dialect.postgres(sql), batch)
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise _violated(exc) from exc

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        records = await self._run(self._conn.fetch, sql, params)
        return [tuple(record) for record in records]

    async def _run(self, call: Callable[..., Any], sql: str, params: Params) -> Any:
        if self._trace is not None:
            self._trace(dialect.inline(sql, params))
        try:
            return await call(dialect.postgres(sql), *params)
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise _violated(exc) from exc

    def savepoint(self) -> AbstractAsyncContextManager[None]:
        return self._savepoint()

    @asynccontextmanager
    async def _savepoint(self) -> AsyncIterator[None]:
        self._points += 1
        name = f"sp{self._points}"
        await self._conn.execute(f"SAVEPOINT {name}")
        try:
            yield
        except BaseException:
            await self._conn.execute(f"ROLLBACK TO SAVEPOINT {name}")
            raise
        await self._conn.execute(f"RELEASE SAVEPOINT {name}")


def _violated(exc: asyncpg.IntegrityConstraintViolationError) -> ConstraintViolated:
    for cls, kind in _VIOLATIONS:
        if isinstance(exc, cls):
            return ConstraintViolated(kind, str(exc))
    return ConstraintViolated("check", str(exc))


class PostgresDatabase(Database):
    """See the module docstring. Open it with :meth:`Database.open` and a URL."""

    def __init__(self, url: str, writer: asyncpg.Pool, readers: asyncpg.Pool) -> None:
        self._url = url
        self._writer = writer
        self._readers = readers
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None
        self._reading: set[asyncio.Task[Any] | None] = set()
        self._trace: Trace | None = None
        self._closed = False

    @classmethod
    async def connect(cls, url: str, *, upgrade_to: int = LATEST) -> PostgresDatabase:
        shown = redact(url)
        try:
            writer = await _pool(url, 1)
        except (TimeoutError, OSError, asyncpg.PostgresError) as exc:
            raise DatabaseUnreadable(shown, _reason(exc)) from exc
        try:
            await _migrate(writer, shown, upgrade_to)
            readers = await _pool(url, READERS)
        except BaseException:
            await writer.close()
            raise
        return cls(url, writer, readers)

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
        task = self._enter()
        self._reading.add(task)
        try:
            async with (
                self._readers.acquire() as conn,
                conn.transaction(isolation="repeatable_read", readonly=True),
            ):
                yield PgTx(conn, None)
        finally:
            self._reading.discard(task)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        task = self._enter()
        async with self._lock:
            self._owner = task
            try:
                async with self._writer.acquire() as conn, conn.transaction():
                    yield PgTx(conn, self._trace)
            finally:
                self._owner = None

    async def schema_version(self) -> int:
        async with self.read() as tx:
            return int(await tx.fetchval("SELECT version FROM schema_version"))

    async def close(self) -> None:
        if self._closed:
            return
        async with self._lock:
            self._closed = True
            await asyncio.gather(self._readers.close(), self._writer.close())

    async def abandon(self, within: float = 5.0) -> None:
        self._closed = True
        self._readers.terminate()
        self._writer.terminate()

    def _enter(self) -> asyncio.Task[Any] | None:
        task = asyncio.current_task()
        if task is not None and (task is self._owner or task in self._reading):
            raise RuntimeError("nested use of the database inside one task would deadlock")
        if self._closed:
            raise ValueError(f"the database {self.name} is closed")
        return task


async def _pool(url: str, size: int) -> asyncpg.Pool:
    pool = await asyncpg.create_pool(
        url, min_size=1, max_size=size, init=_init, timeout=CONNECT_SECONDS
    )
    if pool is None:  # pragma: no cover - only without a running loop
        raise RuntimeError("no pool")
    return pool


async def _init(conn: asyncpg.Connection) -> None:
    # SUM() of BIGINT is numeric: read it as an int (a coin is never a fraction).
    await conn.set_type_codec(
        "numeric", schema="pg_catalog", encoder=str, decoder=_number, format="text"
    )


def _number(text: str) -> int | Decimal:
    value = Decimal(text)
    return int(value) if value == value.to_integral_value() else value


async def _migrate(pool: asyncpg.Pool, shown: str, target: int) -> None:
    """Apply every migration above the database's version up to ``target``, each in its own
    transaction with the new version, under an advisory lock."""
    async with pool.acquire() as conn:
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


def redact(url: str) -> str:
    """The URL without its password."""
    return re.sub(r"(://[^:/@]*):[^@]*@", r"\1:***@", url)


def _reason(exc: BaseException) -> str:
    if isinstance(exc, asyncio.TimeoutError):
        return "the server did not answer"
    with contextlib.suppress(Exception):
        return str(exc) or type(exc).__name__
    return type(exc).__name__  # pragma: no cover
