"""The live tables' turn deadlines, kept in memory so that the turn timers cost no SQL.

The table service is the only writer of a table's deadline (``tables.next_timeout_at``, set with
every step). It loads every live deadline once, with one query (at the restore, or when first
asked), and from then on keeps each step's new deadline here after its commit. A failed step
changes nothing in the database, so it changes nothing here either.

A heap orders the deadlines; an entry that a later step replaced stays in it until it reaches
the top, where it is dropped (and the heap is rebuilt when such entries outnumber the live ones).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable

COMPACT_SLACK = 1024
"""Rebuild the heap once it holds this many entries more than twice the live deadlines."""


class Deadlines:
    def __init__(self) -> None:
        self._at: dict[int, tuple[int, int]] = {}
        """``table id -> (deadline ms, the version it times out)``."""
        self._heap: list[tuple[int, int, int]] = []
        self._early: dict[int, tuple[int, int] | None] = {}
        """What steps set before the load: newer than what the load read, or the same."""
        self.loaded = False

    def load(self, rows: Iterable[tuple[int, int, int]]) -> None:
        """Every live deadline, as ``(table id, version, deadline)`` read from the database, under
        what steps committed since :meth:`set` here."""
        self._at = {table_id: (deadline, version) for table_id, version, deadline in rows}
        for table_id, entry in self._early.items():
            if entry is None:
                self._at.pop(table_id, None)
            else:
                self._at[table_id] = entry
        self._early.clear()
        self._rebuild()
        self.loaded = True

    def set(self, table_id: int, version: int, deadline: int | None) -> None:
        """The table is now at ``version``, with this deadline (None: no timer runs)."""
        if not self.loaded:
            self._early[table_id] = None if deadline is None else (deadline, version)
        if deadline is None:
            self._at.pop(table_id, None)
            return
        entry = (deadline, version)
        if self._at.get(table_id) == entry:
            return
        self._at[table_id] = entry
        heapq.heappush(self._heap, (deadline, table_id, version))
        if len(self._heap) > 2 * len(self._at) + COMPACT_SLACK:
            self._rebuild()

    def due(self, now: int) -> list[tuple[int, int]]:
        """``(table id, version)`` of every timer due at ``now``, the earliest first."""
        found: list[tuple[int, int, int]] = []
        while self._heap and self._heap[0][0] <= now:
            entry = heapq.heappop(self._heap)
            if self._live(entry) and (not found or found[-1] != entry):  # pushed twice
                found.append(entry)
        for entry in found:  # still due until a step replaces them
            heapq.heappush(self._heap, entry)
        return [(table_id, version) for _, table_id, version in found]

    def next(self) -> int | None:
        """The earliest deadline, if any timer runs."""
        while self._heap and not self._live(self._heap[0]):
            heapq.heappop(self._heap)
        return self._heap[0][0] if self._heap else None

    def _live(self, entry: tuple[int, int, int]) -> bool:
        deadline, table_id, version = entry
        return self._at.get(table_id) == (deadline, version)

    def _rebuild(self) -> None:
        self._heap = [(d, t, v) for t, (d, v) in self._at.items()]
        heapq.heapify(self._heap)
