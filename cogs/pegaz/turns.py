"""A player's own moves: the secret modifier choices under a hand, and the turn (pay & exchange,
check, fold). A mixin of the Pegaz cog. Prices and permissions are asked of the service, which
answers from the table with the purses synced, exactly as the step itself will see it."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.i18n import t
from bot.render.pegaz import card, hand_embed, money
from bot.render.pegaz.events import caught_note
from bot.rules import pegaz
from bot.rules.common import InsufficientFunds, NotSeated
from bot.services.errors import StaleAction
from bot.services.outcomes import TableView
from cogs.kit.cog import Click, TableKit, act
from cogs.kit.layout import is_v2
from cogs.kit.messages import edit_original, follow_up
from cogs.pegaz import inputs
from cogs.pegaz.scene import who_of
from cogs.pegaz.views import RAISE_ONLY, check_view, confirm_view, done_view, exchange_modal
from cogs.replies import answer

_SHIFT = re.compile(r"([0-2])([+-][12])")
_QUIET = discord.AllowedMentions.none()


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


def _own_turn(click: Click) -> int:
    """The seat on turn; a component of another seat's turn is stale."""
    turn = click.player
    assert turn is not None
    if click.target.arg and click.target.arg.split(".")[0] != str(turn):
        raise _stale(click)
    return turn


def _dialog(click: Click) -> tuple[str, str]:
    """The exchange dialog's fields: the cards picked (``1,3``; typed, in a dialog sent before
    the menu) and the raise (picked, ``1p``, or typed). A dialog with nothing left to draw holds
    the raise alone (its arg ends in ``.r``)."""
    values = list(click.values)
    if click.target.arg.split(".")[1:] == [RAISE_ONLY]:
        values.insert(0, "")
    values += ["", ""]
    return values[0], values[1]


async def _last_word(interaction: discord.Interaction[Any], text: str) -> None:
    """Replace the clicked menu (the exchange preview, the check menu) with ``text``, its
    components gone: a V2 message stays one (a text display), one drawn before the layout came
    gets the text as its content."""
    if is_v2(interaction.message):
        await edit_original(interaction, view=done_view(text))
    else:
        await edit_original(interaction, content=text, view=None)


def _may_check(state: pegaz.PegazState, turn: int) -> bool:
    return any(isinstance(a, pegaz.Check) and a.player == turn for a in pegaz.legal_actions(state))


class Turns(TableKit):
    @act("keep", "one", "two", "cheat")
    async def choose(self, click: Click) -> None:
        """Keep or shift the cards just dealt. The id carries the deal (what the seat had paid
        when they came), so an older hand's message cannot act on newer cards."""
        interaction = click.interaction
        player = int(click.target.arg) if click.target.arg.isdigit() else -1
        if player not in click.seats:
            raise NotSeated(player=interaction.user.id)
        await self.ack(interaction)
        action = _choice(click, player)

        def choice(view: TableView) -> pegaz.Action:
            seat = pegaz.seat_of(view.state, player)
            if not seat.pending or seat.paid != click.target.ver:
                raise _stale(click)
            return action

        outcome = await self.bot.services.tables.act_on_latest(
            click.table.table_id,
            choice,
            key=interaction.id,
            actor_id=interaction.user.id,
            seat=player,
        )
        caught = caught_note(outcome.events, player, click.lang)
        text = caught or t(click.lang, f"pegaz.done.{click.target.act}")
        if await self.publisher.publish(click.table.table_id, via=interaction, note=text):
            return  # the hand DM was redrawn through this click, with the text
        embed = hand_embed(  # a "Show my hand" message: not the publisher's
            outcome.state,
            player,
            table_id=click.table.table_id,
            channel_id=click.table.channel_id,
            roster=who_of(click.roster),
            lang=click.lang,
        )
        await edit_original(interaction, content=text, embed=embed, view=None)

    @act("xchg", who="turn", fresh=True, modal=True)
    async def exchange_dialog(self, click: Click) -> None:
        turn = _own_turn(click)
        table = click.table
        modal = exchange_modal(table.state, turn, table.table_id, table.version, click.lang)
        await click.interaction.response.send_modal(modal)

    @act("pay", who="turn", fresh=True)
    async def exchange_preview(self, click: Click) -> None:
        """The dialog was sent: the rules price the exchange (or refuse it), Pay is offered."""
        interaction = click.interaction
        await self.ack(interaction)  # an update of the table message: its token redraws it
        turn, table, lang = _own_turn(click), click.table, click.lang
        state: pegaz.PegazState = await self.bot.services.tables.synced(table.table_id)
        picked, typed = _dialog(click)
        cards = inputs.exchange_cards(picked)
        extra = inputs.raise_amount(typed)
        stake = state.stake + extra
        _, stake, price = pegaz.exchange_terms(state, pegaz.Exchange(turn, cards, stake))
        die, hand = state.settings.die, pegaz.hand_of(state, turn)
        shown = ", ".join(f"{c + 1}. {card(die, hand[c], lang)}" for c in cards)
        key = f"pegaz.preview.{len(cards)}"
        text = t(lang, key, cards=shown, stake=money(stake, lang), price=money(price, lang))
        if stake > state.stake:
            text += "\n" + t(lang, "pegaz.preview.raise", stake=money(stake, lang))
        terms = (cards, stake, price)
        preview = confirm_view(state, turn, table.table_id, table.version, terms, text, lang)
        self.publisher.remember(interaction)
        await follow_up(interaction, view=preview, ephemeral=True, allowed_mentions=_QUIET)

    @act("paid", who="turn", fresh=True)
    async def exchange(self, click: Click) -> None:
        interaction = click.interaction
        await self.ack(interaction)
        turn = _own_turn(click)
        parts = click.target.arg.split(".")
        if len(parts) != 3 or not parts[2].isdigit():
            raise _stale(click)
        cards = () if parts[1] == "x" else tuple(int(c) for c in parts[1])
        stake = int(parts[2])
        price = pegaz.exchange_price(click.state, len(cards), stake)
        await self.step(
            click, pegaz.Exchange(turn, cards, stake), expected=click.target.ver, seat=turn
        )
        text = t(click.lang, "pegaz.done.paid", price=money(price, click.lang))
        await _last_word(interaction, text)

    @act("chk", who="turn", fresh=True)
    async def check_dialog(self, click: Click) -> None:
        """The menu of whom to check, from the table as the click saw it; only when that says
        the seat cannot pay is the ledger asked (a purse may have been topped up since). The
        check itself is priced again by its step."""
        await self.ack(click)  # its token redraws the table message later
        self.publisher.remember(click.interaction)
        turn, table = _own_turn(click), click.table
        state: pegaz.PegazState = click.state
        if not _may_check(state, turn):
            state = await self.bot.services.tables.synced(table.table_id)
        if not pegaz.checks_allowed(state):
            raise pegaz.CheckNotAllowed(reason="first_round")
        if not _may_check(state, turn):
            raise InsufficientFunds(  # the rules ask 3 x the stake
                needed=pegaz.check_price(state),
                available=pegaz.seat_of(state, turn).funds,
            )
        lang = click.lang
        text = t(lang, "pegaz.check.ask", price=money(pegaz.check_price(state), lang))
        roster = who_of(click.roster)
        menu = check_view(state, turn, table.table_id, table.version, roster, text, lang)
        await follow_up(click.interaction, view=menu, ephemeral=True, allowed_mentions=_QUIET)

    @act("check", who="turn", fresh=True)
    async def check(self, click: Click) -> None:
        interaction = click.interaction
        await self.ack(interaction)
        turn = _own_turn(click)
        if not click.values or not click.values[0].isdigit():
            raise _stale(click)
        target = int(click.values[0])
        await self.step(click, pegaz.Check(turn, target), expected=click.target.ver, seat=turn)
        who = click.roster.get(target)
        name = who.name if who is not None else f"#{target}"
        await _last_word(interaction, t(click.lang, "pegaz.done.checked", name=name))

    @act("fold", who="turn", fresh=True)
    async def fold(self, click: Click) -> None:
        await self.ack(click)
        turn = _own_turn(click)
        await self.step(click, pegaz.Fold(turn), expected=click.target.ver, seat=turn)
        await answer(click.interaction, t(click.lang, "pegaz.done.folded"))
