"""The Bot: settings and services are injected; setup_hook opens the database, wires the cogs,
restores open tables, starts the turn timers and syncs commands."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.i18n import Translator
from bot.services import CharacterService, GuildService, PurseService, TableService
from bot.services.challenges import ChallengeService
from bot.services.clock import Clock, Sleeper, wall_clock, wall_sleeper
from bot.services.surfaces import SurfaceService
from bot.storage.db import Database
from bot.timers import TurnTimers
from cogs import gate
from cogs.replies import MalformedInteraction, report

log = logging.getLogger(__name__)

DEFAULT_EXTENSIONS: tuple[str, ...] = (
    "cogs.help",
    "cogs.characters",
    "cogs.purse",
    "cogs.gm",
    "cogs.pegaz",
    "cogs.pazaak",
)
COMMANDS_HASH_KEY = "commands_hash"
SHUTDOWN_GRACE = 10.0
DRAIN_SECONDS = 0.05
IN_FLIGHT: tuple[str, ...] = (
    "CommandTree-invoker",  # slash commands and autocomplete (discord.py's task names)
    "discord-ui-",  # buttons, selects, modals, dynamic items
    "discord.py: on_table_outcome",
    "discord.py: on_turn_warning",
    "discord.py: on_interaction",  # the Pegaz exchange dialog, submitted through a listener
    "szulernia-publish-",  # a table's surfaces being brought up to date
)

RngFactory = Callable[[], random.Random]


@dataclass(frozen=True, slots=True)
class Services:
    characters: CharacterService
    purses: PurseService
    guilds: GuildService
    tables: TableService
    surfaces: SurfaceService
    challenges: ChallengeService

    @classmethod
    def build(
        cls, db: Database, settings: Settings, rng_factory: RngFactory, clock: Clock
    ) -> Services:
        surfaces = SurfaceService(db)
        tables = TableService(db, rng_factory=rng_factory, clock=clock, surfaces=surfaces)
        return cls(
            characters=CharacterService(db, clock=clock),
            purses=PurseService(db, clock=clock),
            guilds=GuildService(db, default_language=settings.bot.language),
            tables=tables,
            surfaces=surfaces,
            challenges=ChallengeService(db, tables, clock=clock),
        )


class SzulerniaTree(app_commands.CommandTree["SzulerniaBot"]):
    async def interaction_check(self, interaction: discord.Interaction[SzulerniaBot], /) -> bool:
        """Refuse, ephemerally and with a WARNING only, a payload that breaks what its command
        declares (see :mod:`cogs.gate`): it never reaches discord.py's parsing or the cog."""
        refusal = gate.check(self, interaction)
        if refusal is None:
            return True
        data: dict[str, Any] = dict(interaction.data) if isinstance(interaction.data, dict) else {}
        log.warning(
            "refused a malformed /%s (%s %s)",
            str(data.get("name", "?"))[:32],
            refusal.code,
            str(refusal.params.get("option", ""))[:32],
        )
        await report(interaction, refusal)
        return False

    async def _call(self, interaction: discord.Interaction[SzulerniaBot]) -> None:
        # discord.py lets a KeyError or ValueError out of its payload parsing (an unresolved
        # user, an id that is no snowflake) and then nobody answers: make it an app command
        # error, which ``on_error`` turns into a refusal. The gate above catches these first.
        try:
            await super()._call(interaction)
        except app_commands.AppCommandError:
            raise
        except (KeyError, ValueError, TypeError, AttributeError, IndexError) as exc:
            raise MalformedInteraction(type(exc).__name__) from exc

    async def on_error(
        self,
        interaction: discord.Interaction[SzulerniaBot],
        error: app_commands.AppCommandError,
    ) -> None:
        await report(interaction, error)


class SzulerniaBot(commands.Bot):
    """Szulernia's Discord client.

    ``rng_factory`` makes the random source for cards and dice: ``random.SystemRandom`` in
    production so that no player can predict the next card; tests inject a seeded
    ``random.Random`` instead. ``clock`` (Unix milliseconds) and ``sleeper`` (how the turn
    timers, the challenge sweep and the publisher's retries wait) are injectable for timer tests.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        rng_factory: RngFactory = random.SystemRandom,
        extensions: Sequence[str] = DEFAULT_EXTENSIONS,
        guild_ready_timeout: float = 2.0,
        clock: Clock = wall_clock,
        sleeper: Sleeper = wall_sleeper,
    ) -> None:
        # Szulernia never joins voice: don't warn about voice libraries at every start.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            guild_ready_timeout=guild_ready_timeout,
            tree_cls=SzulerniaTree,
        )
        self.settings = settings
        self.rng_factory = rng_factory
        self.clock = clock
        self.dm_channels: dict[int, int] = {}
        """user id -> their DM channel's id. discord.py forgets all but 128 DM channels, and
        opening one again is a rate-limited request: a busy evening DMs hundreds of players."""
        self.sleeper = sleeper
        self._extensions = tuple(extensions)
        self._db: Database | None = None
        self._services: Services | None = None
        self._restoring: asyncio.Task[None] | None = None
        self.timers = TurnTimers(self)

    @property
    def db(self) -> Database:
        if self._db is None:
            raise RuntimeError("the database is opened in setup_hook")
        return self._db

    @property
    def services(self) -> Services:
        if self._services is None:
            raise RuntimeError("the services are built in setup_hook")
        return self._services

    def _guild_locale(self, guild_id: int) -> str | None:
        """The server's own locale, as Discord last told it (GUILD_CREATE, GUILD_UPDATE)."""
        guild = self.get_guild(guild_id)
        return None if guild is None else str(guild.preferred_locale)

    async def setup_hook(self) -> None:
        self._db = await Database.open(self.settings.database.path)
        self._services = Services.build(self._db, self.settings, self.rng_factory, self.clock)
        self._services.guilds.use_locales(self._guild_locale)
        await self.tree.set_translator(Translator())
        self._restoring = asyncio.create_task(self._restore(), name="szulernia-restore")
        for name in self._extensions:  # each game's cog redraws its tables that are behind
            await self.load_extension(name)
        self.timers.start()
        await self.sync_commands()

    async def _restore(self) -> None:
        """Keep every open table in memory, beside the first clicks: READY does not wait for it
        (a table clicked before it is kept is read then)."""
        try:
            restored = await self.services.tables.restore()
        except Exception:
            log.exception("restoring the open tables failed; each is read when next used")
            return
        log.info("restored %d open tables", len(restored))

    async def restored(self) -> None:
        """Wait until the open tables are kept in memory (the restore began in setup_hook)."""
        if self._restoring is not None:
            await asyncio.shield(self._restoring)

    async def close(self) -> None:
        """Stop the timers, let the actions in flight finish (they may still answer), then
        disconnect and close the database."""
        if self._restoring is not None:
            self._restoring.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._restoring
        await self.timers.stop()
        await asyncio.sleep(DRAIN_SECONDS)  # let interactions already received be dispatched
        await self.finish_in_flight()
        await super().close()
        db, self._db = self._db, None
        if db is not None:
            await db.close()
            log.info("database closed")

    async def finish_in_flight(self, grace: float = SHUTDOWN_GRACE) -> None:
        """Wait (at most ``grace`` seconds) for the interaction handlers and table-outcome
        listeners that are running now."""
        current = asyncio.current_task()
        busy = [
            task
            for task in asyncio.all_tasks()
            if task is not current and not task.done() and task.get_name().startswith(IN_FLIGHT)
        ]
        if not busy:
            return
        log.info("waiting for %d action(s) in flight", len(busy))
        _, pending = await asyncio.wait(busy, timeout=grace)
        if pending:
            log.warning("%d action(s) did not finish within %.0f s", len(pending), grace)

    async def command_payload(self) -> list[dict[str, object]]:
        translator = self.tree.translator
        assert translator is not None
        return [
            await command.get_translated_payload(self.tree, translator)
            for command in self.tree.get_commands()
        ]

    async def sync_commands(self) -> None:
        """Sync to the development guild at once; globally only when the command set changed."""
        guild_id = self.settings.bot.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to the development guild %d", len(synced), guild_id)
            return
        payload = json.dumps(await self.command_payload(), sort_keys=True, default=str)
        digest = hashlib.sha256(payload.encode()).hexdigest()
        if await self.services.guilds.meta(COMMANDS_HASH_KEY) == digest:
            log.info("commands unchanged since the last sync; not syncing")
            return
        synced = await self.tree.sync()
        await self.services.guilds.set_meta(COMMANDS_HASH_KEY, digest)
        log.info("synced %d global commands", len(synced))
