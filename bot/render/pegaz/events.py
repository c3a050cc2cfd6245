"""Three-Card Pegasus events in words: the channel's lines and the GM's detection report.

``public_lines`` shows only what everyone may see (rules' ``audience(event) == "public"``, plus
that a player timed out); private cards are never read here. ``gm_lines`` is the GM's DM: every
detection roll, and a cheat awaiting a ruling.

Each event type's text is one small function, found by the event's exact type in the tables
``_PUBLIC`` and ``_GM`` (as the reducer finds its step); a type in neither says nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.i18n import Lang, t
from bot.render.pegaz import Roster, cards, comparison, hand_name, money, name_of
from bot.rules import pegaz


def mention_of(roster: Roster, player: int) -> str:
    who = roster.get(player)
    return f"<@{who.user_id}>" if who else ""


def _names(roster: Roster, players: Sequence[int], lang: Lang) -> str:
    shown = [name_of(roster, p) for p in players]
    if len(shown) <= 1:
        return "".join(shown)
    return t(lang, "pegaz.and", first=", ".join(shown[:-1]), last=shown[-1])


def public_lines(
    events: Sequence[pegaz.Event], state: pegaz.PegazState, roster: Roster, lang: Lang
) -> list[str]:
    """What the channel is told about one step (its public events, in order)."""
    lines: list[str] = []
    turns = [e for e in events if isinstance(e, pegaz.TurnStarted)]
    last_turn = turns[-1] if turns else None
    for event in events:
        if event is last_turn and pegaz.whose_turn(state) == event.player:
            lines.append(_turn(event, roster, lang))
            continue
        line = _line(event, state, roster, lang)
        if line:
            lines.append(line)
    if any(isinstance(e, pegaz.Started) for e in events):
        choosing = [s.player for s in state.seats if s.pending]
        if choosing:
            users = dict.fromkeys(mention_of(roster, p) for p in choosing)
            lines.append(t(lang, "pegaz.ev.choosing", users=", ".join(users)))
    if any(isinstance(e, pegaz.GameEnded) for e in events):
        for player in state.offers:
            seat = pegaz.seat_of(state, player)
            lines.append(
                t(
                    lang,
                    "pegaz.ev.offer_ask",
                    user=mention_of(roster, player),
                    name=name_of(roster, player),
                    amount=money(seat.offering, lang),
                )
            )
    return lines


def _turn(event: pegaz.TurnStarted, roster: Roster, lang: Lang) -> str:
    key = "pegaz.ev.turn_checks" if event.phase == "checks" else "pegaz.ev.turn"
    return t(
        lang,
        key,
        round=event.round,
        name=name_of(roster, event.player),
        user=mention_of(roster, event.player),
    )


def _joined(event: pegaz.Joined, state: pegaz.PegazState, roster: Roster, lang: Lang) -> str:
    return t(
        lang, "pegaz.ev.joined", name=name_of(roster, event.player), ante=money(event.ante, lang)
    )


def _left(event: pegaz.Left, state: pegaz.PegazState, roster: Roster, lang: Lang) -> str:
    return t(
        lang, "pegaz.ev.left", name=name_of(roster, event.player), refund=money(event.refund, lang)
    )


def _started(event: pegaz.Started, state: pegaz.PegazState, roster: Roster, lang: Lang) -> str:
    # The pot as the game begins: the antes (nothing else is paid in the starting step, which
    # may also end the game and empty the pot) plus any pot carried over.
    pot = state.settings.carried_pot + sum(seat.paid for seat in state.seats)
    return t(lang, "pegaz.ev.started", players=len(state.seats), pot=money(pot, lang))


def _modifier_chosen(
    event: pegaz.ModifierChosen, state: pegaz.PegazState, roster: Roster, lang: Lang
) -> str | None:
    """Only a timeout is told: what was chosen is the player's secret."""
    if not event.timeout:
        return None
    return t(lang, "pegaz.ev.kept_timeout", name=name_of(roster, event.player))


def _caught(event: pegaz.Caught, state: pegaz.PegazState, roster: Roster, lang: Lang) -> str:
    return t(
        lang,
        "pegaz.ev.caught",
        catchers=_names(roster, event.caught_by, lang),
        name=name_of(roster, event.cheater),
    )


def _expelled(event: pegaz.Expelled, state: pegaz.PegazState, roster: Roster, lang: Lang) -> str:
    return t(lang, "pegaz.ev.expelled", name=name_of(roster, event.player))


def _ruling_requested(
    event: pegaz.RulingRequested, state: pegaz.PegazState, roster: Roster, lang: Lang
) -> str:
    return t(lang, "pegaz.ev.ruling", name=name_of(roster, event.cheater))


def _ruled(event: pegaz.Ruled, state: pegaz.PegazState, roster: Roster, lang: Lang) -> str | None:
    """A pardon is told here; an expulsion by the :class:`~bot.rules.pegaz.Expelled` after it."""
    if event.expel:
        return None
    return t(lang, "pegaz.ev.pardoned", name=name_of(roster, event.cheater))


def _exchanged(event: pegaz.Exchanged, state: pegaz.PegazState, roster: Roster, lang: Lang) -> str:
    return t(
        lang,
        f"pegaz.ev.exchanged.{len(event.cards)}",
        name=name_of(roster, event.player),
        price=money(event.price, lang),
        stake=money(event.stake, lang),
    )


def _reshuffled(
    event: pegaz.Reshuffled, state: pegaz.PegazState, roster: Roster, lang: Lang
) -> str:
    return t(lang, "pegaz.ev.reshuffled", count=event.count)


def _checked(event: pegaz.Checked, state: pegaz.PegazState, roster: Roster, lang: Lang) -> str:
    die = state.settings.die
    checker, target = name_of(roster, event.player), name_of(roster, event.target)
    lines = [
        t(lang, "pegaz.ev.check", name=checker, target=target, price=money(event.price, lang)),
        t(
            lang,
            "pegaz.ev.shows",
            name=checker,
            cards=cards(die, event.player_hand, lang),
            kind=hand_name(die, event.player_hand, lang),
        ),
        t(
            lang,
            "pegaz.ev.shows",
            name=target,
            cards=cards(die, event.target_hand, lang),
            kind=hand_name(die, event.target_hand, lang),
        ),
    ]
    verdict = comparison(die, event.player_hand, event.target_hand, lang)
    if len(event.out) == 1:
        verdict += " " + t(lang, "pegaz.ev.check_out", name=name_of(roster, event.out[0]))
    lines.append(verdict)
    return "\n".join(lines)


def _folded(event: pegaz.Folded, state: pegaz.PegazState, roster: Roster, lang: Lang) -> str:
    price = state.stake * (3 if event.reason == "cannot_check" else 1)
    return t(
        lang,
        f"pegaz.ev.folded.{event.reason}",
        name=name_of(roster, event.player),
        price=money(price, lang),
    )


def _ended(event: pegaz.GameEnded, state: pegaz.PegazState, roster: Roster, lang: Lang) -> str:
    names = _names(roster, event.players, lang)
    if event.expelled:
        return t(
            lang, "pegaz.ev.expelled_rollover", names=names, amount=money(event.rolled_over, lang)
        )
    if event.rolled_over or not any(event.amounts):
        return t(lang, "pegaz.ev.rollover", names=names, amount=money(event.rolled_over, lang))
    if len(event.players) == 1:
        return t(lang, "pegaz.ev.won", name=names, amount=money(event.amounts[0], lang))
    shares = ", ".join(
        f"{name_of(roster, p)} {money(a, lang)}"
        for p, a in zip(event.players, event.amounts, strict=True)
    )
    return t(lang, "pegaz.ev.split", names=names, shares=shares)


def _offered(event: pegaz.Offered, state: pegaz.PegazState, roster: Roster, lang: Lang) -> str:
    key = "timeout" if event.timeout else "yes" if event.accepted else "no"
    return t(
        lang,
        f"pegaz.ev.offered.{key}",
        name=name_of(roster, event.player),
        amount=money(event.amount, lang),
    )


def _cancelled(event: pegaz.Cancelled, state: pegaz.PegazState, roster: Roster, lang: Lang) -> str:
    if not event.refunds:
        return t(lang, "pegaz.ev.cancelled")
    refunds = ", ".join(f"{name_of(roster, p)} {money(a, lang)}" for p, a in event.refunds)
    return t(lang, "pegaz.ev.cancelled_refunds", refunds=refunds)


_PUBLIC: dict[type[Any], Callable[[Any, pegaz.PegazState, Roster, Lang], str | None]] = {
    pegaz.Joined: _joined,
    pegaz.Left: _left,
    pegaz.Started: _started,
    pegaz.ModifierChosen: _modifier_chosen,
    pegaz.Caught: _caught,
    pegaz.Expelled: _expelled,
    pegaz.RulingRequested: _ruling_requested,
    pegaz.Ruled: _ruled,
    pegaz.Exchanged: _exchanged,
    pegaz.Reshuffled: _reshuffled,
    pegaz.Checked: _checked,
    pegaz.Folded: _folded,
    pegaz.GameEnded: _ended,
    pegaz.Offered: _offered,
    pegaz.Cancelled: _cancelled,
}
"""The channel's line of each event type that has one. The others say nothing here: TableOpened,
FundsSynced, the private and GM-only events, and a TurnStarted (:func:`public_lines` tells only
the turn that is current)."""


def _line(event: pegaz.Event, state: pegaz.PegazState, roster: Roster, lang: Lang) -> str | None:
    handler = _PUBLIC.get(type(event))
    return handler(event, state, roster, lang) if handler else None


def caught_note(events: Sequence[pegaz.Event], player: int, lang: Lang) -> str | None:
    """What a cheater is told when this step caught them: expelled, or the GM will rule."""
    if not any(isinstance(e, pegaz.Caught) and e.cheater == player for e in events):
        return None
    if any(isinstance(e, pegaz.Expelled) and e.player == player for e in events):
        return t(lang, "pegaz.done.caught_expelled")
    return t(lang, "pegaz.done.caught_ruling")


def gm_lines(
    events: Sequence[pegaz.Event], roster: Roster, lang: Lang, *, table_id: int
) -> list[str]:
    """The GM's DM about one step: every detection test, and a cheat to rule on."""
    lines: list[str] = []
    for event in events:
        handler = _GM.get(type(event))
        if handler:
            lines += handler(event, roster, lang, table_id)
    return lines


def _detection(event: pegaz.Detection, roster: Roster, lang: Lang, table_id: int) -> list[str]:
    lines = [t(lang, "pegaz.gm.detection", table=table_id, name=name_of(roster, event.cheater))]
    for roll in event.rolls:
        key = "pegaz.gm.roll_caught" if roll.success else "pegaz.gm.roll_missed"
        lines.append(
            t(lang, key, name=name_of(roster, roll.player), roll=roll.roll, target=roll.target)
        )
    if not event.rolls:
        lines.append(t(lang, "pegaz.gm.no_watchers"))
    return lines


def _gm_ruling(
    event: pegaz.RulingRequested, roster: Roster, lang: Lang, table_id: int
) -> list[str]:
    return [
        t(
            lang,
            "pegaz.gm.ruling",
            table=table_id,
            name=name_of(roster, event.cheater),
            n=event.card + 1,
            delta=f"{event.delta:+d}",
        )
    ]


_GM: dict[type[Any], Callable[[Any, Roster, Lang, int], list[str]]] = {
    pegaz.Detection: _detection,
    pegaz.RulingRequested: _gm_ruling,
}
"""The GM's lines of each event type that has some."""
