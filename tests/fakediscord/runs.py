"""One bot instance's tasks, known by a context variable, so a killed bot can be told apart.

The harness starts each bot (its ``login``, which runs ``setup_hook``, and its ``connect``) in a
copy of the context where :data:`CURRENT_RUN` is that bot's :class:`BotRun`. asyncio copies the
context into every task and callback it creates, so everything the bot does afterwards (event
handlers, interaction callbacks, views, the turn timers, aiohttp's own tasks) runs with the same
``CURRENT_RUN``, however it was started. That gives two things no task name or time window can:

- a log record can be traced to the bot whose code emitted it (``current_run()`` in a logging
  handler), so errors of a killed bot are ignored while a new bot's still fail the test;
- with :class:`TaskTracker` installed as the loop's task factory, the killed bot's tasks can all
  be cancelled, even those made after the kill.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import weakref
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.app import SzulerniaBot

CURRENT_RUN: contextvars.ContextVar[BotRun] = contextvars.ContextVar("szulernia_bot_run")
SETTLE_SECONDS = 0.2  # how long a killed bot's cancelled tasks get to unwind
CLOSE_SECONDS = 5.0


def current_run() -> BotRun | None:
    """The bot whose code is running now (``None`` outside every bot's tasks)."""
    return CURRENT_RUN.get(None)


@dataclass(eq=False)
class BotRun:
    """One bot instance, the context its code runs in, and the tasks started in it."""

    bot: SzulerniaBot
    context: contextvars.Context = field(default_factory=contextvars.copy_context)
    tasks: weakref.WeakSet[asyncio.Task[Any]] = field(default_factory=weakref.WeakSet)
    killed: bool = False

    def __post_init__(self) -> None:
        self.context.run(CURRENT_RUN.set, self)

    def create_task(self, coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        """A task running ``coro`` as this bot's code."""
        return asyncio.create_task(coro, name=name, context=self.context)

    def _cancel_all(self) -> list[asyncio.Task[Any]]:
        pending = [task for task in self.tasks if not task.done()]
        for task in pending:
            task.cancel()
        return pending

    def kill(self) -> None:
        """As ``kill -9`` would, stop all its code: cancel every task (so only ``finally`` blocks
        run; a transaction is rolled back, as SQLite does after a real kill). Awaits nothing."""
        self.killed = True
        self._cancel_all()
        timers = self.bot.timers._task  # the tracker has it too; cancelling twice is harmless
        if timers is not None:
            timers.cancel()

    async def settle(self) -> None:
        """After :meth:`kill`: give the cancelled tasks :data:`SETTLE_SECONDS` to unwind, then
        close the database connection, so that nothing the dead bot still runs can write."""
        pending = [task for task in self.tasks if not task.done()]
        if pending:
            await asyncio.wait(pending, timeout=SETTLE_SECONDS)
        await self._close_database()

    async def bury(self) -> None:
        """After a :meth:`kill`: cancel what it left running, close its gateway websocket (and
        its heartbeat thread), its HTTP session and its database, without errors."""
        pending = self._cancel_all()
        if pending:
            await asyncio.wait(pending, timeout=1.0)
        for ws in self._websockets():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 1.0)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.bot.http.close(), CLOSE_SECONDS)
        await self._close_database()

    def _websockets(self) -> list[Any]:
        """The bot's gateway websockets: one per shard it runs (an ``AutoShardedBot``)."""
        found = [self.bot.ws] if self.bot.ws is not None else []
        for shard_id in self.bot.shards:
            with contextlib.suppress(KeyError):
                found.append(self.bot._get_websocket(shard_id=shard_id))
        return found

    async def _close_database(self) -> None:
        """Close the connections directly (not through the lock a dead task may hold), as the
        process's death would; a worker thread that does not finish is stopped."""
        db = self.bot._db
        if db is not None:
            await db.abandon(CLOSE_SECONDS)


class TaskTracker:
    """The loop's task factory while a harness runs: adds each task to its bot's ``tasks``."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._previous: Any = None  # a factory set before ours (none, usually)

    def install(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._previous = self._loop.get_task_factory()
        self._loop.set_task_factory(self._factory)

    def uninstall(self) -> None:
        if self._loop is not None and not self._loop.is_closed():
            self._loop.set_task_factory(self._previous)
        self._loop = None

    def _factory(
        self, loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any
    ) -> asyncio.Future[Any]:
        task: asyncio.Task[Any]
        if self._previous is not None:
            task = self._previous(loop, coro, **kwargs)
        else:
            task = asyncio.Task(coro, loop=loop, **kwargs)
        context = kwargs.get("context")
        run = context.get(CURRENT_RUN) if context is not None else current_run()
        if run is not None:
            run.tasks.add(task)
        return task
