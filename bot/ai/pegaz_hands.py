"""What a Three-Card Pegasus computer player knows of hands: the exact draws of an exchange, the
Luck and Gamble moves on new cards, and what an opponent may hold, read from what the table saw
of it (see :mod:`bot.ai.pegaz`, whose deciders use these)."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import accumulate

from bot.rules import pegaz
from bot.rules.pegaz.cards import Source

Hand = tuple[int, ...]
"""A hand as a multiset: its faces sorted, lowest first."""
Cdf = tuple[tuple[int, ...], tuple[float, ...]]
"""A hand's chances: the rank keys it may have, sorted, and the cumulative chance of each."""

SENSIBLE = 0.7
"""The chance, before an opponent has exchanged, that it plays as a sensible player does."""
SLIP = 0.1
"""A sensible player's chance of exchanging another count than its rule says."""
CARELESS = (0.4, 0.2, 0.2, 0.2)
"""A careless player's chances of exchanging 0, 1, 2 and 3 cards."""
CARELESS_PAYS = sum((1 + k) * c for k, c in enumerate(CARELESS))
"""The stakes a careless player pays per exchange, on average."""


# --- hands and draws ----------------------------------------------------------------------------


def as_hand(faces: Iterable[int]) -> Hand:
    return tuple(sorted(faces))


def by_worth(hand: Sequence[int]) -> list[int]:
    """The cards best first: those in a pair or trips, then the higher."""
    return sorted(hand, key=lambda f: (sum(1 for g in hand if g == f), f), reverse=True)


@cache
def keep(hand: Hand, k: int) -> Hand:
    """What is left after giving up the worst ``k`` cards."""
    return as_hand(by_worth(hand)[: 3 - k])


def count_rule(hand: Hand) -> int:
    """How many cards a sensible player exchanges: trips 0, a pair's single 1, singles all 3."""
    return (3, 1, 0)[3 - len(set(hand))]


@cache
def sensible(hand: Hand) -> tuple[float, ...]:
    """A sensible player's chances of exchanging 0, 1, 2 and 3 cards of ``hand``."""
    count = count_rule(hand)
    return tuple(1 - SLIP if k == count else SLIP / 3 for k in range(4))


@lru_cache(maxsize=4096)
def draws(die: int, source: Source, n: int, removed: Hand) -> tuple[tuple[Hand, float], ...]:
    """The ``n`` new cards' multisets and their chances (a deck lacks ``removed``)."""
    rows = pegaz.deals(die, source, n, removed)
    total = sum(w for _, w in rows)
    return tuple((faces, w / total) for faces, w in rows)


@lru_cache(maxsize=4096)
def after(
    kept: Hand, die: int, source: Source, removed: Hand
) -> tuple[tuple[Hand, Hand, float], ...]:
    """``(hand, new cards, chance)`` for every draw that fills ``kept`` up to three cards (a
    deck lacks ``removed``, or if that is empty the cards kept)."""
    n = 3 - len(kept)
    return tuple((as_hand(kept + new), new, p) for new, p in draws(die, source, n, removed or kept))


@cache
def all_hands(die: int) -> tuple[Hand, ...]:
    """Every hand there is on a dN."""
    return tuple(faces for faces, _ in pegaz.deals(die, "dice"))


@cache
def fresh_odds(hand: Hand, die: int, source: Source) -> float:
    """The chance to beat one fresh random hand, a tie counting half (the rules' exact odds)."""
    odds = pegaz.hand_odds(hand, die, source)
    return float(odds.win + odds.tie / 2)


@lru_cache(maxsize=65536)
def moves(hand: Hand, new: Hand, die: int, luck: bool, gamble: bool) -> tuple[Hand, ...]:
    """The hands an honest Luck or Gamble move on the ``new`` cards can make of ``hand``."""
    out = {hand}
    rest = list(hand)
    for f in new:
        rest.remove(f)
    new_list = list(new)
    for i, f in enumerate(new_list):
        for d in (-1, 1):
            one = [*new_list[:i], pegaz.shift(f, d, die), *new_list[i + 1 :]]
            out.add(as_hand(rest + one))
            if luck and gamble:
                for j in range(i + 1, len(one)):
                    for e in (-1, 1):
                        two = [*one[:j], pegaz.shift(one[j], e, die), *one[j + 1 :]]
                        out.add(as_hand(rest + two))
    return tuple(out)


# --- what an opponent holds ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Read:
    """One opponent as this seat reads it."""

    sensible: float
    """The chance that it plays as a sensible player (else its hand is a fresh random one)."""
    now: Cdf
    """Its hand if it is sensible (or as a check showed it, with any new cards since)."""
    final: Cdf
    """The same after the rounds it still has to play."""
    units: float
    """The stakes it is expected to pay in those rounds."""


def cumulative(dist: dict[Hand, float]) -> Cdf:
    rows = sorted((pegaz.rank_key(h), p) for h, p in dist.items())
    keys = tuple(k for k, _ in rows)
    return keys, tuple(accumulate(p for _, p in rows))


def below(cdf: Cdf, key: int) -> float:
    """P(their hand < key) + P(equal) / 2."""
    keys, acc = cdf
    lo, hi = bisect_left(keys, key), bisect_right(keys, key)
    under = acc[lo - 1] if lo else 0.0
    upto = acc[hi - 1] if hi else 0.0
    return (under + upto) / 2


def step(
    dist: dict[Hand, float], die: int, source: Source, k: int | None
) -> tuple[dict[Hand, float], float, float]:
    """A sensible player's exchange: of ``k`` cards seen (its hand given that), or, ``k`` None,
    of whatever count it plays. Returns the new hand, the chance of ``k`` and the expected
    stakes paid."""
    mass: dict[Hand, float] = {}
    seen = units = 0.0
    for hand, p in dist.items():
        chances = sensible(hand)
        for n in range(4) if k is None else (k,):
            w = p * chances[n]
            kept = keep(hand, n)
            mass[kept] = mass.get(kept, 0.0) + w
            seen += w
            units += w * (1 + n)
    out: dict[Hand, float] = {}
    for kept, w in mass.items():
        for hand, _, q in after(kept, die, source, ()):
            out[hand] = out.get(hand, 0.0) + w * q / seen
    return out, seen, units


@lru_cache(maxsize=4096)
def read_swaps(die: int, source: Source, swaps: tuple[int, ...], shown: Hand, ahead: int) -> Read:
    """An opponent read from its exchanges' counts (or what a check showed), with ``ahead``
    exchange turns still to play."""
    if shown:
        known = as_hand(f for f in shown if f)
        dist = {h: p for h, _, p in after(known, die, source, ())}
        sensible = 1.0
    else:
        dist = {h: p for h, p in draws(die, source, 3, ())}
        odds_sensible, odds_careless = SENSIBLE, 1 - SENSIBLE
        for k in swaps:
            dist, seen, _ = step(dist, die, source, k)
            odds_sensible *= seen
            odds_careless *= CARELESS[k]
        sensible = odds_sensible / (odds_sensible + odds_careless)
    now = cumulative(dist)
    units = 0.0
    for _ in range(ahead):
        dist, _, paid = step(dist, die, source, None)
        units += sensible * paid + (1 - sensible) * CARELESS_PAYS
    return Read(sensible, now, cumulative(dist), units)


def beats(read: Read, hand: Hand, die: int, source: Source, final: bool) -> float:
    """The chance that ``hand`` beats this opponent (a tie counts half)."""
    key = pegaz.rank_key(hand)
    informed = below(read.final if final else read.now, key)
    if read.sensible >= 1.0:
        return informed
    return read.sensible * informed + (1 - read.sensible) * fresh_odds(hand, die, source)
