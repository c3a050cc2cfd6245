"""Coins as integers: currencies as data, and parsing and formatting of amounts.

An amount is always a whole number of the currency's smallest unit (a brass penny, a credit).
Players write amounts the way people talk (``1 GC 10 s``, ``1zk 10s``, ``1.5 GC``, ``15p``,
``250 cr``); anything that is not an exact number of the smallest unit is refused, never rounded.
No float is used anywhere: fractional inputs are read as exact fractions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from bot.rules.common import RulesError

Lang = Literal["en", "pl"]


@dataclass(frozen=True, slots=True)
class Unit:
    """One coin of a currency: its worth in the smallest unit and the words that name it."""

    worth: int
    symbol: dict[str, str]  # per language, as shown: {"en": "GC", "pl": "zk"}
    aliases: frozenset[str]  # every accepted spelling, lowercase


@dataclass(frozen=True, slots=True)
class Currency:
    code: str
    units: tuple[Unit, ...]  # largest first; the last one is the smallest unit (worth 1)
    cap: int  # the largest amount accepted, in the smallest unit
    bare_unit: Unit | None  # the unit a bare number means, if any

    def unit_for(self, word: str) -> Unit | None:
        word = word.lower()
        for unit in self.units:
            if word in unit.aliases:
                return unit
        return None


_PENNY = Unit(
    1,
    {"en": "p", "pl": "p"},
    frozenset({"p", "pens", "pensy", "pensów", "pensow", "penny", "pennies", "pence", "bp"}),
)
WARHAMMER = Currency(
    code="wh",
    units=(
        Unit(
            240,
            {"en": "GC", "pl": "zk"},
            frozenset(
                {"gc", "zk", "korona", "korony", "koron", "koronę", "crown", "crowns"}
                | {"złota korona", "złote korony", "gold crown", "gold crowns"}
            ),
        ),
        Unit(
            12,
            {"en": "s", "pl": "s"},
            frozenset(
                {"s", "ss", "szyling", "szylingi", "szylingów", "szylingow", "shilling"}
                | {"shillings", "silver shilling", "silver shillings"}
            ),
        ),
        _PENNY,
    ),
    cap=1_000_000 * 240,
    bare_unit=None,
)
_CREDIT = Unit(
    1,
    {"en": "cr", "pl": "cr"},
    frozenset({"cr", "kr", "credit", "credits", "kredyt", "kredyty", "kredytów", "kredytow"}),
)
CREDITS = Currency(code="cr", units=(_CREDIT,), cap=1_000_000_000, bare_unit=_CREDIT)

CURRENCIES: dict[str, Currency] = {c.code: c for c in (WARHAMMER, CREDITS)}


class AmountError(RulesError):
    """An amount a player typed that cannot be taken as it is."""

    code = "amount_invalid"


class AmountSyntax(AmountError):
    code = "amount_syntax"


class AmountNotExact(AmountError):
    code = "amount_not_exact"


class AmountNegative(AmountError):
    code = "amount_negative"


class UnknownUnit(AmountError):
    code = "amount_unknown_unit"


class MissingUnit(AmountError):
    code = "amount_missing_unit"


class AmountTooLarge(AmountError):
    code = "amount_too_large"


class MixedCurrencies(AmountError):
    """Coins of two currencies in one amount (``1 GC 5 cr``)."""

    code = "amount_mixed_currencies"


_NUMBER = r"\d+(?:[.,]\d+)?"
_WORD = r"[^\W\d_]+(?:\s+[^\W\d_]+)?"
_PART = re.compile(rf"\s*({_NUMBER})\s*({_WORD})?\s*")
_MAX_TEXT = 100
_WORDS = re.compile(r"[^\W\d_]+")
_BARE = re.compile(rf"(?:{_NUMBER}\s*)+")


def _symbols(currency: Currency) -> str:
    return ", ".join(u.symbol["en"] for u in currency.units)


def parse_amount(text: str, currency: Currency) -> int:
    """Read ``text`` as an exact, non-negative amount of ``currency``'s smallest unit."""
    cleaned = text.strip()
    if cleaned.startswith(("-", "\u2212")):  # a hyphen or a typographic minus
        raise AmountNegative(text=text[:_MAX_TEXT])
    if not cleaned or len(cleaned) > _MAX_TEXT:
        raise AmountSyntax(text=text[:_MAX_TEXT], units=_symbols(currency))
    total = Fraction(0)
    position = 0
    while position < len(cleaned):
        match = _PART.match(cleaned, position)
        if match is None or match.end() == position:
            raise AmountSyntax(text=cleaned, units=_symbols(currency))
        number, word = match.group(1), match.group(2)
        unit = _resolve_unit(word, cleaned, currency)
        total += Fraction(number.replace(",", ".")) * unit.worth
        if total > currency.cap:
            raise AmountTooLarge(text=cleaned, cap=currency.cap)
        position = match.end()
    if total.denominator != 1:
        raise AmountNotExact(text=cleaned, smallest=currency.units[-1].symbol["en"])
    return int(total)


def parse_money(
    text: str, currencies: Iterable[Currency] = tuple(CURRENCIES.values())
) -> tuple[Currency, int]:
    """Read an amount whose coins say which currency it is in: ``1 GC 10 s`` and ``15p`` are
    Warhammer coin, ``250 cr`` credits. A bare number names no currency (:class:`MissingUnit`);
    coins of two currencies at once are :class:`MixedCurrencies`."""
    options = tuple(currencies)
    cleaned = text.strip()
    units = ", ".join(_symbols(currency) for currency in options)
    if cleaned.startswith(("-", "\u2212")):
        raise AmountNegative(text=text[:_MAX_TEXT])
    words = _WORDS.findall(cleaned[: _MAX_TEXT + 1])
    if not any(char.isdigit() for char in cleaned) or (not words and not _BARE.fullmatch(cleaned)):
        raise AmountSyntax(text=cleaned[:_MAX_TEXT], units=units)
    if not words:
        raise MissingUnit(text=cleaned, units=units)
    named = [c for c in options if any(c.unit_for(word) is not None for word in words)]
    if not named:
        raise UnknownUnit(unit=words[0], units=units)
    if len(named) > 1:
        raise MixedCurrencies(text=cleaned[:_MAX_TEXT], currencies=units)
    return named[0], parse_amount(cleaned, named[0])


def _resolve_unit(word: str | None, text: str, currency: Currency) -> Unit:
    if word is None:
        if currency.bare_unit is None:
            raise MissingUnit(text=text, units=_symbols(currency))
        return currency.bare_unit
    unit = currency.unit_for(" ".join(word.split()))
    if unit is None:
        # "10 s" followed by more words may have been swallowed as a two-word unit
        first = word.split()[0]
        if currency.unit_for(first) is not None and len(word.split()) > 1:
            raise UnknownUnit(unit=word.split()[1], units=_symbols(currency))
        raise UnknownUnit(unit=word, units=_symbols(currency))
    return unit


def format_amount(units: int, currency: Currency, lang: Lang = "en") -> str:
    """Show an amount with the largest coins first: ``1 GC 10 s 3 p`` (``1 zk 10 s 3 p`` in pl)."""
    sign = "-" if units < 0 else ""
    rest = abs(units)
    parts = []
    for unit in currency.units:
        count, rest = divmod(rest, unit.worth)
        if count:
            parts.append(f"{count} {unit.symbol[lang]}")
    if not parts:
        parts.append(f"0 {currency.units[-1].symbol[lang]}")
    return sign + " ".join(parts)
