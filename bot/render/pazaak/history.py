"""A Pazaak match told set by set, for one viewer (see ``bot.render.history``).

The events are folded one by one, and each is told with the state right after it, by the lines
the table already uses: the board's log (:func:`~bot.render.pazaak.events.log_lines`), each
set's and the match's announcement, and the GM's DM lines for a swap with its detection roll.
Told only here: the match's terms, a heading for each set, and to whom :func:`may_see` lets, the
hand a seat was dealt and its own secret swap.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.i18n import Lang, t
from bot.render.history import Viewer, may_see
from bot.render.pazaak.cards import Names, card_label, credits
from bot.render.pazaak.events import gm_lines, log_lines, match_result, set_result
from bot.rules import pazaak

Steps = Sequence[tuple[int, Sequence[Any]]]
"""``(version, events)`` of every step of the table, in order."""


def history_lines(
    steps: Steps,
    names: Names,
    viewer: Viewer,
    lang: Lang,
    *,
    table_id: int,
    cancelled: bool = False,
) -> list[str]:
    """The match's lines as ``viewer`` may read them. ``names`` holds every player's name;
    ``cancelled``: a GM closed the table (the ledger gave the stakes back: no event says so)."""
    lines: list[str] = []
    state: pazaak.PazaakState | None = None
    swap: pazaak.Swapped | None = None
    for _, events in steps:
        for event in events:
            state = pazaak.fold(state, event)
            if not may_see(pazaak.audience(event), getattr(event, "player", None), viewer):
                continue
            if isinstance(event, pazaak.Swapped):
                swap = event
                if not viewer.gm:  # the GM reads it with the roll against it, below
                    lines.append(_swapped(event, names, lang))
            elif isinstance(event, pazaak.DetectionRoll):
                if swap is not None:
                    lines += gm_lines([swap, event], names, lang, table_id=table_id)
                swap = None
            else:
                lines += _line(event, state, names, lang)
    if cancelled:
        lines.append(t(lang, "history.cancelled"))
    return lines


def _line(event: Any, state: pazaak.PazaakState, names: Names, lang: Lang) -> list[str]:
    if isinstance(event, pazaak.MatchStarted):
        a, b = event.players
        wager = event.settings.wager
        return [
            t(
                lang,
                "history.pazaak.started",
                a=names[a],
                b=names[b],
                wager=credits(wager, lang),
                pot=credits(2 * wager, lang),
            )
        ]
    if isinstance(event, pazaak.HandDealt):
        hand = " · ".join(card_label(card, lang) for card in event.cards)
        return [t(lang, "history.pazaak.hand", name=names[event.player], cards=hand)]
    if isinstance(event, pazaak.SetStarted):
        return [t(lang, "history.pazaak.set", set=event.set_number, name=names[event.starter])]
    if isinstance(event, pazaak.SetEnded):
        return [set_result(event, state, names, lang)]
    if isinstance(event, pazaak.MatchEnded):
        return [match_result(event, state, names, lang)]
    return log_lines([event], state, names, lang)


def _swapped(event: pazaak.Swapped, names: Names, lang: Lang) -> str:
    return t(
        lang,
        "history.pazaak.swapped",
        name=names[event.player],
        out=card_label(event.out, lang),
        card=card_label(event.card, lang),
    )
