"""Pazaak skills by example (option ``skills``): Luck's redraw, Gamble's swap and the opponent's
detection test, on rigged pools and seeded rolls. The rulings on a caught swap and the log are in
``test_pazaak_skills_rulings``; this module's helpers serve both."""

import random
from collections import Counter

import pytest

from bot.rules import pazaak as pz
from bot.rules.common import (
    InvalidSettings,
    InvalidValue,
    NotYourTurn,
    RulesError,
)
from bot.rules.pazaak import (
    STARTER_COLLECTION,
    CardDrawn,
    Caught,
    DetectionRoll,
    EndTurn,
    Event,
    HandDealt,
    MatchEnded,
    MatchStarted,
    PazaakSettings,
    PazaakState,
    PlayCard,
    Redraw,
    Redrawn,
    SetStarted,
    Stand,
    Swap,
    Swapped,
    Traits,
    TurnStarted,
    apply,
    new_match,
    replay,
)
from tests.rules.test_pazaak import A, B, cards, play, pool_starting, seat

SHARP = Traits(luck=True, gamble=True, perception=0)
"""A's traits in most examples: both skills; B's Perception decides each example's catch."""
HAND = "+1 +2 +3 +4"
SELECTION = cards("+1 +2 +3 +4 +5 -1 -2 -3 ±1 T")
"""One copy of each card: the side deck after the deal is ``+5 -1 -2 -3 ±1 T``."""
PLUS_5 = cards("+5")[0]
PLAIN = Traits()


def opening(
    draws: tuple[int, ...] = (5, 6, 7, 8),
    *,
    a: Traits = SHARP,
    b: Traits = PLAIN,
    first: int = A,
    **options: object,
) -> list[Event]:
    """A match with skills on whose set-1 pool deals ``draws``; both hands are ``HAND``."""
    settings = PazaakSettings.model_validate({"wager": 50, "skills": True, **options})
    pool = pool_starting(*draws) if settings.main_deck == "pool" else ()
    return [
        MatchStarted(settings, (A, B), (SELECTION, SELECTION), (a, b)),
        HandDealt(A, cards(HAND)),
        HandDealt(B, cards(HAND)),
        SetStarted(1, first, pool),
        TurnStarted(first),
        CardDrawn(first, draws[0]),
    ]


def skilled(draws: tuple[int, ...] = (5, 6, 7, 8), **kwargs: object) -> PazaakState:
    return replay(opening(draws, **kwargs))  # type: ignore[arg-type]


def refused(state: PazaakState, action: pz.Action, error: type[RulesError]) -> RulesError:
    with pytest.raises(error) as caught:
        apply(state, action, random.Random(0))
    return caught.value


def perceiving(perception: int) -> Traits:
    return Traits(perception=perception)


# --- Luck: the redraw ---------------------------------------------------------------------------


def test_a_redraw_puts_the_card_back_reshuffles_and_draws_again() -> None:
    state = skilled((9, 6))
    before = state.pool
    assert pz.may_redraw(state, A) and Redraw(A) in pz.legal_actions(state)
    after, events = play(state, Redraw(A))
    redrawn, drawn = events
    assert isinstance(redrawn, Redrawn) and (redrawn.player, redrawn.value) == (A, 9)
    assert Counter(redrawn.pool) == Counter((*before, 9)) and len(redrawn.pool) == 80
    assert redrawn.pool != (9, *before)  # shuffled, not just put on top (seed 7)
    assert drawn == CardDrawn(A, redrawn.pool[0])
    assert [c.value for c in seat(after, A).table] == [redrawn.pool[0]]
    assert after.pool == redrawn.pool[1:] and seat(after, A).redrew
    assert after.current_player == A and not seat(after, A).played_card_this_turn
    assert not pz.may_redraw(after, A) and Redraw(A) not in pz.legal_actions(after)
    assert pz.audience(redrawn) == pz.audience(drawn) == "public"
    assert replay([*opening((9, 6)), *events]) == after
    news = {apply(state, Redraw(A), random.Random(seed))[1][1] for seed in range(40)}
    assert len(news) > 5  # the reshuffle is random: the new card is not fixed by the old order


def test_a_redraw_with_the_infinite_main_deck_draws_a_fresh_value() -> None:
    state = skilled((9,), main_deck="infinite")
    after, events = play(state, Redraw(A))
    assert events[0] == Redrawn(A, 9, ())
    assert isinstance(events[1], CardDrawn) and 1 <= events[1].value <= 10
    assert after.pool == () and len(seat(after, A).table) == 1


def test_a_redraw_checks_nothing_else_until_the_turn_ends() -> None:
    # A draws 10, B draws 2 and stands, A draws 5 and then 7: 22, not yet a bust. The redraw
    # of the 7 may bust A or make 20, but the bust check and the stand at 20 wait for the end
    # of the turn.
    state = skilled((10, 2, 5, 7), a=Traits(luck=True))
    state, _ = play(state, EndTurn(A), Stand(B), EndTurn(A))
    assert seat(state, A).total == 22 and state.current_player == A
    totals = set()
    for seed in range(60):
        after, events = apply(state, Redraw(A), random.Random(seed))
        assert [type(e) for e in events] == [Redrawn, CardDrawn]
        assert after.current_player == A and not seat(after, A).standing
        totals.add(seat(after, A).total)
    assert 20 in totals and max(totals) > 20


def test_a_redraw_after_a_hand_card_is_too_late() -> None:
    state, _ = play(skilled(), PlayCard(A, 0))
    assert not pz.may_redraw(state, A)
    refused(state, Redraw(A), pz.RedrawTooLate)
    with pytest.raises(pz.RedrawTooLate):
        pz.require_redraw(state, A)


def test_a_redraw_is_refused_out_of_turn_and_while_standing() -> None:
    state = skilled(b=SHARP)
    assert not pz.may_redraw(state, B)
    refused(state, Redraw(B), NotYourTurn)
    standing, _ = play(state, Stand(A))
    refused(standing, Redraw(A), pz.AlreadyStanding)


def test_luck_is_once_per_match() -> None:
    state, _ = play(skilled((5, 6, 7, 8, 9, 1)), Redraw(A))
    error = refused(state, Redraw(A), pz.SkillUsed)
    assert error.params == {"skill": "redraw"} and error.code == "pazaak_skill_used"
    state, _ = play(state, EndTurn(A), EndTurn(B))
    assert state.current_player == A and not pz.may_redraw(state, A)
    refused(state, Redraw(A), pz.SkillUsed)


# --- Gamble: the swap and the detection test ----------------------------------------------------


def test_the_side_deck_is_the_selection_less_the_hand_and_the_played_cards() -> None:
    state = skilled()
    assert pz.swap_choices(state, A) == cards("+5 -1 -2 -3 ±1 T")
    assert pz.may_swap(state, A)
    state, _ = play(state, PlayCard(A, 2), EndTurn(A), EndTurn(B))  # A plays +3
    assert seat(state, A).played == cards("+3")
    assert pz.swap_choices(state, A) == cards("+5 -1 -2 -3 ±1 T")  # +3 is gone, not back
    refused(state, Swap(A, 0, cards("+3")[0]), pz.NotInSideDeck)
    refused(state, Swap(A, 0, cards("+2")[0]), pz.NotInSideDeck)  # in the hand
    refused(state, Swap(A, 0, cards("+6")[0]), pz.NotInSideDeck)  # never selected
    swaps = [x for x in pz.legal_actions(state) if isinstance(x, Swap)]
    assert swaps == [Swap(A, i, c) for i in range(3) for c in cards("+5 -1 -2 -3 ±1 T")]


def test_a_view_tells_its_viewer_the_skills_and_side_deck_and_nobody_else() -> None:
    state = skilled(b=Traits(luck=True, gamble=True))
    mine, theirs, nobody = pz.view(state, A), pz.view(state, B), pz.view(state, None)
    assert (mine.may_redraw, mine.may_swap) == (True, True)
    assert mine.side_deck == pz.swap_choices(state, A) == cards("+5 -1 -2 -3 ±1 T")
    assert (theirs.may_redraw, theirs.may_swap) == (False, False)  # not B's turn
    assert (nobody.side_deck, nobody.may_redraw, nobody.may_swap) == ((), False, False)
    state, _ = play(state, PlayCard(A, 2))  # A plays +3: no redraw, no swap any more
    mine = pz.view(state, A)
    assert (mine.may_redraw, mine.may_swap) == (False, False)
    assert mine.side_deck == cards("+5 -1 -2 -3 ±1 T")
    assert mine.seats[0].played_card_this_turn and mine.seats[0].played == cards("+3")
    assert pz.view(state, B).seats[0].played == cards("+3")  # played cards are public
    state, _ = play(state, EndTurn(A), Redraw(B))
    assert [s.redrew for s in pz.view(state, A).seats] == [False, True]  # announced


def test_no_swap_once_the_hand_is_played_out() -> None:
    # B stands on 1; A plays one hand card a turn, on a pool of ones, until the hand is empty.
    state = skilled((1, 1, 1, 1, 1, 1))
    state, _ = play(state, PlayCard(A, 0), EndTurn(A), Stand(B))
    for _ in range(3):
        state, _ = play(state, PlayCard(A, 0), EndTurn(A))
    me = seat(state, A)
    assert me.hand == () and me.played == cards(HAND) and state.current_player == A
    assert pz.swap_choices(state, A) == () and not pz.may_swap(state, A)
    assert not any(isinstance(x, Swap) for x in pz.legal_actions(state))
    refused(state, Swap(A, 0, PLUS_5), pz.NoSuchCard)


def test_copies_count_in_the_side_deck() -> None:
    events = opening()
    events[0] = MatchStarted(
        events[0].settings,  # type: ignore[union-attr]
        (A, B),
        (STARTER_COLLECTION, SELECTION),
        (SHARP, Traits()),
    )
    events[1] = HandDealt(A, cards("+1 +2 +3 +4"))
    state = replay(events)
    assert pz.swap_choices(state, A) == cards("+1 +2 +3 +4 +5")


def test_an_unnoticed_swap_is_secret_and_the_turn_goes_on() -> None:
    swapped_state, events = play(skilled(b=perceiving(0)), Swap(A, 0, PLUS_5))
    swapped, roll = events
    assert swapped == Swapped(A, 0, cards("+1")[0], PLUS_5)
    assert isinstance(roll, DetectionRoll) and (roll.player, roll.cheater, roll.target) == (B, A, 0)
    assert not roll.success
    assert pz.audience(swapped) == "private" and pz.audience(roll) == "gm"
    assert replay([*opening(b=perceiving(0)), *events]) == swapped_state
    me = seat(swapped_state, A)
    assert me.hand == cards("+5 +2 +3 +4") and me.swapped and me.played == ()
    assert pz.swap_choices(swapped_state, A) == () and not pz.may_swap(swapped_state, A)
    # the swap is not the turn's hand card: one may still be played, and the draw redrawn
    assert swapped_state.current_player == A and not me.played_card_this_turn
    assert pz.may_redraw(swapped_state, A)
    after, _ = play(swapped_state, PlayCard(A, 0))
    assert seat(after, A).total == 10 and seat(after, A).played == (PLUS_5,)


def test_the_card_given_up_goes_back_to_the_side_deck() -> None:
    state, _ = play(skilled(b=perceiving(0)), Swap(A, 3, PLUS_5))
    me = seat(state, A)
    assert me.hand == cards("+1 +2 +3 +5")
    left = Counter(me.selection) - Counter(me.hand) - Counter(me.played)
    assert left[cards("+4")[0]] == 1 and left[PLUS_5] == 0


@pytest.mark.parametrize(("perception", "modifier"), [(0, 0), (40, -40), (0, -100), (1, -1)])
def test_a_target_of_zero_or_less_never_catches(perception: int, modifier: int) -> None:
    state = skilled(b=perceiving(perception), detection_modifier=modifier)
    rolls = []
    for seed in range(400):
        _, events = apply(state, Swap(A, 0, PLUS_5), random.Random(seed))
        assert not any(isinstance(e, Caught | MatchEnded) for e in events)
        rolls += [e.roll for e in events if isinstance(e, DetectionRoll)]
    assert len(rolls) == 400 and min(rolls) == 1 and max(rolls) == 100


@pytest.mark.parametrize(("perception", "modifier"), [(100, 0), (0, 100), (60, 40), (100, 100)])
def test_a_target_of_a_hundred_always_catches(perception: int, modifier: int) -> None:
    state = skilled(b=perceiving(perception), detection_modifier=modifier)
    for seed in range(400):
        _, events = apply(state, Swap(A, 0, PLUS_5), random.Random(seed))
        assert Caught(A, B) in events


def test_the_roll_is_a_d100_against_perception_plus_the_modifier() -> None:
    state = skilled(b=perceiving(35), detection_modifier=-10)
    caught = 0
    for seed in range(300):
        _, events = apply(state, Swap(A, 0, PLUS_5), random.Random(seed))
        (roll,) = [e for e in events if isinstance(e, DetectionRoll)]
        assert roll.target == 25 and 1 <= roll.roll <= 100
        assert (Caught(A, B) in events) == (roll.roll <= 25)
        caught += roll.roll <= 25
    assert 0 < caught < 300


def test_a_swap_needs_the_turn_and_comes_before_a_hand_card() -> None:
    state = skilled(b=SHARP)
    refused(state, Swap(B, 0, PLUS_5), NotYourTurn)
    assert pz.swap_choices(state, B) == () and not pz.may_swap(state, B)
    played, _ = play(state, PlayCard(A, 1))
    refused(played, Swap(A, 0, PLUS_5), pz.CardAlreadyPlayedThisTurn)
    assert not pz.may_swap(played, A) and pz.swap_choices(played, A) == ()
    with pytest.raises(pz.CardAlreadyPlayedThisTurn):
        pz.require_swap(played, A)
    refused(state, Swap(A, 4, PLUS_5), pz.NoSuchCard)
    refused(state, Swap(A, 0, "+5"), InvalidValue)  # type: ignore[arg-type]
    standing, _ = play(state, Stand(A))
    refused(standing, Swap(A, 0, PLUS_5), pz.AlreadyStanding)


def test_gamble_is_once_per_match() -> None:
    state, _ = play(skilled(b=perceiving(0)), Swap(A, 0, PLUS_5))
    error = refused(state, Swap(A, 1, cards("T")[0]), pz.SkillUsed)
    assert error.params == {"skill": "swap"}
    state, _ = play(state, EndTurn(A), EndTurn(B))
    assert state.current_player == A
    refused(state, Swap(A, 1, cards("T")[0]), pz.SkillUsed)


# --- refusals: the option and the traits --------------------------------------------------------


def test_skills_off_refuses_both() -> None:
    state = skilled(skills=False, b=SHARP)
    for action in (Redraw(A), Swap(A, 0, PLUS_5)):
        assert refused(state, action, pz.SkillsOff).code == "pazaak_skills_off"
    assert not pz.may_redraw(state, A) and not pz.may_swap(state, A)
    assert pz.swap_choices(state, A) == ()
    assert not any(isinstance(x, Redraw | Swap) for x in pz.legal_actions(state))


@pytest.mark.parametrize(
    ("traits", "action", "trait"),
    [
        (Traits(gamble=True), Redraw(A), "luck"),
        (Traits(luck=True), Swap(A, 0, PLUS_5), "gamble"),
    ],
)
def test_a_missing_trait_refuses_its_skill(traits: Traits, action: pz.Action, trait: str) -> None:
    state = skilled(a=traits)
    error = refused(state, action, pz.NoSuchTrait)
    assert error.params == {"trait": trait} and error.code == "pazaak_no_such_trait"
    legal = pz.legal_actions(state)
    assert (Redraw(A) in legal) == traits.luck
    assert any(isinstance(x, Swap) for x in legal) == traits.gamble
    assert pz.may_redraw(state, A) == traits.luck and pz.may_swap(state, A) == traits.gamble


def test_new_match_records_the_traits_and_refuses_a_perception_out_of_range() -> None:
    settings = PazaakSettings(skills=True)
    rng = random.Random(0)
    traits = (Traits(luck=True, perception=100), Traits(gamble=True))
    state, events = new_match(settings, A, SELECTION, B, SELECTION, rng, traits=traits)
    assert isinstance(events[0], MatchStarted) and events[0].traits == traits
    assert (state.players[0].traits, state.players[1].traits) == traits
    assert pz.audience(events[0]) == "public" and pz.audience(events[1]) == "private"
    plain, _ = new_match(settings, A, SELECTION, B, SELECTION, random.Random(0))
    assert all(p.traits == Traits() for p in plain.players)
    for perception in (-1, 101):
        bad = (Traits(), Traits(perception=perception))
        with pytest.raises(pz.InvalidTraits) as error:
            new_match(settings, A, SELECTION, B, SELECTION, rng, traits=bad)
        assert error.value.code == "pazaak_invalid_traits"
        assert error.value.params == {"player": B, "field": "perception", "value": perception}
    for odd in ((Traits(perception=True), Traits()), (Traits(luck=1), Traits()), (Traits(),)):  # type: ignore[arg-type]
        with pytest.raises(InvalidValue):
            new_match(settings, A, SELECTION, B, SELECTION, rng, traits=odd)  # type: ignore[arg-type]


@pytest.mark.parametrize("modifier", [-101, 101])
def test_the_detection_modifier_is_bounded(modifier: int) -> None:
    with pytest.raises(InvalidSettings) as caught:
        PazaakSettings.parse({"detection_modifier": modifier})
    assert caught.value.params["field"] == "detection_modifier"
    bound = 100 if modifier > 0 else -100
    assert PazaakSettings.parse({"detection_modifier": bound}).detection_modifier == bound


def test_skills_are_off_by_default() -> None:
    settings = PazaakSettings()
    assert (settings.skills, settings.detection_modifier, settings.cheat_ruling) == (
        False,
        0,
        "forfeit",
    )
