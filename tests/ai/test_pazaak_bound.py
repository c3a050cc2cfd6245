"""``bench/pazaak_oracle.py``, the bound's programme, and ``bench/pazaak_bound.py``, which
plays it: the exact best response is worth what it wins when played, and the pool's version
draws what the pool still holds."""

from __future__ import annotations

import math
import random
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bench.ai_pazaak import deal_match
from bench.pazaak_bound import play
from bench.pazaak_oracle import FRESH, Oracle
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
    ctx = (0, 0, 0, ())
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


def test_the_pool_oracle_draws_what_the_pool_holds() -> None:
    """A set begins with eight of each value: each draw is a tenth, and takes one card away."""
    oracle = Oracle((), (), "novice", 1, "pool")
    ctx = (0, 0, 0, FRESH)
    draws = oracle.draws(ctx)
    assert [d for d, _, _ in draws] == list(range(1, 11))
    assert all(math.isclose(chance, 0.1) for _, chance, _ in draws)
    assert draws[2][2] == (0, 0, 0, (8, 8, 7, 8, 8, 8, 8, 8, 8, 8))
    assert Oracle((), (), "novice", 1).draws((0, 0, 0, ()))[2] == (3, 0.1, (0, 0, 0, ()))


@given(st.lists(st.integers(0, 8), min_size=10, max_size=10).filter(any))
def test_a_counted_draw_is_as_likely_as_its_cards_left(left: list[int]) -> None:
    """No spent value is drawn; the rest in proportion to what is left; the chances sum to 1."""
    oracle = Oracle((), (), "novice", 1, "pool")
    draws = oracle.draws((1, 0, 1, tuple(left)))
    assert [d for d, _, _ in draws] == [d for d in range(1, 11) if left[d - 1]]
    assert math.isclose(sum(chance for _, chance, _ in draws), 1.0)
    for d, chance, after in draws:
        assert math.isclose(chance, left[d - 1] / sum(left))
        assert after[:3] == (1, 0, 1)
        assert [b - a for a, b in zip(after[3], left, strict=True)] == [
            int(v == d) for v in range(1, 11)
        ]


def test_the_pool_oracle_counts_the_tables_it_is_asked_about(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``decide`` reads the pool from the public tables (``unseen_pool``), so it values the
    set's pool, not a fresh one."""
    oracle = Oracle((), (), "novice", 1, "pool")
    asked: list[tuple[object, ...]] = []

    def options(ctx: tuple[object, ...], *_: object) -> list[tuple[float, int, int, None, bool]]:
        asked.append(ctx)
        return [(0.0, 0, 0, None, True)]

    monkeypatch.setattr(oracle, "options", options)
    codes = tuple(c.code for c in DECK)
    state = deal_match(random.Random(3), codes, skills=False, hand=0)
    rng = random.Random(1)
    for _ in range(3):  # three turns end: the tables hold at least three drawn cards
        state, _ = pazaak.apply(state, pazaak.EndTurn(state.current_player), rng)
    if state.current_player != 1:
        state, _ = pazaak.apply(state, pazaak.EndTurn(state.current_player), rng)
    oracle.decide(state)
    drawn = [card.chosen for p in state.players for card in p.table]
    left = asked[0][3]
    assert isinstance(left, tuple) and sum(left) == 80 - len(drawn) <= 77
    assert list(left) == [8 - drawn.count(v) for v in range(1, 11)]
