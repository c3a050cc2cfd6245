"""The loop that plays the computer NPCs' seats, after a short, human-looking pause.

It keeps nothing worth losing: after any saved step (the table service's watcher) it looks at the
table again, and a seat the bot plays that owes a move is given one, ``pause`` seconds later, at
the version it was planned for (a step in between plans it anew). A restart plans every live
table once its computer seats are read, so a pending move survives it. The move's key is
``npc:<table>:<version>:<player>``: a second loop, or a replay after a crash, applies nothing
twice. The bot hears of each move and each line of table talk through two callbacks:

- ``on_outcome(outcome)`` after the NPC's move was saved, to be published like any move;
- ``on_talk(table_id, player, moment, pick)`` when a step gave one of the table's computer NPCs
  a moment worth a line (a big raise, a catch, a win...; ``pick`` chooses which of its lines:
  see ``bot.ai.personalities.line_at``).

A GM who took a seat over (``computer`` False) plays it by hand; the loop leaves it alone.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.ai import players
from bot.ai.personalities import UnknownPersonality, personality
from bot.loop import Loop
from bot.rules.common import RulesError
from bot.services.clock import Clock, Sleeper
from bot.services.errors import ServiceError, StaleAction, TableClosed
from bot.services.npcs import NpcService
from bot.services.outcomes import TableOutcome, TableView
from bot.services.tables import TableService

log = logging.getLogger(__name__)

IDLE_S = 3600.0


@dataclass(frozen=True, slots=True)
class Plan:
    due: float
    """Seconds, on the loop's clock."""
    version: int


class NpcPlayers(Loop):
    NAME = "szulernia-npc-players"

    def __init__(
        self,
        tables: TableService,
        npcs: NpcService,
        *,
        clock: Clock,
        sleeper: Sleeper,
        pause: tuple[float, float],
        rng: random.Random,
        on_outcome: Callable[[TableOutcome], None],
        on_talk: Callable[[int, int, str, int], None],
    ) -> None:
        super().__init__(sleeper)
        self._tables = tables
        self._npcs = npcs
        self._clock = clock
        self._pause = pause
        self._rng = rng
        self._on_outcome = on_outcome
        self._on_talk = on_talk
        self._dirty: dict[int, int] = {}
        """Tables to look at again, with the version they were last seen at."""
        self._plans: dict[tuple[int, int], Plan] = {}
        self._heard: dict[int, tuple[int, Any]] = {}
        """Per table, the newest version whose table talk was handled, and its state (what the
        next steps' moments are read against: a raise is big against the stake before it)."""

    def notice(self, table: TableView) -> None:
        """A step was saved (the table service's watcher): look at the table again soon (if it
        is this process's: see ``bot.shards``)."""
        if not self._tables.ownership.owns(table.guild_id):
            return
        self._dirty[table.table_id] = table.version
        self.poke()

    async def begin(self) -> None:
        await self._npcs.load()
        for table_id in await self._tables.owned(self._npcs.tables()):
            self._dirty.setdefault(table_id, 0)

    def pending(self) -> bool:
        return bool(self._dirty)

    async def tick(self) -> float:
        return await self._tick()

    async def _tick(self) -> float:
        """Plan what changed, play what is due; return how long to sleep (s)."""
        dirty, self._dirty = self._dirty, {}
        for table_id in dirty:
            await self._plan(table_id)
        now = self._now()
        for key, plan in sorted(self._plans.items(), key=lambda item: item[1].due):
            if plan.due > now:
                break
            del self._plans[key]
            await self._play(*key, plan.version)
        if not self._plans:
            return IDLE_S
        return max(0.0, min(p.due for p in self._plans.values()) - self._now())

    def _now(self) -> float:
        return self._clock() / 1000

    async def _plan(self, table_id: int) -> None:
        for key in [k for k in self._plans if k[0] == table_id]:
            del self._plans[key]
        seats = await self._npcs.seats(table_id)
        if not seats:
            return
        try:
            table = await self._tables.get(table_id)
        except ServiceError:
            return
        await self._talk(table, seats)
        if table.status in ("finished", "cancelled"):
            return
        for player in players.waiting(table.game, table.state):
            seat = seats.get(player)
            if seat is None or not seat.computer:
                continue
            try:
                pace = personality(seat.personality).pause
            except UnknownPersonality:
                pace = 1.0
            low, high = self._pause
            due = self._now() + self._rng.uniform(low, high) * pace
            self._plans[(table_id, player)] = Plan(due, table.version)

    async def _talk(self, table: TableView, seats: Any) -> None:
        """The lines the steps since the last look gave the table's computer NPCs."""
        heard = self._heard.get(table.table_id)
        if table.status in ("finished", "cancelled"):
            self._heard.pop(table.table_id, None)
        else:
            self._heard[table.table_id] = (table.version, table.state)
        if heard is None or heard[0] >= table.version:
            return  # the first look (after a start): what happened before is old news
        seen, before = heard
        steps = await self._tables.step_events(table.table_id, seen, table.version)
        for version in sorted(steps):
            for player, seat in seats.items():
                if not seat.computer:
                    continue
                for moment in players.moments(table.game, before, steps[version], player):
                    self._on_talk(table.table_id, player, moment, self._rng.randrange(1 << 30))

    async def _play(self, table_id: int, player: int, version: int) -> None:
        try:
            table = await self._tables.get(table_id)
            seat = (await self._npcs.seats(table_id)).get(player)
            if table.version != version or seat is None or not seat.computer:
                return
            try:
                action = await asyncio.to_thread(  # a Master's search may take tens of ms
                    players.choose,
                    table.game,
                    table.state,
                    player,
                    personality(seat.personality),
                    random.Random(self._rng.getrandbits(64)),
                    house_edge=seat.house_edge,
                )
            except (RulesError, UnknownPersonality) as exc:
                log.warning("table %d: an NPC could not decide (%s)", table_id, type(exc).__name__)
                action = players.fallback(table.game, table.state, player, self._rng)
            if action is None:
                return
            key = f"npc:{table_id}:{version}:{player}"
            outcome = await self._act(table_id, action, key, version, table, player)
        except (StaleAction, TableClosed):
            return  # someone moved first: the watcher plans it anew
        if outcome is not None and not outcome.repeated:
            self._on_outcome(outcome)

    async def _act(
        self, table_id: int, action: object, key: str, version: int, table: TableView, player: int
    ) -> TableOutcome | None:
        try:
            return await self._tables.act(
                table_id, action, key=key, expected_version=version, actor_id=None
            )
        except RulesError as exc:  # the personality chose an illegal move: play a plain one
            log.warning("table %d: an NPC's move was refused (%s)", table_id, exc.code)
            plain = players.fallback(table.game, table.state, player, self._rng)
            if plain is None:
                return None
            return await self._tables.act(
                table_id, plain, key=key + ":plain", expected_version=version, actor_id=None
            )
