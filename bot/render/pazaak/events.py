"""A Pazaak step in words: the board's log lines, the GM's report of a cheat, and the channel's
announcements of a set's and a match's result. Only the events everyone may see are told in
public (``pazaak.audience``); a swap and its detection roll reach only the GM's lines."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.i18n import Lang, t
from bot.render.pazaak.cards import Names, card_label, credits, number, played_text, score
from bot.rules import pazaak
from bot.rules.pazaak.queries import seat_index


def log_lines(
    events: Sequence[Any], state: pazaak.PazaakState, names: Names, lang: Lang
) -> list[str]:
    """One line per move worth telling: draws, cards played, stands, timeouts, set changes.

    Each event type's line is one small function, found by the event's exact type in ``_LOG``
    (as the reducer finds its step); a type not there says nothing.
    """
    lines: list[str] = []
    for event in events:
        if pazaak.audience(event) != "public":  # a secret is never told, whatever _LOG holds
            continue
        handler = _LOG.get(type(event))
        line = handler(event, state, names, lang) if handler else None
        if line:
            lines.append(line)
    return lines


def _drawn(event: pazaak.CardDrawn, state: pazaak.PazaakState, names: Names, lang: Lang) -> str:
    return t(lang, "pazaak.log.drew", name=names[event.player], value=event.value)


def _played(event: pazaak.CardPlayed, state: pazaak.PazaakState, names: Names, lang: Lang) -> str:
    card = played_text(event.card, event.value, lang)
    return t(lang, "pazaak.log.played", name=names[event.player], card=card)


def _turn_ended(
    event: pazaak.TurnEnded, state: pazaak.PazaakState, names: Names, lang: Lang
) -> str | None:
    """Only a plain end of turn: a stand or a timeout is told by the ``Stood`` after it (or by
    the match's end)."""
    if event.how != "end_turn":
        return None
    return t(lang, "pazaak.log.ended_turn", name=names[event.player])


def _stood(event: pazaak.Stood, state: pazaak.PazaakState, names: Names, lang: Lang) -> str:
    if event.reason == "timeout":
        seat = seat_index(state, event.player)
        count = state.players[seat].timeouts if seat is not None else 0
        limit = state.settings.timeouts_to_forfeit
        return t(lang, "pazaak.log.timeout", name=names[event.player], count=count, max=limit)
    return t(lang, f"pazaak.log.{event.reason}", name=names[event.player])


def _set_ended(event: pazaak.SetEnded, state: pazaak.PazaakState, names: Names, lang: Lang) -> str:
    if event.winner is None:
        return t(lang, "pazaak.log.set_tied", set=event.set_number)
    return t(lang, "pazaak.log.set_won", set=event.set_number, name=names[event.winner])


def _set_started(
    event: pazaak.SetStarted, state: pazaak.PazaakState, names: Names, lang: Lang
) -> str | None:
    """From the second set on: the first begins with the match."""
    if event.set_number <= 1:
        return None
    return t(lang, "pazaak.log.set_started", set=event.set_number, name=names[event.starter])


def _redrew(event: pazaak.Redrawn, state: pazaak.PazaakState, names: Names, lang: Lang) -> str:
    return t(lang, "pazaak.log.redrew", name=names[event.player], value=event.value)


def _caught(event: pazaak.Caught, state: pazaak.PazaakState, names: Names, lang: Lang) -> str:
    return t(lang, "pazaak.log.caught", name=names[event.cheater], by=names[event.by])


def _ruling(
    event: pazaak.RulingRequested, state: pazaak.PazaakState, names: Names, lang: Lang
) -> str:
    return t(lang, "pazaak.log.ruling", name=names[event.cheater])


def _ruled(event: pazaak.Ruled, state: pazaak.PazaakState, names: Names, lang: Lang) -> str:
    return t(lang, f"pazaak.log.ruled.{event.verdict}", name=names[event.cheater])


_LOG: dict[type[Any], Callable[[Any, pazaak.PazaakState, Names, Lang], str | None]] = {
    pazaak.CardDrawn: _drawn,
    pazaak.CardPlayed: _played,
    pazaak.TurnEnded: _turn_ended,
    pazaak.Stood: _stood,
    pazaak.SetEnded: _set_ended,
    pazaak.SetStarted: _set_started,
    pazaak.Redrawn: _redrew,
    pazaak.Caught: _caught,
    pazaak.RulingRequested: _ruling,
    pazaak.Ruled: _ruled,
}
"""The log line of each event type that has one. The others say nothing here: MatchStarted,
HandDealt, Swapped and DetectionRoll (secrets: the last two are the GM's, :func:`gm_lines`),
TurnStarted and MatchEnded (announced by :func:`match_result`)."""


# --- results ------------------------------------------------------------------------------------


def gm_lines(events: Sequence[Any], names: Names, lang: Lang, *, table_id: int) -> list[str]:
    """The GM's DM about one step (secret): each swap, with the opponent's detection roll."""
    lines: list[str] = []
    swap: pazaak.Swapped | None = None
    for event in events:
        if isinstance(event, pazaak.Swapped):
            swap = event
        elif isinstance(event, pazaak.DetectionRoll) and swap is not None:
            result = "noticed" if event.roll <= event.target else "missed"
            text = t(
                lang,
                "pazaak.gm.swap",
                table=table_id,
                name=names[swap.player],
                out=card_label(swap.out, lang),
                card=card_label(swap.card, lang),
                by=names[event.player],
                roll=event.roll,
                target=event.target,
                result=t(lang, f"pazaak.gm.{result}"),
            )
            lines.append(text)
            swap = None
    return lines


def set_result(event: pazaak.SetEnded, state: pazaak.PazaakState, names: Names, lang: Lang) -> str:
    """The channel announcement of a finished set, with the score in sets after it."""
    ids = [p.id for p in state.players]
    params: dict[str, object] = {"set": event.set_number, "score": score(state, names)}
    if event.winner is None:
        return t(lang, f"pazaak.set.{event.reason}", total=number(event.totals[0]), **params)
    won = ids.index(event.winner)
    params |= {
        "winner": names[event.winner],
        "loser": names[ids[1 - won]],
        "total": number(event.totals[won]),
        "other": number(event.totals[1 - won]),
    }
    if event.reason == "bust":
        params["total"] = number(event.totals[1 - won])
    return t(lang, f"pazaak.set.{event.reason}", **params)


def match_result(
    event: pazaak.MatchEnded, state: pazaak.PazaakState, names: Names, lang: Lang
) -> str:
    """The channel announcement of the match's end, with the payout."""
    winner = state.players[0] if state.players[0].id == event.winner else state.players[1]
    loser = state.players[1] if winner is state.players[0] else state.players[0]
    text = t(
        lang,
        f"pazaak.match.{event.reason}",
        winner=names[winner.id],
        loser=names[loser.id],
        won=winner.sets_won,
        lost=loser.sets_won,
        count=state.settings.timeouts_to_forfeit,
    )
    if event.pot:
        text += " " + t(
            lang, "pazaak.match.pot", winner=names[winner.id], pot=credits(event.pot, lang)
        )
    return text
