"""Stats as embeds: one character's record (``/stats character``) and a leaderboard
(``/stats top``). Character names are escaped: they are shown in bold, and a name may hold
Markdown."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import discord

from bot.i18n import Lang, t
from bot.render.limits import fit
from bot.render.purse import amount
from bot.render.tables import game_name

STATS_COLOUR = 0x6B8E23
MINUS = "\u2212"


class GameTotals(Protocol):
    """What a character's totals in one game show (``bot.storage.stats.Totals`` is one)."""

    @property
    def game(self) -> str: ...
    @property
    def currency(self) -> str: ...
    @property
    def played(self) -> int: ...
    @property
    def won(self) -> int: ...
    @property
    def lost(self) -> int: ...
    @property
    def drawn(self) -> int: ...
    @property
    def net(self) -> int: ...
    @property
    def pots(self) -> int: ...
    @property
    def biggest_pot(self) -> int: ...
    @property
    def streak(self) -> int: ...
    @property
    def win_streak(self) -> int: ...
    @property
    def loss_streak(self) -> int: ...
    @property
    def caught(self) -> int: ...


class HeadToHead(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def won(self) -> int: ...
    @property
    def lost(self) -> int: ...


class Line(Protocol):
    """One line of a leaderboard: a name and that character's totals."""

    @property
    def name(self) -> str: ...
    @property
    def totals(self) -> GameTotals: ...


class Board(Protocol):
    @property
    def game(self) -> str: ...
    @property
    def currency(self) -> str: ...
    @property
    def standings(self) -> Sequence[Line]: ...


def bold(name: str) -> str:
    return f"**{discord.utils.escape_markdown(name)}**"


def signed(lang: Lang, units: int, currency: str) -> str:
    """Coins won (+) or lost (minus sign), formatted in the currency."""
    if units == 0:
        return amount(lang, 0, currency)
    return ("+" if units > 0 else MINUS) + amount(lang, abs(units), currency)


def _streak(lang: Lang, streak: int) -> str:
    if streak > 0:
        return t(lang, "stats.streak.won", count=streak)
    if streak < 0:
        return t(lang, "stats.streak.lost", count=-streak)
    return t(lang, "stats.streak.none")


def _game(lang: Lang, totals: GameTotals) -> str:
    record = "stats.record.drawn" if totals.drawn else "stats.record"
    lines = [
        t(
            lang,
            record,
            played=totals.played,
            won=totals.won,
            lost=totals.lost,
            drawn=totals.drawn,
        ),
        t(lang, "stats.net", amount=signed(lang, totals.net, totals.currency)),
        t(
            lang,
            "stats.pots",
            pots=totals.pots,
            biggest=amount(lang, totals.biggest_pot, totals.currency),
        ),
        _streak(lang, totals.streak),
        t(lang, "stats.longest", won=totals.win_streak, lost=totals.loss_streak),
        t(lang, "stats.caught", count=totals.caught),
    ]
    return "\n".join(lines)


def character(
    lang: Lang, name: str, games: Sequence[GameTotals], rivals: Sequence[HeadToHead]
) -> discord.Embed:
    """``/stats character``: each game played, then Pazaak head to head."""
    title = t(lang, "stats.title", name=discord.utils.escape_markdown(name))
    embed = discord.Embed(title=title, colour=STATS_COLOUR)
    if not games:
        embed.description = t(lang, "stats.none")
    for totals in games:
        embed.add_field(name=game_name(lang, totals.game), value=_game(lang, totals), inline=False)
    if rivals:
        lines = [t(lang, "stats.rival", name=bold(r.name), won=r.won, lost=r.lost) for r in rivals]
        embed.add_field(name=t(lang, "stats.rivals"), value="\n".join(lines), inline=False)
    return fit(embed)


def _line(lang: Lang, by: str, place: int, line: Line, currency: str) -> str:
    totals = line.totals
    if by == "net":
        figure = signed(lang, totals.net, currency)
    elif by == "pots":
        figure = t(
            lang,
            "stats.top.pots_line",
            pots=totals.pots,
            biggest=amount(lang, totals.biggest_pot, currency),
        )
    else:
        figure = t(lang, "stats.top.record_line", won=totals.won, lost=totals.lost)
    return t(lang, "stats.top.line", place=place, name=bold(line.name), figure=figure)


def top(lang: Lang, by: str, boards: Sequence[Board]) -> discord.Embed:
    """``/stats top``: one field per game's leaderboard, best first."""
    embed = discord.Embed(title=t(lang, f"stats.top.title.{by}"), colour=STATS_COLOUR)
    for board in boards:
        lines = [
            _line(lang, by, place, line, board.currency)
            for place, line in enumerate(board.standings, start=1)
        ]
        embed.add_field(
            name=game_name(lang, board.game),
            value="\n".join(lines) or t(lang, "stats.top.empty"),
            inline=False,
        )
    return fit(embed)
