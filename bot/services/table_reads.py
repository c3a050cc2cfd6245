"""Reading tables without taking a step: who opened one, where they are, their timers, their
history, their pots. A part of :class:`~bot.services.tables.TableService`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.services.errors import UnknownTable
from bot.services.outcomes import TableView
from bot.services.table_loads import Loader
from bot.services.table_steps import decode
from bot.storage import ledger, tables
from bot.storage.db import Database

if TYPE_CHECKING:
    from bot.services.clock import Clock


class TableReads:
    _db: Database
    _loader: Loader
    _clock: Clock

    async def get(self, table_id: int) -> TableView:
        raise NotImplementedError

    async def by_key(self, key: int | str) -> int | None:
        """The table that the action carrying ``key`` wrote to (e.g. the table a :meth:`create`
        with that key opened), or None if no action carried it."""
        async with self._db.read() as tx:
            found = await tables.action_key(tx, str(key))
        return None if found is None else found[0]

    async def opener(self, table_id: int) -> int:
        """The user who opened the table (``actor_id`` of :meth:`create`)."""
        async with self._db.read() as tx:
            row = await tables.get(tx, table_id)
        if row is None:
            raise UnknownTable(table=table_id)
        return row.created_by

    async def live_in_channel(self, guild_id: int, channel_id: int) -> list[int]:
        async with self._db.read() as tx:
            return [row.id for row in await tables.in_channel(tx, guild_id, channel_id)]

    async def live_in_guild(self, guild_id: int) -> list[TableView]:
        """The guild's open and running tables, oldest first (for ``/table list``)."""
        async with self._db.read() as tx:
            ids = [row.id for row in await tables.in_guild(tx, guild_id)]
        return [await self.get(table_id) for table_id in ids]

    async def seated_at(self, character_id: int) -> list[int]:
        async with self._db.read() as tx:
            return await tables.seated_at(tx, character_id)

    async def due_timeouts(self, now: int | None = None) -> list[tuple[int, int]]:
        """``(table_id, version)`` of the turn timers due at ``now`` (default: the clock)."""
        async with self._db.read() as tx:
            due = await tables.due_timeouts(tx, self._clock() if now is None else now)
        return [(table_id, version) for table_id, version, _ in due]

    async def next_deadline(self) -> int | None:
        async with self._db.read() as tx:
            return await tables.next_deadline(tx)

    async def history(self, table_id: int) -> list[Any]:
        """Every event of the table so far, in order (e.g. for a summary once a game ends)."""
        async with self._db.read() as tx:
            row = await tables.get(tx, table_id)
            if row is None:
                raise UnknownTable(table=table_id)
            blobs = await tables.events(tx, table_id)
        return decode(self._loader.spec(row.game).rules, blobs)

    async def step_events(self, table_id: int, after: int, upto: int) -> dict[int, list[Any]]:
        """The events of each version in ``(after, upto]`` (a version without events is absent):
        what the publisher announces."""
        async with self._db.read() as tx:
            row = await tables.get(tx, table_id)
            if row is None:
                raise UnknownTable(table=table_id)
            rows = await tables.events_between(tx, table_id, after, upto)
        rules = self._loader.spec(row.game).rules
        found: dict[int, list[bytes]] = {}
        for version, blob in rows:
            found.setdefault(version, []).append(blob)
        return {version: decode(rules, blobs) for version, blobs in found.items()}

    async def pot_balance(self, table_id: int) -> int:
        """What the table's pot account holds (a finished table may keep a rolled-over pot)."""
        async with self._db.read() as tx:
            if await tables.get(tx, table_id) is None:
                raise UnknownTable(table=table_id)
            return await ledger.balance(tx, await ledger.pot_account(tx, table_id))
