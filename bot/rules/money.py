"""Coins as integers: currencies as data, and parsing and formatting of amounts.

An amount is always a whole number of the currency's smallest unit (a brass penny, a credit).
Players write amounts the way people talk (``1 GC 10 s``, ``1zk 10s``, ``1.5 GC``, ``15p``,
``250 cr``); anything that is not an exact number of the smallest unit is refused, never rounded.
No float is used anywhere: fractional inputs are read as exact fractions.

How numbers are read, in both languages' ways of writing them:

- Thousands are grouped with a space, a no-break space or a thin space, as Polish writes them:
  ``2 500``, ``1 000 000``. Groups join only when the first has 1-3 digits and every later one
  exactly 3, so ``2 50`` is two numbers, not one.
- Two numbers are never added up unless a coin stands between them: ``1 GC 10 s`` is a sum,
  ``2 50 cr`` is refused (:class:`AmountTwoNumbers`).
- ``,`` and ``.`` are only ever a decimal mark, and at most one per number (``1,000,000`` and
  ``1.000,5`` are :class:`AmountSeparators`). A mark followed by exactly three digits
  (``1,000``, ``2.500``, ``1 000,500``) reads as English thousands or as a Polish decimal, so it
  is refused with both readings (:class:`AmountAmbiguous`), unless no thousands could stand
  there: a whole part of 0 (``0,250``) or of four digits or more (``2500,125``). Any other count
  of decimals is a plain decimal: ``1,5 GC``, ``1.25 GC``, ``0,25 GC``.
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


def symbols(currencies: Iterable[Currency], lang: Lang = "en") -> str:
    """Every coin of these currencies, largest first, as ``lang`` writes them: ``GC, s, p``."""
    return ", ".join(unit.symbol[lang] for currency in currencies for unit in currency.units)


class AmountError(RulesError):
    """An amount a player typed that cannot be taken as it is.

    ``of`` names the currencies the amount was read in, so :meth:`params_in` can list their
    coins in the reader's language; it is not a message parameter itself."""

    code = "amount_invalid"

    def __init__(self, *, of: Iterable[Currency] = (), **params: object) -> None:
        self.currencies = tuple(of)
        super().__init__(**params)

    def params_in(self, lang: Lang) -> dict[str, object]:
        """The message parameters, with coin symbols (``zk`` or ``GC``) in ``lang``."""
        params = dict(self.params)
        if self.currencies:
            for key in ("units", "currencies"):
                if key in params:
                    params[key] = symbols(self.currencies, lang)
            if "smallest" in params:
                params["smallest"] = self.currencies[0].units[-1].symbol[lang]
        return params


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


class AmountTwoNumbers(AmountError):
    """Two numbers with no coin between them (``2 50 cr``): never added up on a guess."""

    code = "amount_two_numbers"


class AmountSeparators(AmountError):
    """More than one ``,`` or ``.`` in one number (``1,000,000``, ``1.000,5``)."""

    code = "amount_separators"


class AmountAmbiguous(AmountError):
    """A lone ``,`` or ``.`` before exactly three digits: ``2,500`` is 2 500 in English and 2,5
    in Polish. The message shows both readings, the decimal one with the reader's mark."""

    code = "amount_ambiguous"

    def __init__(self, *, text: str, whole: str, decimals: str) -> None:
        self.whole, self.decimals = whole, decimals
        thousands = _clip(_grouped(whole + decimals))
        super().__init__(text=text, thousands=thousands, decimal=self.decimal())

    def decimal(self, lang: Lang = "en") -> str:
        """The decimal reading as ``lang`` writes it: ``2.5`` (en), ``2,5`` (pl), ``1`` for
        ``1,000``. It may be no whole number of coins; it is shown, never taken."""
        kept = self.decimals.rstrip("0")
        mark = "," if lang == "pl" else "."
        return _clip(_grouped(self.whole) + (mark + kept if kept else ""))

    def params_in(self, lang: Lang) -> dict[str, object]:
        return {**super().params_in(lang), "decimal": self.decimal(lang)}


_MAX_TEXT = 100
_CLIP = 24  # the longest piece of the input a refusal about one number quotes
_GROUP = " \u00a0\u2009\u202f"  # space, no-break space, thin space, narrow no-break space
_INTEGER = rf"[0-9]{{1,3}}(?:[{_GROUP}][0-9]{{3}})+(?![0-9])|[0-9]+"
_NUMBER = re.compile(rf"(?P<whole>{_INTEGER})(?:(?P<mark>[.,])(?P<decimals>[0-9]+))?")
_ANOTHER_MARK = re.compile(r"[.,][0-9]")
_RUN = re.compile(rf"[0-9](?:[0-9.,]|[{_GROUP}](?=[0-9]))*")
_WORD = re.compile(r"\s*([^\W\d_]+(?:\s+[^\W\d_]+)?)")
_GAP = re.compile(r"\s*")
_SPLIT = re.compile(f"[{_GROUP}]")


@dataclass(frozen=True, slots=True)
class _Part:
    value: Fraction
    word: str | None  # the coin written after the number, if any


def _clip(text: str) -> str:
    return text if len(text) <= _CLIP else text[: _CLIP - 1] + "…"


def _grouped(digits: str) -> str:
    """``2500`` -> ``2 500``: the way to write a number that no reader can take two ways."""
    return f"{int(digits):,}".replace(",", " ")


def _gap(text: str, position: int) -> int:
    match = _GAP.match(text, position)
    assert match is not None  # \s* always matches
    return match.end()


def _value(number: re.Match[str]) -> Fraction:
    whole = _SPLIT.sub("", number["whole"])
    mark, decimals = number["mark"], number["decimals"]
    if mark is None:
        return Fraction(int(whole))
    last_group = _SPLIT.split(number["whole"])[-1]  # thousands follow only 1-3 digits
    if len(decimals) == 3 and len(last_group) <= 3 and int(whole) != 0:
        raise AmountAmbiguous(text=_clip(number.group()), whole=whole, decimals=decimals)
    return int(whole) + Fraction(int(decimals), 10 ** len(decimals))


def _parts(cleaned: str, of: tuple[Currency, ...]) -> list[_Part]:
    """Split ``cleaned`` into numbers, each with the coin written after it (if any)."""
    parts: list[_Part] = []
    position = _gap(cleaned, 0)
    while position < len(cleaned):
        number = _NUMBER.match(cleaned, position)
        if number is None:
            raise AmountSyntax(of=of, text=cleaned[:_MAX_TEXT], units=symbols(of))
        if _ANOTHER_MARK.match(cleaned, number.end()):
            run = _RUN.match(cleaned, position)
            assert run is not None  # the number starts with a digit
            raise AmountSeparators(of=of, text=_clip(run.group()))
        value = _value(number)
        word = _WORD.match(cleaned, number.end())
        if word is not None:
            parts.append(_Part(value, word.group(1)))
            position = _gap(cleaned, word.end())
            continue
        after = _gap(cleaned, number.end())
        following = _NUMBER.match(cleaned, after)
        if following is not None:
            piece = cleaned[position : following.end()]
            raise AmountTwoNumbers(of=of, text=_clip(piece), units=symbols(of))
        parts.append(_Part(value, None))
        position = after
    return parts


def _cleaned(text: str, of: tuple[Currency, ...]) -> str:
    cleaned = text.strip()
    if cleaned.startswith(("-", "\u2212")):  # a hyphen or a typographic minus
        raise AmountNegative(of=of, text=text[:_MAX_TEXT])
    if not cleaned or len(cleaned) > _MAX_TEXT:
        raise AmountSyntax(of=of, text=text[:_MAX_TEXT], units=symbols(of))
    return cleaned


def parse_amount(text: str, currency: Currency) -> int:
    """Read ``text`` as an exact, non-negative amount of ``currency``'s smallest unit."""
    cleaned = _cleaned(text, (currency,))
    return _total(_parts(cleaned, (currency,)), cleaned, currency)


def _total(parts: list[_Part], cleaned: str, currency: Currency) -> int:
    of = (currency,)
    total = Fraction(0)
    for part in parts:
        unit = _resolve_unit(part.word, cleaned, currency)
        total += part.value * unit.worth
        if total > currency.cap:
            raise AmountTooLarge(of=of, text=cleaned, cap=currency.cap)
    if total.denominator != 1:
        raise AmountNotExact(of=of, text=cleaned, smallest=currency.units[-1].symbol["en"])
    return int(total)


def parse_money(
    text: str, currencies: Iterable[Currency] = tuple(CURRENCIES.values())
) -> tuple[Currency, int]:
    """Read an amount whose coins say which currency it is in: ``1 GC 10 s`` and ``15p`` are
    Warhammer coin, ``250 cr`` credits. A bare number names no currency (:class:`MissingUnit`);
    coins of two currencies at once are :class:`MixedCurrencies`."""
    options = tuple(currencies)
    units = symbols(options)
    cleaned = _cleaned(text, options)
    parts = _parts(cleaned, options)
    words = [word for part in parts if part.word for word in part.word.split()]
    if not words:
        raise MissingUnit(of=options, text=cleaned, units=units)
    named = [c for c in options if any(c.unit_for(word) is not None for word in words)]
    if not named:
        raise UnknownUnit(of=options, unit=words[0], units=units)
    if len(named) > 1:
        raise MixedCurrencies(of=options, text=cleaned, currencies=units)
    return named[0], _total(parts, cleaned, named[0])


def _resolve_unit(word: str | None, text: str, currency: Currency) -> Unit:
    of = (currency,)
    if word is None:
        if currency.bare_unit is None:
            raise MissingUnit(of=of, text=text, units=symbols(of))
        return currency.bare_unit
    unit = currency.unit_for(" ".join(word.split()))
    if unit is None:
        # "10 s" followed by more words may have been swallowed as a two-word unit
        first = word.split()[0]
        if currency.unit_for(first) is not None and len(word.split()) > 1:
            raise UnknownUnit(of=of, unit=word.split()[1], units=symbols(of))
        raise UnknownUnit(of=of, unit=word, units=symbols(of))
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
