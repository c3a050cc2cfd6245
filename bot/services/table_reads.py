"""Reading tables without taking a step: a table as a click sees it, who opened one, where they
are, their timers, their history, their pots. A part of
:class:`~bot.services.tables.TableService`.

A click reads its table through :meth:`TableReads.peek` (no SQL: the live table, its roster and
its opener as the service keeps them, at the version of the last step) or, where that has
nothing, :meth:`TableReads.look`, which reads what is missing and keeps it. A click authorised at
a version the service kept may still be stale (another process wrote the table): the step checks
the version again inside its transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from bot.services.errors import UnknownTable
from bot.services.outcomes import TableOutcome, TableView
from bot.services.table_deadlines import Deadlines
from bot.services.table_loads import Dormant, Loader
from bot.services.table_rosters import Roster, Rosters
from bot.services.table_steps import CLOSED, Live, decode, outcome_of, step_transfers
from bot.storage import ledger, tables
from bot.storage.db import Database, Tx

RECENT_KEPT = 20_000
"""Tables whose newest step's events are kept (for the publisher's pass after it)."""

if TYPE_CHECKING:
    from bot.services.clock import Clock


@dataclass(frozen=True, slots=True)
class Seen:
    """A table as a click sees it: the table, who sits at it, and who opened it."""

    table: TableView
    roster: Roster
    opener: int


class TableReads:
    _db: Database
    _loader: Loader
    _clock: Clock
    _cache: dict[int, Live | Dormant]
    _rosters: Rosters
    _deadlines: Deadlines
    _recent: dict[int, tuple[int, tuple[Any, ...]]]

    async def get(self, table_id: int) -> TableView:
        raise NotImplementedError

    async def _live(self, table_id: int) -> Live:
        raise NotImplementedError

    def outdated(self, table_id: int) -> None:
        raise NotImplementedError

    async def _owned_deadlines(
        self, tx: Tx, rows: list[tuple[int, int, int]]
    ) -> list[tuple[int, int, int]]:
        raise NotImplementedError

    def _kept(self, table_id: int) -> Live | None:
        """The table as the cache keeps it, its state decoded now if the restore kept it encoded
        (:class:`Dormant`); None if not kept (or its snapshot does not decode: it is read)."""
        entry = self._cache.get(table_id)
        if entry is None or isinstance(entry, Live):
            return entry
        live = self._loader.wake(entry)
        if live is None:
            del self._cache[table_id]
        else:
            self._cache[table_id] = live
        return live

    def peek(self, table_id: int, seen: int | None = None) -> Seen | None:
        """The live table at its newest version with its roster, if the service keeps both
        (costs no SQL); else None (:meth:`look` reads them). ``seen``: the version a click
        was drawn at; a kept copy older than that is stale (another process stepped the
        table), and is read again."""
        live = self._kept(table_id)
        if live is None:
            return None
        if seen is not None and seen > live.version:
            self.outdated(table_id)
            return None
        roster = self._rosters.get(table_id, live.version)
        return None if roster is None else Seen(view_of(live), roster, live.opener)

    async def look(self, table_id: int) -> Seen:
        """The table with its roster: as :meth:`peek` has them, else read (and kept while the
        table lives)."""
        seen = self.peek(table_id)
        if seen is not None:
            return seen
        live = await self._live(table_id)
        seats = frozenset(self._loader.spec(live.game).seated(live.state))
        async with self._db.read() as tx:
            if live.status in CLOSED:
                roster: Roster = await self._rosters.read_only(tx, seats)
            else:
                roster = await self._rosters.load(tx, table_id, live.version, seats)
        return Seen(view_of(live), roster, live.opener)

    def forget_character(self, character_id: int) -> None:
        """A character was renamed: the rosters it is in are read again when next needed."""
        self._rosters.forget_character(character_id)

    async def opener(self, table_id: int) -> int:
        """The user who opened the table (``actor_id`` of :meth:`create`)."""
        entry = self._cache.get(table_id)
        if entry is not None:
            return entry.opener if isinstance(entry, Live) else entry.live.opener
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
        """``(table_id, version)`` of the turn timers due at ``now`` (default: the clock), the
        earliest first (from memory: see ``bot.services.table_deadlines``)."""
        await self._load_deadlines()
        return self._deadlines.due(self._clock() if now is None else now)

    async def next_deadline(self) -> int | None:
        await self._load_deadlines()
        return self._deadlines.next()

    async def _load_deadlines(self) -> None:
        """Read every live deadline, the first time (the steps keep them from then on)."""
        if not self._deadlines.loaded:
            async with self._db.read() as tx:
                rows = await self._owned_deadlines(tx, await tables.deadlines(tx))
            self._deadlines.load(rows)

    async def history(self, table_id: int) -> list[Any]:
        """Every event of the table so far, in order (e.g. for a summary once a game ends)."""
        async with self._db.read() as tx:
            row = await tables.get(tx, table_id)
            if row is None:
                raise UnknownTable(table=table_id)
            blobs = await tables.events(tx, table_id)
        return decode(self._loader.spec(row.game).rules, blobs)

    def _keep_events(self, table_id: int, version: int, events: Sequence[Any]) -> None:
        """Keep a table's newest step's events (the table stepped least recently is dropped
        past ``RECENT_KEPT``)."""
        self._recent.pop(table_id, None)
        self._recent[table_id] = (version, tuple(events))
        while len(self._recent) > RECENT_KEPT:
            del self._recent[next(iter(self._recent))]

    async def step_events(self, table_id: int, after: int, upto: int) -> dict[int, list[Any]]:
        """The events of each version in ``(after, upto]`` (a version without events is absent):
        what the publisher announces. The newest step's are kept: a pass after one step reads
        nothing."""
        recent = self._recent.get(table_id)
        if recent is not None and recent[0] == upto and after == upto - 1:
            return {upto: list(recent[1])} if recent[1] else {}
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

    async def _repeat(self, tx: Tx, key: str) -> TableOutcome | None:
        """The outcome of the action that already carried ``key``, rebuilt from what it wrote."""
        found = await tables.action_key(tx, key)
        if found is None:
            return None
        table_id, version = found
        cached = self._kept(table_id)
        if cached is not None and cached.version == version:
            live = cached
        else:
            live = await self._loader.load(tx, table_id, upto_version=version)
            if live.version != version:  # an older step: its status and timer are history
                status = self._loader.spec(live.game).status(live.state)
                live = replace(live, version=version, status=status, deadline=None)
        spec = self._loader.spec(live.game)
        blobs = [blob for _, blob in await tables.events_of_version(tx, table_id, version)]
        moved = await step_transfers(tx, table_id, version)
        return outcome_of(live, decode(spec.rules, blobs), moved, repeated=True)


def view_of(live: Live) -> TableView:
    return TableView(
        live.id,
        live.guild_id,
        live.channel_id,
        live.game,
        live.currency,
        live.status,
        live.version,
        live.state,
        live.seats,
        live.deadline,
    )
