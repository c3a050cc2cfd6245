"""Pazaak at the level of the match: starters, forfeits, timeouts, decks, money, logs, views."""

import random
from collections import Counter
from fractions import Fraction

import pytest

from bot.rules import pazaak as pz
from bot.rules.common import (
    POT,
    AlreadySeated,
    GameOver,
    InvalidSettings,
    NotSeated,
    NotYourTurn,
    Transfer,
)
from bot.rules.pazaak import (
    MAIN_POOL,
    STARTER_COLLECTION,
    CardDrawn,
    EndTurn,
    Event,
    Forfeit,
    MatchEnded,
    PazaakSettings,
    PazaakState,
    PlayCard,
    SetEnded,
    SetStarted,
    Stand,
    Stood,
    Timeout,
    apply,
    dump_events,
    load_events,
    new_match,
    replay,
)
from tests.rules.test_pazaak import A, B, cards, play, rigged, seat, set_end

KOTOR2 = cards("±1/2 F24 F36 T D ±6 -6 +6 -1 ±2")


def start(seed: int = 1, **options: object) -> tuple[PazaakState, list[Event]]:
    settings = PazaakSettings.model_validate({"wager": 50, **options})
    return new_match(settings, A, STARTER_COLLECTION, B, KOTOR2, random.Random(seed))


def test_the_module_is_a_game_rules() -> None:
    assert pz.GAME == "pazaak"
    for name in ("apply", "legal_actions", "replay", "transfers", "dump_events", "load_events"):
        assert callable(getattr(pz, name))
    assert callable(pz.is_over)


# --- who starts ---------------------------------------------------------------------------------


def test_set_one_starter_is_random_and_recorded() -> None:
    starters: Counter[int] = Counter()
    for seed in range(40):
        state, events = start(seed)
        first = next(e for e in events if isinstance(e, SetStarted))
        assert first.starter == state.current_player
        assert replay(events).current_player == first.starter  # known from the events alone
        starters[first.starter] += 1
    assert set(starters) == {A, B}


# B starts set 1; B stands on 10, A ends on 5, then stands on 15: A wins the set.
B_STARTS_A_WINS = ((10, 5, 10), (Stand(B), EndTurn(A), Stand(A)))
B_STARTS_TIE = ((10, 10), (Stand(B), Stand(A)))


@pytest.mark.parametrize(
    ("option", "set_play", "set_2_starter"),
    [
        ("alternate", B_STARTS_A_WINS, A),
        ("loser", B_STARTS_A_WINS, B),
        ("alternate", B_STARTS_TIE, A),
        ("loser", B_STARTS_TIE, A),  # [house] after a tie the other player starts
    ],
)
def test_later_starters(
    option: str, set_play: tuple[tuple[int, ...], tuple[pz.Action, ...]], set_2_starter: int
) -> None:
    draws, actions = set_play
    state, events = play(rigged(draws, first=B, starter=option), *actions)
    assert set_end(events).set_number == 1
    (second,) = [e for e in events if isinstance(e, SetStarted)]
    assert second.starter == set_2_starter == state.current_player


# --- forfeit and timeouts -----------------------------------------------------------------------


def test_either_player_may_forfeit_any_time() -> None:
    state = rigged((5,))
    assert state.current_player == A
    state, events = play(state, Forfeit(B))
    assert events == [MatchEnded(A, 100, "forfeit")]
    assert pz.transfers(events[0]) == (Transfer(POT, A, 100, "payout"),)
    assert pz.is_over(state) and state.winner == A and state.pot == 0
    assert pz.legal_actions(state) == [] and state.current_player is None
    for action in (EndTurn(A), Forfeit(A), PlayCard(A, 0)):
        with pytest.raises(GameOver):
            apply(state, action, random.Random(0))


def test_a_standing_player_may_still_forfeit() -> None:
    state, _ = play(rigged((5, 5)), Stand(A))
    assert seat(state, A).standing
    state, events = play(state, Forfeit(A))
    assert events == [MatchEnded(B, 100, "forfeit")]


def test_a_timeout_stands_and_a_bust_still_loses() -> None:
    state, events = play(rigged((5, 5)), Timeout(A))
    assert Stood(A, "timeout") in events and seat(state, A).standing
    assert seat(state, A).timeouts == 1 and state.current_player == B
    state = rigged((9, 5, 8, 5, 7))
    _, events = play(state, EndTurn(A), EndTurn(B), EndTurn(A), EndTurn(B), Timeout(A))
    assert set_end(events).reason == "bust" and set_end(events).winner == B


def _time_out_a(state: PazaakState) -> tuple[PazaakState, list[Event]]:
    """B stands whenever it is B's turn; then A times out."""
    events: list[Event] = []
    while state.current_player == B:
        state, new = play(state, Stand(B))
        events += new
    state, new = play(state, Timeout(A))
    return state, events + new


def test_timeouts_in_a_row_forfeit_the_match() -> None:
    state, _ = start(3)
    counts = []
    for _ in range(3):
        state, events = _time_out_a(state)
        counts.append(seat(state, A).timeouts)
    assert counts == [1, 2, 3]
    assert events[-1] == MatchEnded(B, 100, "timeouts")
    assert not any(isinstance(e, Stood) and e.player == A for e in events[-2:])
    assert pz.is_over(state) and max(p.sets_won for p in state.players) < 3


def test_a_real_action_resets_the_timeout_count() -> None:
    state, _ = start(3, timeouts_to_forfeit=2)
    state, _ = _time_out_a(state)
    while state.current_player == B:
        state, _ = play(state, Stand(B))
    state, _ = play(state, EndTurn(A))
    assert seat(state, A).timeouts == 0
    state, events = _time_out_a(state)
    assert seat(state, A).timeouts == 1 and not pz.is_over(state)
    state, events = _time_out_a(state)
    assert events[-1] == MatchEnded(B, 100, "timeouts")


# --- the main deck ------------------------------------------------------------------------------


def test_a_fresh_set_draws_each_value_with_probability_one_tenth() -> None:
    # The pool is both main decks: every value eight times in 80 cards. A set's pool is a full
    # permutation of it (cards return between sets) and the first draw is its first card, so under
    # a uniform shuffle P(first draw = v) = copies of v / 80, exactly.
    composition = Counter(MAIN_POOL)
    assert len(MAIN_POOL) == 80
    assert {v: Fraction(n, len(MAIN_POOL)) for v, n in composition.items()} == {
        v: Fraction(1, 10) for v in range(1, 11)
    }
    state, events = start(5)
    while not pz.is_over(state) and state.set_number < 3:
        state, new = apply(state, pz.legal_actions(state)[-2], random.Random(0))  # Stand
        events += new
    starts = [i for i, e in enumerate(events) if isinstance(e, SetStarted)]
    assert len(starts) >= 2
    for i in starts:
        started = events[i]
        assert isinstance(started, SetStarted)
        assert Counter(started.pool) == composition
        assert events[i + 2] == CardDrawn(events[i + 1].player, started.pool[0])  # type: ignore[union-attr]


def test_infinite_main_deck() -> None:
    firsts: Counter[int] = Counter()
    for seed in range(300):
        state, events = start(seed, main_deck="infinite")
        started = next(e for e in events if isinstance(e, SetStarted))
        assert started.pool == () and state.pool == ()
        state, more = play(state, EndTurn(state.current_player or 0), seed=seed)
        draws = [e.value for e in events + more if isinstance(e, CardDrawn)]
        assert all(1 <= v <= 10 for v in draws)
        assert replay(events + more) == state
        firsts[draws[0]] += 1
    assert set(firsts) == set(range(1, 11))


# --- money, results, logs -----------------------------------------------------------------------


def test_escrow_at_the_start_and_payout_to_the_match_winner() -> None:
    state, events = start(2, wager=75)
    assert pz.transfers(events[0]) == (
        Transfer(A, POT, 75, "escrow"),
        Transfer(B, POT, 75, "escrow"),
    )
    assert state.pot == 150 and all(pz.transfers(e) == () for e in events[1:])
    _, events = start(2, wager=0)
    assert all(pz.transfers(e) == () for e in events)


def test_first_to_the_sets_to_win_takes_the_pot() -> None:
    state, events = play(rigged((9, 5, 8, 5, 7), sets_to_win=1), *[EndTurn(p) for p in (A, B)] * 2)
    state, events = play(state, EndTurn(A))
    assert events[-2:] == [SetEnded(1, B, "bust", (24, 10)), MatchEnded(B, 100, "sets")]
    assert pz.transfers(events[-1]) == (Transfer(POT, B, 100, "payout"),)
    assert state.winner == B and state.pot == 0 and state.results[0].winner == B


def test_events_round_trip_through_json() -> None:
    state, events = start(4, wager=20)
    state, more = play(state, *pz.legal_actions(state)[:1])
    log = events + more
    data = dump_events(log)
    assert "±1/2".encode() in data and b'"kind":"match_started"' in data
    loaded = load_events(data)
    assert loaded == log
    assert isinstance(loaded[0].players, tuple)  # type: ignore[union-attr]
    assert replay(loaded) == state


# --- seats, views, errors -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "field", "reason"),
    [
        ({"wager": -1}, "wager", "greater_than_equal"),
        ({"wager": 2.5}, "wager", "int_type"),
        ({"sets_to_win": 0}, "sets_to_win", "greater_than_equal"),
        ({"main_deck": "three"}, "main_deck", "literal_error"),
        ({"ante": 5}, "ante", "extra_forbidden"),
    ],
)
def test_bad_settings_are_refused(values: dict[str, object], field: str, reason: str) -> None:
    with pytest.raises(InvalidSettings) as caught:
        PazaakSettings.parse(values)
    assert caught.value.params == {"field": field, "reason": reason}


def test_default_settings() -> None:
    assert PazaakSettings.parse({}) == PazaakSettings(
        wager=0,
        main_deck="pool",
        kotor2_cards=True,
        nine_card_win=True,
        starter="alternate",
        sets_to_win=3,
        turn_timeout=300,
        timeouts_to_forfeit=3,
    )


def test_new_match_refuses_bad_seats_and_selections() -> None:
    settings = PazaakSettings(wager=10)
    rng = random.Random(0)
    with pytest.raises(AlreadySeated):
        new_match(settings, A, STARTER_COLLECTION, A, STARTER_COLLECTION, rng)
    with pytest.raises(pz.InvalidSelection) as caught:
        new_match(PazaakSettings(kotor2_cards=False), A, STARTER_COLLECTION, B, KOTOR2, rng)
    assert caught.value.params == {"player": B, "reason": "kotor2_disabled"}  # no card named
    with pytest.raises(pz.InvalidSelection):
        new_match(settings, A, STARTER_COLLECTION[:9], B, KOTOR2, rng)


def test_errors_name_nobody_elses_cards() -> None:
    state = rigged((5, 5), "+1 +2 +3 +4", "T D F24 ±1/2")
    with pytest.raises(NotYourTurn) as caught:
        apply(state, PlayCard(B, 0, 1), random.Random(0))
    assert caught.value.params == {"player": B}
    with pytest.raises(NotSeated):
        apply(state, EndTurn(99), random.Random(0))


def test_a_view_shows_ones_own_hand_and_both_tables() -> None:
    state = rigged((5,), "+1 +2 +3 +4", "T D F24 ±1/2")
    mine = pz.view(state, A)
    assert mine.hand == cards("+1 +2 +3 +4")
    assert [s.hand_size for s in mine.seats] == [4, 4]
    assert mine.seats[0].table == seat(state, A).table and mine.seats[0].total == 5
    assert mine.pool_left == 79 and mine.current_player == A
    assert pz.view(state, B).hand == cards("T D F24 ±1/2")
    assert pz.view(state, None).hand == ()
    with pytest.raises(NotSeated):
        pz.view(state, 99)


def test_a_view_shows_the_settings_and_the_cards_played_this_match() -> None:
    state = rigged((5, 6), "+1 +2 +3 +4", "T D F24 ±1/2", nine_card_win=False)
    state, _ = play(state, PlayCard(A, 1), EndTurn(A))
    theirs = pz.view(state, B)
    assert theirs.settings == state.settings and not theirs.settings.nine_card_win
    assert theirs.seats[0].played == cards("+2") and theirs.seats[1].played == ()
    assert not theirs.seats[1].played_card_this_turn
    assert theirs.side_deck == cards("+3 +4 +5")  # B's selection less the hand, each kind once
    assert not (theirs.may_redraw or theirs.may_swap)  # skills off


def test_the_unseen_pool_is_the_pool_less_both_tables_as_drawn() -> None:
    # A draws 4 and 2 and plays a flip: the table counts -4 and -2, but a 4 and a 2 were drawn.
    state = rigged((4, 7, 2), "F24 +1 +2 +3")
    state, _ = play(state, EndTurn(A), EndTurn(B), PlayCard(A, 0))
    assert [c.value for c in seat(state, A).table] == [-4, -2, 0]
    seen = pz.view(state, B)
    left = pz.unseen_pool(seen)
    assert left == tuple(Counter(state.pool)[v] for v in range(1, 11))
    assert (left[1], left[3], left[6], left[0]) == (7, 7, 7, 8) and sum(left) == seen.pool_left
    assert pz.unseen_pool(pz.view(rigged((4,), main_deck="infinite"), A)) == (1,) * 10


def test_legal_actions_list_every_value_and_all_apply() -> None:
    state = rigged((5,), "±3 D T +2")
    expected: list[pz.Action] = [
        PlayCard(A, 0, 3),
        PlayCard(A, 0, -3),
        PlayCard(A, 1),
        PlayCard(A, 2, 1),
        PlayCard(A, 2, -1),
        PlayCard(A, 3),
        EndTurn(A),
        Stand(A),
        Forfeit(A),
    ]
    assert pz.legal_actions(state) == expected
    for action in expected:
        apply(state, action, random.Random(0))
