"""Pazaak as players see it: cards, the board, the moves of one step, set and match results, and
a player's hand. Texts come from the catalogues (``bot/i18n/*/pazaak.json``); secrets never
reach a public embed (the board shows hands only by their size)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import discord

from bot.i18n import Lang, t
from bot.render.limits import fit
from bot.rules import pazaak
from bot.rules.money import CREDITS, format_amount
from bot.rules.pazaak import SideCard, TableCard
from bot.rules.pazaak.queries import seat_index

Names = Mapping[int, str]
"""Character id -> name, for both players of a match."""

COLOUR = discord.Colour.dark_teal()
MINUS = "\u2212"
DASH = "\u2013"


# --- cards --------------------------------------------------------------------------------------


def signed(value: int) -> str:
    """``+3``, ``0``, or the value after a real minus sign (U+2212) for a negative one."""
    if value > 0:
        return f"+{value}"
    return f"{MINUS}{-value}" if value < 0 else "0"


def number(value: int) -> str:
    """A total: ``17``, or with a real minus sign when a flip made it negative."""
    return str(value) if value >= 0 else f"{MINUS}{-value}"


def card_label(card: SideCard, lang: Lang) -> str:
    """How a side card is named on buttons and boards: its code (with a real minus sign), or the
    flip's name (``Flip 2&4``)."""
    if card.kind in ("flip24", "flip36"):
        return t(lang, f"pazaak.card.{card.kind}")
    return card.code.replace("-", MINUS)


def is_choice(card: SideCard) -> bool:
    """Whether the player chooses the value when playing the card (±N, T, ±1/2)."""
    return len(card.values) > 1


def table_card(card: TableCard, lang: Lang) -> str:
    """A drawn card as its value (negative once flipped); a side card in brackets, with the value
    it counts when that is not plain from its face: ``[+3]``, ``[±4 +4]``, ``[D +6]``."""
    if card.side is None:
        return number(card.value)
    label = card_label(card.side, lang)
    if card.side.values == (card.value,):
        return f"[{label}]"
    return f"[{label} {signed(card.value)}]"


def table_text(table: Sequence[TableCard], lang: Lang) -> str:
    return " · ".join(table_card(card, lang) for card in table) or t(lang, "pazaak.board.empty")


def cards_text(cards: Iterable[SideCard], lang: Lang) -> str:
    return " · ".join(card_label(card, lang) for card in cards)


def played_text(card: SideCard, value: int, lang: Lang) -> str:
    """A played card with the value chosen: ``+3``, ``±4 as +4``, ``D as +6``, ``Flip 2&4``."""
    label = card_label(card, lang)
    if card.values == (value,):
        return label
    return t(lang, "pazaak.card.as", card=label, value=signed(value))


def duration(seconds: int, lang: Lang) -> str:
    if seconds % 60 == 0:
        return t(lang, "pazaak.turn.minutes", n=seconds // 60)
    return t(lang, "pazaak.turn.seconds", n=seconds)


def credits(amount: int, lang: Lang) -> str:
    return format_amount(amount, CREDITS, lang)


def table_options(settings: pazaak.PazaakSettings, lang: Lang) -> str | None:
    """The table's options that differ from the defaults, as one phrase (None if none do)."""
    keys = [
        key
        for key, changed in (
            ("infinite", settings.main_deck == "infinite"),
            ("no_kotor2", not settings.kotor2_cards),
            ("no_nine", not settings.nine_card_win),
            ("loser", settings.starter == "loser"),
        )
        if changed
    ]
    if not keys:
        return None
    return ", ".join(t(lang, f"pazaak.option.{key}") for key in keys)


def score(state: pazaak.PazaakState, names: Names) -> str:
    a, b = state.players
    return f"{names[a.id]} {a.sets_won}{DASH}{b.sets_won} {names[b.id]}"


# --- the board ----------------------------------------------------------------------------------


def board(
    state: pazaak.PazaakState,
    table_id: int,
    names: Names,
    lang: Lang,
    *,
    events: Sequence[Any] = (),
    mention: str | None = None,
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
            value=_seat_text(player, player.id == current, lang),
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


def _seat_text(player: pazaak.PlayerState, on_turn: bool, lang: Lang) -> str:
    total = t(lang, "pazaak.board.total", total=number(player.total))
    if player.standing:
        total += " · " + t(lang, "pazaak.board.standing")
    elif on_turn:
        total += " · " + t(lang, "pazaak.board.on_turn")
    return "\n".join(
        [
            table_text(player.table, lang),
            total,
            t(lang, "pazaak.board.hand_size", count=len(player.hand)),
        ]
    )


def log_lines(
    events: Sequence[Any], state: pazaak.PazaakState, names: Names, lang: Lang
) -> list[str]:
    """One line per move worth telling: draws, cards played, stands, timeouts, set changes.

    Each event type's line is one small function, found by the event's exact type in ``_LOG``
    (as the reducer finds its step); a type not there says nothing.
    """
    lines: list[str] = []
    for event in events:
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


_LOG: dict[type[Any], Callable[[Any, pazaak.PazaakState, Names, Lang], str | None]] = {
    pazaak.CardDrawn: _drawn,
    pazaak.CardPlayed: _played,
    pazaak.TurnEnded: _turn_ended,
    pazaak.Stood: _stood,
    pazaak.SetEnded: _set_ended,
    pazaak.SetStarted: _set_started,
}
"""The log line of each event type that has one. The others say nothing here: MatchStarted,
HandDealt (a secret), TurnStarted and MatchEnded (announced by :func:`match_result`)."""


# --- results ------------------------------------------------------------------------------------


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


# --- a player's hand ----------------------------------------------------------------------------


def hand(
    state: pazaak.PazaakState, player: int, names: Names, lang: Lang, *, cancelled: bool = False
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
            cards=table_text(me.table, lang),
            total=number(me.total),
        ),
        t(
            lang,
            "pazaak.hand.cards",
            cards=cards_text(seen.hand, lang) or t(lang, "pazaak.hand.empty"),
        ),
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
            cards=cards_text(seen.hand, lang) or t(lang, "pazaak.hand.empty"),
        ),
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
    if me.standing:
        return t(lang, "pazaak.hand.standing")
    if state.current_player != me.id:
        return t(lang, "pazaak.hand.waiting", name=names[other.id])
    if me.played_card_this_turn:
        return t(lang, "pazaak.hand.played")
    return t(lang, "pazaak.hand.your_turn")


def dm_closed(lang: Lang, *, mention: str, name: str) -> str:
    """Said in the channel when a hand could not be sent by DM."""
    return t(lang, "pazaak.hand.dm_closed", mention=mention, name=name)
