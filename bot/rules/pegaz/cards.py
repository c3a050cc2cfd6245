"""Cards of Three-Card Pegasus: creatures, hand ranking and exact odds.

A card is a face ``1..N`` on a dN (N in :data:`DICE`); a higher face is a better card. The
creature behind each face is data (``data/creatures.json``), never code. Everything here is pure
and works on plain ints, so the AI and the renderer can use it without a game state.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from fractions import Fraction
from functools import cache, lru_cache
from itertools import combinations_with_replacement
from math import comb, factorial
from pathlib import Path
from typing import Literal

DICE: tuple[int, ...] = (6, 8, 10, 12, 20)
"""The dice a table may play with."""

COPIES = 4
"""Copies of each creature in a deck: 6 creatures x 4 = 24 cards for d6."""

Source = Literal["dice", "deck"]

_DATA = Path(__file__).with_name("data") / "creatures.json"


@dataclass(frozen=True, slots=True)
class Creature:
    """The creature on one face: a stable id, its names and an emoji."""

    face: int
    id: str
    en: str
    pl: str
    emoji: str


@cache
def _all_creatures() -> dict[int, tuple[Creature, ...]]:
    raw = json.loads(_DATA.read_text(encoding="utf-8"))["dice"]
    table: dict[int, tuple[Creature, ...]] = {}
    for key, items in raw.items():
        die = int(key)
        table[die] = tuple(
            Creature(face=i + 1, id=c["id"], en=c["en"], pl=c["pl"], emoji=c["emoji"])
            for i, c in enumerate(items)
        )
    for die in DICE:
        ids = [c.id for c in table.get(die, ())]
        if len(ids) != die or len(set(ids)) != die:
            raise ValueError(f"creatures.json: d{die} needs {die} distinct creatures")
        if ids[-1] != "pegasus" or ids[-2] != "unicorn" or ids.index("dragon") > die // 2:
            raise ValueError(f"creatures.json: d{die} breaks the Dragon/Unicorn/Pegasus order")
    return table


def creatures(die: int) -> tuple[Creature, ...]:
    """The creatures of a dN, lowest face first (index 0 is face 1)."""
    _check_die(die)
    return _all_creatures()[die]


def creature(die: int, face: int) -> Creature:
    """The creature shown by ``face`` on a dN."""
    _check_face(die, face)
    return _all_creatures()[die][face - 1]


def shift(face: int, delta: int, die: int) -> int:
    """Move a face by ``delta`` points, wrapping on a dN: on a d6, 6+1 is 1 and 1-1 is 6."""
    return (face - 1 + delta) % die + 1


class Category(IntEnum):
    """The three kinds of hand, weakest first."""

    SINGLES = 0
    PAIR = 1
    TRIPS = 2


_ROLES: dict[Category, tuple[str, ...]] = {
    Category.SINGLES: ("high", "middle", "low"),
    Category.PAIR: ("pair", "single"),
    Category.TRIPS: ("trips",),
}


@dataclass(frozen=True, slots=True, order=True)
class HandRank:
    """The strength of a three-card hand. Compares as a total order; equal means a tie.

    ``faces`` depends on the category: three of a kind ``(face,)``; pair plus single
    ``(pair, single)``; three singles ``(high, middle, low)``.
    """

    category: Category
    faces: tuple[int, ...]

    @property
    def parts(self) -> tuple[tuple[str, int], ...]:
        """Each face with its role, most significant first: ``(("pair", 2), ("single", 4))``."""
        return tuple(zip(_ROLES[self.category], self.faces, strict=True))


def rank(cards: Sequence[int]) -> HandRank:
    """The rank of a three-card hand (faces in any order)."""
    if len(cards) != 3:
        raise ValueError("a hand has exactly three cards")
    a, b, c = sorted(cards, reverse=True)
    if a == c:
        return HandRank(Category.TRIPS, (a,))
    if a == b:
        return HandRank(Category.PAIR, (a, c))
    if b == c:
        return HandRank(Category.PAIR, (b, a))
    return HandRank(Category.SINGLES, (a, b, c))


def rank_key(cards: Sequence[int]) -> int:
    """An int that orders hands exactly like :func:`rank` (faster, for the AI and the odds)."""
    a, b, c = sorted(cards, reverse=True)
    if a == c:
        return 2 << 15 | a << 10
    if a == b:
        return 1 << 15 | a << 10 | c << 5
    if b == c:
        return 1 << 15 | b << 10 | a << 5
    return a << 10 | b << 5 | c


Decider = Literal["category", "trips", "pair", "single", "high", "middle", "low", "tie"]


@dataclass(frozen=True, slots=True)
class Comparison:
    """Why one hand beats another, as data for the renderer.

    ``outcome`` is 1 when the first hand wins, -1 when the second does, 0 on a tie.
    ``decided_by`` is ``"category"`` or the role of the first face that differs.
    Example: pair of 2 with 4 against 4-3-1 is ``outcome=1, decided_by="category"``.
    """

    first: HandRank
    second: HandRank
    outcome: Literal[-1, 0, 1]
    decided_by: Decider


def compare(first: Sequence[int], second: Sequence[int]) -> Comparison:
    """Compare two hands and say what decided it."""
    a, b = rank(first), rank(second)
    if a.category != b.category:
        return Comparison(a, b, 1 if a > b else -1, "category")
    for (role, x), (_, y) in zip(a.parts, b.parts, strict=True):
        if x != y:
            decider: Decider = role  # type: ignore[assignment]
            return Comparison(a, b, 1 if x > y else -1, decider)
    return Comparison(a, b, 0, "tie")


@dataclass(frozen=True, slots=True)
class HandOdds:
    """Exact chances of one hand against one random opposing hand."""

    win: Fraction
    tie: Fraction
    lose: Fraction


def _check_die(die: int) -> None:
    if die not in DICE:
        raise ValueError(f"unsupported die d{die}")


def _check_face(die: int, face: int) -> None:
    _check_die(die)
    if not 1 <= face <= die:
        raise ValueError(f"face {face} is not on a d{die}")


def _check_source(source: str) -> None:
    if source not in ("dice", "deck"):
        raise ValueError(f"unknown source {source!r}")


def _counts(faces: Iterable[int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for f in faces:
        out[f] = out.get(f, 0) + 1
    return out


@lru_cache(maxsize=1024)  # bounded: a deck's draws differ with every set of cards removed
def _deals(
    die: int, source: Source, n: int, removed: tuple[int, ...]
) -> tuple[tuple[tuple[int, ...], int], ...]:
    gone = _counts(removed)
    rows: list[tuple[tuple[int, ...], int]] = []
    for faces in combinations_with_replacement(range(1, die + 1), n):
        mult = _counts(faces)
        if source == "dice":
            weight = factorial(n)
            for m in mult.values():
                weight //= factorial(m)
        else:
            weight = 1
            for f, m in mult.items():
                weight *= comb(COPIES - gone.get(f, 0), m)
        if weight:
            rows.append((faces, weight))
    return tuple(rows)


def deals(
    die: int, source: Source, n: int = 3, removed: Sequence[int] = ()
) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every multiset of ``n`` faces (sorted ascending) that ``n`` fresh cards may show, with
    its weight: the number of equally likely draws giving it (ordered rolls for dice, card
    combinations for a deck from which the faces in ``removed`` are already gone). Multisets
    that cannot be drawn are left out. The AI weighs exchanges with it."""
    _check_source(source)
    _check_die(die)
    if not 0 <= n <= 3:
        raise ValueError("a draw is of 0 to 3 cards")
    for f in removed:
        _check_face(die, f)
    if source == "deck" and removed and max(_counts(removed).values()) > COPIES:
        raise ValueError("more copies than the deck holds")
    return _deals(die, source, n, tuple(sorted(removed)) if source == "deck" else ())


@cache
def _hands(die: int, source: Source, removed: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    """Every multiset of three faces as ``(rank_key, category, weight)``, weighted as
    :func:`deals` weighs them."""
    return tuple(
        (rank_key(hand), 3 - len(set(hand)), w) for hand, w in _deals(die, source, 3, removed)
    )


def category_odds(die: int, source: Source) -> dict[Category, Fraction]:
    """Exact chance of each category for three fresh cards (a fresh deck for ``"deck"``)."""
    _check_die(die)
    _check_source(source)
    totals = dict.fromkeys(Category, 0)
    for _, cat, w in _hands(die, source, ()):
        totals[Category(cat)] += w
    whole = sum(totals.values())
    return {cat: Fraction(n, whole) for cat, n in totals.items()}


@cache
def _hand_odds(hand: tuple[int, ...], die: int, source: Source) -> HandOdds:
    key = rank_key(hand)
    removed = hand if source == "deck" else ()
    win = tie = total = 0
    for other, _, w in _hands(die, source, removed):
        total += w
        if other < key:
            win += w
        elif other == key:
            tie += w
    return HandOdds(Fraction(win, total), Fraction(tie, total), Fraction(total - win - tie, total))


def hand_odds(hand: Sequence[int], die: int, source: Source) -> HandOdds:
    """Chances that ``hand`` beats, ties or loses to one random opposing hand.

    With a deck the opponent draws three cards from the deck minus ``hand``.
    """
    _check_source(source)
    if len(hand) != 3:
        raise ValueError("a hand has exactly three cards")
    for f in hand:
        _check_face(die, f)
    if source == "deck" and max(_counts(hand).values()) > COPIES:
        raise ValueError("more copies than the deck holds")
    return _hand_odds(tuple(sorted(hand)), die, source)


def beat_probability(hand: Sequence[int], die: int, source: Source) -> Fraction:
    """P(``hand`` beats one random opposing hand)."""
    return hand_odds(hand, die, source).win
