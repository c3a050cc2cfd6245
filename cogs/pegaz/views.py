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
from cogs.kit.layout import layout
from cogs.kit.watch import watch_button

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
        view.add_item(watch_button(PREFIX, table_id, lang, row=1))  # anyone: the public view
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


RAISE_ONLY = "r"
"""The exchange dialog's arg tail when it holds no card menu (nothing is left to draw): its one
field is the raise."""


def exchange_modal(
    state: pegaz.PegazState, player: int, table_id: int, version: int, lang: Lang
) -> TableDialog:
    """The exchange dialog: a menu of the seat's cards (pick up to as many as may be exchanged
    now, none to keep the hand) and an optional raise (its limits in the hint). Its submit is the
    ``pay`` act, drawn at the table's version; with nothing left to draw it says so in place of
    the menu, and its arg ends in ``.r`` (:data:`RAISE_ONLY`)."""
    most = pegaz.exchangeable(state)
    arg = str(player) if most else f"{player}.{RAISE_ONLY}"
    modal = TableDialog(
        Target(PREFIX, table_id, version, "pay", arg), title=t(lang, "pegaz.modal.title")
    )
    if most:
        modal.add_item(_cards_menu(state, player, most, lang))
    else:
        modal.add_item(discord.ui.TextDisplay(t(lang, "pegaz.modal.no_cards")))
    modal.add_item(_raise_field(state, lang))
    return modal


RAISES_LISTED = 25
"""The most raises the dialog lists in a menu (Discord's options in one); a table that allows
more takes the raise typed."""


def _raise_field(state: pegaz.PegazState, lang: Lang) -> discord.ui.Label[Any]:
    """The optional raise: a menu of every raise the table allows now (``1p`` .. its most, each
    with the stake it makes), or, with no such short list (no limit, or a high one), typed."""
    low, high = pegaz.stake_bounds(state)
    top = t(lang, "pegaz.settings.none") if high is None else money(high - low, lang)
    hint = t(lang, "pegaz.modal.raise_hint", stake=money(low, lang), most=top)
    field: discord.ui.Item[Any]
    if high is not None and 0 < high - low <= RAISES_LISTED:
        options = [
            discord.SelectOption(
                label=t(
                    lang, "pegaz.modal.raise_by", by=money(r, lang), stake=money(low + r, lang)
                )[:100],
                value=f"{r}p",
            )
            for r in range(1, high - low + 1)
        ]
        placeholder = t(lang, "pegaz.modal.raise_none", stake=money(low, lang))[:150]
        field = discord.ui.Select(
            custom_id="raise", options=options, placeholder=placeholder, required=False
        )
    else:
        field = discord.ui.TextInput(custom_id="raise", required=False, max_length=40)
    text = t(lang, "pegaz.modal.raise")[:45]
    return discord.ui.Label(text=text, description=hint[:100], component=field)


def _cards_menu(
    state: pegaz.PegazState, player: int, most: int, lang: Lang
) -> discord.ui.Label[Any]:
    """The seat's three cards by number and name, 1 to ``most`` of them, or none (not required):
    the picks arrive as the numbers, ``1,3``."""
    die = state.settings.die
    options = [
        discord.SelectOption(label=f"{i + 1}. {card(die, face, lang)}"[:100], value=str(i + 1))
        for i, face in enumerate(pegaz.hand_of(state, player))
    ]
    menu: discord.ui.Select[Any] = discord.ui.Select(
        custom_id="cards",
        options=options,
        placeholder=t(lang, "pegaz.modal.cards_none")[:150],
        min_values=1,
        max_values=min(most, len(options)),
        required=False,
    )
    return discord.ui.Label(
        text=t(lang, "pegaz.modal.cards")[:45],
        description=t(lang, "pegaz.modal.cards_pick", most=most)[:100],
        component=menu,
    )


def confirm_view(
    state: pegaz.PegazState,
    player: int,
    table_id: int,
    version: int,
    terms: tuple[tuple[int, ...], int, int],
    text: str,
    lang: Lang,
) -> discord.ui.LayoutView:
    """The exchange preview (Components V2, only the player sees it): ``text`` (what the
    exchange ``terms``, cards, stake and price, come to), the seat's hand with what goes and what
    stays, and the "Pay …" button."""
    cards, stake, price = terms
    picked = "".join(str(c) for c in cards) or "x"
    target = Target(PREFIX, table_id, version, "paid", f"{player}.{picked}.{stake}")
    pay = button(target, t(lang, "pegaz.btn.pay", price=money(price, lang)), style=SUCCESS)
    die = state.settings.die
    lines = [t(lang, "pegaz.preview.hand")]
    for index, face in enumerate(pegaz.hand_of(state, player)):
        key = "pegaz.preview.goes" if index in cards else "pegaz.preview.stays"
        lines.append(t(lang, key, card=f"{index + 1}. {card(die, face, lang)}"))
    return layout(
        discord.ui.Container(
            discord.ui.TextDisplay(text),
            discord.ui.Separator(),
            discord.ui.TextDisplay("\n".join(lines)),
            discord.ui.ActionRow(pay),
        )
    )


def done_view(text: str) -> discord.ui.LayoutView:
    """A V2 message's last word (its buttons gone): "Paid …"."""
    return layout(discord.ui.Container(discord.ui.TextDisplay(text)))


def check_view(
    state: pegaz.PegazState,
    player: int,
    table_id: int,
    version: int,
    roster: Roster,
    text: str,
    lang: Lang,
) -> discord.ui.LayoutView:
    """The check menu (Components V2, only the player sees it): ``text`` (what a check costs
    and does) over a select menu of the opponents the player may check now (the rules'
    legal_actions)."""
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
    target = Target(PREFIX, table_id, version, "check", str(player))
    picker = menu(target, options, placeholder=t(lang, "pegaz.pick.check"))
    return layout(discord.ui.Container(discord.ui.TextDisplay(text), discord.ui.ActionRow(picker)))
