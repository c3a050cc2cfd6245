"""The work that a clean stop lets finish (:class:`InFlight`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")


class InFlight:
    """The work that a clean stop lets finish: interaction handlers, game-event listeners, and
    the tasks the bot starts for them (a table's publishing).

    discord.py runs each interaction and each listener in a task of its own and hands out no
    handle to it (the tasks' names are its internals, free to change in any release), so such a
    task joins from inside, at the first public hook discord.py calls in it (:meth:`join`): the
    command tree's ``interaction_check`` for slash commands and autocomplete, a component's or a
    modal's ``interaction_check`` or callback for clicks and dialogs, a listener's first line.
    A task the bot starts itself joins as it is made (:meth:`spawn`). A task leaves when it
    ends."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def join(self) -> None:
        """The running task is work in flight until it ends."""
        task = asyncio.current_task()
        if task is not None:
            self._add(task)

    def spawn(self, coro: Coroutine[Any, Any, T], *, name: str) -> asyncio.Task[T]:
        """Start ``coro`` as work in flight."""
        task = asyncio.create_task(coro, name=name)
        self._add(task)
        return task

    def _add(self, task: asyncio.Task[Any]) -> None:
        if task not in self._tasks:
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _busy(self) -> list[asyncio.Task[Any]]:
        """The work running now, except the calling task."""
        current = asyncio.current_task()
        return [task for task in self._tasks if task is not current and not task.done()]

    async def finish(self, grace: float) -> None:
        """Wait, at most ``grace`` seconds, until nothing is in flight: what joins meanwhile (an
        interaction received during the wait, the publishing a handler started) is waited for
        too."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace
        busy = self._busy()
        if busy:
            log.info("waiting for %d action(s) in flight", len(busy))
        while busy:
            left = deadline - loop.time()
            if left <= 0:
                log.warning("%d action(s) did not finish within %.0f s", len(busy), grace)
                return
            await asyncio.wait(busy, timeout=left)
            busy = self._busy()
