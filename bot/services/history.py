"""A closed table's hand history: its events step by step, and who played each seat.

The events are the table's whole truth (every card dealt is in one), so the history is read off
them, never kept apart. Only a closed table (finished or cancelled) gives its history: a live
one would tell its players what the table has not yet shown them, and when (a secret step, an
unnoticed swap, would show as a step), so :class:`HistoryLive` refuses it. What each viewer may
read of it is the render's to decide (``bot.render.history``), from the characters the user
plays there (:meth:`Record.own`) and whether the user is a GM.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.services.errors import ServiceError, UnknownTable
from bot.services.games import GameSpec, default_games
from bot.services.table_steps import CLOSED, decode
from bot.storage import characters, tables
from bot.storage.db import Database
from bot.storage.tables import Status

_PEOPLE_ONE = ("player", "target", "cheater", "by", "winner")
_PEOPLE_MANY = ("players", "caught_by")


class HistoryLive(ServiceError):
    """The table still plays (``table``, ``status``): its history opens when it is over."""

    code = "history_live"


@dataclass(frozen=True, slots=True)
class Person:
    """Who played a character: its name and the user who plays it (an NPC's GM)."""

    name: str
    owner_id: int
    is_npc: bool


@dataclass(frozen=True, slots=True)
class Record:
    """A closed table's events, in steps: ``(version, events)`` in order."""

    table_id: int
    guild_id: int
    game: str
    status: Status
    steps: tuple[tuple[int, tuple[Any, ...]], ...]
    people: Mapping[int, Person]
    """Every character the events name that still exists (a deleted one is left out)."""

    def own(self, user_id: int) -> frozenset[int]:
        """The characters ``user_id`` plays among those named here (an NPC is its GM's)."""
        return frozenset(c for c, p in self.people.items() if p.owner_id == user_id)


def named(events: Iterable[Any]) -> list[int]:
    """Every character id the events name, in order of first mention."""
    found: dict[int, None] = {}
    for event in events:
        for name in _PEOPLE_ONE:
            value = getattr(event, name, None)
            if isinstance(value, int) and not isinstance(value, bool):
                found[value] = None
        for name in _PEOPLE_MANY:
            for value in getattr(event, name, ()) or ():
                if isinstance(value, int):
                    found[value] = None
    return list(found)


class HistoryService:
    def __init__(self, db: Database, *, games: Mapping[str, GameSpec] | None = None) -> None:
        self._db = db
        self._games = default_games() if games is None else games

    async def record(self, table_id: int, guild_id: int) -> Record:
        """The closed table's record. Raises :class:`UnknownTable` (also for another server's
        table, or a game this bot no longer plays) and :class:`HistoryLive`."""
        async with self._db.read() as tx:
            row = await tables.get(tx, table_id)
            if row is None or row.guild_id != guild_id or row.game not in self._games:
                raise UnknownTable(table=table_id)
            if row.status not in CLOSED:
                raise HistoryLive(table=table_id, status=row.status)
            rows = await tables.events_between(tx, table_id, -1, row.version)
            events = decode(self._games[row.game].rules, [blob for _, blob in rows])
            people: dict[int, Person] = {}
            for character_id in named(events):
                found = await characters.get(tx, character_id)
                if found is not None:
                    people[character_id] = Person(found.name, found.owner_id, found.is_npc)
        steps: dict[int, list[Any]] = {}
        # one event per row (the steps write each as its own ``dump_events([event])``)
        for (version, _), event in zip(rows, events, strict=True):
            steps.setdefault(version, []).append(event)
        return Record(
            table_id,
            guild_id,
            row.game,
            row.status,
            tuple((v, tuple(e)) for v, e in steps.items()),
            people,
        )
