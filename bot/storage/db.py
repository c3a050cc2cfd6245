"""The storage interface: a :class:`Database` and the :class:`Tx` its blocks hand out.

Two backends stand behind it: SQLite (:mod:`bot.storage.sqlite`, the embedded default: a file
path) and PostgreSQL (:mod:`bot.storage.postgres`, a ``postgresql://`` URL, for several bot
processes over one database). The repositories (``bot.storage.*``) are written once, in the SQL
both understand (``?`` placeholders; :mod:`bot.storage.dialect` rewrites it for PostgreSQL), and
take a ``Tx``:

    async with db.transaction() as tx:   # atomic, and durable when the block ends; rolled back
        await tx.execute(...)            # on any exception (then re-raised)
    async with db.read() as tx:          # reads that see one snapshot, never behind a writer
        await tx.fetchall(...)

One task may not nest uses (a read inside its own transaction would not see that transaction's
writes; a transaction inside its own read would wait for nothing): refused on both backends.

A statement that breaks a constraint raises :class:`~bot.storage.errors.ConstraintViolated` on
both. On PostgreSQL a failed statement spoils the rest of its transaction, so a repository that
catches the error to go on (a taken seat, say) makes the statement inside ``tx.savepoint()``;
SQLite undoes the one statement by itself, and its savepoint costs nothing.
"""

from __future__ import annotations

import abc
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any, ClassVar

Row = tuple[Any, ...]
Params = Sequence[object]

READERS = 4
"""Read connections at most, per process: the machine has few cores, and reads are short."""

LOCK_STATS = 1
"""A character's stats totals (``bot.storage.stats``): read, added to, written back."""


class Tx(abc.ABC):
    """The statements of one transaction (or, in ``read()``, of one snapshot)."""

    __slots__ = ()
    dialect: ClassVar[str] = "sqlite"
    """Whose SQL this is: "sqlite" or "postgres" (for the rare fragment that differs)."""

    @abc.abstractmethod
    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; return the number of rows it changed."""

    @abc.abstractmethod
    async def insert(self, sql: str, params: Params = ()) -> int:
        """Run one INSERT into a table keyed by ``id``; return the new row's id."""

    @abc.abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one statement once per row of parameters."""

    @abc.abstractmethod
    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """The rows of one query, as tuples."""

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, params: Params = ()) -> Any:
        row = await self.fetchone(sql, params)
        return None if row is None else row[0]

    def savepoint(self) -> AbstractAsyncContextManager[None]:
        """A block whose failure leaves the transaction usable (see the module docstring)."""
        return _nothing()

    async def lock(self, topic: int, keys: Iterable[int]) -> None:  # noqa: B027 - see below
        """Hold ``keys`` (of ``topic``: :data:`LOCK_STATS`) until the transaction ends, against
        other processes' transactions doing the same: for a read-modify-write that the
        repositories do in Python. SQLite needs nothing: its writer is one at a time, across
        processes too (``BEGIN IMMEDIATE`` takes the file's write lock)."""


@asynccontextmanager
async def _nothing() -> AsyncIterator[None]:
    yield


class Database(abc.ABC):
    """The bot's database, opened by :func:`bot.storage.opening.open_database`."""

    @property
    @abc.abstractmethod
    def target(self) -> Path | str:
        """What ``open_database`` was given: open it again to reach the same data."""

    @property
    @abc.abstractmethod
    def name(self) -> str:
        """A short name for messages to the operator (no password)."""

    @abc.abstractmethod
    def read(self) -> AbstractAsyncContextManager[Tx]:
        """A few reads that see one snapshot: the last commit before the first of them."""

    @abc.abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Tx]:
        """One atomic transaction, durable when the block ends."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Wait for the work in flight, then close every connection. Again: a no-op."""

    @abc.abstractmethod
    async def abandon(self, within: float = 5.0) -> None:
        """Drop every connection now, as a killed process would: open transactions roll back."""

    @abc.abstractmethod
    async def schema_version(self) -> int:
        """The number of migrations applied."""

    async def checked(self) -> None:  # noqa: B027 - a no-op where the server checks its files
        """Wait for the integrity check begun at opening (``open_database(check_later=True)``);
        raises :class:`~bot.storage.errors.DatabaseUnreadable` if the file is damaged."""

    async def checkpoint(self) -> None:  # noqa: B027 - a no-op where the server does it
        """Fold the write-ahead log into the database (where the bot must ask for it)."""

    @abc.abstractmethod
    def trace(self, callback: Callable[[str], object] | None) -> None:
        """Call ``callback`` with each statement the transactions run (tests and benchmarks)."""
