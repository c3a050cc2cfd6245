"""Three-Card Pegasus rules: settings, seating, payments, modifiers, detection."""

from __future__ import annotations

import pytest

from bot.rules import pegaz as pz
from bot.rules.common import (
    POT,
    AlreadySeated,
    InsufficientFunds,
    InvalidSettings,
    NotYourTurn,
    Transfer,
    WrongPhase,
)
from tests.rules.pegaz_script import Game, P, Script, faces, rolls, transfers

# --- settings -----------------------------------------------------------------------------------


def test_default_settings_are_the_typical_game() -> None:
    s = pz.PegazSettings()
    assert (s.stake, s.exchanges, s.raise_limit, s.max_stake) == (12, 2, 1, None)
    assert (s.die, s.source, s.turn_timeout, s.cheat_ruling, s.tie) == (
        6,
        "dice",
        600,
        "expel",
        "split",
    )
    wild = pz.PegazSettings.wild(stake=24, die=8)
    assert (wild.exchanges, wild.raise_limit, wild.max_stake, wild.stake, wild.die) == (
        None,
        None,
        None,
        24,
        8,
    )


@pytest.mark.parametrize(
    "bad",
    [
        {"stake": 0},
        {"stake": -5},
        {"stake": 12, "max_stake": 11},
        {"die": 7},
        {"exchanges": 0},
        {"raise_limit": -1},
        {"turn_timeout": 0},
        {"carried_pot": -1},
        {"source": "tarot"},
        {"stake": 1.5},
        {"unknown": 1},
    ],
)
def test_invalid_settings(bad: dict[str, object]) -> None:
    with pytest.raises(InvalidSettings):
        pz.PegazSettings.parse(bad)


def test_settings_semantics_raise_invalid_settings_directly() -> None:
    with pytest.raises(InvalidSettings) as info:
        pz.PegazSettings(stake=10, max_stake=5)
    assert info.value.params["field"] == "max_stake"


# --- seating ------------------------------------------------------------------------------------


def test_join_pays_the_ante_and_leave_refunds_it() -> None:
    g = Game(pz.PegazSettings(), [P(1, funds=30), P(2)])
    assert g.state.pot == 24
    assert g.seat(1).funds == 18
    assert transfers(g.events) == [Transfer(1, POT, 12, "ante"), Transfer(2, POT, 12, "ante")]
    evs = g.do(pz.Leave(1))
    assert transfers(evs) == [Transfer(POT, 1, 12, "refund")]
    assert g.state.pot == 12
    assert [s.player for s in g.state.seats] == [2]


def test_join_errors() -> None:
    g = Game(pz.PegazSettings(), [P(1)])
    g.fails(pz.Join(2, False, False, 0, 11), InsufficientFunds)
    g.fails(pz.Join(1, False, False, 0, 100), AlreadySeated)
    g.fails(pz.Join(3, False, False, 101, 100), pz.InvalidPlayer)
    g.fails(pz.Start(1), pz.NotEnoughPlayers)
    for p in range(2, 9):
        g.do(pz.Join(p, False, False, 0, 100))
    g.fails(pz.Join(9, False, False, 0, 100), pz.TableFull)
    g.start(*[(1, 2, 3)] * 8)
    g.fails(pz.Leave(1), WrongPhase)
    g.fails(pz.Start(1), WrongPhase)


# --- payments -----------------------------------------------------------------------------------


def test_source_payment_example_stake_1gc_raise_to_1_5gc_exchange_two() -> None:
    g = Game(pz.PegazSettings(stake=240, raise_limit=None), [P(1, funds=5000), P(2, funds=5000)])
    g.start((1, 2, 3), (4, 5, 6))
    assert pz.whose_turn(g.state) == 1
    assert pz.exchange_price(g.state, 2, 360) == 1080
    evs = g.do(pz.Exchange(1, (0, 2), 360), Script(faces(6, 6)))
    assert transfers(evs) == [Transfer(1, POT, 1080, "exchange")]
    assert g.seat(1).hand == (6, 2, 6)
    assert g.state.stake == 360
    assert g.state.pot == 480 + 1080
    # the raise sets S for everyone after: paying the old stake is not enough now
    err = g.fails(pz.Exchange(2, (), 240), pz.IllegalExchange)
    assert err.params == {"reason": "below_stake", "stake": 360}
    assert pz.exchange_price(g.state, 0) == 360
    g.do(pz.Exchange(2, (), g.state.stake))
    assert g.seat(2).paid == 240 + 360


def test_raise_limit_and_max_stake() -> None:
    g = Game(pz.PegazSettings(), [P(1), P(2), P(3)])
    g.start((1, 2, 3), (1, 2, 3), (1, 2, 3))
    assert pz.stake_bounds(g.state) == (12, 13)
    g.fails(pz.Exchange(1, (), 14), pz.RaiseTooHigh)
    g.do(pz.Exchange(1, (), 13))
    g.fails(pz.Exchange(2, (), 12), pz.IllegalExchange)
    g.fails(pz.Exchange(2, (0, 0), 13), pz.IllegalExchange)
    g.fails(pz.Exchange(2, (3,), 13), pz.IllegalExchange)
    g.fails(pz.Exchange(3, (), 13), NotYourTurn)

    h = Game(pz.PegazSettings(raise_limit=None, max_stake=20), [P(1), P(2)])
    h.start((1, 2, 3), (1, 2, 3))
    assert pz.stake_bounds(h.state) == (12, 20)
    h.fails(pz.Exchange(1, (), 21), pz.StakeOverMax)
    h.fails(pz.Exchange(1, (0, 1, 2), 300), pz.StakeOverMax)
    h.do(pz.Exchange(1, (), 20))


def test_cannot_pay_the_price_of_an_exchange() -> None:
    g = Game(pz.PegazSettings(), [P(1, funds=40), P(2)])
    g.start((1, 2, 3), (1, 2, 3))
    err = g.fails(pz.Exchange(1, (0, 1), g.state.stake), InsufficientFunds)
    assert err.params == {"needed": 36, "available": 28}
    g.do(pz.Exchange(1, (0,), g.state.stake), Script(faces(5)))


# --- modifiers ----------------------------------------------------------------------------------


def test_players_without_traits_skip_the_modifier_step() -> None:
    g = Game(pz.PegazSettings(), [P(1), P(2)])
    evs = g.start((6, 1, 3), (2, 2, 2))
    assert g.kinds(evs) == ["started", "dealt", "dealt", "turn"]
    assert g.state.phase is pz.Phase.EXCHANGE
    assert pz.whose_turn(g.state) == 1


def test_modifier_step_is_simultaneous_and_wraps() -> None:
    g = Game(pz.PegazSettings(), [P(1, luck=True), P(2, gamble=True), P(3)])
    g.start((6, 1, 3), (1, 4, 6), (2, 2, 2))
    assert g.state.phase is pz.Phase.MODIFIERS
    assert pz.to_act(g.state) == (1, 2)
    assert pz.whose_turn(g.state) is None
    g.fails(pz.Exchange(1, (), g.state.stake), WrongPhase)
    g.fails(pz.Keep(3), NotYourTurn)
    # player 2 decides first: 1 - 1 wraps to 6
    g.do(pz.Modify(2, ((0, -1),)))
    assert g.seat(2).hand == (6, 4, 6)
    assert g.state.phase is pz.Phase.MODIFIERS
    g.fails(pz.Keep(2), NotYourTurn)
    # player 1: 6 + 1 wraps to 1; then round 1 begins
    evs = g.do(pz.Modify(1, ((0, 1),)))
    assert g.seat(1).hand == (1, 1, 3)
    assert g.kinds(evs) == ["modifier_chosen", "turn"]
    assert pz.whose_turn(g.state) == 1


@pytest.mark.parametrize(("face", "delta", "want"), [(6, -1, 5), (6, 1, 1), (1, -1, 6), (1, 1, 2)])
def test_single_shift_wraps(face: int, delta: int, want: int) -> None:
    g = Game(pz.PegazSettings(), [P(1, luck=True), P(2)])
    g.start((3, face, 3), (1, 2, 3))
    g.do(pz.Modify(1, ((1, delta),)))
    assert g.seat(1).hand == (3, want, 3)


def test_two_shifts_need_both_traits_and_different_cards() -> None:
    g = Game(pz.PegazSettings(), [P(1, luck=True, gamble=True), P(2, luck=True)])
    g.start((6, 1, 3), (4, 4, 4))
    err = g.fails(pz.Modify(1, ((0, 1), (0, 1))), pz.IllegalModifier)
    assert err.params["reason"] == "same_card"
    assert g.fails(pz.Modify(2, ((0, 1), (1, 1))), pz.IllegalModifier).params == {
        "reason": "needs_both"
    }
    g.fails(pz.Modify(1, ()), pz.IllegalModifier)
    g.fails(pz.Modify(1, ((0, 1), (1, 1), (2, 1))), pz.IllegalModifier)
    g.fails(pz.Modify(1, ((3, 1),)), pz.IllegalModifier)
    g.do(pz.Modify(1, ((0, 1), (1, -1))))
    assert g.seat(1).hand == (1, 6, 3)


def test_a_cheat_excludes_luck_and_needs_gamble() -> None:
    g = Game(pz.PegazSettings(), [P(1, luck=True, gamble=True), P(2, luck=True), P(3)])
    g.start((6, 1, 3), (4, 4, 4), (1, 2, 3))
    # a +-2 move together with a Luck shift is not allowed, nor a +-2 as a plain shift
    assert g.fails(pz.Modify(1, ((0, 2), (1, 1))), pz.IllegalModifier).params["reason"] == "size"
    assert g.fails(pz.Modify(1, ((0, 2),)), pz.IllegalModifier).params["reason"] == "size"
    assert g.fails(pz.Cheat(1, 0, 1), pz.IllegalModifier).params["reason"] == "size"
    # only Gamble holders may cheat
    assert g.fails(pz.Cheat(2, 0, 2), pz.IllegalModifier).params == {"reason": "needs_gamble"}
    # player 3 has no trait at all: never asked
    g.fails(pz.Cheat(3, 0, 2), NotYourTurn)
    # the cheat itself: 6 + 2 wraps to 2; nobody notices (player 2 has 0 Perception)
    evs = g.do(pz.Cheat(1, 0, 2), Script(rolls(50, 50)))
    assert g.seat(1).hand == (2, 1, 3)
    assert g.kinds(evs) == ["modifier_chosen", "detection"]
    # and nothing else that deal
    g.fails(pz.Modify(1, ((1, 1),)), NotYourTurn)


def test_after_an_exchange_only_the_new_cards_may_be_modified() -> None:
    g = Game(pz.PegazSettings(), [P(1, luck=True, gamble=True), P(2)])
    g.start((6, 1, 3), (1, 2, 3))
    g.do(pz.Keep(1))
    evs = g.do(pz.Exchange(1, (2,), g.state.stake), Script(faces(5)))
    assert g.kinds(evs) == ["exchanged", "drew"]
    assert pz.to_act(g.state) == (1,)
    assert pz.whose_turn(g.state) is None
    g.fails(pz.Exchange(1, (), g.state.stake), WrongPhase)
    g.fails(pz.Fold(2), NotYourTurn)
    g.fails(pz.Modify(1, ((0, 1),)), pz.IllegalModifier)
    g.fails(pz.Modify(1, ((2, 1), (1, 1))), pz.IllegalModifier)
    evs = g.do(pz.Modify(1, ((2, 1),)))
    assert g.seat(1).hand == (6, 1, 6)
    assert pz.whose_turn(g.state) == 2
    # exchanging no cards gives no modifier step
    g.do(pz.Exchange(2, (), g.state.stake))
    g.do(pz.Exchange(1, (), g.state.stake))
    assert pz.whose_turn(g.state) == 2


def test_timeouts_keep_then_fold() -> None:
    g = Game(pz.PegazSettings(), [P(1, luck=True), P(2), P(3)])
    g.start((6, 1, 3), (1, 2, 3), (1, 2, 3))
    evs = g.do(pz.Timeout(1))
    assert evs[0] == pz.ModifierChosen(1, (), timeout=True)
    assert g.seat(1).hand == (6, 1, 3)
    g.fails(pz.Timeout(2), NotYourTurn)
    evs = g.do(pz.Timeout(1))
    assert evs[0] == pz.Folded(1, "timeout")
    assert g.seat(1).status is pz.SeatStatus.FOLDED
    assert pz.whose_turn(g.state) == 2


# --- detection ----------------------------------------------------------------------------------


def test_detection_rolls_and_expulsion() -> None:
    s = pz.PegazSettings(detection_modifier=10)
    g = Game(s, [P(1, gamble=True), P(2, perception=40), P(3, perception=25), P(4, perception=90)])
    g.start((3, 3, 1), (1, 2, 3), (1, 2, 3), (1, 2, 3))
    pot = g.state.pot
    evs = g.do(pz.Cheat(1, 2, 2), Script(rolls(51, 35, 100)))
    assert g.kinds(evs) == ["modifier_chosen", "detection", "caught", "expelled", "turn"]
    det = evs[1]
    assert isinstance(det, pz.Detection)
    assert [(r.player, r.roll, r.target, r.success) for r in det.rolls] == [
        (2, 51, 50, False),
        (3, 35, 35, True),
        (4, 100, 100, True),
    ]
    assert evs[2] == pz.Caught(1, (3, 4))
    assert pz.audience(det) == "gm" and pz.audience(evs[2]) == "public"
    assert g.seat(1).status is pz.SeatStatus.EXPELLED
    assert g.seat(1).hand == ()
    assert g.state.pot == pot  # the cheater's stake stays in the pot
    assert pz.whose_turn(g.state) == 2


def test_only_players_still_in_the_game_watch() -> None:
    g = Game(pz.PegazSettings(), [P(1, luck=True, gamble=True), P(2, perception=100), P(3)])
    g.start((3, 3, 1), (1, 2, 3), (1, 2, 3))
    g.do(pz.Keep(1))
    g.do(pz.Exchange(1, (), g.state.stake))
    g.do(pz.Fold(2))
    g.do(pz.Exchange(3, (), g.state.stake))
    g.do(pz.Exchange(1, (0,), g.state.stake), Script(faces(4)))
    evs = g.do(pz.Cheat(1, 0, 2), Script(rolls(100)))  # only player 3 rolls
    det = evs[1]
    assert isinstance(det, pz.Detection)
    assert [r.player for r in det.rolls] == [3]
    assert g.seat(1).hand == (6, 3, 1)


def test_gm_ruling_pardon_undoes_the_cheat() -> None:
    g = Game(pz.PegazSettings(cheat_ruling="gm"), [P(1, gamble=True), P(2, perception=50), P(3)])
    g.start((5, 3, 1), (1, 2, 3), (1, 2, 3))
    evs = g.do(pz.Cheat(1, 0, 2), Script(rolls(10, 99)))
    assert g.kinds(evs) == ["modifier_chosen", "detection", "caught", "ruling_requested"]
    assert g.state.rulings == (1,)
    assert g.seat(1).hand == (1, 3, 1)
    assert pz.whose_turn(g.state) is None
    assert pz.legal_actions(g.state) == [pz.RuleOnCheat(True, 1), pz.RuleOnCheat(False, 1)]
    g.fails(pz.RuleOnCheat(True, 2), WrongPhase)
    evs = g.do(pz.RuleOnCheat(expel=False))
    assert g.kinds(evs) == ["ruled", "turn"]
    assert g.seat(1).hand == (5, 3, 1)
    assert g.seat(1).status is pz.SeatStatus.ACTIVE
    g.fails(pz.RuleOnCheat(True), WrongPhase)


def test_gm_ruling_expel_waits_for_the_turn() -> None:
    g = Game(pz.PegazSettings(cheat_ruling="gm"), [P(1, perception=50), P(2, gamble=True), P(3)])
    g.start((5, 3, 1), (1, 2, 3), (1, 2, 3))
    g.do(pz.Keep(2))
    g.do(pz.Exchange(1, (), g.state.stake))
    g.do(pz.Exchange(2, (1,), g.state.stake), Script(faces(2)))
    g.do(pz.Cheat(2, 1, 2), Script(rolls(1, 100)))
    g.fails(pz.Exchange(3, (), g.state.stake), WrongPhase)
    evs = g.do(pz.RuleOnCheat(expel=True))
    assert g.kinds(evs) == ["ruled", "expelled", "turn"]
    assert pz.whose_turn(g.state) == 3


@pytest.mark.parametrize("tie", ["split", "rollover"])
def test_last_two_both_expelled_roll_the_pot_over(tie: str) -> None:
    s = pz.PegazSettings(cheat_ruling="gm", tie=tie)  # type: ignore[arg-type]
    g = Game(s, [P(1, gamble=True, perception=100), P(2, gamble=True, perception=100)])
    g.start((5, 3, 1), (1, 2, 3))
    g.do(pz.Cheat(1, 0, 2), Script(rolls(1)))
    g.do(pz.Cheat(2, 0, 2), Script(rolls(1)))
    g.do(pz.RuleOnCheat(True, 1))
    assert not pz.is_settled(g.state)  # player 2 still awaits the ruling
    evs = g.do(pz.RuleOnCheat(True, 2))
    end = evs[-1]
    assert isinstance(end, pz.GameEnded)
    assert end.players == (1, 2) and end.expelled
    # no cheater takes a coin, whatever the tie setting: the pot waits for the next game
    assert (end.amounts, end.rolled_over, g.state.pot) == ((0, 0), 24, 24)
    assert transfers(evs) == [] and g.state.offers == () and g.state.winners == ()
    assert pz.is_over(g.state) and g.state.rolled_over == 24 and pz.expelled_all(g.state)
