"""Three-Card Pegasus computer players: only legal moves, decided from the seat's view alone,
and the moves a good player makes in plain spots."""

from __future__ import annotations

import dataclasses
import random
import typing

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ai import pegaz as ai
from bot.rules import pegaz as pz
from bot.rules.common import RulesError
from bot.rules.pegaz.state import seat_with, state_with

styles = st.builds(
    ai.Style,
    level=st.sampled_from(["cautious", "solid", "bold"]),
    cheats=st.sampled_from([0.0, 0.5, 1.0]),
)
tables = st.builds(
    pz.PegazSettings,
    stake=st.sampled_from([1, 12]),
    exchanges=st.sampled_from([1, 2, 3, None]),
    raise_limit=st.sampled_from([0, 1, 5, None]),
    max_stake=st.sampled_from([None, 20]),
    die=st.sampled_from([6, 6, 8, 20]),
    source=st.sampled_from(["dice", "deck"]),
    cheat_ruling=st.sampled_from(["expel", "gm"]),
)
traits = st.tuples(st.booleans(), st.booleans())


def _decided(view: pz.PegazView, style: ai.Style, seed: int) -> pz.Action:
    return ai.decide(view, style, random.Random(seed))


def _assert_legal(state: pz.PegazState, action: pz.Action) -> None:
    """Listed by the rules, or (a raise between the listed stakes) accepted by them."""
    if action in pz.legal_actions(state):
        return
    assert isinstance(action, pz.Exchange), action
    try:
        pz.apply(state, action, random.Random(0))
    except RulesError as err:
        raise AssertionError(f"{action} refused: {err!r}") from None


def _hidden_changed(state: pz.PegazState, player: int) -> pz.PegazState:
    """The same table with everything ``player`` may not know changed: others' cards, the
    deck's make-up and the discard pile's."""
    seats = tuple(
        s
        if s.player == player
        else dataclasses.replace(
            s, hand=tuple(1 + f % 5 for f in s.hand), dealt=s.dealt[::-1], fresh=(), cheat=None
        )
        for s in state.seats
    )
    return dataclasses.replace(
        state, seats=seats, deck=state.deck[::-1], discard=state.discard[::-1]
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables, st.lists(traits, min_size=2, max_size=5), styles, st.integers(0, 2**32))
def test_npcs_only_make_legal_moves_and_see_only_their_seat(
    table: pz.PegazSettings,
    players: list[tuple[bool, bool]],
    style: ai.Style,
    seed: int,
) -> None:
    """Every other seat is an NPC; the rest play at random, and the GM rules at random. At each
    NPC move the same table with other hidden cards must give the same move."""
    rng = random.Random(seed)
    state, _ = pz.new_table(table)
    for p, (luck, gamble) in enumerate(players):
        state, _ = pz.apply(state, pz.Join(p, luck, gamble, rng.randint(0, 60), 60 * 12), rng)
    state, _ = pz.apply(state, pz.Start(0), rng)
    npcs = {p for p in range(len(players)) if p % 2 == 0}
    steps = 0
    while not pz.is_over(state):
        steps += 1
        assert steps < 500, "the game does not end"
        waiting = [p for p in pz.to_act(state) if p in npcs]
        if waiting:
            player = waiting[0]
            action = _decided(pz.view(state, player), style, seed)
            _assert_legal(state, action)
            twin = _decided(pz.view(_hidden_changed(state, player), player), style, seed)
            assert twin == action
        else:
            action = rng.choice(pz.legal_actions(state))
        state, _ = pz.apply(state, action, rng)


def test_the_barrier_is_in_the_type() -> None:
    hints = typing.get_type_hints(ai.decide)
    assert hints["view"] is pz.PegazView and hints["return"] == pz.Action
    assert {f.name for f in dataclasses.fields(pz.SeatView)}.isdisjoint({"hand", "dealt", "cheat"})


# --- spots --------------------------------------------------------------------------------------


def _table(
    hand: tuple[int, int, int],
    *,
    n: int = 3,
    luck: bool = False,
    gamble: bool = False,
    settings_: pz.PegazSettings | None = None,
) -> pz.PegazState:
    """A fresh deal, player 0 (the NPC) first to act, holding ``hand``."""
    state, _ = pz.new_table(settings_ or pz.PegazSettings())
    for p in range(n):
        state, _ = pz.apply(
            state, pz.Join(p, luck and p == 0, gamble and p == 0, 30, 6000), random.Random(0)
        )
    state, _ = pz.apply(state, pz.Start(0), random.Random(1))
    return _holding(state, 0, hand)


def _holding(state: pz.PegazState, player: int, hand: tuple[int, ...]) -> pz.PegazState:
    seats = tuple(seat_with(s, hand=hand) if s.player == player else s for s in state.seats)
    return state_with(state, seats=seats)


def _play(state: pz.PegazState, *actions: pz.Action) -> pz.PegazState:
    for action in actions:
        state, _ = pz.apply(state, action, random.Random(2))
    return state


def _npc(state: pz.PegazState, style: ai.Style | None = None, seed: int = 0) -> pz.Action:
    return ai.decide(pz.view(state, 0), style or ai.Style(), random.Random(seed))


def test_it_keeps_trips_and_raises_on_them() -> None:
    action = _npc(_table((6, 6, 6)))
    assert action == pz.Exchange(0, (), 13)


@pytest.mark.parametrize(("hand", "single"), [((2, 5, 5), 0), ((3, 3, 1), 2), ((4, 6, 4), 1)])
def test_it_exchanges_the_single_beside_a_good_pair(
    hand: tuple[int, int, int], single: int
) -> None:
    action = _npc(_table(hand))
    assert isinstance(action, pz.Exchange) and action.cards == (single,)


def test_with_three_low_singles_it_keeps_at_most_the_best() -> None:
    action = _npc(_table((1, 4, 2)))
    assert isinstance(action, pz.Exchange) and 1 not in action.cards and len(action.cards) >= 2


def _checks(hand: tuple[int, int, int], rival: tuple[int, int, int], n: int = 2) -> pz.PegazState:
    """The check phase (2 exchange rounds of nothing), player 0 to act."""
    state = _table(hand, n=n)
    for p in range(n):
        state = _holding(state, p, hand if p == 0 else rival)
    for _ in range(2):
        state = _play(state, *(pz.Exchange(p, (), 12) for p in range(n)))
    assert state.phase is pz.Phase.CHECKS and pz.whose_turn(state) == 0
    return state


def test_it_checks_when_it_very_likely_wins_and_folds_when_it_cannot() -> None:
    assert pz.beat_probability((6, 6, 5), 6, "dice") > 0.9
    assert _npc(_checks((6, 6, 5), (1, 2, 4))) == pz.Check(0, 1)
    assert _npc(_checks((1, 2, 3), (6, 6, 5))) == pz.Fold(0)  # nothing is lower than 1-2-3


def test_a_shown_hand_it_beats_is_checked_and_one_that_beats_it_is_not() -> None:
    state = _checks((3, 3, 5), (1, 2, 4))
    beaten = dataclasses.replace(
        state, seats=(state.seats[0], dataclasses.replace(state.seats[1], shown=(3, 3, 4)))
    )
    beating = dataclasses.replace(
        state, seats=(state.seats[0], dataclasses.replace(state.seats[1], shown=(3, 3, 6)))
    )
    assert _npc(beaten) == pz.Check(0, 1)
    assert _npc(beating) == pz.Fold(0)


def test_luck_makes_trips_of_a_pair_when_it_can() -> None:
    state = _table((6, 6, 5), luck=True)
    state = _holding(state, 0, (6, 5, 6))
    assert _npc(state) == pz.Modify(0, ((1, 1),))


def test_a_cheat_is_taken_only_when_it_helps_and_the_style_dares() -> None:
    state = _holding(_table((6, 6, 4), gamble=True), 0, (6, 6, 4))
    honest = _npc(state, ai.Style(cheats=0.0))
    assert honest == pz.Modify(0, ((2, 1),))  # a better single
    assert _npc(state, ai.Style(cheats=1.0)) == pz.Cheat(0, 2, 2)  # trips
    trips = _holding(state, 0, (6, 6, 6))
    assert _npc(trips, ai.Style(cheats=1.0)) == pz.Keep(0)  # nothing to gain


def test_only_the_cautious_give_ranald_his_tenth() -> None:
    state = _checks((6, 6, 5), (1, 2, 4))
    state = _play(state, pz.Check(0, 1))
    assert state.phase is pz.Phase.OFFERING
    assert _npc(state) == pz.Offer(0, False)
    assert _npc(state, ai.Style(level="cautious")) == pz.Offer(0, True)


def test_it_refuses_to_decide_what_the_seat_does_not_owe() -> None:
    state = _play(_table((6, 6, 6)), pz.Exchange(0, (), 12))
    with pytest.raises(ValueError):
        _npc(state)
    with pytest.raises(ValueError):
        ai.Style(level="reckless")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ai.Style(cheats=1.5)
