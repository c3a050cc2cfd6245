"""Which tables are this process's, when the bot runs as several processes of shards
(``bot.shards``). A part of :class:`~bot.services.tables.TableService`.

A process keeps in memory, times and hands to its NPC players only the tables of the guilds it
owns. A table's guild never changes, so the service remembers each table's guild once seen (a
restore sees every live one) and answers "is it mine?" from memory.

A table of another process's guild can still be stepped here: Discord sends every DM to shard
0, so a click in a hand DM reaches shard 0's process whichever shard the table's guild is on.
Such a step is checked and written like any (the version check in its transaction guards it),
and published from here, but the table is not cached here (so it is read afresh next time) and
its marks are read again before it is published. The owner learns of it when its own copy turns
out stale: a click carrying a newer version (:meth:`TableOwners.outdated`), or a timeout or an
NPC move refused by the version check. It then takes the table up again (:meth:`_adopt`): its
new turn deadline, its marks read afresh, its NPC players told.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from bot.services.errors import StaleAction
from bot.services.outcomes import TableOutcome, TableView
from bot.services.table_deadlines import Deadlines
from bot.services.table_loads import Dormant
from bot.services.table_reads import view_of
from bot.services.table_rosters import Rosters
from bot.services.table_steps import CLOSED, Live
from bot.shards import EVERYTHING, Ownership
from bot.storage import tables
from bot.storage.db import Database, Tx
from bot.storage.errors import VersionConflict

if TYPE_CHECKING:
    from bot.services.surfaces import SurfaceService

FILL_FROM = 8
"""Read every live table's guild in one query when at least this many are unknown."""


class TableOwners:
    _db: Database
    _cache: dict[int, Live | Dormant]
    _rosters: Rosters
    _deadlines: Deadlines
    _locks: dict[int, asyncio.Lock]
    _surfaces: SurfaceService | None
    _watchers: list[Callable[[TableView], None]]

    if TYPE_CHECKING:  # the table service's, from TableReads

        async def _repeat(self, tx: Tx, key: str) -> TableOutcome | None: ...

        async def _live(self, table_id: int) -> Live: ...

    def _init_owners(self, ownership: Ownership | None) -> None:
        self._ownership = EVERYTHING if ownership is None else ownership
        self._guilds: dict[int, int] = {}
        """table id -> its guild id, for every table seen (only when sharded)."""
        self._outdated: set[int] = set()
        """Tables whose kept copy was found stale: taken up again once read."""

    @property
    def ownership(self) -> Ownership:
        return self._ownership

    def _note(self, table_id: int, guild_id: int) -> bool:
        """Remember the table's guild; whether the table is this process's."""
        if self._ownership.everything:
            return True
        self._guilds[table_id] = guild_id
        return self._ownership.owns(guild_id)

    def _mine(self, live: Live) -> bool:
        return self._note(live.id, live.guild_id)

    async def owns(self, table_id: int) -> bool:
        """Whether the table's guild is on this process's shards (a table that does not exist
        is nobody's)."""
        return bool(await self.owned([table_id]))

    async def owned(self, table_ids: Iterable[int]) -> list[int]:
        """Those of ``table_ids`` that are this process's, in the given order."""
        ids = list(table_ids)
        if self._ownership.everything:
            return ids
        unknown = [t for t in ids if t not in self._guilds and t not in self._cache]
        if unknown:
            async with self._db.read() as tx:
                await self._learn(tx, unknown)
        owns = self._ownership.owns
        return [t for t in ids if t in self._cache or (t in self._guilds and owns(self._guilds[t]))]

    async def _learn(self, tx: Tx, table_ids: list[int]) -> None:
        if len(table_ids) >= FILL_FROM:
            for row in await tables.live(tx):
                self._guilds[row.id] = row.guild_id
        for table_id in table_ids:
            if table_id not in self._guilds:
                found = await tables.get(tx, table_id)
                if found is not None:
                    self._guilds[table_id] = found.guild_id

    async def _owned_deadlines(
        self, tx: Tx, rows: list[tuple[int, int, int]]
    ) -> list[tuple[int, int, int]]:
        """The turn deadlines (``(table id, version, deadline)``) of this process's tables."""
        if self._ownership.everything:
            return rows
        await self._learn(tx, [r[0] for r in rows if r[0] not in self._guilds])
        owns, guilds = self._ownership.owns, self._guilds
        return [r for r in rows if r[0] in guilds and owns(guilds[r[0]])]

    def outdated(self, table_id: int) -> None:
        """The kept copy of the table is older than the database's (a click carried a newer
        version: another process stepped it): read it again, and take it up then."""
        self._cache.pop(table_id, None)
        self._rosters.forget(table_id)
        self._outdated.add(table_id)

    async def _overtaken(self, table_id: int, key: str, conflict: VersionConflict) -> TableOutcome:
        """Another process stepped the table before this step could: the copy here is dropped
        and the table read afresh. If that step carried this very key (the same action, at the
        same moment, on PostgreSQL), its outcome is this one's; otherwise the action is stale."""
        self._cache.pop(table_id, None)
        self._rosters.forget(table_id)
        async with self._db.read() as tx:
            repeat = await self._repeat(tx, key)
        if repeat is not None:
            return repeat
        current = await self._live(table_id)
        self._adopt(current)
        raise StaleAction(
            table=table_id, expected=conflict.expected, current=current.version
        ) from conflict

    def _adopt(self, live: Live) -> None:
        """The table as read afresh, after another process stepped it: its turn deadline, its
        marks and its NPC players follow it here (if it is this process's)."""
        self._outdated.discard(live.id)
        if not self._mine(live):
            return
        closed = live.status in CLOSED
        self._deadlines.set(live.id, live.version, None if closed else live.deadline)
        if self._surfaces is not None:
            self._surfaces.forget(live.id)
        if self._watchers:
            table = view_of(live)
            for watcher in self._watchers:
                watcher(table)

    def _keep_live(self, live: Live) -> None:
        """After a step: keep the table and time it if it is live and this process's; else keep
        nothing of it (another process's table: not its copy, nor its marks, which may move
        elsewhere)."""
        mine, closed = self._mine(live), live.status in CLOSED
        self._deadlines.set(live.id, live.version, live.deadline if mine and not closed else None)
        if mine and not closed:
            self._cache[live.id] = live
            return
        self._cache.pop(live.id, None)
        if closed:
            self._rosters.forget(live.id)
            self._locks.pop(live.id, None)  # a closed table takes no more steps
        if not mine and self._surfaces is not None:
            self._surfaces.forget(live.id)
