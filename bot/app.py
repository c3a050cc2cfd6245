"""The Bot: settings and services are injected; setup_hook wires the cogs and syncs commands."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Sequence

import discord
from discord.ext import commands

from bot.config import Settings

log = logging.getLogger(__name__)

DEFAULT_EXTENSIONS: tuple[str, ...] = ("cogs.help",)

RngFactory = Callable[[], random.Random]


class SzulerniaBot(commands.Bot):
    """Szulernia's Discord client.

    ``rng_factory`` makes the random source for cards and dice: ``random.SystemRandom`` in
    production so that no player can predict the next card; tests inject a seeded
    ``random.Random`` instead.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        rng_factory: RngFactory = random.SystemRandom,
        extensions: Sequence[str] = DEFAULT_EXTENSIONS,
        guild_ready_timeout: float = 2.0,
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
        )
        self.settings = settings
        self.rng_factory = rng_factory
        self._extensions = tuple(extensions)

    async def setup_hook(self) -> None:
        for name in self._extensions:
            await self.load_extension(name)
        await self.sync_commands()

    async def sync_commands(self) -> None:
        guild_id = self.settings.bot.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to the development guild %d", len(synced), guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands", len(synced))
