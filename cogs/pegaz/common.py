"""What every Pegasus handler needs: the table, who may act for which seat, act-and-publish."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import discord

from bot.render.pegaz import Roster
from bot.replies import Refused, bot_of
from bot.rules import pegaz
from bot.rules.common import NotSeated, NotYourTurn
from bot.services.errors import StaleAction, UnknownTable
from bot.services.outcomes import TableOutcome, TableView
from cogs.common import is_gm
from cogs.pegaz.buttons import Click
from cogs.pegaz.flow import Publisher, roster_of

if TYPE_CHECKING:
    from bot.app import SzulerniaBot

COG_NAME = "Pegaz"
CURRENCY = "wh"


def publisher(bot: SzulerniaBot) -> Publisher:
    cog = bot.get_cog(COG_NAME)
    if cog is None:
        raise RuntimeError("the Pegaz cog is not loaded")
    return cast(Publisher, cog.publisher)  # type: ignore[attr-defined]


async def table(interaction: discord.Interaction[Any], table_id: int) -> TableView:
    """A Pegasus table of this guild (any other id is an unknown table)."""
    view = await bot_of(interaction).services.tables.get(table_id)
    other_guild = interaction.guild_id is not None and view.guild_id != interaction.guild_id
    if view.game != pegaz.GAME or other_guild:
        raise UnknownTable(table=table_id)
    return view


def fresh(click: Click, view: TableView) -> None:
    """Refuse a component drawn at an older version of the table."""
    if click.target.ver != view.version:
        raise StaleAction(table=view.table_id, expected=click.target.ver, current=view.version)


async def require_opener(interaction: discord.Interaction[Any], view: TableView) -> None:
    """The table's opener or a GM (start, cancel, rulings)."""
    opener = await bot_of(interaction).services.tables.opener(view.table_id)
    if interaction.user.id != opener and not await is_gm(interaction):
        raise Refused("not_opener")


async def may_play(interaction: discord.Interaction[Any], roster: Roster, player: int) -> bool:
    """Whether the user plays this seat: their own character, or an NPC they run (its owner, the
    GM who gets its cards by DM). Another GM at the table is a player like any other."""
    who = roster.get(player)
    return who is not None and who.user_id == interaction.user.id


def owns(interaction: discord.Interaction[Any], roster: Roster, player: int) -> bool:
    """Whether the seat holds one of the user's own (not NPC) characters."""
    who = roster.get(player)
    return who is not None and who.user_id == interaction.user.id and not who.npc


async def my_seats(
    interaction: discord.Interaction[Any], state: pegaz.PegazState, roster: Roster
) -> list[int]:
    """The seats the user plays: own characters first, then NPCs (for a GM)."""
    own = [s.player for s in state.seats if owns(interaction, roster, s.player)]
    npcs = [
        s.player
        for s in state.seats
        if s.player not in own and await may_play(interaction, roster, s.player)
    ]
    return own + npcs


async def on_turn(click: Click) -> tuple[TableView, int, Roster]:
    """The table, the seat on turn and the roster, if the user plays the seat on turn now."""
    interaction = click.interaction
    view = await table(interaction, click.target.table)
    fresh(click, view)
    state: pegaz.PegazState = view.state
    roster = await roster_of(bot_of(interaction), (state,))
    turn = pegaz.whose_turn(state)
    if turn is not None and await may_play(interaction, roster, turn):
        if click.target.arg and click.target.arg.split(".")[0] != str(turn):
            raise StaleAction(table=view.table_id, expected=click.target.ver, current=view.version)
        return view, turn, roster
    if await my_seats(interaction, state, roster):
        raise NotYourTurn(player=interaction.user.id)
    raise NotSeated(player=interaction.user.id)


async def act(click: Click, action: Any, *, expected: int | None) -> TableOutcome:
    """Apply one rules action for this click (its id is the idempotency key) and publish it."""
    bot = bot_of(click.interaction)
    outcome = await bot.services.tables.act(
        click.target.table,
        action,
        key=click.interaction.id,
        expected_version=expected,
        actor_id=click.user_id,
    )
    await publisher(bot).publish(outcome)
    return outcome
