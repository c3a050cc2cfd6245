"""A player's own moves: the secret modifier choices under a hand, and the turn (pay & exchange,
check, fold)."""

from __future__ import annotations

import random
import re

from bot.i18n import t
from bot.render.pegaz import card, hand_embed, money
from bot.replies import answer, bot_of, lang_of
from bot.rules import pegaz
from bot.rules.common import InsufficientFunds, NotSeated
from bot.services.errors import StaleAction
from bot.services.outcomes import TableOutcome
from cogs.pegaz import common, inputs
from cogs.pegaz.buttons import Click, on
from cogs.pegaz.flow import roster_of
from cogs.pegaz.views import check_view, confirm_view, exchange_modal

_SHIFT = re.compile(r"([0-2])([+-][12])")
RETRIES = 3


# --- the modifier step (DM or "Show my hand" message) -------------------------------------------


def _stale(click: Click) -> StaleAction:
    return StaleAction(table=click.target.table, expected=click.target.ver, current=None)


def _choice(click: Click, player: int) -> pegaz.Action:
    act = click.target.act
    if act == "keep":
        return pegaz.Keep(player)
    shifts = []
    for value in click.values[0].split(",") if click.values else ():
        match = _SHIFT.fullmatch(value)
        if match is None:
            raise _stale(click)
        shifts.append((int(match[1]), int(match[2])))
    if not shifts:
        raise _stale(click)
    if act == "cheat":
        return pegaz.Cheat(player, shifts[0][0], shifts[0][1])
    return pegaz.Modify(player, tuple(shifts))


@on("keep", "one", "two", "cheat")
async def choose(click: Click) -> None:
    """Keep or shift the cards just dealt. The id carries the deal (what the seat had paid when
    they came), so an older hand's message cannot act on newer cards."""
    interaction = click.interaction
    await interaction.response.defer()
    bot = bot_of(interaction)
    player = int(click.target.arg)
    action = _choice(click, player)
    outcome: TableOutcome | None = None
    for attempt in range(RETRIES):
        view = await common.table(interaction, click.target.table)
        roster = await roster_of(bot, (view.state,))
        if player not in roster or not await common.may_play(interaction, roster, player):
            raise NotSeated(player=interaction.user.id)
        seat = pegaz.seat_of(view.state, player)
        if not seat.pending or seat.paid != click.target.ver:
            raise _stale(click)
        try:
            outcome = await bot.services.tables.act(
                view.table_id,
                action,
                key=interaction.id,
                expected_version=view.version,
                actor_id=interaction.user.id,
            )
            break
        except StaleAction:  # someone else moved meanwhile: look again
            if attempt == RETRIES - 1:
                raise
    assert outcome is not None
    publisher = common.publisher(bot)
    await publisher.publish(outcome)
    lang = await publisher.lang(view.guild_id)  # the table's language, also in a DM
    embed = hand_embed(
        outcome.state,
        player,
        table_id=view.table_id,
        channel_id=view.channel_id,
        roster=roster,
        lang=lang,
    )
    text = t(lang, f"pegaz.done.{click.target.act}")
    await interaction.edit_original_response(content=text, embed=embed, view=None)


# --- the turn -----------------------------------------------------------------------------------


@on("xchg")
async def exchange_dialog(click: Click) -> None:
    view, turn, _ = await common.on_turn(click)
    lang = await lang_of(click.interaction)
    modal = exchange_modal(view.state, turn, view.table_id, view.version, lang)
    await click.interaction.response.send_modal(modal)


@on("pay")
async def exchange_preview(click: Click) -> None:
    """The modal was sent: check the exchange with the rules, show its price, offer to pay."""
    interaction = click.interaction
    await interaction.response.defer(ephemeral=True, thinking=True)
    view, turn, _ = await common.on_turn(click)
    state: pegaz.PegazState = view.state
    cards = inputs.exchange_cards(click.values[0] if click.values else "")
    stake = state.stake + inputs.raise_amount(click.values[1] if len(click.values) > 1 else "")
    pegaz.apply(state, pegaz.Exchange(turn, cards, stake), random.Random(0))  # the rules refuse
    price = pegaz.exchange_price(state, len(cards), stake)
    lang = await lang_of(interaction)
    die, hand = state.settings.die, pegaz.hand_of(state, turn)
    shown = ", ".join(f"{c + 1}. {card(die, hand[c], lang)}" for c in cards)
    key = f"pegaz.preview.{len(cards)}"
    text = t(lang, key, cards=shown, stake=money(stake, lang), price=money(price, lang))
    if stake > state.stake:
        text += "\n" + t(lang, "pegaz.preview.raise", stake=money(stake, lang))
    buttons = confirm_view(view.table_id, view.version, turn, cards, stake, price, lang)
    await answer(interaction, text, view=buttons)


@on("paid")
async def exchange(click: Click) -> None:
    interaction = click.interaction
    await interaction.response.defer()
    view, turn, _ = await common.on_turn(click)
    parts = click.target.arg.split(".")
    if len(parts) != 3:
        raise _stale(click)
    cards = () if parts[1] == "x" else tuple(int(c) for c in parts[1])
    stake = int(parts[2])
    await common.act(click, pegaz.Exchange(turn, cards, stake), expected=click.target.ver)
    lang = await lang_of(interaction)
    price = pegaz.exchange_price(view.state, len(cards), stake)
    text = t(lang, "pegaz.done.paid", price=money(price, lang))
    await interaction.edit_original_response(content=text, view=None)


@on("chk")
async def check_dialog(click: Click) -> None:
    view, turn, roster = await common.on_turn(click)
    state: pegaz.PegazState = view.state
    if not pegaz.checks_allowed(state):
        raise pegaz.CheckNotAllowed(reason="first_round")
    if not any(isinstance(a, pegaz.Check) for a in pegaz.legal_actions(state)):
        raise InsufficientFunds(need=pegaz.check_price(state))  # the rules ask 3 x the stake
    lang = await lang_of(click.interaction)
    text = t(lang, "pegaz.check.ask", price=money(pegaz.check_price(state), lang))
    await answer(
        click.interaction,
        text,
        view=check_view(state, turn, view.table_id, view.version, roster, lang),
    )


@on("check")
async def check(click: Click) -> None:
    interaction = click.interaction
    await interaction.response.defer()
    _, turn, roster = await common.on_turn(click)
    if not click.values or not click.values[0].isdigit():
        raise _stale(click)
    target = int(click.values[0])
    await common.act(click, pegaz.Check(turn, target), expected=click.target.ver)
    lang = await lang_of(interaction)
    name = roster[target].name if target in roster else f"#{target}"
    await interaction.edit_original_response(
        content=t(lang, "pegaz.done.checked", name=name), view=None
    )


@on("fold")
async def fold(click: Click) -> None:
    interaction = click.interaction
    await interaction.response.defer(ephemeral=True, thinking=True)
    _, turn, _ = await common.on_turn(click)
    await common.act(click, pegaz.Fold(turn), expected=click.target.ver)
    await answer(interaction, t(await lang_of(interaction), "pegaz.done.folded"))
