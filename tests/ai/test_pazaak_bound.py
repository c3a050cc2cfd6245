"""``bench/pazaak_bound.py``: its exact best response is worth what it wins when played."""

from __future__ import annotations

import math
import random
import sys

import pytest

from bench.ai_pazaak import deal_match
from bench.pazaak_bound import Oracle, play
from bot.rules import pazaak


@pytest.fixture(autouse=True)
def _deep_recursion() -> None:
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))


def cards(codes: str) -> tuple[pazaak.SideCard, ...]:
    return tuple(pazaak.parse_side_cards(codes.split()))


DECK = cards("+1 +2 +3 +4 +5 -1 -2 -3 -4 -5")


@pytest.mark.parametrize(("mine", "theirs", "sets"), [("", "", 2), ("-3", "+2", 1)])
def test_the_value_is_what_the_policy_wins(mine: str, theirs: str, sets: int) -> None:
    oracle = Oracle(cards(mine), cards(theirs), "novice", sets)
    value = oracle.value()
    n = 4000
    won = sum(play(oracle, seed, DECK, pool=False) for seed in range(n))
    assert abs(won / n - value) < 4 * math.sqrt(value * (1 - value) / n)


def test_a_revealed_hand_is_worth_more_than_none() -> None:
    """Against the same rival, a minus card to save busts can only raise the oracle's chance."""
    bare = Oracle((), cards("+2"), "novice", 1).value()
    armed = Oracle(cards("-3"), cards("+2"), "novice", 1).value()
    assert 0.4 < bare < armed


def test_the_rival_moves_as_novice_plays() -> None:
    oracle = Oracle((), cards("+2 -4"), "novice", 1)
    ctx = (0, 0, 0)
    # 15 + 3 = 18: the +2 makes 20, which stands
    assert oracle.rival(ctx, 0, 0b11, 0, False, False, 15, 3, 1, False) == (
        20,
        0b10,
        False,
        True,
        3,
    )
    # 15 + 9 = 24: the -4 saves it at 20
    assert oracle.rival(ctx, 0, 0b11, 0, False, False, 15, 9, 1, False) == (
        20,
        0b01,
        False,
        True,
        3,
    )
    # 10 + 5 = 15: no card, no stand
    assert oracle.rival(ctx, 0, 0b11, 0, False, False, 10, 5, 1, False) == (
        15,
        0b11,
        False,
        False,
        2,
    )


@pytest.mark.parametrize("hand", [0, 1, 3])
def test_the_bench_cuts_both_hands_for_a_reduced_game(hand: int) -> None:
    """``bench/ai_pazaak.py --hand H`` plays the games the bound solves: the same deal as the
    full game, each hand cut to its first H cards, and nothing else changed."""
    codes = tuple(c.code for c in DECK)
    full = deal_match(random.Random(7), codes, skills=False)
    cut = deal_match(random.Random(7), codes, skills=False, hand=hand)
    for whole, part in zip(full.players, cut.players, strict=True):
        assert len(whole.hand) == pazaak.HAND_SIZE
        assert part.hand == whole.hand[:hand]
    assert (cut.pool, cut.set_number, cut.turn_seat) == (full.pool, full.set_number, full.turn_seat)


def test_the_bench_plays_the_bounds_draws_when_asked() -> None:
    """``--main-deck infinite``: the uniform draws the bound assumes, no 80-card pool."""
    codes = tuple(c.code for c in DECK)
    pool = deal_match(random.Random(7), codes, skills=False)
    uniform = deal_match(random.Random(7), codes, skills=False, main_deck="infinite")
    assert (pool.settings.main_deck, uniform.settings.main_deck) == ("pool", "infinite")
    assert len(pool.pool) > 60 and uniform.pool == ()
    assert [p.hand for p in uniform.players] == [p.hand for p in pool.players]
