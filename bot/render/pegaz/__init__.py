"""Three-Card Pegasus as people see it: creatures, hands, the table message, a hand, the odds.

Every text comes from the catalogues (``pegaz.*`` keys) in the guild's language; creatures' names
and emoji come from the rules' data through :func:`bot.rules.pegaz.creature`. Nothing here looks
at a hand it is not asked to show: the caller decides who may see what.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

import discord

from bot.i18n import Lang, clip, t
from bot.render.icons import Icons, creature_icon
from bot.render.limits import FIELD_VALUE_MAX, OPTION_TEXT_MAX, fit
from bot.rules import pegaz
from bot.rules.money import WARHAMMER, format_amount

COLOUR = discord.Colour(0x8E5B2C)
DONE_COLOUR = discord.Colour(0x4F545C)


@dataclass(frozen=True, slots=True)
class Who:
    """How to show one seat: the character's name and the Discord user who plays it."""

    name: str
    user_id: int
    npc: bool = False


Roster = Mapping[int, Who]
"""Character id -> :class:`Who`, for every seat of a table."""


def name_of(roster: Roster, player: int) -> str:
    who = roster.get(player)
    return f"**{who.name}**" if who else f"**#{player}**"


def money(units: int, lang: Lang) -> str:
    return format_amount(units, WARHAMMER, lang)


def creature_name(die: int, face: int, lang: Lang) -> str:
    c = pegaz.creature(die, face)
    return c.pl if lang == "pl" else c.en


def card(die: int, face: int, lang: Lang) -> str:
    """One card as a creature: ``🐉 Dragon``."""
    return f"{pegaz.creature(die, face).emoji} {creature_name(die, face, lang)}"


def cards(die: int, hand: Sequence[int], lang: Lang) -> str:
    return ", ".join(card(die, face, lang) for face in hand)


def iconed(text: str, die: int, lang: Lang, icons: Icons) -> str:
    """``text`` with each card as :func:`card` wrote it (``🐉 Dragon``) showing the creature's
    own emoji where ``icons`` has it (``<:pg_dragon:1> Dragon``): its name stays."""
    if not icons:
        return text
    for face in range(1, die + 1):
        c = pegaz.creature(die, face)
        icon = creature_icon(icons, c.id, c.emoji)
        if icon != c.emoji:
            name = creature_name(die, face, lang)
            text = text.replace(f"{c.emoji} {name}", f"{icon} {name}")
    return text


def hand_name(die: int, hand: Sequence[int], lang: Lang) -> str:
    """The hand's kind in words: ``pair: Dragon + Pegasus``, ``Basilisk-Griffin-Snake``."""
    ranked = pegaz.rank(hand)
    names = [creature_name(die, face, lang) for face in ranked.faces]
    if ranked.category is pegaz.Category.TRIPS:
        return t(lang, "pegaz.hand.trips", card=names[0])
    if ranked.category is pegaz.Category.PAIR:
        return t(lang, "pegaz.hand.pair", pair=names[0], single=names[1])
    return "-".join(names)


def comparison(die: int, first: Sequence[int], second: Sequence[int], lang: Lang) -> str:
    """Why one hand beats the other: ``pair: Dragon + Pegasus beats Basilisk-Griffin-Snake``."""
    result = pegaz.compare(first, second)
    a, b = hand_name(die, first, lang), hand_name(die, second, lang)
    if result.outcome == 0:
        return t(lang, "pegaz.why.tie", first=a, second=b)
    winner, loser = (a, b) if result.outcome > 0 else (b, a)
    why = t(lang, f"pegaz.why.{result.decided_by}")
    return t(lang, "pegaz.why.beats", winner=winner, loser=loser, why=why)


def percent(value: Fraction, lang: Lang) -> str:
    """``81.02% (175/216)``, with the language's decimal mark and the exact fraction."""
    hundredths = round(value * 10000)
    text = f"{hundredths // 100}.{hundredths % 100:02d}"
    if lang == "pl":
        text = text.replace(".", ",")
    return f"{text}% ({value.numerator}/{value.denominator})"


def duration(seconds: int, lang: Lang) -> str:
    minutes, rest = divmod(seconds, 60)
    if minutes and not rest:
        return t(lang, "pegaz.minutes", n=minutes)
    return t(lang, "pegaz.seconds", n=seconds)


def settings_text(settings: pegaz.PegazSettings, lang: Lang) -> str:
    none = t(lang, "pegaz.settings.none")

    def limit(value: int | None) -> str:
        return none if value is None else money(value, lang)

    exchanges = (
        t(lang, "pegaz.settings.unlimited")
        if settings.exchanges is None
        else str(settings.exchanges)
    )
    lines = [
        t(lang, "pegaz.settings.stake", stake=money(settings.stake, lang)),
        t(lang, "pegaz.settings.exchanges", exchanges=exchanges),
        t(lang, "pegaz.settings.raise_limit", limit=limit(settings.raise_limit)),
        t(lang, "pegaz.settings.max_stake", limit=limit(settings.max_stake)),
        t(
            lang,
            "pegaz.settings.cards",
            die=settings.die,
            source=t(lang, f"pegaz.source.{settings.source}"),
        ),
        t(lang, "pegaz.settings.turn", time=duration(settings.turn_timeout, lang)),
        t(lang, f"pegaz.settings.tie.{settings.tie}"),
        t(lang, f"pegaz.settings.ruling.{settings.cheat_ruling}"),
    ]
    if settings.detection_modifier:
        lines.append(t(lang, "pegaz.settings.detection", mod=f"{settings.detection_modifier:+d}"))
    if settings.carried_pot:
        lines.append(t(lang, "pegaz.settings.carried", amount=money(settings.carried_pot, lang)))
    if settings.side_bets:
        lines.append(t(lang, "side_bets.pegaz_line"))
    return "\n".join(lines)


# --- the table message --------------------------------------------------------------------------


def _seat_line(
    state: pegaz.PegazState, index: int, seat: pegaz.Seat, roster: Roster, lang: Lang
) -> str:
    who = roster.get(seat.player)
    mention = f" (<@{who.user_id}>)" if who and not who.npc else ""
    npc = t(lang, "pegaz.seat.npc") if who and who.npc else ""
    if state.phase is pegaz.Phase.SEATING:
        status = ""
    elif seat.status is pegaz.SeatStatus.ACTIVE:
        status = t(lang, "pegaz.seat.choosing" if seat.pending else "pegaz.seat.active")
    else:
        status = t(lang, f"pegaz.seat.{seat.status.value}")
    if seat.won:
        status = t(lang, "pegaz.seat.won", amount=money(seat.won, lang))
    paid = t(lang, "pegaz.seat.paid", amount=money(seat.paid, lang))
    parts = [f"{index + 1}. {name_of(roster, seat.player)}{npc}{mention}", paid]
    if status:
        parts.append(status)
    return " · ".join(parts)


def _status(state: pegaz.PegazState, roster: Roster, lang: Lang) -> str:
    phase = state.phase
    if phase is pegaz.Phase.SEATING:
        return t(
            lang,
            "pegaz.status.seating",
            seated=len(state.seats),
            max=pegaz.MAX_SEATS,
            stake=money(state.settings.stake, lang),
        )
    if phase is pegaz.Phase.CANCELLED:
        return t(lang, "pegaz.status.cancelled")
    if phase in (pegaz.Phase.OFFERING, pegaz.Phase.FINISHED):
        return _ending(state, roster, lang)
    if state.rulings:
        return t(lang, "pegaz.status.ruling", name=name_of(roster, state.rulings[0]))
    if phase is pegaz.Phase.MODIFIERS:
        choosing = [name_of(roster, s.player) for s in state.seats if s.pending]
        return t(lang, "pegaz.status.modifiers", names=", ".join(choosing))
    turn = pegaz.whose_turn(state)
    if turn is None:
        choosing = [name_of(roster, s.player) for s in state.seats if s.pending]
        return t(lang, "pegaz.status.new_cards", names=", ".join(choosing))
    if phase is pegaz.Phase.CHECKS:
        return t(lang, "pegaz.status.checks", name=name_of(roster, turn))
    key = "pegaz.status.exchange_checks" if pegaz.checks_allowed(state) else "pegaz.status.exchange"
    rounds = state.settings.exchanges
    of = t(lang, "pegaz.status.of", rounds=rounds) if rounds is not None else ""
    return t(lang, key, round=state.round, of=of, name=name_of(roster, turn))


def _ending(state: pegaz.PegazState, roster: Roster, lang: Lang) -> str:
    lines = []
    if state.rolled_over:
        key = "rolled_over_expelled" if pegaz.expelled_all(state) else "rolled_over"
        lines.append(t(lang, f"pegaz.status.{key}", amount=money(state.rolled_over, lang)))
    else:
        for seat in state.seats:
            if seat.won:
                lines.append(
                    t(
                        lang,
                        "pegaz.status.winner",
                        name=name_of(roster, seat.player),
                        amount=money(seat.won, lang),
                    )
                )
    if state.offers:
        names = ", ".join(name_of(roster, p) for p in state.offers)
        lines.append(t(lang, "pegaz.status.offering", names=names))
    elif state.phase is pegaz.Phase.FINISHED:
        lines.append(t(lang, "pegaz.status.finished"))
    return "\n".join(lines)


def table_embed(
    state: pegaz.PegazState,
    *,
    table_id: int,
    roster: Roster,
    lang: Lang,
    deadline: int | None = None,
) -> discord.Embed:
    """The table message: settings, seats, pot, stake, whose turn and when time runs out."""
    over = pegaz.is_over(state)
    description = _status(state, roster, lang)
    if deadline is not None and not over:
        description += "\n" + t(lang, "pegaz.status.deadline", at=f"<t:{deadline // 1000}:R>")
    embed = discord.Embed(
        title=t(lang, "pegaz.table.title", table=table_id),
        description=description,
        colour=DONE_COLOUR if over else COLOUR,
    )
    seats = [_seat_line(state, i, s, roster, lang) for i, s in enumerate(state.seats)]
    embed.add_field(
        name=t(lang, "pegaz.table.players", seated=len(state.seats), max=pegaz.MAX_SEATS),
        value=clip("\n".join(seats) or t(lang, "pegaz.table.nobody"), FIELD_VALUE_MAX),
        inline=False,
    )
    embed.add_field(name=t(lang, "pegaz.table.pot"), value=money(state.pot, lang))
    embed.add_field(name=t(lang, "pegaz.table.stake"), value=money(state.stake, lang))
    if state.settings.source == "deck" and state.phase is not pegaz.Phase.SEATING:
        embed.add_field(name=t(lang, "pegaz.table.deck"), value=str(sum(state.deck)))
    embed.add_field(
        name=t(lang, "pegaz.table.settings"),
        value=settings_text(state.settings, lang),
        inline=False,
    )
    embed.set_footer(text=t(lang, "pegaz.table.footer", table=table_id))
    return fit(embed)


# --- one hand -----------------------------------------------------------------------------------


def hand_embed(
    state: pegaz.PegazState,
    player: int,
    *,
    table_id: int,
    channel_id: int,
    roster: Roster,
    lang: Lang,
) -> discord.Embed:
    """A player's own cards (for their DM or ephemeral message only), with what they may do."""
    seat = pegaz.seat_of(state, player)
    die = state.settings.die
    who = roster.get(player)
    title_key = "pegaz.hand.title_npc" if who and who.npc else "pegaz.hand.title"
    embed = discord.Embed(
        title=t(lang, title_key, table=table_id, name=who.name if who else f"#{player}"),
        colour=COLOUR,
    )
    if not seat.hand:
        expelled = seat.status is pegaz.SeatStatus.EXPELLED
        embed.description = t(lang, "pegaz.hand.expelled" if expelled else "pegaz.hand.none")
        return fit(embed)
    lines = []
    for index, face in enumerate(seat.hand):
        new = " " + t(lang, "pegaz.hand.new") if seat.pending and index in seat.fresh else ""
        lines.append(f"**{index + 1}.** {card(die, face, lang)}{new}")
    lines.append("")
    lines.append(t(lang, "pegaz.hand.kind", kind=hand_name(die, seat.hand, lang)))
    odds = pegaz.beat_probability(seat.hand, die, state.settings.source)
    lines.append(t(lang, "pegaz.hand.beats", odds=percent(odds, lang)))
    if player in state.rulings:
        lines.append("")
        lines.append(t(lang, "pegaz.hand.ruling"))
    elif seat.pending:
        lines.append("")
        lines.append(t(lang, _choice_hint(seat)))
    embed.description = "\n".join(lines)
    embed.add_field(name=t(lang, "pegaz.hand.table"), value=f"<#{channel_id}>")
    embed.add_field(name=t(lang, "pegaz.hand.status"), value=_seat_status(state, seat, lang))
    return fit(embed)


def _choice_hint(seat: pegaz.Seat) -> str:
    if seat.luck and seat.gamble:
        return "pegaz.hand.choose_both"
    return "pegaz.hand.choose_gamble" if seat.gamble else "pegaz.hand.choose_luck"


def _seat_status(state: pegaz.PegazState, seat: pegaz.Seat, lang: Lang) -> str:
    if seat.status is not pegaz.SeatStatus.ACTIVE:
        return t(lang, f"pegaz.seat.{seat.status.value}")
    if seat.pending:
        return t(lang, "pegaz.seat.choosing")
    return t(lang, "pegaz.seat.active")


def modifier_label(
    die: int, hand: Sequence[int], shifts: Sequence[tuple[int, int]], lang: Lang
) -> str:
    """One modifier choice as a select option: ``2. Dragon → Griffin (+1)``."""
    parts = []
    for index, delta in shifts:
        face = hand[index]
        after = pegaz.shift(face, delta, die)
        parts.append(
            t(
                lang,
                "pegaz.choice.shift",
                n=index + 1,
                before=card(die, face, lang),
                after=card(die, after, lang),
                delta=f"{delta:+d}",
            )
        )
    return clip("; ".join(parts), OPTION_TEXT_MAX)


# --- the odds -----------------------------------------------------------------------------------


def odds_embed(
    hand: Sequence[int] | None, die: int, source: Literal["dice", "deck"], lang: Lang
) -> discord.Embed:
    """``/pegaz odds``: a hand's chances against one random hand, and each kind's chance."""
    src = t(lang, f"pegaz.source.{source}")
    embed = discord.Embed(title=t(lang, "pegaz.odds.title", die=die, source=src), colour=COLOUR)
    if hand is not None:
        odds = pegaz.hand_odds(hand, die, source)
        embed.description = "\n".join(
            [
                t(lang, "pegaz.odds.hand", cards=cards(die, hand, lang)),
                t(lang, "pegaz.hand.kind", kind=hand_name(die, hand, lang)),
                t(lang, "pegaz.odds.win", odds=percent(odds.win, lang)),
                t(lang, "pegaz.odds.tie", odds=percent(odds.tie, lang)),
                t(lang, "pegaz.odds.lose", odds=percent(odds.lose, lang)),
            ]
        )
    kinds = pegaz.category_odds(die, source)
    lines = [
        t(lang, f"pegaz.kind.{category.name.lower()}", odds=percent(kinds[category], lang))
        for category in sorted(kinds, reverse=True)
    ]
    embed.add_field(name=t(lang, "pegaz.odds.kinds"), value="\n".join(lines), inline=False)
    return fit(embed)
