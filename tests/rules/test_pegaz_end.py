"""Three-Card Pegasus rules: checks, forced folds, the end and the offering, the deck, events
and purses that change outside the game."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.rules import pegaz as pz
from bot.rules.common import (
    OFFERING,
    POT,
    GameOver,
    InsufficientFunds,
    NotSeated,
    NotYourTurn,
    Transfer,
    WrongPhase,
)
from tests.rules.pegaz_script import Game, P, Script, faces, rolls, transfers

# --- checks and the end -------------------------------------------------------------------------


def two_rounds(g: Game, players: list[int]) -> None:
    for p in players:
        g.do(pz.Exchange(p, (), g.state.stake))


def test_checks_only_from_round_two_and_the_weaker_hand_goes_out() -> None:
    g = Game(pz.PegazSettings(), [P(1), P(2), P(3)])
    g.start((2, 2, 4), (4, 3, 1), (6, 6, 1))
    assert not pz.checks_allowed(g.state)
    g.fails(pz.Check(1, 2), pz.CheckNotAllowed)
    two_rounds(g, [1, 2, 3])
    assert pz.checks_allowed(g.state) and g.state.round == 2
    assert pz.check_price(g.state) == 36
    g.fails(pz.Check(1, 1), pz.CheckNotAllowed)
    g.fails(pz.Check(1, 9), pz.CheckNotAllowed)
    evs = g.do(pz.Check(1, 2))
    assert evs[0] == pz.Checked(1, 2, 36, (2, 2, 4), (4, 3, 1), (2,))
    assert transfers(evs) == [Transfer(1, POT, 36, "check")]
    assert g.seat(2).status is pz.SeatStatus.CHECKED
    assert pz.whose_turn(g.state) == 3
    g.fails(pz.Check(3, 2), pz.CheckNotAllowed)  # player 2 is already out
    evs = g.do(pz.Check(3, 1))
    assert g.kinds(evs) == ["checked", "game_ended"]
    assert evs[-1] == pz.GameEnded((3,), (36 + 36 + 36 + 36,))
    assert g.state.phase is pz.Phase.OFFERING


def test_check_tie_puts_both_out_and_splits_with_the_odd_penny_to_the_earlier_seat() -> None:
    g = Game(pz.PegazSettings(), [P(1), P(2)])
    g.start((5, 1, 3), (3, 5, 1))
    g.do(pz.Exchange(1, (), 13))
    g.do(pz.Exchange(2, (), g.state.stake))
    assert g.state.pot == 24 + 13 + 13
    evs = g.do(pz.Check(1, 2))
    assert evs[0].out == (1, 2)  # type: ignore[union-attr]
    assert g.state.pot == 0
    pot = 24 + 13 + 13 + 39
    assert evs[-1] == pz.GameEnded((1, 2), (45, 44))
    assert pot == 89
    assert transfers(evs[1:]) == [Transfer(POT, 1, 45, "split"), Transfer(POT, 2, 44, "split")]


def test_a_tie_is_shared_only_by_the_last_two() -> None:
    g = Game(pz.PegazSettings(), [P(1), P(2), P(3)])
    g.start((1, 2, 3), (4, 4, 1), (1, 4, 4))
    g.do(pz.Fold(1))
    g.do(pz.Exchange(2, (), g.state.stake))
    g.do(pz.Exchange(3, (), g.state.stake))
    evs = g.do(pz.Check(2, 3))
    assert evs[-1] == pz.GameEnded((2, 3), (48, 48))


def test_check_tie_rollover_keeps_the_pot_for_the_next_game() -> None:
    g = Game(pz.PegazSettings(tie="rollover", carried_pot=7), [P(1), P(2)])
    assert g.state.pot == 31
    g.start((5, 1, 3), (3, 5, 1))
    two_rounds(g, [1, 2])
    evs = g.do(pz.Check(1, 2))
    assert evs[-1] == pz.GameEnded((1, 2), (0, 0), 31 + 24 + 36)
    assert transfers(evs[1:]) == []
    assert g.state.pot == g.state.rolled_over == 91
    assert pz.is_over(g.state)
    assert g.state.winners == () and not pz.expelled_all(g.state)  # a tie, not expulsions


def test_the_check_phase_after_the_last_exchange_round() -> None:
    g = Game(pz.PegazSettings(exchanges=1), [P(1), P(2), P(3)])
    g.start((1, 2, 4), (1, 2, 3), (6, 6, 6))
    two_rounds(g, [1, 2, 3])
    assert g.state.phase is pz.Phase.CHECKS
    g.fails(pz.Exchange(1, (), g.state.stake), WrongPhase)
    assert {type(a) for a in pz.legal_actions(g.state)} == {pz.Check, pz.Fold}
    g.do(pz.Fold(1))
    g.do(pz.Check(2, 3))
    assert g.state.phase is pz.Phase.OFFERING
    assert g.state.winners == (3,)


def test_unlimited_exchanges_end_after_a_round_without_exchanges() -> None:
    g = Game(pz.PegazSettings.wild(), [P(1), P(2)])
    g.start((1, 2, 4), (1, 2, 3))
    g.do(pz.Exchange(1, (0,), g.state.stake), Script(faces(1)))
    g.do(pz.Exchange(2, (), g.state.stake))
    assert g.state.phase is pz.Phase.EXCHANGE and g.state.round == 2
    g.do(pz.Exchange(1, (), g.state.stake))
    g.do(pz.Exchange(2, (), g.state.stake))
    assert g.state.phase is pz.Phase.CHECKS and g.state.round == 3


def test_forced_fold_when_the_stake_cannot_be_paid() -> None:
    g = Game(pz.PegazSettings(), [P(1), P(2, funds=23), P(3)])
    evs = g.start((1, 2, 3), (1, 2, 3), (1, 2, 3))
    assert g.kinds(evs)[-1] == "turn"
    evs = g.do(pz.Exchange(1, (), 13))
    assert evs[1:] == [
        pz.TurnStarted(2, 1, "exchange"),
        pz.Folded(2, "broke"),
        pz.TurnStarted(3, 1, "exchange"),
    ]
    assert g.seat(2).status is pz.SeatStatus.BROKE


def test_forced_fold_in_the_check_phase_can_end_the_game() -> None:
    g = Game(pz.PegazSettings(exchanges=1), [P(1, funds=12 + 12 + 35), P(2)])
    g.start((6, 6, 6), (1, 2, 3))
    g.do(pz.Exchange(1, (), g.state.stake))
    evs = g.do(pz.Exchange(2, (), g.state.stake))
    assert evs[1:] == [
        pz.TurnStarted(1, 2, "checks"),
        pz.Folded(1, "cannot_check"),
        pz.GameEnded((2,), (48,)),
    ]
    assert g.state.winners == (2,)


def test_cannot_check_is_a_forced_fold() -> None:
    g = Game(pz.PegazSettings(exchanges=1), [P(1, funds=12 + 12 + 35), P(2), P(3)])
    g.start((1, 2, 3), (1, 2, 4), (1, 2, 5))
    evs = g.do(pz.Exchange(1, (), g.state.stake))
    evs += g.do(pz.Exchange(2, (), g.state.stake))
    evs += g.do(pz.Exchange(3, (), g.state.stake))
    assert evs[-3:] == [
        pz.TurnStarted(1, 2, "checks"),
        pz.Folded(1, "cannot_check"),
        pz.TurnStarted(2, 2, "checks"),
    ]
    assert pz.whose_turn(g.state) == 2


def test_offering_to_ranald() -> None:
    g = Game(pz.PegazSettings(), [P(1), P(2), P(3)])
    g.start((1, 2, 3), (1, 2, 3), (1, 2, 3))
    g.do(pz.Fold(1))
    evs = g.do(pz.Fold(2))
    assert evs[-1] == pz.GameEnded((3,), (36,))
    assert g.state.offers == (3,)
    assert pz.legal_actions(g.state) == [pz.Offer(3, True), pz.Offer(3, False)]
    g.fails(pz.Offer(1, True), NotYourTurn)
    g.fails(pz.Fold(3), GameOver)
    evs = g.do(pz.Offer(3, True))
    assert evs == [pz.Offered(3, 3, True)]
    assert transfers(evs) == [Transfer(3, OFFERING, 3, "offering")]
    assert pz.is_over(g.state) and g.state.offered == 3
    assert g.seat(3).funds == 1000 - 12 + 36 - 3
    g.fails(pz.Offer(3, True), GameOver)


def test_offering_declined_by_timeout_and_split_winners_each_asked() -> None:
    g = Game(pz.PegazSettings(stake=100), [P(1), P(2)])
    g.start((1, 2, 3), (3, 2, 1))
    two_rounds(g, [1, 2])
    g.do(pz.Check(1, 2))
    assert g.state.offers == (1, 2)
    evs = g.do(pz.Timeout(2))
    assert evs == [pz.Offered(2, 35, False, True)] and transfers(evs) == []
    g.do(pz.Offer(1, False))
    assert pz.is_over(g.state) and g.state.offered == 0


def test_cancel_after_the_payout_declines_the_offerings() -> None:
    g = Game(pz.PegazSettings(stake=100), [P(1), P(2)])
    g.start((1, 2, 3), (3, 2, 1))
    two_rounds(g, [1, 2])
    g.do(pz.Check(1, 2))
    evs = g.do(pz.Cancel())
    assert evs == [pz.Offered(1, 35, False), pz.Offered(2, 35, False)]
    assert g.state.phase is pz.Phase.FINISHED
    assert [s.funds for s in g.state.seats] == [1000 - 500 + 350, 1000 - 200 + 350]


def test_cancel_refunds_every_stake_exactly() -> None:
    g = Game(pz.PegazSettings(carried_pot=5), [P(1), P(2), P(3, gamble=True)])
    g.start((1, 2, 3), (1, 2, 3), (1, 2, 3))
    g.do(pz.Keep(3))
    g.do(pz.Exchange(1, (0, 1), 13), Script(faces(1, 1)))
    g.do(pz.Fold(2))
    evs = g.do(pz.Cancel())
    assert transfers(evs) == [
        Transfer(POT, 1, 12 + 39, "refund"),
        Transfer(POT, 2, 12, "refund"),
        Transfer(POT, 3, 12, "refund"),
    ]
    assert [s.funds for s in g.state.seats] == [1000, 1000, 1000]
    assert g.state.pot == 5
    assert pz.is_over(g.state)
    g.fails(pz.Cancel(), GameOver)


def test_not_seated_and_unknown_actions() -> None:
    g = Game(pz.PegazSettings(), [P(1), P(2)])
    g.start((1, 2, 3), (1, 2, 3))
    g.fails(pz.Fold(9), NotSeated)
    with pytest.raises(TypeError):
        pz.apply(g.state, "fold", Script([]))  # type: ignore[arg-type]


# --- deck source --------------------------------------------------------------------------------


def test_deck_deals_without_replacement_and_reshuffles_the_discards() -> None:
    g = Game(pz.PegazSettings(source="deck"), [P(i) for i in range(1, 9)])
    rng = random.Random(5)
    g.do(pz.Start(1), rng)
    dealt = sorted(f for s in g.state.seats for f in s.hand)
    assert dealt == sorted(list(range(1, 7)) * 4)  # the whole 24-card deck
    assert g.state.deck == (0,) * 6
    # nothing else is left to draw: an exchange could only deal the player's own cards back
    assert pz.exchangeable(g.state) == 0
    assert g.fails(pz.Exchange(1, (0, 1), g.state.stake), pz.NoCardsToDraw).params == {"left": 0}
    assert pz.Exchange(1, (0,), 12) not in pz.legal_actions(g.state)
    g.do(pz.Exchange(1, (), 12), rng)  # paying the stake and keeping the hand is still allowed
    folded = g.seat(2).hand
    g.do(pz.Fold(2), rng)
    assert sum(g.state.discard) == 3 and pz.exchangeable(g.state) == 3
    old = g.seat(3).hand
    evs = g.do(pz.Exchange(3, (0, 1), g.state.stake), rng)
    assert g.kinds(evs) == ["exchanged", "reshuffled", "drew", "turn"]
    assert evs[1] == pz.Reshuffled(3)  # Bob's folded cards, not the two just given up
    drew = evs[2]
    assert isinstance(drew, pz.Drew)
    assert not Counter(drew.faces) - Counter(folded)
    # the given-up cards are discarded after the draw; what was not drawn is the new deck
    assert pile(g.state.discard) == Counter(old[:2])
    assert pile(g.state.deck) == Counter(folded) - Counter(drew.faces)
    in_hands = sum(len(s.hand) for s in g.state.seats)
    assert in_hands + sum(g.state.discard) + sum(g.state.deck) == 24


def pile(counts: tuple[int, ...]) -> Counter[int]:
    return Counter({face: n for face, n in enumerate(counts, 1) if n})


def test_deck_counts_follow_the_draws() -> None:
    g = Game(pz.PegazSettings(source="deck", die=8), [P(1), P(2)])
    g.do(pz.Start(1), random.Random(1))
    assert sum(g.state.deck) == 32 - 6
    g.do(pz.Exchange(1, (0, 1, 2), g.state.stake), random.Random(2))
    assert sum(g.state.deck) == 32 - 9 and sum(g.state.discard) == 3
    counts = [0] * 8
    for s in g.state.seats:
        for f in s.hand:
            counts[f - 1] += 1
    for f in range(8):
        assert counts[f] + g.state.deck[f] + g.state.discard[f] == 4


# --- events -------------------------------------------------------------------------------------


def test_events_round_trip_through_json() -> None:
    g = Game(pz.PegazSettings(cheat_ruling="gm"), [P(1, gamble=True), P(2, perception=90)])
    g.start((5, 3, 1), (1, 2, 3))
    g.do(pz.Cheat(1, 0, 2), Script(rolls(3)))
    g.do(pz.RuleOnCheat(True))
    data = pz.dump_events(g.events)
    assert b'"kind":"detection"' in data
    loaded = pz.load_events(data)
    assert loaded == g.events
    assert isinstance(loaded[-2], pz.Expelled)
    assert pz.replay(loaded) == g.state
    dealt = [e for e in loaded if isinstance(e, pz.Dealt)]
    assert isinstance(dealt[0].cards, tuple)
    with pytest.raises(ValueError):
        pz.replay(loaded[1:])


def test_each_deal_is_told_to_its_player_alone() -> None:
    g = Game(pz.PegazSettings(), [P(1), P(2)])
    evs = g.start((5, 3, 1), (1, 2, 3))
    assert [pz.audience(e) for e in evs] == ["public", "player", "player", "public"]


# --- purses that change outside the game ----------------------------------------------------------


def test_synced_funds_save_a_player_from_a_forced_fold() -> None:
    g = Game(pz.PegazSettings(), [P(1), P(2, funds=23), P(3)])
    g.start((1, 2, 3), (1, 2, 3), (1, 2, 3))
    assert pz.funds_sync(g.state, {1: 988, 2: 11, 3: 988}) is None  # nothing changed
    sync = pz.funds_sync(g.state, {1: 988, 2: 11 + 240})  # a GM gave player 2 a crown
    assert sync == pz.SyncFunds(((2, 251),))
    evs = g.do(sync)
    assert evs == [pz.FundsSynced(2, 251)] and transfers(evs) == []
    evs = g.do(pz.Exchange(1, (), 13))
    assert evs[1:] == [pz.TurnStarted(2, 1, "exchange")]
    assert pz.load_events(pz.dump_events(g.events)) == g.events


def test_synced_funds_can_also_shrink_and_are_checked() -> None:
    g = Game(pz.PegazSettings(), [P(1), P(2)])
    g.start((1, 2, 3), (1, 2, 3))
    g.do(pz.SyncFunds(((1, 5),)))  # player 1 paid the coins away at another table
    g.fails(pz.Exchange(1, (), g.state.stake), InsufficientFunds)
    g.fails(pz.SyncFunds(((9, 5),)), NotSeated)
    g.fails(pz.SyncFunds(((1, -1),)), pz.InvalidPlayer)
    g.do(pz.Fold(1))
    assert g.state.phase is pz.Phase.OFFERING
    assert pz.funds_sync(g.state, {2: 0}) is None
    assert g.do(pz.SyncFunds(((2, 0),))) == []


def test_a_purse_below_zero_syncs_as_nothing_to_spend() -> None:
    """A GM's correction may leave a purse below zero (the server's overdraft): SyncFunds(-1)
    is refused, so the sync must say 0, or every later step of the table would fail."""
    g = Game(pz.PegazSettings(), [P(1), P(2, funds=23)])
    g.start((1, 2, 3), (1, 2, 3))
    sync = pz.funds_sync(g.state, {1: 988, 2: -40})
    assert sync == pz.SyncFunds(((2, 0),))
    g.do(sync)
    assert pz.funds_sync(g.state, {1: 988, 2: -40}) is None
