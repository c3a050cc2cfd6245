"""The Bot: settings and services are injected; setup_hook opens the database, wires the cogs,
restores open tables, starts the turn timers and syncs commands. A clean stop lets the work in
flight finish (:class:`InFlight`).

The bot is an ``AutoShardedBot``: ``[bot] shard_count`` and ``shard_ids`` choose the shards this
process runs (none given: as many as Discord recommends, all here), and the services restore,
redraw, time and play only the tables of those shards' guilds (``bot.shards``)."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import importlib
import json
import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import collector
from bot.config import Settings
from bot.i18n import Translator
from bot.in_flight import InFlight
from bot.npcs import NpcPlayers
from bot.services import CharacterService, GuildService, PurseService, TableService
from bot.services.books import BooksService
from bot.services.challenges import ChallengeService
from bot.services.clock import Clock, Sleeper, wall_clock, wall_sleeper
from bot.services.history import HistoryService
from bot.services.npcs import NpcService
from bot.services.outcomes import TableOutcome
from bot.services.side_bets import SideBetService
from bot.services.stats import StatsService
from bot.services.surfaces import SurfaceService
from bot.storage.db import Database
from bot.storage.opening import open_database
from bot.timers import TurnTimers
from cogs import gate
from cogs.kit.emojis import AppEmojis
from cogs.replies import MalformedInteraction, report

log = logging.getLogger(__name__)

DEFAULT_EXTENSIONS: tuple[str, ...] = (
    "cogs.help",
    "cogs.characters",
    "cogs.purse",
    "cogs.gm",
    "cogs.history",
    "cogs.pegaz",
    "cogs.pazaak",
    "cogs.npcs",
    "cogs.stats",
)
COMMANDS_HASH_KEY = "commands_hash"
SHUTDOWN_GRACE = 10.0
IDENTIFY_SPACING = 5.0
DRAIN_SECONDS = 0.05

RngFactory = Callable[[], random.Random]


@dataclass(frozen=True, slots=True)
class Services:
    characters: CharacterService
    purses: PurseService
    guilds: GuildService
    tables: TableService
    surfaces: SurfaceService
    challenges: ChallengeService
    npcs: NpcService
    history: HistoryService
    books: BooksService
    stats: StatsService
    side_bets: SideBetService

    @classmethod
    def build(
        cls, db: Database, settings: Settings, rng_factory: RngFactory, clock: Clock
    ) -> Services:
        surfaces = SurfaceService(db)
        tables = TableService(
            db,
            rng_factory=rng_factory,
            clock=clock,
            surfaces=surfaces,
            ownership=settings.bot.ownership(),
        )
        npcs = NpcService(db)
        return cls(
            characters=CharacterService(db, clock=clock),
            purses=PurseService(db, clock=clock),
            guilds=GuildService(db, default_language=settings.bot.language),
            tables=tables,
            surfaces=surfaces,
            challenges=ChallengeService(db, tables, clock=clock, npcs=npcs),
            npcs=npcs,
            history=HistoryService(db),
            books=BooksService(db, clock=clock),
            stats=StatsService(db),
            side_bets=SideBetService(db, tables, clock=clock),
        )


class SzulerniaTree(app_commands.CommandTree["SzulerniaBot"]):
    async def interaction_check(self, interaction: discord.Interaction[SzulerniaBot], /) -> bool:
        """Join the command's task to the work in flight (this is the first hook discord.py calls
        in it); refuse, ephemerally and with a WARNING only, a payload that breaks what its
        command declares (see :mod:`cogs.gate`): it never reaches discord.py's parsing or the
        cog."""
        self.client.in_flight.join()
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


class SzulerniaBot(commands.AutoShardedBot):
    """Szulernia's Discord client.

    ``rng_factory`` makes the random source for cards and dice: ``random.SystemRandom`` in
    production so that no player can predict the next card; tests inject a seeded
    ``random.Random`` instead. ``clock`` (Unix milliseconds) and ``sleeper`` (how the turn
    timers, the challenge sweep and the publisher's retries wait) are injectable for timer tests.
    ``identify_spacing``: seconds between two shards' IDENTIFYs (Discord asks 5; a fake less).
    ``database``: opened already (``bot.__main__.build_bot``), instead of by ``setup_hook``.
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
        identify_spacing: float = IDENTIFY_SPACING,
        database: Database | None = None,
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
            shard_count=settings.bot.shard_count,
            shard_ids=settings.bot.shard_ids,  # type: ignore[arg-type]  # None: all (its default)
        )
        self.settings = settings
        self.ownership = settings.bot.ownership()
        """The guilds whose tables this process restores, times and plays (``bot.shards``)."""
        self.identify_spacing = identify_spacing
        self.rng_factory = rng_factory
        self.clock = clock
        self.dm_channels: dict[int, int] = {}
        """user id -> their DM channel's id. discord.py forgets all but 128 DM channels, and
        opening one again is a rate-limited request: a busy evening DMs hundreds of players."""
        self.sleeper = sleeper
        self._extensions = tuple(extensions)
        self._db = database
        """Opened by ``setup_hook``, unless given opened (``bot.__main__.build_bot``); the bot
        closes it either way."""
        self._services: Services | None = None
        self._restoring: asyncio.Task[None] | None = None
        self._timers: TurnTimers | None = None
        self._npc_players: NpcPlayers | None = None
        self.in_flight = InFlight()
        self.app_emojis = AppEmojis(self)
        """The application's emojis (``cogs.kit.emojis``), uploaded beside the startup."""
        self._emojis: asyncio.Task[None] | None = None

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

    @property
    def timers(self) -> TurnTimers:
        if self._timers is None:
            raise RuntimeError("the turn timers are built in setup_hook")
        return self._timers

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Space the shards' IDENTIFYs as Discord asks (discord.py's own wait, made settable)."""
        if not initial:
            await asyncio.sleep(self.identify_spacing)

    def _guild_locale(self, guild_id: int) -> str | None:
        """The server's own locale, as Discord last told it (GUILD_CREATE, GUILD_UPDATE)."""
        guild = self.get_guild(guild_id)
        return None if guild is None else str(guild.preferred_locale)

    async def setup_hook(self) -> None:
        # The file's integrity check reads the whole file on a thread of its own: meanwhile the
        # cogs' code is imported (loading them reads tables and redraws them in Discord, so that
        # waits for the check's verdict).
        if self._db is None:
            self._db = await open_database(self.settings.database.target, check_later=True)
        for name in self._extensions:
            with contextlib.suppress(Exception):  # load_extension below says why, as always
                importlib.import_module(name)
        await self._db.checked()
        self._services = Services.build(self._db, self.settings, self.rng_factory, self.clock)
        self._services.guilds.use_locales(self._guild_locale)
        await self.tree.set_translator(Translator())
        self._timers = TurnTimers(
            self._services.tables,
            clock=self.clock,
            sleeper=self.sleeper,
            on_outcome=self._tell_outcome,
            on_warning=self._tell_warning,
        )
        npc = self.settings.npc
        self._npc_players = NpcPlayers(
            self._services.tables,
            self._services.npcs,
            clock=self.clock,
            sleeper=self.sleeper,
            pause=(npc.pause_min, npc.pause_max),
            rng=self.rng_factory(),
            on_outcome=self._tell_outcome,
            on_talk=self._tell_talk,
        )
        self._services.tables.watch(self._npc_players.notice)
        self._restoring = asyncio.create_task(self._restore(), name="szulernia-restore")
        if self.settings.bot.emojis:
            self._emojis = asyncio.create_task(self.app_emojis.sync(), name="szulernia-emojis")
        for name in self._extensions:  # each game's cog redraws its tables that are behind
            await self.load_extension(name)
        self._timers.start()
        self._npc_players.start()
        await self.sync_commands()

    def _tell_outcome(self, outcome: TableOutcome) -> None:
        self.dispatch("table_outcome", outcome)

    def _tell_warning(self, table_id: int, version: int) -> None:
        self.dispatch("turn_warning", table_id, version)

    def _tell_talk(self, table_id: int, player: int, moment: str, pick: int) -> None:
        self.dispatch("npc_talk", table_id, player, moment, pick)

    @property
    def npc_players(self) -> NpcPlayers:
        if self._npc_players is None:
            raise RuntimeError("the NPC players are built in setup_hook")
        return self._npc_players

    async def _restore(self) -> None:
        served = (self.wait_until_ready(), self.timers.looked(), self.npc_players.looked())
        await asyncio.gather(*served)  # READY and the loops' first looks: then keep the tables
        try:
            restored = await self.services.tables.keep_open()
        except Exception:
            log.exception("restoring the open tables failed; each is read when next used")
            return
        log.info("restored %d open tables (%s)", len(restored), self.ownership.describe())
        collector.settle()  # what lives now lives for the whole process

    async def restored(self) -> None:
        """Wait until the open tables are kept in memory (the restore began in setup_hook)."""
        if self._restoring is not None:
            await asyncio.shield(self._restoring)

    async def emojis_ready(self) -> None:
        """Wait until the application's emojis are listed and uploaded (begun in setup_hook)."""
        if self._emojis is not None:
            await asyncio.shield(self._emojis)

    async def close(self) -> None:
        """Stop the timers, let the actions in flight finish (they may still answer), then
        disconnect and close the database."""
        if self._emojis is not None:
            self._emojis.cancel()
        if self._restoring is not None:
            self._restoring.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._restoring
        if self._timers is not None:
            await self._timers.stop()
        if self._npc_players is not None:
            await self._npc_players.stop()
        await asyncio.sleep(DRAIN_SECONDS)  # let the handlers already scheduled join
        await self.in_flight.finish(SHUTDOWN_GRACE)
        await super().close()
        db, self._db = self._db, None
        if db is not None:
            await db.close()
            log.info("database closed")

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
