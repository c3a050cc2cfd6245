"""A background loop of the bot's own (the turn timers, the NPC players): it runs one pass,
sleeps as long as the pass says (or until poked), and goes on until stopped; a pass that fails
is logged and tried again shortly, so one broken table never stops the loop."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import ClassVar

from bot.services.clock import Sleeper

log = logging.getLogger(__name__)

RETRY_S = 5.0
"""After a failed pass: try again this much later, without spinning on it."""


class Loop:
    NAME: ClassVar[str]
    """The task's name (``szulernia-...``) and the loop's name in the log."""

    def __init__(self, sleeper: Sleeper) -> None:
        self._sleeper = sleeper
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._looked = asyncio.Event()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=self.NAME)

    @property
    def task(self) -> asyncio.Task[None] | None:
        """The running loop (None when stopped)."""
        return self._task

    async def looked(self) -> None:
        """Wait until the loop's first pass is done or failed (at once if it is not running)."""
        if self._task is not None:
            await self._looked.wait()

    def poke(self) -> None:
        """Run a pass at once (something the pass looks at changed)."""
        self._wake.set()

    async def stop(self) -> None:
        task, self._task = self._task, None
        self._looked.set()
        if task is not None:
            # Python 3.11's wait_for may swallow a cancel that races a poke: the loop also ends
            # when it sees that it is no longer the task to run.
            self._wake.set()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def begin(self) -> None:
        """What the loop does once, before its first pass."""

    async def tick(self) -> float:
        """One pass; how many seconds to sleep before the next."""
        raise NotImplementedError

    def pending(self) -> bool:
        """Whether another pass is due at once (work arrived during this one)."""
        return False

    async def _run(self) -> None:
        try:
            await self.begin()
        except BaseException:
            self._looked.set()  # no pass will come: nobody waits for one
            raise
        while self._task is asyncio.current_task():
            try:
                delay = await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("%s failed; trying again shortly", self.NAME)
                delay = RETRY_S
            self._looked.set()
            self._wake.clear()
            if not self.pending():
                await self._sleeper.sleep(max(delay, 0.01), wake=self._wake)
