"""Pazaak as players see it: the board and a player's hand here; cards and table options in
words in ``cards``; a step's lines, the GM's report and the results in ``events`` (as Pegaz's);
the texts around a match (challenges, the summary, collections, the rules) in ``text``. Texts
come from the catalogues (``bot/i18n/*/pazaak.json``); secrets never reach a public embed (the
board shows hands only by their size)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.i18n import Lang, t
from bot.render.icons import NO_ICONS, Icons
from bot.render.limits import fit
from bot.render.pazaak.cards import (
    COLOUR,
    DASH,
    MINUS,
    Names,
    card_label,
    cards_text,
    credits,
    duration,
    is_choice,
    number,
    played_text,
    score,
    signed,
    table_card,
    table_options,
    table_text,
)
from bot.render.pazaak.events import gm_lines, log_lines, match_result, set_result
from bot.rules import pazaak
from bot.rules.pazaak.queries import seat_index

__all__ = [
    "COLOUR",
    "DASH",
    "MINUS",
    "Names",
    "board",
    "card_label",
    "cards_text",
    "credits",
    "dm_closed",
    "duration",
    "gm_lines",
    "hand",
    "hand_dm",
    "is_choice",
    "log_lines",
    "match_result",
    "number",
    "played_text",
    "score",
    "set_result",
    "signed",
    "skills_left",
    "table_card",
    "table_options",
    "table_text",
]


# --- the board ----------------------------------------------------------------------------------


def board(
    state: pazaak.PazaakState,
    table_id: int,
    names: Names,
    lang: Lang,
    *,
    events: Sequence[Any] = (),
    mention: str | None = None,
    icons: Icons = NO_ICONS,
) -> tuple[str | None, discord.Embed]:
    """The live board: content (who is to play, with a ping) and the embed with both tables.

    ``events`` are the moves of the step just done, listed under the set's status.
    """
    a, b = state.players
    current = state.current_player
    lines = [t(lang, "pazaak.board.status", set=state.set_number, pot=credits(state.pot, lang))]
    moves = log_lines(events, state, names, lang)
    if moves:
        lines += ["", *(f"• {line}" for line in moves)]
    embed = discord.Embed(
        title=t(lang, "pazaak.board.title", a=names[a.id], b=names[b.id]),
        description="\n".join(lines),
        colour=COLOUR,
    )
    for player in state.players:
        embed.add_field(
            name=t(
                lang,
                "pazaak.board.seat",
                name=names[player.id],
                sets=player.sets_won,
                need=state.settings.sets_to_win,
            ),
            value=_seat_text(player, player.id == current, lang, icons),
            inline=True,
        )
    footer = t(
        lang,
        "pazaak.board.footer",
        table=table_id,
        turn=duration(state.settings.turn_timeout, lang),
        timeouts=state.settings.timeouts_to_forfeit,
    )
    options = table_options(state.settings, lang)
    if options is not None:
        footer = t(lang, "pazaak.board.footer_options", footer=footer, options=options)
    embed.set_footer(text=footer)
    content = None
    if current is not None:
        content = t(lang, "pazaak.board.to_play", mention=mention or "", name=names[current])
    return content, fit(embed)


def _seat_text(player: pazaak.PlayerState, on_turn: bool, lang: Lang, icons: Icons) -> str:
    total = t(lang, "pazaak.board.total", total=number(player.total))
    if player.standing:
        total += " · " + t(lang, "pazaak.board.standing")
    elif on_turn:
        total += " · " + t(lang, "pazaak.board.on_turn")
    return "\n".join(
        [
            table_text(player.table, lang, icons),
            total,
            t(lang, "pazaak.board.hand_size", count=len(player.hand)),
        ]
    )


# --- a player's hand ----------------------------------------------------------------------------


def hand(
    state: pazaak.PazaakState,
    player: int,
    names: Names,
    lang: Lang,
    *,
    cancelled: bool = False,
    icons: Icons = NO_ICONS,
) -> discord.Embed:
    """What one player sees of their own hand and table now ("Show my hand", ephemerally): secret.
    The hand DM is :func:`hand_dm`."""
    seen = pazaak.view(state, player)
    seat = seat_index(state, player)
    assert seat is not None
    me, other = state.players[seat], state.players[1 - seat]
    lines = [
        t(
            lang,
            "pazaak.hand.table",
            set=state.set_number,
            cards=table_text(me.table, lang, icons),
            total=number(me.total),
        ),
        t(
            lang,
            "pazaak.hand.cards",
            cards=cards_text(seen.hand, lang, icons) or t(lang, "pazaak.hand.empty"),
        ),
        *skills_left(state, me, lang),
        "",
        t(lang, "pazaak.hand.cancelled")
        if cancelled
        else _hand_status(state, me, other, names, lang),
    ]
    return fit(
        discord.Embed(
            title=t(lang, "pazaak.hand.title", name=names[me.id], opponent=names[other.id]),
            description="\n".join(lines),
            colour=COLOUR,
        )
    )


def hand_dm(
    state: pazaak.PazaakState,
    player: int,
    table_id: int,
    names: Names,
    lang: Lang,
    *,
    cancelled: bool = False,
    icons: Icons = NO_ICONS,
) -> discord.Embed:
    """The hand DM (edited in place): secret, and showing nothing that changes every turn (the
    tables, totals and whose turn it is are on the board), so that it changes only when the hand
    does, or when the match ends or is cancelled."""
    seen = pazaak.view(state, player)
    seat = seat_index(state, player)
    assert seat is not None
    me, other = state.players[seat], state.players[1 - seat]
    if cancelled:
        status = t(lang, "pazaak.hand.cancelled")
    elif state.winner is not None:
        status = t(lang, "pazaak.hand.over", name=names[state.winner])
    else:
        status = t(lang, "pazaak.hand.hint")
    lines = [
        t(
            lang,
            "pazaak.hand.cards",
            cards=cards_text(seen.hand, lang, icons) or t(lang, "pazaak.hand.empty"),
        ),
        *([] if cancelled or state.winner is not None else skills_left(state, me, lang)),
        "",
        status,
    ]
    embed = discord.Embed(
        title=t(lang, "pazaak.hand.title", name=names[me.id], opponent=names[other.id]),
        description="\n".join(lines),
        colour=COLOUR,
    )
    embed.set_footer(text=t(lang, "pazaak.hand.footer", table=table_id))
    return fit(embed)


def _hand_status(
    state: pazaak.PazaakState,
    me: pazaak.PlayerState,
    other: pazaak.PlayerState,
    names: Names,
    lang: Lang,
) -> str:
    if state.winner is not None:
        return t(lang, "pazaak.hand.over", name=names[state.winner])
    if state.ruling is not None:
        return t(lang, "pazaak.hand.ruling")
    if me.standing:
        return t(lang, "pazaak.hand.standing")
    if state.current_player != me.id:
        return t(lang, "pazaak.hand.waiting", name=names[other.id])
    if me.played_card_this_turn:
        return t(lang, "pazaak.hand.played")
    return t(lang, "pazaak.hand.your_turn")


def skills_left(state: pazaak.PazaakState, me: pazaak.PlayerState, lang: Lang) -> list[str]:
    """The line naming the skills a player may still use this match (none: no line)."""
    left = [
        t(lang, f"pazaak.hand.skill.{skill}")
        for skill, unused in (
            ("luck", me.traits.luck and not me.redrew),
            ("gamble", me.traits.gamble and not me.swapped),
        )
        if state.settings.skills and unused
    ]
    return [t(lang, "pazaak.hand.skills", skills="; ".join(left))] if left else []


def dm_closed(lang: Lang, *, mention: str, name: str) -> str:
    """Said in the channel when a hand could not be sent by DM."""
    return t(lang, "pazaak.hand.dm_closed", mention=mention, name=name)
