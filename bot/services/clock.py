"""Time for the services and the bot's loops, injectable for tests.

- :data:`Clock`: Unix milliseconds as an int (``wall_clock`` in production).
- :class:`Sleeper`: how the bot's loops wait (the turn timers, the challenge sweep, the
  publisher's retries). Production sleeps on the event loop (:data:`wall_sleeper`); a test's fake
  clock makes them sleep on *its* time instead, and wakes them when it is moved forward, so no
  test waits for a timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Protocol

Clock = Callable[[], int]
"""Milliseconds since the Unix epoch."""


def wall_clock() -> int:
    return time.time_ns() // 1_000_000


class Sleeper(Protocol):
    async def sleep(self, seconds: float, wake: asyncio.Event | None = None) -> None:
        """Return once ``seconds`` have passed, or sooner once ``wake`` is set."""


class WallSleeper:
    """Real sleeping, on the running event loop."""

    async def sleep(self, seconds: float, wake: asyncio.Event | None = None) -> None:
        if wake is None:
            await asyncio.sleep(seconds)
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), timeout=seconds)


wall_sleeper = WallSleeper()
