"""``/npc``: the GM takes a computer-played NPC's seat over and hands it back, and lists the
personalities; and the NPCs' table talk in the channel.

An NPC speaks under its own name through a webhook of the channel where the bot may manage
webhooks (one per channel, made once and kept), or else as a plain message that names it. A
line is said in the server's language; none names a card, so table talk never tells a hand.

Its avatar is its portrait (``bot.render.images.portraits``), uploaded once as an application
emoji named ``npc_<personality>`` (``cogs.kit.emojis``), whose image address the webhook
message names; where the upload is refused the NPC speaks with Discord's default avatar.
"""

from __future__ import annotations

import asyncio
import logging
from functools import partial
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.ai.personalities import UnknownPersonality, line_at, personalities, personality
from bot.i18n import Lang, t
from bot.render.images.portraits import portrait
from bot.services.errors import ServiceError
from cogs.common import CharacterName, TableNumber, gm_only, guild_id_of, my_npcs
from cogs.kit import threads
from cogs.replies import Refused, answer, lang_of

if TYPE_CHECKING:
    from bot.app import SzulerniaBot

log = logging.getLogger(__name__)

WEBHOOK_NAME = "Szulernia NPCs"
PERSONALITY_MAX = 40


def known_personality(name: str, game: str) -> str:
    """The id of ``game``'s personality named ``name`` (its id, or its name in a language), or
    a refusal that lists them."""
    wanted = name.strip().casefold()
    for found in personalities(game):
        if wanted == found.id or wanted in (n.casefold() for n in found.names.values()):
            return found.id
    ids = ", ".join(p.id for p in personalities(game))
    raise Refused("npc_unknown_personality", name=name, known=ids)


@app_commands.guild_only()
class Npcs(commands.GroupCog, group_name="npc", group_description="GM: the NPCs the bot plays."):
    def __init__(self, bot: SzulerniaBot) -> None:
        self.bot = bot
        self._hooks: dict[int, discord.Webhook | None] = {}
        """Per channel: its webhook, or None where the bot may not manage webhooks."""
        self._avatars: dict[str, str | None] = {}
        """Per personality: its portrait's address, or None where its upload was refused."""
        self._avatar_lock = asyncio.Lock()

    @app_commands.command(name="takeover", description="GM: play a computer NPC's seat yourself.")
    @app_commands.describe(
        npc="The NPC the bot plays", table="The table's number (if it sits at several)"
    )
    @app_commands.autocomplete(npc=my_npcs)
    @gm_only()
    async def takeover(
        self, interaction: discord.Interaction, npc: CharacterName, table: TableNumber | None = None
    ) -> None:
        await self._control(interaction, npc, table, computer=False)

    @app_commands.command(name="handback", description="GM: let the bot play an NPC's seat again.")
    @app_commands.describe(
        npc="The NPC you took over", table="The table's number (if it sits at several)"
    )
    @app_commands.autocomplete(npc=my_npcs)
    @gm_only()
    async def handback(
        self, interaction: discord.Interaction, npc: CharacterName, table: TableNumber | None = None
    ) -> None:
        await self._control(interaction, npc, table, computer=True)

    @app_commands.command(name="personalities", description="The NPC gamblers the bot can play.")
    async def personalities_list(self, interaction: discord.Interaction) -> None:
        lang = await lang_of(interaction)
        lines = [
            t(
                lang,
                "npc.list.line",
                id=p.id,
                name=p.names[lang],
                game=t(lang, f"npc.game.{p.game}"),
                level=t(lang, f"npc.level.{p.level}"),
            )
            for p in personalities()
        ]
        await answer(interaction, "\n".join([t(lang, "npc.list.title"), *lines]))

    async def _control(
        self, interaction: discord.Interaction, name: str, table: int | None, *, computer: bool
    ) -> None:
        """Take over (``computer`` False) or hand back the NPC's computer seat at the table."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        services = self.bot.services
        who = await services.characters.by_name(guild_id_of(interaction), name)
        found = []
        for table_id in await services.tables.seated_at(who.id):
            if table is not None and table_id != table:
                continue
            if who.id in await services.npcs.seats(table_id):
                found.append(table_id)
        if not found:
            raise Refused("npc_not_computer", name=who.name)
        if len(found) > 1:
            raise Refused("npc_which_table", name=who.name, tables=", ".join(map(str, found)))
        await services.npcs.set_computer(found[0], who.id, computer)
        if computer:  # the bot plays it again: from the table as it stands now
            self.bot.npc_players.notice(await services.tables.get(found[0]))
        lang = await lang_of(interaction)
        key = "npc.handback.done" if computer else "npc.takeover.done"
        await answer(interaction, t(lang, key, name=who.name, table=found[0]))

    # --- table talk -------------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_npc_talk(self, table_id: int, player: int, moment: str, pick: int = 0) -> None:
        """A computer NPC's line at a moment that fits (see ``bot.npcs``: ``pick`` is which)."""
        self.bot.in_flight.join()
        services = self.bot.services
        try:
            table = await services.tables.get(table_id)
            seat = (await services.npcs.seats(table_id)).get(player)
            if seat is None:
                return
            who = await services.characters.get(player)
            lang = await services.guilds.language(table.guild_id)
            said = line_at(personality(seat.personality), moment, lang, pick)
        except (ServiceError, UnknownPersonality) as exc:
            log.info("table %d: no table talk (%s)", table_id, type(exc).__name__)
            return
        if said:
            where = await threads.talk_of(self.bot, table)
            thread = where if where != table.channel_id else None
            await self.say(
                table.channel_id, table.guild_id, who.name, said, lang, seat.personality, thread
            )

    async def say(
        self,
        channel_id: int,
        guild_id: int,
        name: str,
        text: str,
        lang: Lang,
        gambler: str | None = None,
        thread: int | None = None,
    ) -> None:
        """``name`` says ``text`` in the channel (or its ``thread``, a table's): by webhook as
        ``name`` (with the portrait of the personality ``gambler``) where the bot may, else as a
        plain message that names the speaker. Mentions never ping."""
        quiet = discord.AllowedMentions.none()
        hook = await self._webhook(channel_id, guild_id)
        if hook is not None:
            avatar = None if gambler is None else await self._avatar(gambler)
            try:
                await hook.send(
                    text,
                    username=name[:80],
                    avatar_url=avatar or discord.utils.MISSING,
                    thread=discord.utils.MISSING if thread is None else discord.Object(thread),
                    allowed_mentions=quiet,
                    wait=True,
                )
                return
            except discord.HTTPException as exc:
                log.info("channel %d: the NPC webhook failed (%s)", channel_id, exc.status)
                self._hooks.pop(channel_id, None)
        for where in dict.fromkeys((thread or channel_id, channel_id)):  # an archived thread
            channel = self.bot.get_partial_messageable(where, guild_id=guild_id)
            try:
                said = t(lang, "npc.says", name=name, text=text)
                await channel.send(said, allowed_mentions=quiet)
                return
            except discord.HTTPException as exc:
                log.info("channel %d: an NPC's line was refused (%s)", where, exc.status)

    async def _webhook(self, channel_id: int, guild_id: int) -> discord.Webhook | None:
        if channel_id in self._hooks:
            return self._hooks[channel_id]
        channel = self.bot.get_channel(channel_id)
        hook: discord.Webhook | None = None
        if isinstance(channel, discord.TextChannel):
            me = channel.guild.me
            if me is not None and channel.permissions_for(me).manage_webhooks:
                hook = await self._find_or_make(channel)
        self._hooks[channel_id] = hook
        return hook

    async def _avatar(self, gambler: str) -> str | None:
        """The address of ``gambler``'s portrait: its application emoji, uploaded the first time
        (through the bot's one upload path, ``cogs.kit.emojis``); None if it is refused."""
        async with self._avatar_lock:  # two first lines at once ask once
            if gambler in self._avatars:
                return self._avatars[gambler]
            url = None
            try:
                drawn = personality(gambler).names["en"]
                emoji = await self.bot.app_emojis.ensure(
                    f"npc_{gambler}"[:32], partial(portrait, gambler, drawn)
                )
                url = None if emoji is None else emoji.url
            except UnknownPersonality as exc:
                log.info("NPC %s speaks without a portrait (%s)", gambler, type(exc).__name__)
            if url is None:
                log.info("NPC %s speaks without a portrait", gambler)
            self._avatars[gambler] = url
            return url

    async def _find_or_make(self, channel: discord.TextChannel) -> discord.Webhook | None:
        try:
            for found in await channel.webhooks():
                if found.name == WEBHOOK_NAME and found.token:
                    return found
            return await channel.create_webhook(name=WEBHOOK_NAME)
        except discord.HTTPException as exc:
            log.info("channel %d: no NPC webhook (%s)", channel.id, exc.status)
            return None


async def setup(bot: SzulerniaBot) -> None:
    await bot.add_cog(Npcs(bot))


def personality_names(game: str, lang: Lang) -> list[app_commands.Choice[str]]:
    """The personalities of one game, as autocomplete choices (name shown, id sent)."""
    return [app_commands.Choice(name=p.names[lang][:100], value=p.id) for p in personalities(game)]


def choices_for(game: str) -> Any:
    """An autocomplete callback offering ``game``'s personalities in the user's language."""

    async def complete(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        lang = await lang_of(interaction)
        needle = current.casefold()
        return [c for c in personality_names(game, lang) if needle in c.name.casefold()][:25]

    return complete
