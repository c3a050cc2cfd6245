"""Rebuilding tables from the database: from the state snapshot where it is the table's current
one (see ``bot.services.snapshots``), else by replaying the whole event log.

The startup's restore (:meth:`Loader.load_live`) decodes no state: each open table is kept as a
:class:`Dormant`, its state still the snapshot's JSON (or its events'), and decoded by
:meth:`Loader.wake` when the table is first used. Most open tables are idle at any moment, and an
encoded state is a third of a decoded one's memory (measured: 1.4 vs 4.3 KiB for Pazaak)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.services.errors import UnknownGame, UnknownTable
from bot.services.games import GameSpec
from bot.services.snapshots import StateCodec, codec_for
from bot.services.table_steps import Live, decode, joined
from bot.storage import ledger, tables
from bot.storage.db import Tx
from bot.storage.tables import Snapshot, TableRow

YIELD_EVERY = 250
"""Tables read between two yields to the event loop (a restore runs beside the clicks)."""


@dataclass(frozen=True, slots=True)
class Dormant:
    """An open table as the restore keeps it: ``live`` with no state yet (``None``), and what
    its state is decoded from: its snapshot (``replay`` False) or its events (:func:`joined`)."""

    live: Live
    blobs: tuple[bytes, ...]
    replay: bool


class Loader:
    def __init__(self, games: Mapping[str, GameSpec]) -> None:
        self.games = dict(games)
        self._codecs: dict[str, StateCodec | None] = {}

    def spec(self, game: str) -> GameSpec:
        spec = self.games.get(game)
        if spec is None:
            raise UnknownGame(game=game)
        return spec

    def codec(self, game: str) -> StateCodec | None:
        if game not in self._codecs:
            self._codecs[game] = codec_for(self.spec(game))
        return self._codecs[game]

    async def load(
        self, tx: Tx, table_id: int, upto_version: int | None = None, *, lock: bool = False
    ) -> Live:
        """The table now, or as it was right after ``upto_version`` (its ``version`` field is
        then still the current one). ``lock``: in a write transaction that will step it, hold
        the table's row first, so that what is read after is of that one version."""
        row = await tables.get(tx, table_id, lock=lock)
        if row is None:
            raise UnknownTable(table=table_id)
        spec = self.spec(row.game)
        pot = await ledger.pot_account(tx, table_id)
        seats = await tables.seats(tx, table_id)
        if upto_version is None:
            state = self._from_snapshot(spec, row, await tables.snapshot(tx, table_id), ())
            if state is not None:
                return _live(row, await tables.event_count(tx, table_id), pot, seats, state)
        events = decode(spec.rules, await tables.events(tx, table_id, upto_version=upto_version))
        return _live(row, len(events), pot, seats, spec.rules.replay(events))

    async def load_live(
        self,
        tx: Tx,
        *,
        snapshots: bool = True,
        keep: Callable[[int, int], bool] | None = None,
    ) -> list[Dormant]:
        """Every open or running table, with a few queries for all of them (the startup), its
        state left encoded (see :meth:`wake`). ``keep(table id, guild id)``: only the tables it
        says yes to are read (a sharded process's own, see ``bot.shards``)."""
        rows = await tables.live(tx)
        if keep is not None:
            rows = [row for row in rows if keep(row.id, row.guild_id)]
        pots = await ledger.live_pots(tx)
        seats = await tables.live_seats(tx)
        snaps = await tables.live_snapshots(tx) if snapshots else {}
        logs = await tables.live_events(tx, after_snapshots=snapshots)
        found = []
        for number, row in enumerate(rows, 1):
            if number % YIELD_EVERY == 0:
                await asyncio.sleep(0)  # let the clicks that came meanwhile be answered
            spec = self.spec(row.game)
            snap, tail = snaps.get(row.id), logs.get(row.id, [])
            blobs: tuple[bytes, ...]
            if snap is not None and not tail and self._current(spec, row, snap):
                blobs, replay, seq = (snap.data,), False, snap.next_seq
            else:
                if snap is not None:  # an unusable snapshot: the log from the start
                    tail = await tables.events(tx, row.id)
                blobs, replay, seq = joined(tail), True, len(tail)
            live = _live(row, seq, pots[row.id], seats.get(row.id, set()), None)
            found.append(Dormant(live, blobs, replay))
        return found

    def wake(self, dormant: Dormant) -> Live | None:
        """The kept table with its state decoded; None when its snapshot does not decode (then
        it is read, and replayed, like a table not kept)."""
        spec = self.spec(dormant.live.game)
        codec = self.codec(spec.game)
        try:
            if dormant.replay:
                state = spec.rules.replay(decode(spec.rules, dormant.blobs))
            elif codec is not None:
                state = codec.load(dormant.blobs[0])
            else:
                return None
        except ValueError:  # pydantic's ValidationError: read afresh (the error is met there)
            return None
        return replace(dormant.live, state=state)

    def _from_snapshot(
        self, spec: GameSpec, row: TableRow, snap: Snapshot | None, later: Sequence[bytes]
    ) -> Any | None:
        """The snapshot's state if it is the table's current one (no ``later`` events either),
        written by this code, and readable; else None."""
        codec = self.codec(spec.game)
        if snap is None or codec is None or later or not self._current(spec, row, snap):
            return None
        try:
            return codec.load(snap.data)
        except ValueError:  # pydantic's ValidationError: replay instead
            return None

    def _current(self, spec: GameSpec, row: TableRow, snap: Snapshot) -> bool:
        """Whether the snapshot is of the table's current version, in this code's format."""
        codec = self.codec(spec.game)
        return codec is not None and (snap.version, snap.format) == (row.version, codec.format)


def _live(row: TableRow, seq: int, pot: int, seats: set[int], state: Any) -> Live:
    return Live(
        row.id,
        row.guild_id,
        row.channel_id,
        row.game,
        row.currency,
        row.status,
        row.version,
        seq,
        pot,
        frozenset(seats),
        state,
        row.next_timeout_at,
        row.created_by,
    )
