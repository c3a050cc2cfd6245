"""The one SQLite connection, and the lock that keeps its transactions from interleaving.

aiosqlite runs every statement on one worker thread, in order. Two coroutines that each did
``BEGIN ... COMMIT`` on the same connection would otherwise mix their statements into one
transaction, so every use of the connection goes through :attr:`Database._lock`:

    async with db.transaction() as tx:   # BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any error
        await tx.execute(...)
    async with db.read() as tx:          # the lock only: never sees another coroutine's half-done
        await tx.fetchall(...)           # transaction

Pragmas (set on every connection, since SQLite does not store them in the file except WAL):
- ``foreign_keys = ON``: the schema relies on them.
- ``journal_mode = WAL``: readers (a backup, the sqlite3 shell) do not block the bot, and a commit
  is one append to the WAL.
- ``synchronous = FULL``: money is at stake. With WAL, NORMAL may lose the last transactions on a
  power cut or OS crash (never on a process crash), and a purse that paid a stake while its game
  event vanished would be a confusing loss. FULL costs one fsync per commit; the benchmark
  (bench/storage.py) shows that still leaves well over the 500 actions/s target.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.errors import DatabaseError, DatabaseUnreadable
from bot.storage.migrations import LATEST, migrate

Row = tuple[Any, ...]
Params = Sequence[object]


class Tx:
    """Statements inside one held lock (and, for writes, one transaction)."""

    __slots__ = ("_conn",)

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; return the number of rows it changed."""
        cursor = await self._conn.execute(sql, params)
        return cursor.rowcount

    async def insert(self, sql: str, params: Params = ()) -> int:
        """Run one INSERT; return the new row's id."""
        cursor = await self._conn.execute(sql, params)
        rowid = cursor.lastrowid
        if rowid is None:  # pragma: no cover - sqlite3 always sets it after an INSERT
            raise RuntimeError("INSERT gave no row id")
        return rowid

    async def executemany(self, sql: str, rows: Iterable[Params]) -> int:
        cursor = await self._conn.executemany(sql, rows)
        return cursor.rowcount

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return [tuple(r) for r in await self._conn.execute_fetchall(sql, params)]

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self._conn.execute_fetchall(sql, params)
        for row in rows:
            return tuple(row)
        return None

    async def fetchval(self, sql: str, params: Params = ()) -> Any:
        row = await self.fetchone(sql, params)
        return None if row is None else row[0]


class Database:
    """The bot's SQLite file. Open it with :meth:`open`; close it with :meth:`close`."""

    def __init__(self, conn: aiosqlite.Connection, path: Path) -> None:
        self._conn = conn
        self.path = path
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None

    @classmethod
    async def open(cls, path: Path | str, *, upgrade_to: int = LATEST) -> Database:
        """Open (or create) the file, check that it is SQLite, and bring its schema up to date.

        Raises :class:`DatabaseUnreadable` (naming the file) for a directory, a file without
        permission, random bytes or a damaged database; never replaces the file.
        """
        path = Path(path)
        _check_path(path)
        try:
            conn = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.Error as exc:
            raise DatabaseUnreadable(path, str(exc)) from exc
        try:
            await _prepare(conn, path)
            await migrate(conn, path, upgrade_to)
        except BaseException:
            await conn.close()
            raise
        return cls(conn, path)

    async def close(self) -> None:
        async with self._lock:
            await self._conn.close()

    async def schema_version(self) -> int:
        async with self.read() as tx:
            return int(await tx.fetchval("PRAGMA user_version"))

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Tx]:
        """Hold the connection for a few reads, with no transaction of another coroutine open."""
        async with self._hold():
            yield Tx(self._conn)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``; ``ROLLBACK`` on any exception (then re-raised)."""
        async with self._hold():
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield Tx(self._conn)
            except BaseException:
                await self._rollback()
                raise
            try:
                await self._conn.execute("COMMIT")
            except BaseException:
                await self._rollback()
                raise

    @asynccontextmanager
    async def _hold(self) -> AsyncIterator[None]:
        task = asyncio.current_task()
        if task is not None and task is self._owner:
            raise RuntimeError("nested use of the database inside one task would deadlock")
        async with self._lock:
            self._owner = task
            try:
                yield
            finally:
                self._owner = None

    async def _rollback(self) -> None:
        if not self._conn.in_transaction:
            return
        with contextlib.suppress(sqlite3.OperationalError):  # the COMMIT went through after all
            await asyncio.shield(self._conn.execute("ROLLBACK"))


def _check_path(path: Path) -> None:
    if path.is_dir():
        raise DatabaseUnreadable(path, "it is a directory")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise DatabaseError(path, f"the folder {parent} does not exist")
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        raise DatabaseUnreadable(path, "permission denied (the bot needs to read and write it)")
    if not path.exists() and not os.access(parent, os.W_OK | os.X_OK):
        raise DatabaseError(path, f"permission denied: cannot create a file in {parent}")


async def _prepare(conn: aiosqlite.Connection, path: Path) -> None:
    try:
        # Reading the schema is the first thing that touches the file's pages: random bytes fail
        # here with "file is not a database".
        await conn.execute_fetchall("SELECT count(*) FROM sqlite_master")
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.execute("PRAGMA busy_timeout = 5000")
        mode = await conn.execute_fetchall("PRAGMA journal_mode = WAL")
        if [tuple(r) for r in mode] != [("wal",)]:
            raise DatabaseUnreadable(path, f"cannot switch to WAL mode (got {list(mode)!r})")
        await conn.execute("PRAGMA synchronous = FULL")
        check = [row[0] for row in await conn.execute_fetchall("PRAGMA quick_check")]
        if check != ["ok"]:
            raise DatabaseUnreadable(path, "damaged: " + "; ".join(map(str, check[:3])))
    except sqlite3.Error as exc:
        raise DatabaseUnreadable(path, str(exc)) from exc
