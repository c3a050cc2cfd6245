"""What every cog needs: who is a GM, which character a user acts with, name autocomplete.

GM: a member with Manage Server, or with the server's GM role (set with ``/gm role``; until then,
a role named like the ``bot.gm_role`` setting). A role is no Discord permission, so the GM
commands are gated by a check (:func:`gm_only`), not by ``default_permissions``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.services.outcomes import Character
from cogs.replies import CheckRefusal, Refused, bot_of

# The bounds of the options many commands share. Every option is bounded (Discord's clients
# honour these; ``cogs.gate`` refuses a payload that breaks them).
NAME_OPTION_MAX = 64  # the service allows 32 and says so; longer is cut off by the client
AMOUNT_OPTION_MAX = 100  # bot.rules.money reads no longer amount
MAX_TABLE_ID = 2**53 - 1  # Discord's largest integer option; table ids are SQLite rowids
CharacterName = app_commands.Range[str, 1, NAME_OPTION_MAX]
Amount = app_commands.Range[str, 1, AMOUNT_OPTION_MAX]
TableNumber = app_commands.Range[int, 1, MAX_TABLE_ID]
T = TypeVar("T")


def guild_id_of(interaction: discord.Interaction[Any]) -> int:
    """The server the interaction came from. A DM is refused as discord.py refuses a guild-only
    command: Discord hides those from DMs, but a client that has not seen the sync still sends
    them, and ``/pegaz`` and ``/pazaak`` are offered in DMs for their odds and rules."""
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.guild_id


async def is_gm(interaction: discord.Interaction[Any]) -> bool:
    member = interaction.user
    if interaction.guild_id is None or not isinstance(member, discord.Member):
        return False
    if interaction.permissions.manage_guild:
        return True
    return await member_is_gm(interaction, member)


async def member_is_gm(interaction: discord.Interaction[Any], member: discord.Member) -> bool:
    """Whether ``member`` (the user, or one an option named) is a GM of the interaction's
    server: Manage Server, or the GM role."""
    if interaction.guild_id is None:
        return False
    if member.guild_permissions.manage_guild:
        return True
    bot = bot_of(interaction)
    role_id = await bot.services.guilds.gm_role(interaction.guild_id)
    if role_id is not None:
        return any(role.id == role_id for role in member.roles)
    return any(role.name == bot.settings.bot.gm_role for role in member.roles)


class NotGM(CheckRefusal):
    """A GM's command, used by someone who is no GM here."""

    code = "not_gm"


class NotManager(CheckRefusal):
    """A command for Manage Server only, used by someone without it."""

    code = "not_manager"


async def require_gm(interaction: discord.Interaction[Any]) -> None:
    """Refuse anyone but a GM: :func:`gm_only`'s check, for the commands where only some options
    need a GM (``/character create`` of an NPC, or for another player)."""
    guild_id_of(interaction)
    if not await is_gm(interaction):
        raise NotGM()


def gm_only() -> Callable[[T], T]:
    """A command only a GM may use: in a DM it is refused as guild-only, anyone else hears
    ``not_gm``. Like every app command check, it is not run for autocomplete."""

    async def predicate(interaction: discord.Interaction[Any]) -> bool:
        await require_gm(interaction)
        return True

    return app_commands.check(predicate)


def manager_only() -> Callable[[T], T]:
    """A command only Manage Server may use (``/gm role``: it decides who the GMs are)."""

    def predicate(interaction: discord.Interaction[Any]) -> bool:
        guild_id_of(interaction)
        if not interaction.permissions.manage_guild:
            raise NotManager()
        return True

    return app_commands.check(predicate)


async def acting_character(interaction: discord.Interaction[Any], name: str | None) -> Character:
    """The character the user acts with: the one named (theirs: an NPC is its GM's, the owner who
    runs it), else their active one, else their only one. Several and none active: ask them to
    pick."""
    guild_id = guild_id_of(interaction)
    characters = bot_of(interaction).services.characters
    user_id = interaction.user.id
    if name:
        character = await characters.by_name(guild_id, name)
        await characters.require_owner(character.id, user_id)
        return character
    active = await characters.active(guild_id, user_id)
    if active is not None:
        return active
    owned = await own_characters(interaction)
    if len(owned) == 1:
        return owned[0]
    raise Refused("pick_character" if owned else "no_character")


async def own_characters(interaction: discord.Interaction[Any]) -> list[Character]:
    """The user's own (not NPC) characters on this server, by name."""
    found = await bot_of(interaction).services.characters.search(
        guild_id_of(interaction), owner_id=interaction.user.id, limit=100
    )
    return [c for c in found if not c.is_npc]


async def character_names(
    interaction: discord.Interaction[Any], current: str, *, mine: bool = False
) -> list[app_commands.Choice[str]]:
    """Autocomplete: characters of this server whose name starts with what was typed."""
    if interaction.guild_id is None:
        return []
    owner = interaction.user.id if mine and not await is_gm(interaction) else None
    found = await bot_of(interaction).services.characters.search(
        interaction.guild_id, current, owner_id=owner, limit=25
    )
    return [app_commands.Choice(name=c.name, value=c.name) for c in found]


async def own_names(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete: the characters the user plays (a GM's own NPCs too), for the options a
    user acts with (``acting_character`` refuses anyone else's, a GM's included)."""
    if interaction.guild_id is None:
        return []
    found = await bot_of(interaction).services.characters.search(
        interaction.guild_id, current, owner_id=interaction.user.id, limit=25
    )
    return [app_commands.Choice(name=c.name, value=c.name) for c in found]


async def my_npcs(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete: the NPCs of this server that the user (a GM) owns; another GM's NPC is
    theirs to seat."""
    if interaction.guild_id is None:
        return []
    found = await bot_of(interaction).services.characters.search(
        interaction.guild_id, current, owner_id=interaction.user.id, limit=100
    )
    return [app_commands.Choice(name=c.name, value=c.name) for c in found if c.is_npc][:25]


async def all_names(interaction: discord.Interaction[Any], current: str) -> list[Any]:
    return await character_names(interaction, current)


async def my_names(interaction: discord.Interaction[Any], current: str) -> list[Any]:
    return await character_names(interaction, current, mine=True)


def page_button(custom_id: str, label: str, disabled: bool) -> discord.ui.Button[Any]:
    """One "older / newer" button of a paged reply, for a persistent ``DynamicItem`` to wrap."""
    return discord.ui.Button(
        label=label or "…",  # rebuilt from a click: the label is never shown
        style=discord.ButtonStyle.secondary,
        disabled=disabled,
        custom_id=custom_id,
    )
