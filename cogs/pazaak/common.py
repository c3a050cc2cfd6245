"""What the pazaak cog's modules share: its refusals, who may act for a character, mentions, and
which hands a step changed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.rules import pazaak
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


def dm_key(table_id: int, player: int) -> str:
    return f"pazaak:dm:{table_id}:{player}"


def names_of(players: dict[int, Character]) -> dict[int, str]:
    return {pid: who.name for pid, who in players.items()}


def touched_players(state: pazaak.PazaakState, events: Sequence[Any]) -> list[int]:
    """The players whose hand view this step changed (their DM is edited)."""
    both = [p.id for p in state.players]
    touched = {state.current_player} if state.current_player is not None else set()
    for event in events:
        if isinstance(event, pazaak.SetStarted | pazaak.SetEnded | pazaak.MatchEnded):
            touched.update(both)
        elif isinstance(event, pazaak.CardPlayed | pazaak.TurnEnded | pazaak.Stood):
            touched.add(event.player)
    return [pid for pid in both if pid in touched]
