"""Purses as text: balances, payments, and a page of the ledger history."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

import discord

from bot.i18n import Lang, quote, t
from bot.render.limits import content, fit
from bot.rules.money import CURRENCIES, format_amount

HISTORY_COLOUR = 0xB08D57
USER_REASONS = frozenset({"grant", "take", "transfer"})
REASON_MAX = 200
"""The longest reason a payment, grant or take is shown with (what ``/purse`` accepts)."""


class LedgerLine(Protocol):
    """What a line of a purse's history shows (render knows no storage: any such value does)."""

    @property
    def at(self) -> int: ...
    @property
    def amount(self) -> int:
        """Signed: into the purse is positive."""

    @property
    def kind(self) -> str: ...
    @property
    def reason(self) -> str: ...
    @property
    def table_id(self) -> int | None: ...
    @property
    def other_character_id(self) -> int | None: ...


def amount(lang: Lang, units: int, currency: str) -> str:
    return format_amount(units, CURRENCIES[currency], lang)


def currency_name(lang: Lang, currency: str) -> str:
    return t(lang, f"purse.currency.{currency}")


def balances(lang: Lang, name: str, held: Mapping[str, int]) -> str:
    """``/purse show``: every currency, in the guild's language."""
    lines = [t(lang, "purse.show.title", name=name)]
    for code in CURRENCIES:
        lines.append(
            t(
                lang,
                "purse.show.line",
                currency=currency_name(lang, code),
                amount=amount(lang, held.get(code, 0), code),
            )
        )
    return "\n".join(lines)


def movement(
    lang: Lang, key: str, *, units: int, currency: str, reason: str = "", **names: str
) -> str:
    """A payment, grant or take as announced in the channel (``purse.paid`` and so on)."""
    shown = amount(lang, units, currency)
    if reason:
        text = t(lang, key + ".reason", amount=shown, reason=quote(reason, REASON_MAX), **names)
        return content(text)
    return content(t(lang, key, amount=shown, **names))


def _what(lang: Lang, line: LedgerLine, names: Mapping[int, str]) -> str:
    table = line.table_id if line.table_id is not None else "?"
    if line.kind == "transfer":
        if line.other_character_id is None:
            return t(lang, "purse.kind.transfer_table", table=table)
        other = names.get(line.other_character_id) or t(lang, "purse.history.someone")
        key = "purse.kind.transfer_in" if line.amount > 0 else "purse.kind.transfer_out"
        return t(lang, key, name=other)
    if line.kind == "correction":  # a GM's void (``/gm void``) undid a table or a movement
        key = "books.purse.voided_table" if line.table_id is not None else "books.purse.voided"
        return t(lang, key, table=table)
    return t(lang, f"purse.kind.{line.kind}", table=table)


def history_line(lang: Lang, line: LedgerLine, currency: str, names: Mapping[int, str]) -> str:
    sign = "+" if line.amount > 0 else "\u2212"
    what = _what(lang, line, names)
    if line.kind in USER_REASONS and line.reason and line.reason != line.kind:
        what = t(lang, "purse.with_reason", text=what, reason=quote(line.reason, REASON_MAX))
    return t(
        lang,
        "purse.history.line",
        amount=sign + amount(lang, abs(line.amount), currency),
        what=what,
        at=line.at // 1000,
    )


def history(
    lang: Lang,
    name: str,
    currency: str,
    lines: Sequence[LedgerLine],
    *,
    page: int,
    names: Mapping[int, str],
) -> discord.Embed:
    """One page of ``/purse history``, newest first (``page`` counts from 0)."""
    title = t(lang, "purse.history.title", name=name, currency=currency_name(lang, currency))
    if lines:
        body = "\n".join(history_line(lang, line, currency, names) for line in lines)
    else:
        body = t(lang, "purse.history.empty")
    embed = discord.Embed(title=title, description=body, colour=HISTORY_COLOUR)
    embed.set_footer(text=t(lang, "purse.history.page", page=page + 1))
    return fit(embed)
