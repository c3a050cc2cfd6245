"""Pazaak skills by example: a caught swap forfeits or waits for the GM's verdict (pardon, lose
the set, forfeit), and the skills' events round-trip through JSON while older logs still load."""

import json

import pytest

from bot.rules import pazaak as pz
from bot.rules.common import POT, GameOver, InvalidValue, Transfer
from bot.rules.pazaak import (
    Caught,
    EndTurn,
    Event,
    Forfeit,
    MatchEnded,
    MatchStarted,
    PazaakState,
    PendingRuling,
    PlayCard,
    Redraw,
    Redrawn,
    Ruled,
    RuleOnCheat,
    RulingRequested,
    SetEnded,
    SetStarted,
    Stand,
    Swap,
    Timeout,
    Traits,
    replay,
)
from tests.rules.test_pazaak import A, B, cards, play, seat
from tests.rules.test_pazaak_skills import HAND, PLUS_5, opening, perceiving, refused, skilled

# --- caught: forfeit, or the GM's ruling --------------------------------------------------------


def test_a_caught_swap_forfeits_and_pays_the_opponent() -> None:
    state = skilled(b=perceiving(100))
    after, events = play(state, Swap(A, 0, PLUS_5))
    assert events[2:] == [Caught(A, B), MatchEnded(B, 100, "caught")]
    assert pz.audience(events[2]) == "public" and pz.audience(events[3]) == "public"
    assert pz.transfers(events[3]) == (Transfer(POT, B, 100, "payout"),)
    assert pz.is_over(after) and after.winner == B and after.pot == 0
    assert after.ruling is None and pz.legal_actions(after) == []


WATCHFUL = Traits(luck=True, perception=100)


def caught_for_the_gm(**options: object) -> tuple[PazaakState, list[Event]]:
    """A caught A's swap of +1 for +5 on the first turn, with ``cheat_ruling="gm"``."""
    opened = opening(b=WATCHFUL, cheat_ruling="gm", **options)  # type: ignore[arg-type]
    after, events = play(replay(opened), Swap(A, 0, PLUS_5))
    return after, [*opened, *events]


def test_with_a_gm_ruling_the_match_waits_for_the_verdict() -> None:
    state, log = caught_for_the_gm()
    assert log[-2:] == [Caught(A, B), RulingRequested(A)]
    assert state.ruling == PendingRuling(A, 0, cards("+1")[0], PLUS_5)
    assert state.current_player is None and not pz.is_over(state)
    assert pz.legal_actions(state) == [
        RuleOnCheat(A, "pardon"),
        RuleOnCheat(A, "lose_set"),
        RuleOnCheat(A, "forfeit"),
    ]
    for action in (EndTurn(A), Stand(A), PlayCard(A, 1), Timeout(A), Redraw(A), EndTurn(B)):
        assert refused(state, action, pz.RulingPending).code == "pazaak_ruling_pending"
    with pytest.raises(pz.RulingPending):
        pz.play_terms(state, PlayCard(A, 1))
    assert not pz.may_redraw(state, A)
    error = refused(state, RuleOnCheat(B, "pardon"), pz.NoRulingPending)
    assert error.params == {"cheater": B}
    refused(state, RuleOnCheat(A, "expel"), InvalidValue)  # type: ignore[arg-type]
    assert replay(log) == state


def test_a_pardon_undoes_the_swap_and_the_turn_goes_on() -> None:
    state, log = caught_for_the_gm()
    after, events = play(state, RuleOnCheat(A, "pardon"))
    assert events == [Ruled(A, "pardon")] and pz.audience(events[0]) == "public"
    me = seat(after, A)
    assert me.hand == cards(HAND) and me.table == seat(state, A).table
    assert after.ruling is None and after.current_player == A
    assert me.swapped and not pz.may_swap(after, A)  # the use is not given back
    assert pz.may_redraw(after, A)  # still right after the turn's draw
    refused(after, RuleOnCheat(A, "pardon"), pz.NoRulingPending)
    after, more = play(after, PlayCard(A, 0), EndTurn(A))
    assert seat(after, A).total == 6 and after.current_player == B
    assert replay([*log, *events, *more]) == after


def test_lose_set_undoes_the_swap_and_gives_the_set_to_the_opponent() -> None:
    state, log = caught_for_the_gm()
    after, events = play(state, RuleOnCheat(A, "lose_set"))
    assert events[:2] == [Ruled(A, "lose_set"), SetEnded(1, B, "cheat", (5, 0))]
    assert isinstance(events[2], SetStarted) and events[2].set_number == 2
    assert seat(after, A).hand == cards(HAND) and seat(after, B).sets_won == 1
    assert after.ruling is None and after.current_player is not None and not pz.is_over(after)
    assert replay([*log, *events]) == after


def test_lose_set_may_end_the_match() -> None:
    state, _ = caught_for_the_gm(sets_to_win=1)
    after, events = play(state, RuleOnCheat(A, "lose_set"))
    assert events[1:] == [SetEnded(1, B, "cheat", (5, 0)), MatchEnded(B, 100, "sets")]
    assert after.winner == B and after.pot == 0


def test_a_forfeit_verdict_pays_the_opponent() -> None:
    state, _ = caught_for_the_gm()
    after, events = play(state, RuleOnCheat(A, "forfeit"))
    assert events == [Ruled(A, "forfeit"), MatchEnded(B, 100, "caught")]
    assert after.winner == B and after.ruling is None and pz.legal_actions(after) == []


@pytest.mark.parametrize("who", [A, B])
def test_either_player_may_forfeit_while_the_gm_rules(who: int) -> None:
    state, _ = caught_for_the_gm()
    after, events = play(state, Forfeit(who))
    assert events == [MatchEnded(B if who == A else A, 100, "forfeit")]
    assert after.ruling is None
    refused(after, RuleOnCheat(A, "pardon"), GameOver)


def test_a_ruling_without_a_caught_swap_is_refused() -> None:
    refused(skilled(), RuleOnCheat(A, "pardon"), pz.NoRulingPending)


# --- the log ------------------------------------------------------------------------------------


def test_skill_events_round_trip_through_json() -> None:
    state, log = caught_for_the_gm()
    state, more = play(state, RuleOnCheat(A, "lose_set"))
    state, redraw = play(state, Redraw(state.current_player or 0))
    log += more + redraw
    assert any(isinstance(e, Redrawn) for e in log)
    loaded = pz.load_events(pz.dump_events(log))
    assert loaded == log and replay(loaded) == state


def test_a_log_from_before_skills_still_loads() -> None:
    """A stored log's JSON as it was written before the skills: no traits in ``match_started``,
    no skill settings."""
    settings = {
        "wager": 25,
        "main_deck": "infinite",
        "kotor2_cards": True,
        "nine_card_win": True,
        "starter": "alternate",
        "sets_to_win": 3,
        "turn_timeout": 300,
        "timeouts_to_forfeit": 3,
    }
    selection = ["+1", "+1", "+2", "+2", "+3", "+3", "+4", "+4", "+5", "+5"]
    stored = [
        {
            "settings": settings,
            "players": [A, B],
            "selections": [selection, selection],
            "kind": "match_started",
        },
        {"player": A, "cards": ["+1", "+2", "+3", "+4"], "kind": "hand_dealt"},
        {"player": B, "cards": ["+5", "+2", "+3", "+4"], "kind": "hand_dealt"},
        {"set_number": 1, "starter": B, "pool": [], "kind": "set_started"},
        {"player": B, "kind": "turn_started"},
        {"player": B, "value": 8, "kind": "card_drawn"},
        {"player": B, "how": "stand", "kind": "turn_ended"},
        {"player": B, "reason": "stand", "kind": "stood"},
        {"player": A, "kind": "turn_started"},
        {"player": A, "value": 3, "kind": "card_drawn"},
    ]
    events = pz.load_events(json.dumps(stored).encode())
    started = events[0]
    assert isinstance(started, MatchStarted) and started.traits == (Traits(), Traits())
    assert started.settings.skills is False and started.settings.cheat_ruling == "forfeit"
    state = replay(events)
    assert all(p.traits == Traits() and p.played == () for p in state.players)
    assert state.current_player == A and seat(state, B).standing
    assert not pz.may_redraw(state, A) and not pz.may_swap(state, A)
    refused(state, Redraw(A), pz.SkillsOff)
