"""The components under Pegasus messages: the table's buttons by phase, a hand's choices, the
exchange modal and the check picker. Views hold no state: every item is a ``DynamicItem``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.i18n import Lang, t
from bot.render.pegaz import Roster, card, modifier_label, money
from bot.rules import pegaz
from bot.services.outcomes import Character
from cogs.pegaz.buttons import MODAL, PegazButton, PegazSelect, Target

PRIMARY = discord.ButtonStyle.primary
SUCCESS = discord.ButtonStyle.success
DANGER = discord.ButtonStyle.danger
SECONDARY = discord.ButtonStyle.secondary
_LIVE = (pegaz.Phase.MODIFIERS, pegaz.Phase.EXCHANGE, pegaz.Phase.CHECKS)


def _view() -> discord.ui.View:
    return discord.ui.View(timeout=None)


def table_view(
    state: pegaz.PegazState, table_id: int, version: int, roster: Roster, lang: Lang
) -> discord.ui.View:
    """The table message's buttons for the phase the table is in ("Show my hand" while cards
    are in play)."""
    view = _view()

    def add(
        act: str, key: str, style: discord.ButtonStyle, row: int, arg: str = "", **kw: Any
    ) -> None:
        label = t(lang, key, **kw)
        view.add_item(PegazButton(Target(table_id, version, act, arg), label, style=style, row=row))

    phase = state.phase
    if phase is pegaz.Phase.SEATING:
        add("join", "pegaz.btn.join", PRIMARY, 0)
        add("leave", "pegaz.btn.leave", SECONDARY, 0)
        add("start", "pegaz.btn.start", SUCCESS, 0)
    elif phase in _LIVE:
        if state.rulings:
            cheater = state.rulings[0]
            name = roster[cheater].name if cheater in roster else f"#{cheater}"
            add("rule", "pegaz.btn.expel", DANGER, 0, f"e{cheater}", name=name)
            add("rule", "pegaz.btn.pardon", SUCCESS, 0, f"p{cheater}", name=name)
        elif pegaz.whose_turn(state) is not None:
            if phase is pegaz.Phase.EXCHANGE:
                add("xchg", "pegaz.btn.exchange", PRIMARY, 0)
            if pegaz.checks_allowed(state):
                add("chk", "pegaz.btn.check", PRIMARY, 0)
            add("fold", "pegaz.btn.fold", DANGER, 0)
    elif phase is pegaz.Phase.OFFERING:
        add("offer", "pegaz.btn.offer_yes", SUCCESS, 0, "y")
        add("offer", "pegaz.btn.offer_no", SECONDARY, 0, "n")
    elif (phase is pegaz.Phase.FINISHED and state.rolled_over) or (
        phase is pegaz.Phase.CANCELLED and state.pot > 0
    ):  # a rolled-over pot, or a carried one its cancelled game left: for the next game
        add("again", "pegaz.btn.again", SECONDARY, 0)
    if not pegaz.is_over(state):  # "Show my hand" is there for as long as the table lives
        hand = Target(table_id, 0, "hand")
        view.add_item(PegazButton(hand, t(lang, "pegaz.btn.hand"), row=1))
        if not pegaz.is_settled(state):
            add("cancel", "pegaz.btn.cancel", DANGER, 1)
    return view


def character_pick_view(
    table_id: int, version: int, characters: Sequence[Character], lang: Lang
) -> discord.ui.View:
    """The Join button's menu for a user with several characters and none active."""
    options = [discord.SelectOption(label=c.name[:100], value=str(c.id)) for c in characters[:25]]
    view = _view()
    target = Target(table_id, version, "pick")
    view.add_item(PegazSelect(target, options, placeholder=t(lang, "pegaz.pick.character")))
    return view


def choices_view(
    state: pegaz.PegazState, player: int, table_id: int, lang: Lang
) -> discord.ui.View | None:
    """The modifier choices under a hand: keep, and the shifts the character is entitled to.

    Returns None when the seat owes no choice.
    """
    seat = pegaz.seat_of(state, player)
    if not seat.pending:
        return None
    die, hand, fresh = state.settings.die, seat.hand, seat.fresh
    deal = seat.paid
    view = _view()
    view.add_item(
        PegazButton(
            Target(table_id, deal, "keep", str(player)), t(lang, "pegaz.btn.keep"), style=SUCCESS
        )
    )

    def select(act: str, key: str, choices: Sequence[Sequence[tuple[int, int]]], row: int) -> None:
        options = [
            discord.SelectOption(
                label=modifier_label(die, hand, shifts, lang),
                value=",".join(f"{c}{d:+d}" for c, d in shifts),
            )
            for shifts in choices
        ]
        view.add_item(
            PegazSelect(
                Target(table_id, deal, act, str(player)),
                options,
                placeholder=t(lang, key),
                row=row,
            )
        )

    if seat.luck or seat.gamble:
        select("one", "pegaz.pick.one", [((c, d),) for c in fresh for d in (-1, 1)], 1)
    if seat.luck and seat.gamble and len(fresh) >= 2:
        pairs = [
            ((c, d), (e, f))
            for c in fresh
            for e in fresh
            if c < e
            for d in (-1, 1)
            for f in (-1, 1)
        ]
        select("two", "pegaz.pick.two", pairs, 2)
    if seat.gamble:
        select("cheat", "pegaz.pick.cheat", [((c, d),) for c in fresh for d in (-2, 2)], 3)
    return view


def exchange_modal(
    state: pegaz.PegazState, player: int, table_id: int, version: int, lang: Lang
) -> discord.ui.Modal:
    """The exchange dialog: which cards, and an optional raise (its limits in the hint)."""
    die = state.settings.die
    hand = pegaz.hand_of(state, player)
    low, high = pegaz.stake_bounds(state)
    top = t(lang, "pegaz.settings.none") if high is None else money(high - low, lang)
    modal = discord.ui.Modal(
        title=t(lang, "pegaz.modal.title")[:45],
        custom_id=Target(table_id, version, "pay", str(player)).custom_id(MODAL),
        timeout=900,
    )
    yours = " · ".join(f"{i + 1} {card(die, face, lang)}" for i, face in enumerate(hand))
    modal.add_item(
        discord.ui.TextInput(
            label=t(lang, "pegaz.modal.cards")[:45],
            custom_id="cards",
            placeholder=t(lang, "pegaz.modal.cards_hint", hand=yours)[:100],
            required=False,
            max_length=20,
        )
    )
    modal.add_item(
        discord.ui.TextInput(
            label=t(lang, "pegaz.modal.raise")[:45],
            custom_id="raise",
            placeholder=t(lang, "pegaz.modal.raise_hint", stake=money(state.stake, lang), most=top)[
                :100
            ],
            required=False,
            max_length=40,
        )
    )
    return modal


def confirm_view(
    table_id: int,
    version: int,
    player: int,
    cards: tuple[int, ...],
    stake: int,
    price: int,
    lang: Lang,
) -> discord.ui.View:
    """The "Pay …" button under the exchange preview."""
    picked = "".join(str(c) for c in cards) or "x"
    target = Target(table_id, version, "paid", f"{player}.{picked}.{stake}")
    view = _view()
    label = t(lang, "pegaz.btn.pay", price=money(price, lang))
    view.add_item(PegazButton(target, label, style=SUCCESS))
    return view


def check_view(
    state: pegaz.PegazState, player: int, table_id: int, version: int, roster: Roster, lang: Lang
) -> discord.ui.View:
    """A select menu of the opponents still in the game."""
    options = [
        discord.SelectOption(
            label=(roster[s.player].name if s.player in roster else f"#{s.player}")[:100],
            value=str(s.player),
        )
        for s in state.seats
        if s.status is pegaz.SeatStatus.ACTIVE and s.player != player
    ]
    view = _view()
    view.add_item(
        PegazSelect(
            Target(table_id, version, "check", str(player)),
            options,
            placeholder=t(lang, "pegaz.pick.check"),
        )
    )
    return view
