"""A Three-Card Pegasus game told turn by turn, for one viewer (see ``bot.render.history``).

The events are folded one by one, and each is told with the state right after it: the public
ones by the channel's own lines (:func:`~bot.render.pegaz.events.public_lines`, given one event
at a time, of which only the event's own line is kept: the pings that follow it, whose turn or
who must choose, are for a live table), the GM-only ones by the GM's DM lines. The private ones
(a deal, a draw, a modifier choice) are told only here, and only to whom :func:`may_see` lets:
the seat that got them and the GM. A round or the checks beginning is a heading.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.i18n import Lang, t
from bot.render.history import Viewer, may_see
from bot.render.pegaz import Roster, cards, name_of
from bot.render.pegaz.events import gm_lines, public_lines
from bot.rules import pegaz
from bot.rules.pegaz.reducer import index_of

Steps = Sequence[tuple[int, Sequence[Any]]]
"""``(version, events)`` of every step of the table, in order."""


def history_lines(
    steps: Steps, roster: Roster, viewer: Viewer, lang: Lang, *, table_id: int
) -> list[str]:
    """The game's lines as ``viewer`` may read them."""
    lines: list[str] = []
    state: pegaz.PegazState | None = None
    heading: tuple[int, str] | None = None
    for _, events in steps:
        for event in events:
            if isinstance(event, pegaz.TableOpened):
                state = pegaz.replay([event])
                continue
            if state is None:  # a log that does not open a table: nothing to tell
                break
            state = pegaz.fold(state, event)
            if isinstance(event, pegaz.TurnStarted):
                turn = (event.round, event.phase)
                if turn != heading:
                    heading = turn
                    lines.append(_heading(event, lang))
                continue
            audience = pegaz.audience(event)
            if not may_see(audience, getattr(event, "player", None), viewer):
                continue
            if audience == "gm":
                lines += gm_lines([event], roster, lang, table_id=table_id)
            elif audience == "player":
                lines += _private(event, state, roster, lang)
            else:
                lines += public_lines([event], state, roster, lang)[:1]
    return lines


def _heading(event: pegaz.TurnStarted, lang: Lang) -> str:
    if event.phase == "checks":
        return t(lang, "history.pegaz.checks")
    return t(lang, "history.pegaz.round", round=event.round)


def _private(event: Any, after: pegaz.PegazState, roster: Roster, lang: Lang) -> list[str]:
    """A deal, a draw or a modifier choice (secret: the caller checked who reads it)."""
    die = after.settings.die
    name = name_of(roster, event.player)
    if isinstance(event, pegaz.Dealt):
        return [t(lang, "history.pegaz.dealt", name=name, cards=cards(die, event.cards, lang))]
    if isinstance(event, pegaz.Drew):
        return [t(lang, "history.pegaz.drew", name=name, cards=cards(die, event.faces, lang))]
    if not isinstance(event, pegaz.ModifierChosen):
        return []
    lines = public_lines([event], after, roster, lang)[:1]  # a timeout is told in public too
    if not event.shifts:
        return lines or [t(lang, "history.pegaz.kept", name=name)]
    moves = ", ".join(
        t(lang, "history.pegaz.move", n=index + 1, delta=f"{delta:+d}")
        for index, delta in event.shifts
    )
    key = "history.pegaz.cheated" if event.cheat else "history.pegaz.shifted"
    hand = _hand(after, event.player)
    return [*lines, t(lang, key, name=name, moves=moves, cards=cards(die, hand, lang))]


def _hand(state: pegaz.PegazState, player: int) -> tuple[int, ...]:
    i = index_of(state, player)
    return state.seats[i].hand if i >= 0 else ()
