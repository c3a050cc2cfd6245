"""A clock the test moves: the bot's ``clock`` (Unix ms) and ``sleeper`` in one.

Its time stands still until :meth:`FakeClock.advance`. The bot's loops (the turn timers, the
challenge sweep, the publisher's retries) sleep on it; ``advance`` moves the time forward one
alarm at a time, in order, and after waking a loop waits until that loop is asleep again (or
done) before it looks at the next alarm. So ``await clock.advance(60)`` returns once everything
due in those 60 s has been fired, in the order real time would have fired it, with no wall-clock
wait. What a fired timeout then publishes (its board, its announcement) runs on its own, as
after a click: ``settle`` or ``fake.wait_for`` it as usual.
"""

# ruff: noqa: ASYNC109 (``timeout=`` reads best in tests, as in the other wait helpers)

from __future__ import annotations

import asyncio
import heapq
import itertools
from dataclasses import dataclass, field
from typing import Any

from bot.services.clock import wall_clock

PARK_TIMEOUT = 5.0
"""Real seconds a woken loop may take to fall asleep again before ``advance`` gives up."""
POLL_SECONDS = 0.001


@dataclass(order=True)
class _Alarm:
    due: int
    seq: int
    task: asyncio.Task[Any] | None = field(compare=False)
    rang: asyncio.Future[None] = field(compare=False)
    wake: asyncio.Event | None = field(compare=False)

    @property
    def asleep(self) -> bool:
        """Its sleeper is still waiting for it (not woken by its event, not cancelled)."""
        return not self.rang.done() and not (self.wake is not None and self.wake.is_set())


class FakeClock:
    """Milliseconds that move only when told to (see the module docstring)."""

    def __init__(self, start_ms: int | None = None) -> None:
        self._now = wall_clock() if start_ms is None else start_ms
        self._alarms: list[_Alarm] = []
        self._seq = itertools.count()
        self._watched: set[asyncio.Task[Any]] = set()

    # --- what the bot sees ----------------------------------------------------------------------

    def __call__(self) -> int:
        return self._now

    @property
    def now(self) -> int:
        return self._now

    async def sleep(self, seconds: float, wake: asyncio.Event | None = None) -> None:
        """Sleep until the fake time has moved ``seconds`` on, or ``wake`` is set."""
        if wake is not None and wake.is_set():
            return
        task = asyncio.current_task()
        rang: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        alarm = _Alarm(self._now + max(0, round(seconds * 1000)), next(self._seq), task, rang, wake)
        heapq.heappush(self._alarms, alarm)
        if task is not None:
            self.watch(task)
        waiter = None if wake is None else asyncio.ensure_future(wake.wait())
        try:
            if waiter is None:
                await rang
            else:
                either: set[asyncio.Future[Any]] = {rang, waiter}
                await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
        finally:
            if waiter is not None:
                waiter.cancel()
            if not rang.done():  # woken by ``wake``, or cancelled: drop the alarm
                rang.cancel()
                if alarm in self._alarms:
                    self._alarms.remove(alarm)
                    heapq.heapify(self._alarms)

    # --- what the test does ---------------------------------------------------------------------

    def watch(self, task: asyncio.Task[Any]) -> None:
        """Count ``task`` as a loop of the bot: ``advance`` waits until it is asleep on this clock
        (or done) before moving the time. Tasks that sleep on the clock are watched anyway."""
        if task not in self._watched:
            self._watched.add(task)
            task.add_done_callback(self._watched.discard)

    async def advance(self, seconds: float, *, timeout: float = PARK_TIMEOUT) -> None:
        """Move the time ``seconds`` on, firing every alarm due on the way, in order."""
        target = self._now + round(seconds * 1000)
        await self.idle(timeout=timeout)
        while True:
            alarm = self._next_due(target)
            if alarm is None:
                break
            heapq.heappop(self._alarms)
            self._now = max(self._now, alarm.due)
            alarm.rang.set_result(None)
            await self.idle(timeout=timeout)
        self._now = max(self._now, target)

    async def idle(self, *, timeout: float = PARK_TIMEOUT) -> None:
        """Wait until every watched loop is asleep on this clock, or done."""
        await asyncio.sleep(0)  # a loop just started (a retry just scheduled) takes its first step
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while busy := self._busy():
            if loop.time() > deadline:
                names = ", ".join(sorted(task.get_name() for task in busy))
                raise AssertionError(f"the bot's loops did not fall asleep in {timeout} s: {names}")
            await asyncio.sleep(POLL_SECONDS)

    def pending(self) -> list[float]:
        """The seconds from now until each alarm still set (soonest first): for diagnostics."""
        return sorted((a.due - self._now) / 1000 for a in self._alarms if a.asleep)

    # --- inside -----------------------------------------------------------------------------------

    def _busy(self) -> list[asyncio.Task[Any]]:
        asleep = {a.task for a in self._alarms if a.asleep}
        return [t for t in self._watched if not t.done() and t not in asleep]

    def _next_due(self, target: int) -> _Alarm | None:
        while self._alarms and not self._alarms[0].asleep:
            heapq.heappop(self._alarms)  # its event is set: its sleeper is about to wake
        if self._alarms and self._alarms[0].due <= target:
            return self._alarms[0]
        return None
