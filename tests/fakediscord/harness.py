"""Run the real SzulerniaBot against a FakeDiscord: start, wait until ready, restart, stop, and
crash (kill the bot at a chosen point and start another on the same database).

The bot's time is ``harness.clock``, a :class:`FakeClock` that stands still until the test moves
it (``await harness.clock.advance(seconds)``): a turn timer, the challenge sweep or a publisher
retry fires when its time is passed, with no wall-clock wait. It keeps its time across restarts
and crashes, as the wall clock would."""

# ruff: noqa: ASYNC109 (wait helpers take ``timeout=`` on purpose: it reads best in tests)

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bot.app import DEFAULT_EXTENSIONS, IDENTIFY_SPACING, SzulerniaBot
from bot.config import BotSettings, DatabaseSettings, DiscordSettings, Settings
from bot.endpoints import use_endpoints
from tests.fakediscord.clock import FakeClock
from tests.fakediscord.runs import BotRun, TaskTracker, current_run
from tests.fakediscord.server import FakeDiscord

READY_TIMEOUT = 10.0
CAPTURED_LOGGERS = ("discord", "bot", "cogs", "tests")
NO_EMOJIS = {"emojis": False}
"""The bot's own emojis stay off unless a test asks (``bot_settings={"emojis": True}``): its
texts then show the Unicode emoji the tests read, and startup makes no upload requests."""


class ErrorLog(logging.Handler):
    """Keeps ERROR records from the bot and discord.py: an exception in a handler fails a test.

    Records emitted by the code of a killed bot (``BotHarness.crash_and_restart``) go to
    ``ignored`` instead: the harness runs each bot in its own context (see ``runs.py``), which
    every task the bot makes inherits, so a record is attributed by the context it is logged in.
    That is exact where a time window is not (the new bot's errors in the same moments still
    count) and needs no task names. Records logged from a thread carry no context and count.
    """

    def __init__(self, notify: Callable[[], None]) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []
        self.ignored: list[logging.LogRecord] = []
        self._notify = notify
        self._loop: asyncio.AbstractEventLoop | None = None

    def attach(self) -> None:
        self._loop = asyncio.get_running_loop()
        logging.getLogger().addHandler(self)

    def detach(self) -> None:
        logging.getLogger().removeHandler(self)
        self._loop = None

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.split(".")[0] in CAPTURED_LOGGERS:
            run = current_run()
            if run is not None and run.killed:
                self.ignored.append(record)
                return
            self.records.append(record)
            if self._loop is not None and not self._loop.is_closed():
                self._loop.call_soon_threadsafe(self._notify)  # wake fake.wait_for


class BotHarness:
    """One bot process-equivalent per test; ``restart()`` keeps the database and the fake, and so
    does ``crash_and_restart()``, which kills the bot instead of stopping it.

    Several may share one fake (and one ``clock``), e.g. one per range of shards
    (``bot_settings={"shard_count": 4, "shard_ids": [0, 1]}``); close them in the reverse order
    of their starts (each puts back the endpoints and the task factory it found)."""

    def __init__(
        self,
        fake: FakeDiscord,
        *,
        database: Path | str,
        seed: int = 1234,
        extensions: Sequence[str] = DEFAULT_EXTENSIONS,
        guild_ready_timeout: float = 0.05,
        bot_settings: dict[str, Any] | None = None,
        clock: FakeClock | None = None,
        identify_spacing: float = IDENTIFY_SPACING,
    ) -> None:
        self.fake = fake
        self.identify_spacing = identify_spacing
        """Seconds between two shards' IDENTIFYs (a bot of several shards: 0 spares the wait)."""
        self.clock = clock if clock is not None else FakeClock()
        self.seed = seed
        self.extensions = tuple(extensions)
        self.guild_ready_timeout = guild_ready_timeout
        self.settings = Settings(
            database=(  # a PostgreSQL URL, or a SQLite file
                DatabaseSettings(url=database)
                if isinstance(database, str)
                else DatabaseSettings(path=database)
            ),
            bot=BotSettings(**(NO_EMOJIS | (bot_settings or {}))),
            discord=DiscordSettings(api_base=fake.api_base, gateway_url=fake.gateway_url),
            token=fake.token,
        )
        self.startup_seconds: list[float] = []
        self.errors = ErrorLog(fake.state.notify)
        self._bot: SzulerniaBot | None = None
        self._task: asyncio.Task[None] | None = None
        self._run: BotRun | None = None
        self._killed: list[BotRun] = []
        self._tracker = TaskTracker()
        self._endpoints = contextlib.ExitStack()
        self._entered = False

    @property
    def bot(self) -> SzulerniaBot:
        if self._bot is None:
            raise RuntimeError("the bot is not running")
        return self._bot

    @property
    def run(self) -> BotRun:
        """The running bot's context and tasks (see ``runs.py``)."""
        if self._run is None:
            raise RuntimeError("the bot is not running")
        return self._run

    def rng(self) -> random.Random:
        return random.Random(self.seed)

    async def start(self, *, wait_restore: bool = True) -> SzulerniaBot:
        """Start the bot, returning once it is READY (commands are synced before that) and,
        unless ``wait_restore=False``, once its open tables are kept in memory."""
        if not self._entered:
            self._entered = True
            self._endpoints.enter_context(use_endpoints(self.settings.discord))
            self.errors.attach()
            self._tracker.install()
        began = time.perf_counter()
        bot = SzulerniaBot(
            self.settings,
            rng_factory=self.rng,
            extensions=self.extensions,
            guild_ready_timeout=self.guild_ready_timeout,
            clock=self.clock,
            sleeper=self.clock,
            identify_spacing=self.identify_spacing,
        )
        self._bot = bot
        self._run = run = BotRun(bot)
        assert self.settings.token is not None
        try:  # login runs setup_hook (extensions, the turn timers, command sync) as the bot's code
            await run.create_task(bot.login(self.settings.token), name="szulernia-login")
        except BaseException:
            await self.stop()
            raise
        self._task = run.create_task(bot.connect(reconnect=True), name="szulernia-bot")
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait(
            {self._task, ready}, timeout=READY_TIMEOUT, return_when=asyncio.FIRST_COMPLETED
        )
        if ready not in done:
            ready.cancel()
            cause = self._task.exception() if self._task in done else None
            await self.stop()
            raise RuntimeError(f"the bot did not become ready within {READY_TIMEOUT}s") from cause
        loops = [loop.task for loop in (bot.timers, bot.npc_players) if loop.task is not None]
        for task in loops:  # their first look (deadlines, computer seats), before any advance
            self.clock.watch(task)
        if loops:
            await self.clock.idle()
        self.startup_seconds.append(time.perf_counter() - began)  # to READY
        if wait_restore:  # deterministic tests: every open table kept, as before any click
            await bot.restored()
        return bot

    async def stop(self) -> None:
        bot, task = self._bot, self._task
        self._bot = self._task = self._run = None
        if bot is not None:
            await bot.close()
        if task is not None:
            try:
                await asyncio.wait_for(task, 5.0)
            except asyncio.CancelledError:
                pass
            except Exception:  # the ErrorLog turns this into a test failure
                logging.getLogger("tests.fakediscord").exception("the bot's connection failed")

    async def restart(self) -> SzulerniaBot:
        """Stop the bot and start a new one on the same database, as a redeploy would."""
        await self.stop()
        return await self.start()

    async def crash_and_restart(self) -> SzulerniaBot:
        """Kill the bot (``kill -9``) and start a new one on the same database.

        ``fake.freeze()`` makes everything the old bot still sends hang, and gives the new bot
        its own token. The old bot is not closed (``close()`` would wait for its work in flight):
        its tasks are cancelled and its database connection closed (see ``BotRun.kill``), and
        ``close()`` cleans up what is left. Errors it logs from now on do not fail the test.
        Combine with ``fake.hold(...)`` to crash in the middle of a REST call.
        """
        run = self._run
        self._bot = self._task = self._run = None
        if run is not None:  # first: a task waiting for a held request is cancelled, not failed
            run.kill()
            self._killed.append(run)
        self.fake.freeze()
        if run is not None:
            await run.settle()
        self.settings = self.settings.model_copy(update={"token": self.fake.token})
        return await self.start()

    async def close(self) -> None:
        await self.stop()
        for run in self._killed:
            await run.bury()
        self._killed.clear()
        self._tracker.uninstall()
        self.errors.detach()
        self._endpoints.close()
        self._entered = False

    async def wait_for_error(self, timeout: float = 5.0) -> logging.LogRecord:
        """Wait until the bot or discord.py logs an error, and take it."""
        await self.fake.state.wait_for(
            lambda: self.errors.records,
            timeout=timeout,
            what="an error logged by the bot",
            fail_on_violation=False,
        )
        return self.errors.records.pop(0)

    def take_errors(self) -> list[logging.LogRecord]:
        """Return and forget the logged errors, for tests that provoke them on purpose."""
        taken = list(self.errors.records)
        self.errors.records.clear()
        return taken

    def problems(self) -> list[str]:
        """Logged errors left over: each is a test failure."""
        out = []
        for record in self.errors.records:
            text = record.getMessage()
            if record.exc_info and record.exc_info[1] is not None:
                text += f" ({record.exc_info[1]!r})"
            out.append(f"{record.name}: {text}")
        return out
