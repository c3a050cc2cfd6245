"""Pazaak texts around the match: challenges, the final summary, side-card collections, the
rules. The board and the hand are in ``bot.render.pazaak``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import discord

from bot.i18n import Lang, t
from bot.render.limits import DESCRIPTION_MAX, fit
from bot.render.pazaak import (
    COLOUR,
    Names,
    card_label,
    credits,
    duration,
    match_result,
    number,
    played_text,
    table_options,
)
from bot.rules import pazaak
from bot.rules.pazaak import ALL_SIDE_CARDS, SideCard

TIMES = "\u00d7"
SUMMARY_LINES = 40
"""At most this many set lines in the summary (the newest are kept)."""


# --- challenges ---------------------------------------------------------------------------------


def challenge(
    lang: Lang,
    *,
    mention: str,
    challenger: str,
    opponent: str,
    wager: int,
    turn: int,
    expires: int,
    settings: pazaak.PazaakSettings | None = None,
    referee: str | None = None,
) -> str:
    """The challenge message; ``expires`` is a Unix time in seconds (shown relative). The
    ``settings`` options that differ from the defaults are listed after the terms (skills on,
    with their detection modifier and ruling, among them), then the ``referee``, if any."""
    key = "pazaak.challenge.text" if wager else "pazaak.challenge.friendly"
    text = t(
        lang,
        key,
        mention=mention,
        challenger=challenger,
        opponent=opponent,
        wager=credits(wager, lang),
        pot=credits(2 * wager, lang),
        turn=duration(turn, lang),
        expires=f"<t:{expires}:R>",
    )
    options = None if settings is None else table_options(settings, lang)
    if options is not None:
        text = t(lang, "pazaak.challenge.options", text=text, options=options)
    if referee is not None:
        text = t(lang, "pazaak.challenge.referee", text=text, gm=referee)
    return text


def challenge_closed(
    lang: Lang, how: str, challenger: str, opponent: str, *, wager: int = 0
) -> str:
    """``how``: accepted, declined, withdrawn or expired."""
    return t(
        lang,
        f"pazaak.challenge.{how}",
        challenger=challenger,
        opponent=opponent,
        wager=credits(wager, lang),
    )


def turn_warning(lang: Lang, *, mention: str, name: str, deadline_ms: int) -> str:
    return t(
        lang, "pazaak.warning", mention=mention, name=name, when=f"<t:{deadline_ms // 1000}:R>"
    )


# --- the end of a match -------------------------------------------------------------------------


def summary(
    state: pazaak.PazaakState, table_id: int, names: Names, lang: Lang, history: Sequence[Any]
) -> discord.Embed:
    """The board once the match is over: the result, every set, and the cards each one played."""
    a, b = state.players
    winner = names[state.winner] if state.winner is not None else ""
    ended = next((e for e in reversed(history) if isinstance(e, pazaak.MatchEnded)), None)
    lines = [match_result(ended, state, names, lang), ""] if ended is not None else []
    sets = [_set_line(result, names, a.id, b.id, lang) for result in state.results]
    embed = discord.Embed(
        title=t(lang, "pazaak.summary.title", a=names[a.id], b=names[b.id], winner=winner),
        description=_newest(lines, sets),
        colour=COLOUR,
    )
    played = _cards_played(history)
    for player in state.players:
        cards = [
            t(lang, "pazaak.summary.card_in_set", card=played_text(card, value, lang), set=number)
            for number, card, value in played.get(player.id, [])
        ]
        embed.add_field(
            name=t(lang, "pazaak.summary.cards", name=names[player.id]),
            value=", ".join(cards) or t(lang, "pazaak.summary.no_cards"),
            inline=False,
        )
    embed.set_footer(text=t(lang, "pazaak.summary.footer", table=table_id))
    return fit(embed)


def cancelled(state: pazaak.PazaakState, table_id: int, names: Names, lang: Lang) -> discord.Embed:
    """The board of a table a GM closed: every stake went back; the sets played so far."""
    a, b = state.players
    sets = [_set_line(result, names, a.id, b.id, lang) for result in state.results]
    embed = discord.Embed(
        title=t(lang, "pazaak.cancelled.title", a=names[a.id], b=names[b.id]),
        description=_newest([t(lang, "pazaak.cancelled.text")], sets),
        colour=COLOUR,
    )
    return fit(embed.set_footer(text=t(lang, "pazaak.summary.footer", table=table_id)))


def _newest(head: Sequence[str], sets: Sequence[str]) -> str:
    """``head`` and then the newest set lines (at most ``SUMMARY_LINES``) that fit into an
    embed's description, an ellipsis first when older ones are left out."""
    room = DESCRIPTION_MAX - sum(len(line) + 1 for line in head) - 2
    kept: list[str] = []
    for line in reversed(sets[-SUMMARY_LINES:]):
        if len(line) + 1 > room:
            break
        kept.append(line)
        room -= len(line) + 1
    kept.reverse()
    if len(kept) < len(sets):
        kept.insert(0, "…")
    return "\n".join([*head, *kept])


def _set_line(result: pazaak.SetResult, names: Names, a: int, b: int, lang: Lang) -> str:
    if result.winner is None:
        outcome = t(lang, "pazaak.reason.tie")
    else:
        reason = t(lang, f"pazaak.reason.{result.reason}")
        outcome = t(lang, "pazaak.summary.won", name=names[result.winner], reason=reason)
    return t(
        lang,
        "pazaak.summary.set",
        set=result.set_number,
        a=names[a],
        b=names[b],
        ta=number(result.totals[0]),
        tb=number(result.totals[1]),
        result=outcome,
    )


def _cards_played(history: Sequence[Any]) -> dict[int, list[tuple[int, SideCard, int]]]:
    played: dict[int, list[tuple[int, SideCard, int]]] = {}
    number = 0
    for event in history:
        if isinstance(event, pazaak.SetStarted):
            number = event.set_number
        elif isinstance(event, pazaak.CardPlayed):
            played.setdefault(event.player, []).append((number, event.card, event.value))
    return played


# --- collections --------------------------------------------------------------------------------


def counted(codes: Iterable[str], lang: Lang) -> str:
    """Cards with their copies, in catalogue order: ``+1 x2 · ±4 · D`` (with a times sign)."""
    counts = Counter(codes)
    parts = []
    for card in ALL_SIDE_CARDS:
        count = counts.get(card.code, 0)
        if count:
            label = card_label(card, lang)
            parts.append(f"{label} {TIMES}{count}" if count > 1 else label)
    return " · ".join(parts) or t(lang, "pazaak.collection.none")


def collection(
    lang: Lang, *, name: str, side_cards: Sequence[str], selection: Sequence[str] | None
) -> discord.Embed:
    """A character's collection; its saved side deck only for whoever plays it."""
    embed = discord.Embed(title=t(lang, "pazaak.collection.title", name=name), colour=COLOUR)
    embed.add_field(
        name=t(lang, "pazaak.collection.owned", count=len(side_cards)),
        value=counted(side_cards, lang),
        inline=False,
    )
    if selection is not None:
        embed.add_field(
            name=t(lang, "pazaak.collection.selection"),
            value=counted(selection, lang),
            inline=False,
        )
    return fit(embed)


def rules(lang: Lang) -> discord.Embed:
    return fit(
        discord.Embed(
            title=t(lang, "pazaak.rules.title"),
            description=t(lang, "pazaak.rules.text"),
            colour=COLOUR,
        )
    )
