"""``/character create|list|show|use|edit|delete``: the characters that sit at the tables.

A player makes their own characters; a GM may also make an NPC (owned by that GM) or a character
for another player. Deleting asks first, with buttons that survive a restart, and is refused
while the character sits at a table. Characters are a server's: the group works only there.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import Lang, t
from bot.render import characters as render
from bot.rules.money import CURRENCIES, format_amount
from bot.services.errors import CharacterSeated, NotOwner
from cogs.common import (
    CharacterName,
    acting_character,
    all_names,
    guild_id_of,
    is_gm,
    my_names,
    require_gm,
)
from cogs.replies import answer, bot_of, guarded, lang_of

if TYPE_CHECKING:
    from bot.app import SzulerniaBot

NO_MENTIONS = discord.AllowedMentions.none()


class DeleteChoice(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"chr:del:(?P<char>\d+):(?P<user>\d+):(?P<yes>[yn])",
):
    """ "Delete" or "Keep" under a delete confirmation: ``chr:del:<character>:<asker>:<y|n>``."""

    def __init__(self, character_id: int, user_id: int, yes: bool, label: str = "") -> None:
        self.character_id, self.user_id, self.yes = character_id, user_id, yes
        super().__init__(
            discord.ui.Button(
                label=label or "…",  # rebuilt from a click: the label is never shown
                style=discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary,
                custom_id=f"chr:del:{character_id}:{user_id}:{'y' if yes else 'n'}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DeleteChoice:
        return cls(int(match["char"]), int(match["user"]), match["yes"] == "y")

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self._decide(interaction))

    async def _decide(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.user_id:
            raise NotOwner(character=self.character_id, user=interaction.user.id)
        lang = await lang_of(interaction)
        if not self.yes:
            text = t(lang, "character.delete.kept")
        else:
            services = bot_of(interaction).services
            character = await services.characters.get(self.character_id)
            returned = await services.characters.delete(
                character.id, actor_id=interaction.user.id, as_gm=await is_gm(interaction)
            )
            text = deleted_text(lang, character.name, returned)
        await interaction.response.edit_message(
            content=text, view=None, allowed_mentions=NO_MENTIONS
        )


def deleted_text(lang: Lang, name: str, returned: dict[str, int]) -> str:
    coins = [format_amount(n, CURRENCIES[code], lang) for code, n in returned.items() if n > 0]
    if not coins:
        return t(lang, "character.deleted", name=name)
    return t(lang, "character.deleted.coins", name=name, coins=", ".join(coins))


def confirmation(lang: Lang, character_id: int, user_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(DeleteChoice(character_id, user_id, True, t(lang, "character.delete.yes")))
    view.add_item(DeleteChoice(character_id, user_id, False, t(lang, "character.delete.no")))
    return view


@app_commands.guild_only()
class Characters(
    commands.GroupCog,
    group_name="character",
    group_description="Your characters: create, pick and manage them.",
):
    def __init__(self, bot: SzulerniaBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="create",
        description="Create a character (a GM may also create an NPC or one for a player).",
    )
    @app_commands.describe(
        name="The character's name: up to 32 letters, digits, spaces or - ' .",
        luck="Has the Luck talent (move a card by 1 after each deal).",
        gamble="Has the Gamble skill (move a card by 1, or cheat by 2).",
        perception="Perception target, 0-100, for spotting cheats.",
        user="GM only: the player who will own the character.",
        npc="GM only: a non-player character, played by the GM.",
    )
    async def create(
        self,
        interaction: discord.Interaction,
        name: CharacterName,
        luck: bool = False,
        gamble: bool = False,
        perception: app_commands.Range[int, 0, 100] = 0,
        user: discord.User | None = None,
        npc: bool = False,
    ) -> None:
        guild_id = guild_id_of(interaction)
        for_other = not npc and user is not None and user.id != interaction.user.id
        if npc or for_other:
            await require_gm(interaction)
        owner_id = user.id if for_other and user is not None else interaction.user.id
        character = await self.bot.services.characters.create(
            guild_id,
            name,
            owner_id=owner_id,
            npc=npc,
            luck=luck,
            gamble=gamble,
            perception=perception,
        )
        lang = await lang_of(interaction)
        await answer(interaction, render.created(lang, character, for_other=for_other))

    @app_commands.command(name="list", description="List the characters on this server.")
    @app_commands.describe(user="Only the characters of this player.")
    async def list_(
        self, interaction: discord.Interaction, user: discord.User | None = None
    ) -> None:
        guild_id = guild_id_of(interaction)
        service = self.bot.services.characters
        found = await service.search(
            guild_id, owner_id=None if user is None else user.id, limit=render.MAX_LISTED + 1
        )
        active = await service.active(guild_id, interaction.user.id)
        lang = await lang_of(interaction)
        text = render.listing(
            lang,
            found[: render.MAX_LISTED],
            active_id=None if active is None else active.id,
            more=len(found) > render.MAX_LISTED,
        )
        await answer(interaction, text)

    @app_commands.command(name="show", description="Show a character: player, traits, side cards.")
    @app_commands.describe(name="The character (default: the one you play).")
    @app_commands.autocomplete(name=all_names)
    async def show(
        self, interaction: discord.Interaction, name: CharacterName | None = None
    ) -> None:
        guild_id = guild_id_of(interaction)
        service = self.bot.services.characters
        if name:
            character = await service.by_name(guild_id, name)
        else:
            character = await acting_character(interaction, None)
        active = await service.active(guild_id, interaction.user.id)
        lang = await lang_of(interaction)
        shown = render.card(
            lang, character, active=active is not None and active.id == character.id
        )
        await answer(interaction, shown)

    @app_commands.command(name="use", description="Pick the character you play on this server.")
    @app_commands.describe(name="One of your characters.")
    @app_commands.autocomplete(name=my_names)
    async def use(self, interaction: discord.Interaction, name: CharacterName) -> None:
        guild_id = guild_id_of(interaction)
        service = self.bot.services.characters
        character = await service.by_name(guild_id, name)
        await service.set_active(guild_id, interaction.user.id, character.id)
        lang = await lang_of(interaction)
        await answer(interaction, t(lang, "character.used", name=character.name))

    @app_commands.command(name="edit", description="Rename a character or change its traits.")
    @app_commands.describe(
        name="The character to change.",
        new_name="A new name (up to 32 characters).",
        luck="Has the Luck talent.",
        gamble="Has the Gamble skill.",
        perception="Perception target, 0-100.",
    )
    @app_commands.autocomplete(name=my_names)
    async def edit(
        self,
        interaction: discord.Interaction,
        name: CharacterName,
        new_name: CharacterName | None = None,
        luck: bool | None = None,
        gamble: bool | None = None,
        perception: app_commands.Range[int, 0, 100] | None = None,
    ) -> None:
        guild_id = guild_id_of(interaction)
        service = self.bot.services.characters
        character = await service.by_name(guild_id, name)
        lang = await lang_of(interaction)
        if new_name is None and luck is None and gamble is None and perception is None:
            await service.require_owner(
                character.id, interaction.user.id, as_gm=await is_gm(interaction)
            )
            await answer(interaction, t(lang, "character.edit.nothing", name=character.name))
            return
        changed = await service.edit(
            character.id,
            actor_id=interaction.user.id,
            as_gm=await is_gm(interaction),
            name=new_name,
            luck=luck,
            gamble=gamble,
            perception=perception,
        )
        self.bot.services.tables.forget_character(character.id)  # its tables show the new name
        text = t(lang, "character.edited", name=changed.name, traits=render.traits(lang, changed))
        await answer(interaction, text)

    @app_commands.command(
        name="delete", description="Delete a character (asks first; not while at a table)."
    )
    @app_commands.describe(name="The character to delete.")
    @app_commands.autocomplete(name=my_names)
    async def delete(self, interaction: discord.Interaction, name: CharacterName) -> None:
        guild_id = guild_id_of(interaction)
        services = self.bot.services
        character = await services.characters.by_name(guild_id, name)
        await services.characters.require_owner(
            character.id, interaction.user.id, as_gm=await is_gm(interaction)
        )
        seated = await services.tables.seated_at(character.id)
        if seated:
            raise CharacterSeated(character=character.id, tables=seated)
        lang = await lang_of(interaction)
        await answer(
            interaction,
            t(lang, "character.delete.ask", name=character.name),
            view=confirmation(lang, character.id, interaction.user.id),
        )


async def setup(bot: SzulerniaBot) -> None:
    bot.add_dynamic_items(DeleteChoice)
    await bot.add_cog(Characters(bot))
