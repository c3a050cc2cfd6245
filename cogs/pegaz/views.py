"""The components under Pegasus messages: the table's buttons by phase, a hand's choices, the
exchange dialog and the check picker. Views hold no state: the cog's ``DynamicItem`` receives
every item, and the kit the dialog (a ``TableDialog``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.i18n import Lang, t
from bot.render.pegaz import Roster, card, modifier_label, money
from bot.rules import pegaz
from bot.services.outcomes import Character
from cogs.kit.cog import TableDialog
from cogs.kit.ids import Target, button
from cogs.kit.ids import select as menu

PREFIX = "pg"
"""The custom_id prefix of every Pegasus component."""

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
        view.add_item(
            button(Target(PREFIX, table_id, version, act, arg), label, style=style, row=row)
        )

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
        hand = Target(PREFIX, table_id, 0, "hand")
        view.add_item(button(hand, t(lang, "pegaz.btn.hand"), row=1))
        if not pegaz.is_settled(state):
            add("cancel", "pegaz.btn.cancel", DANGER, 1)
    return view


def character_pick_view(
    table_id: int, version: int, characters: Sequence[Character], lang: Lang
) -> discord.ui.View:
    """The Join button's menu for a user with several characters and none active."""
    options = [discord.SelectOption(label=c.name[:100], value=str(c.id)) for c in characters[:25]]
    view = _view()
    target = Target(PREFIX, table_id, version, "pick")
    view.add_item(menu(target, options, placeholder=t(lang, "pegaz.pick.character")))
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
    die, hand = state.settings.die, seat.hand
    deal = seat.paid
    view = _view()
    keep = Target(PREFIX, table_id, deal, "keep", str(player))
    view.add_item(button(keep, t(lang, "pegaz.btn.keep"), style=SUCCESS))

    def select(act: str, key: str, choices: Sequence[Sequence[tuple[int, int]]], row: int) -> None:
        options = [
            discord.SelectOption(
                label=modifier_label(die, hand, shifts, lang),
                value=",".join(f"{c}{d:+d}" for c, d in shifts),
            )
            for shifts in choices
        ]
        target = Target(PREFIX, table_id, deal, act, str(player))
        view.add_item(menu(target, options, placeholder=t(lang, key), row=row))

    # The choices are the rules' own (legal_actions), sorted into one menu per kind of move.
    mine = [a for a in pegaz.legal_actions(state) if getattr(a, "player", None) == player]
    ones = [a.shifts for a in mine if isinstance(a, pegaz.Modify) and len(a.shifts) == 1]
    twos = [a.shifts for a in mine if isinstance(a, pegaz.Modify) and len(a.shifts) == 2]
    cheats = [((a.card, a.delta),) for a in mine if isinstance(a, pegaz.Cheat)]
    for act, key, choices, row in (
        ("one", "pegaz.pick.one", ones, 1),
        ("two", "pegaz.pick.two", twos, 2),
        ("cheat", "pegaz.pick.cheat", cheats, 3),
    ):
        if choices:
            select(act, key, choices, row)
    return view


def exchange_modal(
    state: pegaz.PegazState, player: int, table_id: int, version: int, lang: Lang
) -> TableDialog:
    """The exchange dialog: which cards, and an optional raise (its limits in the hint). Its
    submit is the ``pay`` act, drawn at the table's version."""
    die = state.settings.die
    hand = pegaz.hand_of(state, player)
    low, high = pegaz.stake_bounds(state)
    top = t(lang, "pegaz.settings.none") if high is None else money(high - low, lang)
    modal = TableDialog(
        Target(PREFIX, table_id, version, "pay", str(player)), title=t(lang, "pegaz.modal.title")
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
    target = Target(PREFIX, table_id, version, "paid", f"{player}.{picked}.{stake}")
    view = _view()
    label = t(lang, "pegaz.btn.pay", price=money(price, lang))
    view.add_item(button(target, label, style=SUCCESS))
    return view


def check_view(
    state: pegaz.PegazState, player: int, table_id: int, version: int, roster: Roster, lang: Lang
) -> discord.ui.View:
    """A select menu of the opponents the player may check now (the rules' legal_actions)."""
    targets = [
        a.target
        for a in pegaz.legal_actions(state)
        if isinstance(a, pegaz.Check) and a.player == player
    ]
    options = [
        discord.SelectOption(
            label=(roster[target].name if target in roster else f"#{target}")[:100],
            value=str(target),
        )
        for target in targets
    ]
    view = _view()
    target = Target(PREFIX, table_id, version, "check", str(player))
    view.add_item(menu(target, options, placeholder=t(lang, "pegaz.pick.check")))
    return view
