"""Pazaak's computer players: legal moves only, decided from the seat's view only, and examples
of each level on rigged pools."""

import random
import typing

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ai import pazaak as ai
from bot.rules import pazaak as pz
from bot.rules.pazaak import (
    ALL_SIDE_CARDS,
    VERDICTS,
    CardDrawn,
    EndTurn,
    Event,
    Forfeit,
    HandDealt,
    MatchStarted,
    PazaakSettings,
    PazaakState,
    PlayCard,
    Redraw,
    RuleOnCheat,
    SetStarted,
    SideCard,
    Stand,
    Swap,
    Timeout,
    Traits,
    TurnStarted,
    replay,
)
from tests.rules.test_pazaak import A, B, cards, play, pool_starting
from tests.rules.test_pazaak import rigged as rules_rigged

LEVELS: tuple[ai.Level, ...] = ("stand17", "novice", "regular", "master")
STYLES = tuple(ai.Style(level, cheats) for level in LEVELS for cheats in (False, True))
SET_CAP = 12
"""Sets after which a random match is left (ties score nothing, so a match has no bound)."""
LUCKY = Traits(luck=True, gamble=True, perception=0)


# --- legal moves only ---------------------------------------------------------------------------


@st.composite
def matches(
    draw: st.DrawFn, skills: bool
) -> tuple[PazaakSettings, tuple[tuple[SideCard, ...], ...], tuple[Traits, Traits]]:
    table = draw(
        st.builds(
            PazaakSettings,
            main_deck=st.sampled_from(["pool", "infinite"]),
            nine_card_win=st.booleans(),
            starter=st.sampled_from(["alternate", "loser"]),
            sets_to_win=st.integers(1, 3),
            skills=st.just(skills),
            detection_modifier=st.integers(-100, 100),
            cheat_ruling=st.sampled_from(["forfeit", "gm"]),
        )
    )
    deck = st.lists(st.sampled_from(ALL_SIDE_CARDS), min_size=10, max_size=10).map(tuple)
    trait = st.builds(Traits, st.booleans(), st.booleans(), st.integers(0, 100))
    return table, (draw(deck), draw(deck)), (draw(trait), draw(trait))


def play_out(
    setup: tuple[PazaakSettings, tuple[tuple[SideCard, ...], ...], tuple[Traits, Traits]],
    styles: tuple[ai.Style, ai.Style],
    seed: int,
) -> int:
    """Play a match with ``styles`` in the seats, checking every move; the number of moves."""
    table, (deck_a, deck_b), traits = setup
    dealer = random.Random(seed)
    state, _ = pz.new_match(table, A, deck_a, B, deck_b, dealer, traits)
    minds = {A: (styles[0], random.Random(seed + 1)), B: (styles[1], random.Random(seed + 2))}
    moves = 0
    while not pz.is_over(state) and state.set_number <= SET_CAP:
        player = state.current_player
        if player is None:  # a caught swap awaits the GM
            assert state.ruling is not None
            action: pz.Action = RuleOnCheat(state.ruling.cheater, dealer.choice(VERDICTS))
        else:
            style, mind = minds[player]
            action = ai.decide(pz.view(state, player), style, mind)
            assert action in pz.legal_actions(state), (style, action)
            assert not isinstance(action, Forfeit | Timeout)
            moves += 1
        state, _ = pz.apply(state, action, dealer)
    return moves


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    setup=matches(skills=False),
    styles=st.tuples(st.sampled_from(STYLES), st.sampled_from(STYLES)),
    seed=st.integers(0, 2**32),
)
def test_every_level_makes_only_legal_moves(
    setup: tuple[PazaakSettings, tuple[tuple[SideCard, ...], ...], tuple[Traits, Traits]],
    styles: tuple[ai.Style, ai.Style],
    seed: int,
) -> None:
    assert play_out(setup, styles, seed) > 0


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    setup=matches(skills=True),
    styles=st.tuples(st.sampled_from(STYLES), st.sampled_from(STYLES)),
    seed=st.integers(0, 2**32),
)
def test_every_level_makes_only_legal_moves_with_skills(
    setup: tuple[PazaakSettings, tuple[tuple[SideCard, ...], ...], tuple[Traits, Traits]],
    styles: tuple[ai.Style, ai.Style],
    seed: int,
) -> None:
    assert play_out(setup, styles, seed) > 0


def test_the_skilled_levels_do_use_their_skills() -> None:
    """The skills property test would pass if no level ever tried one."""
    used: set[type] = set()
    for seed in range(40):
        table = PazaakSettings(skills=True)
        deck = cards("+1 +2 +3 +4 +5 -1 -2 -3 -4 -5")
        state, _ = pz.new_match(table, A, deck, B, deck, random.Random(seed), (LUCKY, LUCKY))
        mind = random.Random(seed)
        while not pz.is_over(state) and state.set_number <= SET_CAP:
            player = state.current_player
            assert player is not None  # nobody catches with a Perception of 0
            style = ai.Style("master" if player == A else "regular", cheats=True)
            action = ai.decide(pz.view(state, player), style, mind)
            used.add(type(action))
            state, _ = pz.apply(state, action, random.Random(seed))
    assert {Redraw, Swap} <= used


# --- the information barrier --------------------------------------------------------------------


def test_decide_takes_a_seat_view_and_the_view_holds_no_hidden_state() -> None:
    hints = typing.get_type_hints(ai.decide)
    assert hints["view"] is pz.PazaakView
    for shape in (pz.PazaakView, pz.SeatView):
        for name, hint in typing.get_type_hints(shape).items():
            assert "State" not in str(hint), name  # no PazaakState or PlayerState inside
    assert "pool" not in typing.get_type_hints(pz.PazaakView)


def twin(hand_b: str, selection_b: str, order: int) -> PazaakState:
    """A at 16 against B's 4, A on turn, with skills on. B's hand, B's selection and the pool
    beyond the cards on the tables change with the arguments; nothing A may see does."""
    head = (9, 4, 7)
    rest = list(pool_starting(*head)[len(head) :])
    random.Random(order).shuffle(rest)
    table = PazaakSettings(skills=True)
    selection_a = cards("+1 +2 -3 -5 ±2 T +4 -1 +3 -4")
    events: list[Event] = [
        MatchStarted(table, (A, B), (selection_a, cards(selection_b)), (LUCKY, LUCKY)),
        HandDealt(A, selection_a[:4]),
        HandDealt(B, cards(hand_b)),
        SetStarted(1, A, (*head, *rest)),
        TurnStarted(A),
        CardDrawn(A, 9),
    ]
    state, _ = play(replay(events), EndTurn(A), EndTurn(B))
    return state


def test_hidden_state_changes_no_decision() -> None:
    one = twin("+1 +2 +3 +4", "+1 +2 +3 +4 +5 +6 +1 +2 +3 +4", order=1)
    two = twin("-6 ±6 T D", "-6 ±6 T D F24 F36 ±1/2 -5 -4 -3", order=2)
    assert one.players[1].hand != two.players[1].hand and one.pool != two.pool
    assert one.players[0].total == 16 and one.current_player == A
    assert pz.view(one, A) == pz.view(two, A)
    for style in STYLES:
        for seed in range(3):
            first = ai.decide(pz.view(one, A), style, random.Random(seed))
            assert first == ai.decide(pz.view(two, A), style, random.Random(seed))


def test_only_the_player_on_turn_decides() -> None:
    state = twin("+1 +2 +3 +4", "+1 +2 +3 +4 +5 +6 +1 +2 +3 +4", order=1)
    for viewer in (B, None):
        with pytest.raises(ValueError):
            ai.decide(pz.view(state, viewer), ai.Style("master"), random.Random(0))


# --- examples -----------------------------------------------------------------------------------


def rigged(
    draws: tuple[int, ...], hand: str, *actions: pz.Action, **options: object
) -> PazaakState:
    """A's hand is ``hand`` (selection: ``hand`` then the starter's cards, as in the rules
    tests); B's is +1..+4. The set-1 pool deals ``draws``; ``actions`` are played first."""
    state, _ = play(rules_rigged(draws, hand, **options), *actions)
    return state


def decide(state: PazaakState, level: ai.Level, *, cheats: bool = False) -> pz.PlayerAction:
    player = state.current_player
    assert player is not None
    return ai.decide(pz.view(state, player), ai.Style(level, cheats), random.Random(0))


def test_stand17_stands_on_17_and_plays_no_card() -> None:
    at_17 = rigged((10, 5, 7), "+3 -4 ±1 +1", EndTurn(A), EndTurn(B))
    assert decide(at_17, "stand17") == Stand(A)
    at_16 = rigged((10, 5, 6), "+4 -4 ±1 +1", EndTurn(A), EndTurn(B))
    assert decide(at_16, "stand17") == EndTurn(A)
    busted = rigged((9, 5, 8, 5, 7), "-4 -4 ±1 +1", EndTurn(A), EndTurn(B), EndTurn(A), EndTurn(B))
    assert busted.players[0].total == 24 and decide(busted, "stand17") == Stand(A)


def test_novice_plays_a_minus_card_to_save_a_bust() -> None:
    state = rigged((9, 5, 8, 5, 7), "+1 -5 -4 +2", EndTurn(A), EndTurn(B), EndTurn(A), EndTurn(B))
    assert state.players[0].total == 24
    assert decide(state, "novice") == PlayCard(A, 2)  # -4 saves on 20, -5 only on 19
    after, _ = play(state, PlayCard(A, 2))
    assert decide(after, "novice") == Stand(A)


def test_novice_reaches_exactly_twenty_and_keeps_its_cards_otherwise() -> None:
    assert decide(rigged((10, 5, 7), "+2 +3 -1 -2", EndTurn(A), EndTurn(B)), "novice") == PlayCard(
        A, 1
    )
    assert decide(rigged((10, 5, 6), "+2 +3 -1 -2", EndTurn(A), EndTurn(B)), "novice") == EndTurn(A)


def test_regular_saves_with_the_cheapest_card_that_does() -> None:
    state = rigged((9, 5, 8, 5, 6), "±3 -3 +1 +2", EndTurn(A), EndTurn(B), EndTurn(A), EndTurn(B))
    assert state.players[0].total == 23
    assert decide(state, "regular") == PlayCard(A, 1)  # the -3, keeping the ±3


def test_master_takes_a_sure_twenty() -> None:
    # B stands on 19; A is on 17 holding a +3: the 20 wins the set for sure, a draw may not.
    state = rigged((10, 10, 3, 9, 4), "+1 -2 +3 -4", EndTurn(A), EndTurn(B), EndTurn(A), Stand(B))
    assert (state.players[0].total, state.players[1].total) == (17, 19)
    assert decide(state, "master") == PlayCard(A, 2)


def test_master_stands_on_a_sure_win() -> None:
    state = rigged((10, 10, 5, 8, 4), "+1 -2 +3 -4", EndTurn(A), EndTurn(B), EndTurn(A), Stand(B))
    assert (state.players[0].total, state.players[1].total) == (19, 18)
    assert decide(state, "master") == Stand(A)


def test_a_lucky_player_redraws_a_bust_it_cannot_save() -> None:
    draws = (9, 5, 8, 5, 10)
    state = rigged(draws, "+1 +2 +3 +4", EndTurn(A), EndTurn(B), EndTurn(A), EndTurn(B))
    assert state.players[0].total == 27 and decide(state, "master") in (Stand(A), EndTurn(A))
    lucky = skilled(draws, LUCKY)
    assert lucky.players[0].total == 27
    assert decide(lucky, "regular") == decide(lucky, "master") == Redraw(A)


def skilled(draws: tuple[int, ...], traits: Traits) -> PazaakState:
    """A's turn after ``draws`` (A, B, A, B, A) with skills on, A holding +1..+4 and ``traits``;
    A's side deck is ``-5 -6 ±1 T +5 +6``."""
    table = PazaakSettings(skills=True)
    selection = cards("+1 +2 +3 +4 -5 -6 ±1 T +5 +6")
    events: list[Event] = [
        MatchStarted(table, (A, B), (selection, selection), (traits, Traits())),
        HandDealt(A, selection[:4]),
        HandDealt(B, selection[:4]),
        SetStarted(1, A, pool_starting(*draws)),
        TurnStarted(A),
        CardDrawn(A, draws[0]),
    ]
    state, _ = play(replay(events), EndTurn(A), EndTurn(B), EndTurn(A), EndTurn(B))
    return state


def test_a_cheat_swaps_in_the_card_it_needs_and_an_honest_player_does_not() -> None:
    state = skilled((9, 5, 8, 5, 7), Traits(gamble=True))  # 24: a -5 or -6 would save it
    for level in ("regular", "master"):
        swap = decide(state, level, cheats=True)  # type: ignore[arg-type]
        assert isinstance(swap, Swap) and swap.card in cards("-5 -6"), level
        assert not isinstance(decide(state, level), Swap)  # type: ignore[arg-type]
        after, _ = play(state, swap)
        saved = decide(after, level, cheats=True)  # type: ignore[arg-type]
        assert saved == PlayCard(A, swap.hand_index)
