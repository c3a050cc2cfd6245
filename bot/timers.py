"""Turn timers that survive restarts.

The deadlines live in the database (the table service writes them with every step), so this
loop keeps no state of its own worth losing: it sleeps until the next deadline, fires the due
timeouts through the table service, and tells its owner through two callbacks (the bot turns
them into the cogs' events):

- ``on_outcome(outcome)`` after a timeout was applied, to be rendered like any action;
- ``on_warning(table_id, version)`` once, ``WARN_BEFORE_MS`` before a turn times out, so the
  player can be pinged.

Call :meth:`TurnTimers.poke` after any action, so a new deadline is seen at once. The loop reads
the time from ``clock`` and sleeps through ``sleeper`` (both injectable: a test's fake clock
fires a timeout by moving its time forward, with no waiting).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.loop import Loop
from bot.services.clock import Clock, Sleeper
from bot.services.outcomes import TableOutcome
from bot.services.tables import TableService

log = logging.getLogger(__name__)

WARN_BEFORE_MS = 60_000
IDLE_MS = 3_600_000  # with no deadline at all, look again after an hour anyway
RETRY_MS = 5_000  # after a failed timeout: try again, without spinning on it
LOOK_MS = 15_000  # with deadlines pending, look at least this often (other tables' warnings)


class TurnTimers(Loop):
    NAME = "szulernia-turn-timers"

    def __init__(
        self,
        tables: TableService,
        *,
        clock: Clock,
        sleeper: Sleeper,
        on_outcome: Callable[[TableOutcome], None],
        on_warning: Callable[[int, int], None],
    ) -> None:
        super().__init__(sleeper)
        self._tables = tables
        self._clock = clock
        self._on_outcome = on_outcome
        self._on_warning = on_warning
        self._warned: set[tuple[int, int]] = set()

    async def tick(self) -> float:
        return await self._tick() / 1000

    async def _tick(self) -> int:
        """Fire what is due, warn what is near; return how long to sleep (ms)."""
        tables = self._tables
        now = self._clock()
        failed = False
        for table_id, version in await tables.due_timeouts(now):
            try:
                outcome = await tables.fire_timeout(table_id, version)
            except Exception:  # one broken table must not stop every other table's clock
                log.exception("the turn timeout of table %d failed", table_id)
                failed = True
                continue
            if outcome is not None:
                self._on_outcome(outcome)
        for table_id, version in await tables.due_timeouts(now + WARN_BEFORE_MS):
            if (table_id, version) not in self._warned:
                self._warned.add((table_id, version))
                self._on_warning(table_id, version)
        if len(self._warned) > 10_000:
            self._warned.clear()
        deadline = await tables.next_deadline()
        if failed:
            return RETRY_MS
        if deadline is None:
            return IDLE_MS
        now = self._clock()
        warn_at = deadline - WARN_BEFORE_MS
        return min(LOOK_MS, max(0, (warn_at if warn_at > now else deadline) - now))
