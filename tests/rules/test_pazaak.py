"""Pazaak rules by example: rigged pools built from hand-written events, and seeded games."""

import random

import pytest

from bot.rules import pazaak as pz
from bot.rules.pazaak import (
    MAIN_POOL,
    STARTER_COLLECTION,
    CardDrawn,
    EndTurn,
    Event,
    HandDealt,
    MatchStarted,
    PazaakSettings,
    PazaakState,
    PlayCard,
    SetEnded,
    SetStarted,
    SideCard,
    Stand,
    Stood,
    TurnStarted,
    apply,
    parse_side_cards,
    replay,
)

A, B = 11, 22


def cards(codes: str) -> tuple[SideCard, ...]:
    return parse_side_cards(codes.split())


def pool_starting(*values: int) -> tuple[int, ...]:
    """A full 80-card pool whose first cards are ``values``, in that order."""
    rest = list(MAIN_POOL)
    for value in values:
        rest.remove(value)
    return (*values, *rest)


def rigged_events(
    draws: tuple[int, ...],
    hand_a: str = "+1 +2 +3 +4",
    hand_b: str = "+1 +2 +3 +4",
    *,
    first: int = A,
    **options: object,
) -> list[Event]:
    """The start of a match whose set-1 pool deals ``draws`` in order; ``first`` starts set 1."""
    settings = PazaakSettings.model_validate({"wager": 50, **options})
    ha, hb = cards(hand_a), cards(hand_b)
    selections = ((*ha, *STARTER_COLLECTION[len(ha) :]), (*hb, *STARTER_COLLECTION[len(hb) :]))
    events: list[Event] = [
        MatchStarted(settings, (A, B), selections),
        HandDealt(A, ha),
        HandDealt(B, hb),
        SetStarted(1, first, pool_starting(*draws)),
        TurnStarted(first),
        CardDrawn(first, draws[0]),
    ]
    return events


def rigged(
    draws: tuple[int, ...],
    hand_a: str = "+1 +2 +3 +4",
    hand_b: str = "+1 +2 +3 +4",
    *,
    first: int = A,
    **options: object,
) -> PazaakState:
    return replay(rigged_events(draws, hand_a, hand_b, first=first, **options))


def play(state: PazaakState, *actions: pz.Action, seed: int = 7) -> tuple[PazaakState, list[Event]]:
    rng = random.Random(seed)
    events: list[Event] = []
    for action in actions:
        state, new = apply(state, action, rng)
        events += new
    return state, events


def seat(state: PazaakState, player: int) -> pz.PlayerState:
    return state.players[0 if player == A else 1]


def values(state: PazaakState, player: int) -> tuple[int, ...]:
    return tuple(c.value for c in seat(state, player).table)


def set_end(events: list[Event]) -> SetEnded:
    (ended,) = [e for e in events if isinstance(e, SetEnded)]
    return ended


# --- bust, twenty, nine cards ------------------------------------------------------------------


def test_a_minus_card_played_the_same_turn_saves_a_bust() -> None:
    state = rigged((9, 5, 8, 5, 7), "-5 +1 +2 +3")
    state, _ = play(state, EndTurn(A), EndTurn(B), EndTurn(A), EndTurn(B))
    assert seat(state, A).total == 24 and state.current_player == A  # over 20 mid-turn: no bust yet
    saved, events = play(state, PlayCard(A, 0), EndTurn(A))
    assert seat(saved, A).total == 19
    assert not any(isinstance(e, SetEnded) for e in events)
    assert saved.current_player == B and saved.set_number == 1
    busted, events = play(state, EndTurn(A))
    assert set_end(events) == SetEnded(1, B, "bust", (24, 10))
    assert (seat(busted, A).sets_won, seat(busted, B).sets_won, busted.set_number) == (0, 1, 2)


def test_exactly_twenty_stands_automatically_and_the_other_plays_on() -> None:
    state = rigged((10, 5, 10, 3, 2))
    state, events = play(state, EndTurn(A), EndTurn(B), EndTurn(A))
    assert Stood(A, "twenty") in events and seat(state, A).standing
    assert events[-2:] == [TurnStarted(B), CardDrawn(B, 3)]
    with pytest.raises(pz.AlreadyStanding):
        apply(state, EndTurn(A), random.Random(0))
    state, events = play(state, EndTurn(B))
    assert events[-2:] == [TurnStarted(B), CardDrawn(B, 2)]  # B keeps taking turns


def test_standing_by_choice_at_twenty_is_one_stand() -> None:
    state = rigged((10, 5, 10))
    _, events = play(state, EndTurn(A), EndTurn(B), Stand(A))
    assert [e for e in events if isinstance(e, Stood)] == [Stood(A, "stand")]


NINE_DRAWS = (1, 10, 1, 9, 2, 2, 1, 1, 2, 2, 1)
NINE_ACTIONS: tuple[pz.Action, ...] = (
    EndTurn(A),
    EndTurn(B),
    EndTurn(A),
    Stand(B),
    *[EndTurn(A)] * 7,
)


def test_nine_cards_without_busting_win_the_set() -> None:
    state, events = play(rigged(NINE_DRAWS), *NINE_ACTIONS)
    assert set_end(events) == SetEnded(1, A, "nine_cards", (13, 19))
    assert seat(state, A).sets_won == 1


def test_nine_cards_need_the_option() -> None:
    state, events = play(rigged(NINE_DRAWS, nine_card_win=False), *NINE_ACTIONS)
    assert not any(isinstance(e, SetEnded) for e in events)
    assert len(seat(state, A).table) == 10 and state.current_player == A


# --- ties ---------------------------------------------------------------------------------------


def test_a_tie_goes_to_the_only_player_with_a_tiebreaker() -> None:
    state = rigged((10, 10, 9, 10), "T +1 +2 +3")
    state, events = play(state, EndTurn(A), EndTurn(B), PlayCard(A, 0, 1), EndTurn(A), EndTurn(B))
    assert set_end(events) == SetEnded(1, A, "tiebreaker", (20, 20))
    assert seat(state, A).sets_won == 1


def test_a_tie_with_a_tiebreaker_each_scores_nothing() -> None:
    state = rigged((10, 10, 9, 9), "T +1 +2 +3", "T +1 +2 +3")
    actions = (EndTurn(A), EndTurn(B), PlayCard(A, 0, 1), EndTurn(A), PlayCard(B, 0, 1), EndTurn(B))
    state, events = play(state, *actions)
    assert set_end(events) == SetEnded(1, None, "tie", (20, 20))


def test_a_tie_without_tiebreaker_scores_nothing() -> None:
    state, events = play(rigged((10, 10, 10, 10)), EndTurn(A), EndTurn(B), EndTurn(A), EndTurn(B))
    assert set_end(events) == SetEnded(1, None, "tie", (20, 20))
    assert [p.sets_won for p in state.players] == [0, 0]
    assert state.set_number == 2 and state.results[0].winner is None


# --- side cards ---------------------------------------------------------------------------------


def test_double_repeats_the_last_card() -> None:
    state = rigged((6,), "D +1 +2 +3")
    with pytest.raises(pz.IllegalCardValue):
        apply(state, PlayCard(A, 0, 5), random.Random(0))
    state, events = play(state, PlayCard(A, 0))
    assert values(state, A) == (6, 6)
    assert seat(state, A).table[-1] == pz.TableCard(6, cards("D")[0], 6)
    assert events == [pz.CardPlayed(A, 0, cards("D")[0], 6)]


def test_double_on_an_empty_table_is_refused() -> None:
    # The match just before the automatic draw: A's turn, A's table still empty.
    empty = replay(rigged_events((6,), "D +1 +2 +3")[:-1])
    assert empty.current_player == A and seat(empty, A).table == ()
    with pytest.raises(pz.DoubleOnEmptyTable):
        apply(empty, PlayCard(A, 0), random.Random(0))
    assert PlayCard(A, 0) not in pz.legal_actions(empty)
    assert PlayCard(A, 1) in pz.legal_actions(empty)


def test_flip_two_and_four_flips_both_ways_and_counts_zero() -> None:
    state = rigged((4, 5, 2, 5, 10), "-2 F24 +1 +3")
    state, _ = play(state, PlayCard(A, 0), EndTurn(A), EndTurn(B), EndTurn(A), EndTurn(B))
    assert values(state, A) == (4, -2, 2, 10)
    state, _ = play(state, PlayCard(A, 0))
    assert values(state, A) == (-4, 2, -2, 10, 0)
    assert seat(state, A).total == 6


def test_flip_three_and_six_leaves_other_values() -> None:
    state = rigged((6, 5, 3, 5, 9), "±3 F36 +1 +2")
    state, _ = play(state, PlayCard(A, 0, -3), EndTurn(A), EndTurn(B), EndTurn(A), EndTurn(B))
    state, _ = play(state, PlayCard(A, 0))
    assert values(state, A) == (-6, 3, -3, 9, 0)
    assert values(state, B) == (5, 5)  # only one's own table flips


def test_flip_also_turns_a_doubled_card() -> None:
    state = rigged((4, 5, 10), "D F24 +1 +2")
    state, _ = play(state, PlayCard(A, 0), EndTurn(A), EndTurn(B), PlayCard(A, 0))
    assert values(state, A) == (-4, -4, 10, 0)


def test_plus_minus_one_or_two() -> None:
    state = rigged((5,), "±1/2 +1 +2 +3")
    offered = [
        a.value for a in pz.legal_actions(state) if isinstance(a, PlayCard) and not a.hand_index
    ]
    assert offered == [1, -1, 2, -2]
    for wrong in (3, 0, None):
        with pytest.raises(pz.IllegalCardValue) as caught:
            apply(state, PlayCard(A, 0, wrong), random.Random(0))
        assert caught.value.params == {"card": "±1/2", "value": wrong, "allowed": (1, -1, 2, -2)}
    state, _ = play(state, PlayCard(A, 0, -2))
    assert values(state, A) == (5, -2)


def test_fixed_cards_take_no_value_not_even_their_own() -> None:
    """One spelling per play: ``PlayCard(p, i, 3)`` for a +3 would be a second one."""
    state = rigged((5,), "+3 -4 D F24")
    assert values(play(state, PlayCard(A, 0))[0], A) == (5, 3)
    assert values(play(state, PlayCard(A, 1))[0], A) == (5, -4)
    for index, own in ((0, 3), (1, -4), (2, 5), (3, 0), (1, 4)):
        with pytest.raises(pz.IllegalCardValue):
            apply(state, PlayCard(A, index, own), random.Random(0))
    offered = [a for a in pz.legal_actions(state) if isinstance(a, PlayCard)]
    assert offered == [PlayCard(A, index) for index in range(4)]


def test_one_hand_card_per_turn() -> None:
    state = rigged((5, 5, 5), "+1 +2 +3 +4")
    state, _ = play(state, PlayCard(A, 0))
    with pytest.raises(pz.CardAlreadyPlayedThisTurn):
        apply(state, PlayCard(A, 0), random.Random(0))
    assert not any(isinstance(a, PlayCard) for a in pz.legal_actions(state))
    state, _ = play(state, EndTurn(A), EndTurn(B), PlayCard(A, 0))  # a new turn, a new card
    assert values(state, A) == (5, 1, 5, 2)


def test_a_played_hand_card_is_gone_for_the_whole_match() -> None:
    state = rigged((10, 5, 10), "+1 +2 +3 +4")
    state, events = play(state, PlayCard(A, 0), EndTurn(A), Stand(B), EndTurn(A))
    assert set_end(events).reason == "bust" and state.set_number == 2
    assert seat(state, A).hand == cards("+2 +3 +4")  # not refilled between sets
    assert len(seat(state, A).selection) == 10 and len(seat(state, B).hand) == 4
    assert state.current_player == B  # set 2: the starters alternate
    state, _ = play(state, EndTurn(B))
    with pytest.raises(pz.NoSuchCard) as caught:
        apply(state, PlayCard(A, 3), random.Random(0))
    assert caught.value.params == {"hand_index": 3, "hand_size": 3}
