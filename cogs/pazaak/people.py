"""Who may act for a character at the pazaak table, and how the cog mentions (and pings) users."""

from __future__ import annotations

from typing import Any

import discord

from bot.services.outcomes import Character


async def controls(interaction: discord.Interaction[Any], character: Character) -> bool:
    """Whether the user may act for the character: its owner. An NPC's owner is the GM who runs
    it and gets its hand by DM; another GM is a player like any other (and sees no NPC's hand)."""
    return character.owner_id == interaction.user.id


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def pinging(user_id: int | None) -> discord.AllowedMentions:
    if user_id is None:
        return discord.AllowedMentions.none()
    return discord.AllowedMentions(
        users=[discord.Object(user_id)], roles=False, everyone=False, replied_user=False
    )
