"""Who sits at each live table, kept with the table's version so that a click costs no read.

A :class:`Member` is the little of a character that a table's clicks need: its name, who plays
it (its owner: an NPC's GM) and whether it is an NPC. The owner and the NPC flag never change; a
rename is forgotten here by :meth:`Rosters.forget_character`. The roster of a table is the set of
characters in its seats (``Live.seats``), so a step that moves no seat carries it to the new
version as it is, and one that seats a character reads only that character (in the step's own
transaction). The restore reads every live table's roster in one query.

Memory is bounded: at most ``limit`` tables' rosters are kept, the least recently used dropped
first (a dropped one is read again, after the click's acknowledgement, when next needed).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from bot.storage import characters
from bot.storage.db import Tx

ROSTERS_KEPT = 50_000
"""About 0.6 KiB each (two or three members; the seats' set is the table's own): at most some
30 MiB for the rosters of that many live tables."""


@dataclass(frozen=True, slots=True)
class Member:
    """A character seated at a table, as a click sees it."""

    id: int
    name: str
    owner_id: int
    is_npc: bool


Roster = Mapping[int, Member]
"""``character id -> Member``: the living characters in a table's seats (a deleted one is out)."""


@dataclass(frozen=True, slots=True)
class _Entry:
    version: int
    seats: frozenset[int]
    members: tuple[Member, ...]
    """A tuple, not a mapping, to keep it small: each read builds the mapping."""


class Rosters:
    def __init__(self, limit: int = ROSTERS_KEPT) -> None:
        self._limit = limit
        self._kept: OrderedDict[int, _Entry] = OrderedDict()

    def get(self, table_id: int, version: int) -> Roster | None:
        """The roster of the table at ``version``, if it is the one kept (no SQL)."""
        entry = self._kept.get(table_id)
        if entry is None or entry.version != version:
            return None
        self._kept.move_to_end(table_id)
        return _mapping(entry.members)

    def put(self, table_id: int, version: int, seats: frozenset[int], members: Roster) -> None:
        self._kept[table_id] = _Entry(version, seats, tuple(members.values()))
        self._kept.move_to_end(table_id)
        while len(self._kept) > self._limit:
            self._kept.popitem(last=False)

    def forget(self, table_id: int) -> None:
        self._kept.pop(table_id, None)

    def forget_character(self, character_id: int) -> None:
        """A character changed (renamed): the rosters it is in are read again when needed."""
        for table_id in [t for t, e in self._kept.items() if character_id in e.seats]:
            del self._kept[table_id]

    def clear(self) -> None:
        self._kept.clear()

    async def after_step(
        self, tx: Tx, table_id: int, before: int, seats: frozenset[int]
    ) -> Roster | None:
        """The roster after a step from version ``before`` (in the step's transaction ``tx``;
        :meth:`put` it once committed): as it was when no seat moved, else reading only the
        characters newly seated. None when the roster at ``before`` is not known (it is read
        when next needed)."""
        entry = self._kept.get(table_id)
        if entry is None or entry.version != before:
            return None
        if seats == entry.seats:
            return _mapping(entry.members)
        found = {m.id: m for m in entry.members if m.id in seats}
        found.update(await read(tx, seats - entry.seats))
        return found

    async def load(self, tx: Tx, table_id: int, version: int, seats: frozenset[int]) -> Roster:
        """Read a table's roster and keep it."""
        members = await read(tx, seats)
        self.put(table_id, version, seats, members)
        return MappingProxyType(members)

    async def read_only(self, tx: Tx, seats: frozenset[int]) -> Roster:
        """Read a roster without keeping it (a closed table's)."""
        return MappingProxyType(await read(tx, seats))


def _mapping(members: tuple[Member, ...]) -> Roster:
    return MappingProxyType({m.id: m for m in members})


async def read(tx: Tx, ids: Iterable[int]) -> dict[int, Member]:
    found: dict[int, Member] = {}
    for character_id in ids:
        row = await characters.get(tx, character_id)
        if row is not None:
            found[character_id] = Member(row.id, row.name, row.owner_id, row.is_npc)
    return found


def members_of(rows: Iterable[tuple[int, int, str, int, bool]]) -> dict[int, dict[int, Member]]:
    """``table id -> roster`` from :func:`bot.storage.characters.seated_live`'s rows."""
    found: dict[int, dict[int, Member]] = {}
    for table_id, character_id, name, owner_id, is_npc in rows:
        found.setdefault(table_id, {})[character_id] = Member(character_id, name, owner_id, is_npc)
    return found
