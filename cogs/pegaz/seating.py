"""The table's own buttons: open, join (and its character pick), leave, start, cancel, show my
hand, rulings, offerings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.render.pegaz import Roster, hand_embed, money
from bot.replies import Refused, answer, bot_of, lang_of
from bot.rules import pegaz
from bot.rules.common import NotSeated
from bot.services.errors import NotOwner, StaleAction
from bot.services.outcomes import Character, TableView
from cogs.common import acting_character, guild_id_of, own_characters
from cogs.pegaz import common
from cogs.pegaz.buttons import Click, on
from cogs.pegaz.flow import roster_of
from cogs.pegaz.views import character_pick_view, choices_view

if TYPE_CHECKING:
    from bot.app import SzulerniaBot


async def open_table(
    interaction: discord.Interaction[Any],
    settings: pegaz.PegazSettings,
    *,
    carry_from: int | None = None,
) -> int:
    """Create a table in the interaction's channel and post its message; return its id."""
    bot = bot_of(interaction)
    outcome = await bot.services.tables.create(
        pegaz.GAME,
        lambda rng: pegaz.new_table(settings),
        guild_id=guild_id_of(interaction),
        channel_id=interaction.channel_id or 0,
        actor_id=interaction.user.id,
        key=interaction.id,
        carry_from=carry_from,
    )
    await common.publisher(bot).post_table(outcome.table_id)
    return outcome.table_id


async def sit(interaction: discord.Interaction[Any], table_id: int, character: Character) -> None:
    """Seat a character (the ante comes from its purse) and tell the user."""
    await answer(interaction, await _seat(interaction, table_id, character))


async def _seat(interaction: discord.Interaction[Any], table_id: int, character: Character) -> str:
    """Seat a character (the ante comes from its purse), publish; return what to tell the user."""
    bot = bot_of(interaction)
    for attempt in range(3):
        view = await common.table(interaction, table_id)
        if not character.is_npc:
            await _refuse_second_seat(interaction, bot, view, character.id)
        funds = await bot.services.purses.balance(character.id, common.CURRENCY)
        join = pegaz.Join(
            character.id, character.luck, character.gamble, character.perception, funds
        )
        try:
            # At the version just checked: a join racing this one makes it stale, and the
            # one-seat check above runs again against the table with that seat taken.
            outcome = await bot.services.tables.act(
                table_id,
                join,
                key=interaction.id,
                expected_version=view.version,
                actor_id=interaction.user.id,
            )
            break
        except StaleAction:
            if attempt == 2:
                raise
    await common.publisher(bot).publish(outcome)
    lang = await lang_of(interaction)
    ante = money(view.state.settings.stake, lang)
    return t(lang, "pegaz.done.joined", name=character.name, table=table_id, ante=ante)


async def _refuse_second_seat(
    interaction: discord.Interaction[Any],
    bot: SzulerniaBot,
    view: TableView,
    character_id: int | None,
) -> None:
    """One seat per player at a table: refuse a second of the user's own characters (any of
    them when ``character_id`` is None: the user is about to pick one)."""
    roster = await roster_of(bot, (view.state,))
    for seat in view.state.seats:
        if seat.player != character_id and common.owns(interaction, roster, seat.player):
            raise Refused("pegaz_one_seat", name=roster[seat.player].name)


@on("join")
async def join(click: Click) -> None:
    """Join with the active (or only) character; with several and none active, offer a pick."""
    await click.interaction.response.defer(ephemeral=True, thinking=True)
    try:
        character = await acting_character(click.interaction, None)
    except Refused as exc:
        if exc.code != "pick_character":
            raise
        await _offer_pick(click)
        return
    await sit(click.interaction, click.target.table, character)


async def _offer_pick(click: Click) -> None:
    interaction = click.interaction
    bot = bot_of(interaction)
    view = await common.table(interaction, click.target.table)
    await _refuse_second_seat(interaction, bot, view, None)
    lang = await lang_of(interaction)
    owned = await own_characters(interaction)
    menu = character_pick_view(view.table_id, view.version, owned, lang)
    await answer(
        interaction, t(lang, "pegaz.pick.character_prompt", table=view.table_id), view=menu
    )


@on("pick")
async def pick(click: Click) -> None:
    """The character picked in the Join menu sits down; the menu becomes the result. The menu's
    id is global, so the pick must be one of the clicking user's own characters."""
    interaction = click.interaction
    view = await common.table(interaction, click.target.table)
    common.fresh(click, view)
    wanted = click.values[0] if click.values else ""
    character = next((c for c in await own_characters(interaction) if str(c.id) == wanted), None)
    if character is None:
        raise NotOwner(character=wanted, user=interaction.user.id)
    await interaction.response.defer()
    text = await _seat(interaction, view.table_id, character)
    await interaction.edit_original_response(content=text, view=None)


async def _my_seats_here(click: Click) -> tuple[TableView, Roster, list[int]]:
    """Acknowledge the click, and find the seats its user plays at that table (none: refused)."""
    interaction = click.interaction
    await interaction.response.defer(ephemeral=True, thinking=True)
    view = await common.table(interaction, click.target.table)
    roster = await roster_of(bot_of(interaction), (view.state,))
    seats = await common.my_seats(interaction, view.state, roster)
    if not seats:
        raise NotSeated(player=interaction.user.id)
    return view, roster, seats


@on("leave")
async def leave(click: Click) -> None:
    interaction = click.interaction
    _, roster, seats = await _my_seats_here(click)
    player = seats[0] if not roster[seats[0]].npc else seats[-1]
    await common.act(click, pegaz.Leave(player), expected=None)
    lang = await lang_of(interaction)
    await answer(interaction, t(lang, "pegaz.done.left", name=roster[player].name))


@on("start")
async def start(click: Click) -> None:
    interaction = click.interaction
    await interaction.response.defer(ephemeral=True, thinking=True)
    view = await common.table(interaction, click.target.table)
    await common.require_opener(interaction, view)
    seats = view.state.seats
    await common.act(click, pegaz.Start(seats[0].player if seats else 0), expected=click.target.ver)
    await answer(interaction, t(await lang_of(interaction), "pegaz.done.started"))


@on("cancel")
async def cancel(click: Click) -> None:
    interaction = click.interaction
    await interaction.response.defer(ephemeral=True, thinking=True)
    view = await common.table(interaction, click.target.table)
    await common.require_opener(interaction, view)
    bot = bot_of(interaction)
    outcome = await bot.services.tables.cancel(
        view.table_id, key=interaction.id, actor_id=interaction.user.id
    )
    await common.publisher(bot).publish(outcome)
    await answer(interaction, t(await lang_of(interaction), "pegaz.done.cancelled"))


@on("hand")
async def show_hand(click: Click) -> None:
    """ "Show my hand": a new ephemeral message per seat the user plays, with its choices."""
    interaction = click.interaction
    view, roster, seats = await _my_seats_here(click)
    lang = await lang_of(interaction)
    for player in seats:
        embed = hand_embed(
            view.state,
            player,
            table_id=view.table_id,
            channel_id=view.channel_id,
            roster=roster,
            lang=lang,
        )
        choices = choices_view(view.state, player, view.table_id, lang)
        await answer(interaction, embed=embed, view=choices)


@on("rule")
async def rule(click: Click) -> None:
    interaction = click.interaction
    await interaction.response.defer(ephemeral=True, thinking=True)
    view = await common.table(interaction, click.target.table)
    common.fresh(click, view)
    await common.require_opener(interaction, view)
    arg = click.target.arg
    expel = arg.startswith("e")
    await common.act(click, pegaz.RuleOnCheat(expel, int(arg[1:])), expected=click.target.ver)
    key = "pegaz.done.expelled" if expel else "pegaz.done.pardoned"
    await answer(interaction, t(await lang_of(interaction), key))


@on("offer")
async def offer(click: Click) -> None:
    interaction = click.interaction
    await interaction.response.defer(ephemeral=True, thinking=True)
    view = await common.table(interaction, click.target.table)
    common.fresh(click, view)
    state: pegaz.PegazState = view.state
    roster = await roster_of(bot_of(interaction), (state,))
    mine = [p for p in state.offers if await common.may_play(interaction, roster, p)]
    if not mine:
        raise Refused("pegaz_not_winner")
    accept = click.target.arg == "y"
    await common.act(click, pegaz.Offer(mine[0], accept), expected=click.target.ver)
    lang = await lang_of(interaction)
    amount = money(pegaz.seat_of(state, mine[0]).offering, lang)
    key = "pegaz.done.offered" if accept else "pegaz.done.kept"
    await answer(interaction, t(lang, key, amount=amount))


@on("again")
async def again(click: Click) -> None:
    """A new game at this table's settings, carrying a rolled-over pot."""
    interaction = click.interaction
    await interaction.response.defer(ephemeral=True, thinking=True)
    view = await common.table(interaction, click.target.table)
    await common.require_opener(interaction, view)
    bot = bot_of(interaction)
    carried = await bot.services.tables.pot_balance(view.table_id)
    if carried <= 0:
        raise Refused("pegaz_already_again")
    settings = pegaz.PegazSettings.parse(
        {**view.state.settings.model_dump(), "carried_pot": carried}
    )
    table_id = await open_table(interaction, settings, carry_from=view.table_id)
    lang = await lang_of(interaction)
    await answer(interaction, t(lang, "pegaz.done.opened", table=table_id))
