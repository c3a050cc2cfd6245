"""Which kept records were written since a read began (``Writes``), for the services that keep
what they read in memory: a read that a write to the same record overlapped may be stale, and is
not kept. Per record: under load some table is always being written, and a single counter for
all of them made every read look overlapped, so nothing was ever kept."""

from __future__ import annotations


class Writes:
    """Write sequence numbers by key (a table's or a character's id)."""

    __slots__ = ("_floor", "_last", "_limit", "_seq")

    def __init__(self, limit: int) -> None:
        self._seq = 0
        self._floor = 0
        """Reads begun before this were overlapped by writes no longer told apart."""
        self._last: dict[int, int] = {}
        self._limit = limit

    def now(self) -> int:
        """Where a read begins: pass it to :meth:`untouched` when it ends."""
        return self._seq

    def wrote(self, key: int) -> None:
        """``key`` is being (or was just) written."""
        self._seq += 1
        self._last[key] = self._seq
        if len(self._last) > self._limit:  # forget them all, and every read begun until now
            self._last.clear()
            self._floor = self._seq

    def untouched(self, key: int, since: int) -> bool:
        """Whether no write to ``key`` began after ``since`` (:meth:`now` as the read began)."""
        return since >= self._floor and self._last.get(key, 0) <= since
