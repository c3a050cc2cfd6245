"""The PostgreSQL backend's connections (:mod:`bot.storage.postgres`): each one kept with the
statement it may still be running that nobody waits for (a read's ROLLBACK and next BEGIN, the
writer's COMMIT whose wait was cancelled)."""

from __future__ import annotations

import asyncio
import contextlib
from decimal import Decimal

import asyncpg

CONNECT_SECONDS = 10.0
STATEMENTS = 1024  # prepared statements kept per connection: more than the repositories write


class Link:
    """One connection, and the statement it may still run that nobody waits for."""

    __slots__ = ("conn", "pending")

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn
        self.pending: asyncio.Future[str] | None = None

    def later(self, sql: str) -> None:
        self.pending = asyncio.ensure_future(self.conn.execute(sql))
        self.pending.add_done_callback(_retrieved)

    async def settled(self) -> None:
        """Wait for the pending statement (its error, if any, is raised)."""
        if self.pending is not None:
            await asyncio.shield(self.pending)
            self.pending = None

    async def usable(self) -> bool:
        """Whether the pending statement went through and the connection is open."""
        if self.pending is not None:
            pending, self.pending = self.pending, None
            await asyncio.wait({pending})
            if pending.cancelled() or pending.exception() is not None:
                return False
        return not self.conn.is_closed()

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.usable()
            await self.conn.close(timeout=CONNECT_SECONDS)
        self.conn.terminate()


def _retrieved(future: asyncio.Future[str]) -> None:
    if not future.cancelled():
        future.exception()


async def connect(url: str) -> asyncpg.Connection:
    conn = await asyncpg.connect(url, timeout=CONNECT_SECONDS, statement_cache_size=STATEMENTS)
    try:
        await _init(conn)
    except BaseException:
        conn.terminate()
        raise
    return conn


async def _init(conn: asyncpg.Connection) -> None:
    # SUM() of BIGINT is numeric: read it as an int (a coin is never a fraction).
    await conn.set_type_codec(
        "numeric", schema="pg_catalog", encoder=str, decoder=_number, format="text"
    )


def _number(text: str) -> int | Decimal:
    value = Decimal(text)
    return int(value) if value == value.to_integral_value() else value
