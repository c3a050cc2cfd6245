"""Side bets, as a spectator's view and a table's final board show them.

Bets are public, but who placed one is not: a spectator sees how much backs each seat and their
own bet, never another spectator. Amounts in the table's currency.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.i18n import Lang, t
from bot.rules.money import CURRENCIES, format_amount


@dataclass(frozen=True, slots=True)
class Pools:
    """What a view shows of a table's bets: ``(seat name, coins on it)`` in seat order, the
    viewer's own bet (``(seat name, coins, how it ended)``), and how the bets ended."""

    currency: str
    pools: Sequence[tuple[str, int]]
    open: bool
    mine: tuple[str, int, str] | None = None
    winner: str | None = None
    refunded: bool = False
    settled: bool = False


def coins(amount: int, currency: str, lang: Lang) -> str:
    return format_amount(amount, CURRENCIES[currency], lang)


def option(lang: Lang) -> str:
    """The table option, as the board's settings show it."""
    return t(lang, "side_bets.option")


def title(lang: Lang) -> str:
    return t(lang, "side_bets.title")


def view_text(shown: Pools, lang: Lang) -> str:
    """The side-bets field of a spectator's view."""
    lines = [
        t(lang, "side_bets.pool", name=name, amount=coins(amount, shown.currency, lang))
        for name, amount in shown.pools
    ]
    if shown.settled:
        lines.append(result(shown, lang))
    else:
        lines.append(t(lang, "side_bets.open" if shown.open else "side_bets.closed"))
    if shown.mine is not None:
        name, amount, status = shown.mine
        key = f"side_bets.mine.{status}"
        lines.append(t(lang, key, name=name, amount=coins(amount, shown.currency, lang)))
    return "\n".join(lines)


def result(shown: Pools, lang: Lang) -> str:
    """How the bets ended (a final board's line): who was backed to win, or the refund."""
    total = coins(sum(amount for _, amount in shown.pools), shown.currency, lang)
    if shown.refunded or shown.winner is None:
        return t(lang, "side_bets.result.refunded", total=total)
    return t(lang, "side_bets.result.won", name=shown.winner, total=total)
