"""Three-Card Pegasus cards: creatures, ranking, exact odds."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.pegaz.cards import (
    DICE,
    Category,
    HandRank,
    beat_probability,
    category_odds,
    compare,
    creature,
    creatures,
    hand_odds,
    rank,
    rank_key,
    shift,
)


def hands(die: int = 6) -> st.SearchStrategy[tuple[int, int, int]]:
    face = st.integers(1, die)
    return st.tuples(face, face, face)


any_die_hand = st.sampled_from(DICE).flatmap(lambda d: st.tuples(st.just(d), hands(d)))


# --- creatures ----------------------------------------------------------------------------------


def test_d6_creatures_are_the_sources() -> None:
    got = [(c.face, c.en, c.pl) for c in creatures(6)]
    assert got == [
        (1, "Snake", "Wąż"),
        (2, "Dragon", "Smok"),
        (3, "Griffin", "Gryf"),
        (4, "Basilisk", "Bazyliszek"),
        (5, "Unicorn", "Jednorożec"),
        (6, "Pegasus", "Pegaz"),
    ]


@pytest.mark.parametrize("die", DICE)
def test_every_die_keeps_the_hierarchy(die: int) -> None:
    cs = creatures(die)
    ids = [c.id for c in cs]
    assert len(cs) == die
    assert len(set(ids)) == die
    assert len({c.emoji for c in cs}) == die
    assert all(c.en and c.pl and c.emoji for c in cs)
    assert ids[-1] == "pegasus"
    assert ids[-2] == "unicorn"
    assert ids.index("dragon") < die // 2
    assert creature(die, die).en == "Pegasus"
    # the six creatures of the source keep their order on every die
    d6 = [c.id for c in creatures(6)]
    assert [i for i in ids if i in d6] == d6


def test_bad_faces_and_dice_are_rejected() -> None:
    with pytest.raises(ValueError):
        creatures(7)
    with pytest.raises(ValueError):
        creature(6, 7)
    with pytest.raises(ValueError):
        creature(6, 0)


@pytest.mark.parametrize(
    ("face", "delta", "die", "want"),
    [
        (6, 1, 6, 1),
        (6, -1, 6, 5),
        (1, -1, 6, 6),
        (1, 1, 6, 2),
        (6, 2, 6, 2),
        (1, -2, 6, 5),
        (2, -2, 6, 6),
        (8, 1, 8, 1),
        (20, 2, 20, 2),
        (1, -1, 20, 20),
        (3, 2, 6, 5),
    ],
)
def test_shift_wraps_around(face: int, delta: int, die: int, want: int) -> None:
    assert shift(face, delta, die) == want


# --- ranking ------------------------------------------------------------------------------------


def test_ranking_examples_from_the_rules() -> None:
    # categories: trips > pair + single > singles
    assert rank((1, 1, 1)) > rank((6, 6, 5)) > rank((6, 5, 4))
    # pair plus single: "Basilisk and a pair of Dragons" beats 4-3-1
    assert rank((4, 2, 2)) > rank((4, 3, 1))
    # within trips by face
    assert rank((3, 3, 3)) > rank((2, 2, 2))
    # pair's face first, then the single
    assert rank((3, 3, 1)) > rank((2, 2, 6))
    assert rank((3, 3, 2)) > rank((3, 3, 1))
    # singles: high, then middle, then low
    assert rank((6, 2, 1)) > rank((5, 4, 3))
    assert rank((6, 4, 1)) > rank((6, 3, 2))
    assert rank((6, 4, 3)) > rank((6, 4, 2))
    # equal hands tie whatever the order
    assert rank((5, 1, 3)) == rank((3, 5, 1))
    assert rank((1, 2, 3)) == HandRank(Category.SINGLES, (3, 2, 1))
    assert rank((2, 4, 2)) == HandRank(Category.PAIR, (2, 4))
    assert rank((2, 4, 2)).parts == (("pair", 2), ("single", 4))


def test_lowest_and_best_hands_on_d6() -> None:
    all_hands = list(itertools.product(range(1, 7), repeat=3))
    ranks = [rank(h) for h in all_hands]
    assert min(ranks) == rank((1, 2, 3))
    assert max(ranks) == rank((6, 6, 6))
    assert sum(r == rank((1, 2, 3)) for r in ranks) == 6  # the six orders of 1-2-3


def test_compare_explains_the_decision() -> None:
    c = compare((2, 2, 4), (4, 3, 1))
    assert (c.outcome, c.decided_by) == (1, "category")
    assert c.first.parts == (("pair", 2), ("single", 4))
    assert c.second.parts == (("high", 4), ("middle", 3), ("low", 1))
    assert (compare((3, 3, 1), (3, 3, 2)).outcome, compare((3, 3, 1), (3, 3, 2)).decided_by) == (
        -1,
        "single",
    )
    assert compare((5, 4, 1), (5, 3, 2)).decided_by == "middle"
    assert compare((5, 4, 1), (5, 4, 2)).decided_by == "low"
    assert compare((6, 6, 6), (5, 5, 5)).decided_by == "trips"
    assert compare((4, 4, 1), (3, 3, 6)).decided_by == "pair"
    tie = compare((1, 5, 3), (5, 3, 1))
    assert (tie.outcome, tie.decided_by) == (0, "tie")


@given(any_die_hand, st.data())
def test_rank_is_a_total_order_consistent_with_categories(dh: tuple[int, tuple], data) -> None:
    die, a = dh
    b = data.draw(hands(die))
    c = data.draw(hands(die))
    ra, rb, rc = rank(a), rank(b), rank(c)
    # exactly one of <, ==, > ; antisymmetric; transitive
    assert (ra < rb) + (ra == rb) + (ra > rb) == 1
    assert (ra < rb) == (rb > ra)
    if ra <= rb <= rc:
        assert ra <= rc
    # equal ranks are equal hands up to order, and hash alike
    assert (ra == rb) == (sorted(a) == sorted(b))
    if ra == rb:
        assert hash(ra) == hash(rb)
    # the category decides first
    distinct = len(set(a))
    assert ra.category == {1: Category.TRIPS, 2: Category.PAIR, 3: Category.SINGLES}[distinct]
    if ra.category != rb.category:
        assert (ra > rb) == (ra.category > rb.category)
    # the fast key orders exactly like the rank, and ignores card order
    assert (rank_key(a) < rank_key(b)) == (ra < rb)
    assert (rank_key(a) == rank_key(b)) == (ra == rb)
    assert rank(tuple(reversed(a))) == ra
    # compare agrees with the ranks
    assert compare(a, b).outcome == (ra > rb) - (ra < rb)


# --- odds ---------------------------------------------------------------------------------------


def test_category_odds_d6_dice_exact() -> None:
    odds = category_odds(6, "dice")
    assert odds == {
        Category.TRIPS: Fraction(6, 216),
        Category.PAIR: Fraction(90, 216),
        Category.SINGLES: Fraction(120, 216),
    }


def test_category_odds_24_card_deck_exact() -> None:
    odds = category_odds(6, "deck")
    assert odds == {
        Category.TRIPS: Fraction(24, 2024),
        Category.PAIR: Fraction(720, 2024),
        Category.SINGLES: Fraction(1280, 2024),
    }


@pytest.mark.parametrize("die", DICE)
@pytest.mark.parametrize("source", ["dice", "deck"])
def test_category_odds_sum_to_one(die: int, source: str) -> None:
    odds = category_odds(die, source)  # type: ignore[arg-type]
    assert sum(odds.values()) == 1
    if source == "dice":
        assert odds[Category.TRIPS] == Fraction(die, die**3)


def _brute_dice(hand: tuple[int, ...], die: int) -> tuple[Fraction, Fraction]:
    mine = rank(hand)
    others = [rank(o) for o in itertools.product(range(1, die + 1), repeat=3)]
    n = len(others)
    return Fraction(sum(o < mine for o in others), n), Fraction(sum(o == mine for o in others), n)


def _brute_deck(hand: tuple[int, ...], die: int) -> tuple[Fraction, Fraction]:
    deck = [f for f in range(1, die + 1) for _ in range(4)]
    for f in hand:
        deck.remove(f)
    mine = rank(hand)
    others = [rank(o) for o in itertools.combinations(deck, 3)]
    n = len(others)
    return Fraction(sum(o < mine for o in others), n), Fraction(sum(o == mine for o in others), n)


@given(hands(6))
def test_beat_probability_matches_brute_force_d6(hand: tuple[int, int, int]) -> None:
    dice, deck = hand_odds(hand, 6, "dice"), hand_odds(hand, 6, "deck")
    assert (beat_probability(hand, 6, "dice"), dice.tie) == _brute_dice(hand, 6)
    assert (beat_probability(hand, 6, "deck"), deck.tie) == _brute_deck(hand, 6)
    assert dice.win + dice.tie + dice.lose == 1 and deck.win + deck.tie + deck.lose == 1


def test_beat_probability_extremes() -> None:
    assert beat_probability((1, 2, 3), 6, "dice") == 0
    assert beat_probability((3, 1, 2), 6, "deck") == 0
    assert beat_probability((6, 6, 6), 6, "dice") == Fraction(215, 216)
    # three of the four Pegasi are in the hand: no opponent can match them
    assert beat_probability((6, 6, 6), 6, "deck") == 1
    assert beat_probability((8, 7, 8), 8, "dice") == _brute_dice((8, 7, 8), 8)[0]
    with pytest.raises(ValueError):
        beat_probability((7, 1, 1), 6, "dice")
    with pytest.raises(ValueError):
        beat_probability((1, 1), 6, "dice")
