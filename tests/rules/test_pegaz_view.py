"""Three-Card Pegasus: a seat's view, what the table saw of each seat, one spelling per move,
and the exact draws the AI weighs."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules import pegaz as pz
from bot.rules.common import InvalidValue, NotSeated
from tests.rules.pegaz_script import Game, P, Script, faces


def _round_two() -> Game:
    g = Game(pz.PegazSettings(), [P(1, luck=True), P(2), P(3)])
    g.start((2, 2, 4), (4, 3, 1), (6, 6, 1))
    g.do(pz.Keep(1))
    g.do(pz.Exchange(1, (2,), 12), Script(faces(5)))
    g.do(pz.Keep(1))
    g.do(pz.Exchange(2, (0, 1, 2), 13), Script(faces(1, 2, 3)))
    g.do(pz.Exchange(3, (), 13))
    return g


def test_a_view_shows_the_own_hand_and_only_the_public_facts_of_the_others() -> None:
    g = _round_two()
    v = pz.view(g.state, 1)
    assert v.viewer == 1 and v.hand == (2, 2, 5) and v.luck and not v.gamble
    assert (v.phase, v.round, v.turn, v.pot, v.stake) == (
        pz.Phase.EXCHANGE,
        2,
        1,
        36 + 24 + 52 + 13,
        13,
    )
    assert v.checks_allowed and v.check_price == 39 and v.stake_bounds == (13, 14)
    assert v.deck_left is None and v.exchangeable == 3
    assert [(s.player, s.cards, s.swaps, s.paid) for s in v.seats] == [
        (1, 3, (1,), 12 + 24),
        (2, 3, (3,), 12 + 52),
        (3, 3, (0,), 12 + 13),
    ]
    assert v.legal == tuple(a for a in pz.legal_actions(g.state) if getattr(a, "player", 0) == 1)
    other = pz.view(g.state, 2)
    assert other.hand == (1, 2, 3) and other.legal == ()  # not its turn
    assert {f.name for f in dataclasses.fields(pz.SeatView)}.isdisjoint({"hand", "dealt", "cheat"})


def test_a_check_shows_both_hands_until_the_cards_are_exchanged() -> None:
    g = _round_two()
    g.do(pz.Check(1, 2))
    assert g.seat(1).shown == (2, 2, 5) and g.seat(2).shown == (1, 2, 3)
    assert g.seat(2).status is pz.SeatStatus.CHECKED
    g.do(pz.Exchange(3, (2,), 13), Script(faces(6)))  # 3 pays for a card; round 3 checks follow
    g.do(pz.Check(1, 3))
    assert g.seat(3).shown == (6, 6, 6) and g.seat(1).status is pz.SeatStatus.CHECKED


def test_an_exchange_after_a_check_hides_only_the_cards_given_up() -> None:
    g = Game(pz.PegazSettings(exchanges=3), [P(1), P(2), P(3)])
    g.start((2, 2, 4), (4, 3, 1), (6, 6, 1))
    for p in (1, 2, 3):
        g.do(pz.Exchange(p, (), 12))
    g.do(pz.Check(1, 2))
    g.do(pz.Exchange(3, (), 12))
    g.do(pz.Exchange(1, (2,), 12), Script(faces(6)))
    assert g.seat(1).shown == (2, 2, 0) and g.seat(1).swaps == (0, 1)
    assert pz.view(g.state, 3).seat(1).shown == (2, 2, 0)


def test_a_spectator_sees_no_hand_and_a_stranger_is_refused() -> None:
    g = _round_two()
    v = pz.view(g.state, None)
    assert v.hand == () and v.legal == () and not v.pending
    with pytest.raises(NotSeated):
        pz.view(g.state, 99)


def test_a_deck_table_shows_how_many_cards_are_left_and_its_own_cards_as_dealt() -> None:
    g = Game(pz.PegazSettings(source="deck"), [P(1, luck=True), P(2)])
    g.do(pz.Start(1), Script([0, 0, 0, 0, 0, 0]))
    g.do(pz.Modify(1, ((0, -1),)))
    v = pz.view(g.state, 1)
    assert v.deck_left == 18 and v.hand == (6, 1, 1) and v.dealt == (1, 1, 1)


def test_the_pending_choice_is_in_the_own_view_and_public_only_as_choosing() -> None:
    g = Game(pz.PegazSettings(), [P(1, luck=True), P(2)])
    g.start((2, 2, 4), (4, 3, 1))
    mine, theirs = pz.view(g.state, 1), pz.view(g.state, 2)
    assert mine.pending and mine.fresh == (0, 1, 2) and pz.Keep(1) in mine.legal
    assert not theirs.pending and theirs.seat(1).choosing and theirs.legal == ()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["dice", "deck"]))
def test_a_view_does_not_change_with_what_the_seat_may_not_know(seed: int, source: str) -> None:
    """Other hands, the deck's make-up and the discard pile may differ; the view may not."""
    rng = random.Random(seed)
    state, _ = pz.new_table(pz.PegazSettings(source=source))  # type: ignore[arg-type]
    for p in (1, 2, 3):
        state, _ = pz.apply(state, pz.Join(p, rng.random() < 0.5, True, 40, 500), rng)
    state, _ = pz.apply(state, pz.Start(1), rng)
    while not pz.is_over(state):
        seats = tuple(
            s
            if s.player == 1
            else dataclasses.replace(
                s, hand=_other(s.hand), dealt=_other(s.dealt), fresh=(), cheat=None
            )
            for s in state.seats
        )
        hidden = dataclasses.replace(
            state, seats=seats, deck=state.deck[::-1], discard=state.discard[::-1]
        )
        assert pz.view(hidden, 1) == pz.view(state, 1)
        state, _ = pz.apply(state, rng.choice(pz.legal_actions(state)), rng)


def _other(cards: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(1 + f % 6 for f in cards)


# --- one spelling per move ----------------------------------------------------------------------


def test_an_exchange_names_its_stake_and_a_stale_one_is_refused_not_repriced() -> None:
    g = Game(pz.PegazSettings(), [P(1), P(2)])
    g.start((2, 2, 4), (4, 3, 1))
    with pytest.raises(TypeError):
        pz.Exchange(1, ())  # type: ignore[call-arg]
    g.do(pz.Exchange(1, (), 13))
    g.do(pz.Exchange(2, (), 13))
    err = g.fails(pz.Exchange(1, (), 12), pz.IllegalExchange)
    assert err.params == {"reason": "below_stake", "stake": 13}


def test_none_is_no_stake() -> None:
    g = Game(pz.PegazSettings(), [P(1), P(2)])
    g.start((2, 2, 4), (4, 3, 1))
    g.fails(pz.Exchange(1, (), None), InvalidValue)  # type: ignore[arg-type]


# --- exact draws --------------------------------------------------------------------------------


@pytest.mark.parametrize("die", pz.DICE)
@pytest.mark.parametrize("n", [0, 1, 2, 3])
def test_dice_draws_weigh_every_ordered_roll(die: int, n: int) -> None:
    rows = pz.deals(die, "dice", n)
    assert sum(w for _, w in rows) == die**n
    assert len(rows) == comb(die + n - 1, n) and all(list(f) == sorted(f) for f, _ in rows)


def test_deck_draws_weigh_the_cards_left() -> None:
    rows = dict(pz.deals(6, "deck", 2, (6, 6, 6, 1)))
    assert sum(rows.values()) == comb(20, 2)
    assert (6, 6) not in rows and rows[(1, 1)] == comb(3, 2) and rows[(1, 6)] == 3
    assert pz.deals(6, "dice", 2, (6, 6)) == pz.deals(6, "dice", 2)  # dice keep no memory


def test_the_three_card_deals_give_the_sources_numbers() -> None:
    by_kind = Counter[int]()
    for faces_, w in pz.deals(6, "deck"):
        by_kind[len(set(faces_))] += w
    assert (by_kind[1], by_kind[2], by_kind[3]) == (24, 720, 1280)


@pytest.mark.parametrize(
    "args", [(7, "dice", 1, ()), (6, "dice", 4, ()), (6, "deck", 1, (6,) * 5), (6, "deck", 1, (7,))]
)
def test_deals_refuse_what_cannot_be(args: tuple[int, str, int, tuple[int, ...]]) -> None:
    with pytest.raises(ValueError):
        pz.deals(*args)  # type: ignore[arg-type]
