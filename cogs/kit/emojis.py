"""The bot's application emojis (``Client.create_application_emoji``): one upload path.

At startup (``sync``) the application's emojis are listed once and every drawing the bot makes
(``bot.render.images.emojis``: the Pegaz creatures, the Pazaak side card kinds) that is not there
yet is uploaded, off the way of READY. The NPCs' portraits come through :meth:`AppEmojis.ensure`
too, when first needed. An upload Discord refuses leaves that name out: the texts then show the
Unicode emoji, the buttons none (``bot.render.icons``), and after a refusal for lack of
permission no other upload is tried this run (no 403 in a loop).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

import discord

from bot.render.icons import NO_ICONS, Icons, card_emoji_name
from bot.render.images.emojis import drawings

if TYPE_CHECKING:
    from bot.app import SzulerniaBot

log = logging.getLogger(__name__)

Draw = Callable[[], bytes]


class AppEmojis:
    """The application's emojis by name, as listed once and uploaded since."""

    def __init__(self, bot: SzulerniaBot) -> None:
        self.bot = bot
        self._emojis: dict[str, discord.Emoji] | None = None
        self._lock = asyncio.Lock()
        self._refused = False
        self._icons: Icons = NO_ICONS
        self._ours = frozenset(drawings())

    async def sync(self) -> None:
        """List the emojis and upload the bot's drawings that are missing (at startup)."""
        try:
            for name, draw in drawings().items():
                if self._refused:
                    break
                await self.ensure(name, draw)
        except Exception:
            log.exception("the application emojis could not be set up; Unicode it is")

    async def ensure(self, name: str, draw: Draw) -> discord.Emoji | None:
        """The emoji ``name``: listed, else uploaded (drawn off the event loop); None where
        Discord refuses it."""
        async with self._lock:  # two first uses at once must not upload it twice
            try:
                emojis = await self._listed()
                found = emojis.get(name)
                if found is None and not self._refused:
                    image = await asyncio.to_thread(draw)
                    found = await self.bot.create_application_emoji(name=name, image=image)
                    emojis[name] = found
                    self._kept()
                return found
            except discord.HTTPException as exc:
                self._refused = self._refused or isinstance(exc, discord.Forbidden)
                log.info("the emoji %s was refused (%s %s)", name, exc.status, exc.code)
                return None

    async def _listed(self) -> dict[str, discord.Emoji]:
        if self._emojis is None:
            self._emojis = {e.name: e for e in await self.bot.fetch_application_emojis()}
            self._kept()
        return self._emojis

    def _kept(self) -> None:
        listed = self._emojis or {}
        self._icons = {name: str(e) for name, e in listed.items() if name in self._ours}

    def icons(self) -> Icons:
        """Name -> mention of the bot's own emojis that are there (for the text renders)."""
        return self._icons

    def card_button(self, kind: str) -> discord.PartialEmoji | None:
        """A Pazaak side card kind's emoji for a button, None where it was not uploaded."""
        emoji = (self._emojis or {}).get(card_emoji_name(kind))
        return None if emoji is None else discord.PartialEmoji(name=emoji.name, id=emoji.id)


def icons_of(emojis: AppEmojis | None) -> Mapping[str, str]:
    return NO_ICONS if emojis is None else emojis.icons()
