"""Three-Card Pegasus rules: settings, payments, modifiers, detection, checks, the end."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

import pytest

from bot.rules import pegaz as pz
from bot.rules.common import (
    OFFERING,
    POT,
    AlreadySeated,
    GameOver,
    InsufficientFunds,
    InvalidSettings,
    NotSeated,
    NotYourTurn,
    RulesError,
    Transfer,
    WrongPhase,
)


class Script(random.Random):
    """An RNG that returns the given ``randrange`` results in order (dice: face - 1)."""

    def __init__(self, values: Iterable[int]) -> None:
        super().__init__(0)
        self.values = list(values)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:  # type: ignore[override]
        n = start if stop is None else stop - start
        v = self.values.pop(0)
        assert 0 <= v < n, (v, n)
        return v


def faces(*cards: int) -> list[int]:
    return [c - 1 for c in cards]


def rolls(*d100: int) -> list[int]:
    return [r - 1 for r in d100]


@dataclass
class P:
    id: int
    luck: bool = False
    gamble: bool = False
    perception: int = 0
    funds: int = 1000


class Game:
    """A live table plus its event log; every step also checks the replay."""

    def __init__(self, settings: pz.PegazSettings, players: list[P]) -> None:
        self.state, self.events = pz.new_table(settings)
        for p in players:
            self.do(pz.Join(p.id, p.luck, p.gamble, p.perception, p.funds))

    def do(self, action: pz.Action, rng: random.Random | None = None) -> list[pz.Event]:
        self.state, evs = pz.apply(self.state, action, rng or Script([]))
        self.events += evs
        assert pz.replay(self.events) == self.state
        return evs

    def start(self, *hands: tuple[int, int, int]) -> list[pz.Event]:
        return self.do(pz.Start(0), Script(faces(*(f for h in hands for f in h))))

    def fails(self, action: pz.Action, error: type[RulesError]) -> RulesError:
        before = self.state
        with pytest.raises(error) as info:
            pz.apply(self.state, action, Script([]))
        assert self.state == before
        return info.value

    def seat(self, player: int) -> pz.Seat:
        return pz.seat_of(self.state, player)

    def kinds(self, evs: list[pz.Event]) -> list[str]:
        return [e.kind for e in evs]


def transfers(evs: Iterable[pz.Event]) -> list[Transfer]:
    return [t for e in evs for t in pz.transfers(e)]


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
    g.do(pz.Exchange(2, ()))
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
    err = g.fails(pz.Exchange(1, (0, 1)), InsufficientFunds)
    assert err.params == {"needed": 36, "available": 28}
    g.do(pz.Exchange(1, (0,)), Script(faces(5)))


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
    g.fails(pz.Exchange(1, ()), WrongPhase)
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
    evs = g.do(pz.Exchange(1, (2,)), Script(faces(5)))
    assert g.kinds(evs) == ["exchanged", "drew"]
    assert pz.to_act(g.state) == (1,)
    assert pz.whose_turn(g.state) is None
    g.fails(pz.Exchange(1, ()), WrongPhase)
    g.fails(pz.Fold(2), NotYourTurn)
    g.fails(pz.Modify(1, ((0, 1),)), pz.IllegalModifier)
    g.fails(pz.Modify(1, ((2, 1), (1, 1))), pz.IllegalModifier)
    evs = g.do(pz.Modify(1, ((2, 1),)))
    assert g.seat(1).hand == (6, 1, 6)
    assert pz.whose_turn(g.state) == 2
    # exchanging no cards gives no modifier step
    g.do(pz.Exchange(2, ()))
    g.do(pz.Exchange(1, ()))
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
    g.do(pz.Exchange(1, ()))
    g.do(pz.Fold(2))
    g.do(pz.Exchange(3, ()))
    g.do(pz.Exchange(1, (0,)), Script(faces(4)))
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
    assert pz.awaiting_ruling(g.state) == (1,)
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
    g.do(pz.Exchange(1, ()))
    g.do(pz.Exchange(2, (1,)), Script(faces(2)))
    g.do(pz.Cheat(2, 1, 2), Script(rolls(1, 100)))
    g.fails(pz.Exchange(3, ()), WrongPhase)
    evs = g.do(pz.RuleOnCheat(expel=True))
    assert g.kinds(evs) == ["ruled", "expelled", "turn"]
    assert pz.whose_turn(g.state) == 3


@pytest.mark.parametrize("tie", ["split", "rollover"])
def test_last_two_both_expelled_is_a_tie(tie: str) -> None:
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
    assert end.players == (1, 2)
    if tie == "split":
        assert end.amounts == (12, 12)
    else:
        assert (end.amounts, end.rolled_over, g.state.pot) == ((0, 0), 24, 24)


# --- checks and the end -------------------------------------------------------------------------


def two_rounds(g: Game, players: list[int]) -> None:
    for p in players:
        g.do(pz.Exchange(p, ()))


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
    g.do(pz.Exchange(2, ()))
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
    g.do(pz.Exchange(2, ()))
    g.do(pz.Exchange(3, ()))
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
    assert g.state.winners == ()


def test_the_check_phase_after_the_last_exchange_round() -> None:
    g = Game(pz.PegazSettings(exchanges=1), [P(1), P(2), P(3)])
    g.start((1, 2, 4), (1, 2, 3), (6, 6, 6))
    two_rounds(g, [1, 2, 3])
    assert g.state.phase is pz.Phase.CHECKS
    g.fails(pz.Exchange(1, ()), WrongPhase)
    assert {type(a) for a in pz.legal_actions(g.state)} == {pz.Check, pz.Fold}
    g.do(pz.Fold(1))
    g.do(pz.Check(2, 3))
    assert g.state.phase is pz.Phase.OFFERING
    assert g.state.winners == (3,)


def test_unlimited_exchanges_end_after_a_round_without_exchanges() -> None:
    g = Game(pz.PegazSettings.wild(), [P(1), P(2)])
    g.start((1, 2, 4), (1, 2, 3))
    g.do(pz.Exchange(1, (0,)), Script(faces(1)))
    g.do(pz.Exchange(2, ()))
    assert g.state.phase is pz.Phase.EXCHANGE and g.state.round == 2
    g.do(pz.Exchange(1, ()))
    g.do(pz.Exchange(2, ()))
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
    g.do(pz.Exchange(1, ()))
    evs = g.do(pz.Exchange(2, ()))
    assert evs[1:] == [
        pz.TurnStarted(1, 2, "checks"),
        pz.Folded(1, "cannot_check"),
        pz.GameEnded((2,), (48,)),
    ]
    assert g.state.winners == (2,)


def test_cannot_check_is_a_forced_fold() -> None:
    g = Game(pz.PegazSettings(exchanges=1), [P(1, funds=12 + 12 + 35), P(2), P(3)])
    g.start((1, 2, 3), (1, 2, 4), (1, 2, 5))
    evs = g.do(pz.Exchange(1, ()))
    evs += g.do(pz.Exchange(2, ()))
    evs += g.do(pz.Exchange(3, ()))
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
    old = g.seat(1).hand
    evs = g.do(pz.Exchange(1, (0, 1)), rng)
    assert g.kinds(evs) == ["exchanged", "reshuffled", "drew", "turn"]
    assert evs[1] == pz.Reshuffled(2)
    assert sorted(g.seat(1).hand) == sorted(old)  # only those two cards were left to draw
    g.do(pz.Fold(2), rng)
    assert sum(g.state.discard) == 3 and sum(g.state.deck) == 0
    in_hands = sum(len(s.hand) for s in g.state.seats)
    assert in_hands + sum(g.state.discard) + sum(g.state.deck) == 24


def test_deck_counts_follow_the_draws() -> None:
    g = Game(pz.PegazSettings(source="deck", die=8), [P(1), P(2)])
    g.do(pz.Start(1), random.Random(1))
    assert sum(g.state.deck) == 32 - 6
    g.do(pz.Exchange(1, (0, 1, 2)), random.Random(2))
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


def test_visibility_of_hands_and_events() -> None:
    g = Game(pz.PegazSettings(), [P(1), P(2)])
    evs = g.start((5, 3, 1), (1, 2, 3))
    assert pz.visible_hand(g.state, 1, 1) == (5, 3, 1)
    assert pz.visible_hand(g.state, 2, 1) is None
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
    g.fails(pz.Exchange(1, ()), InsufficientFunds)
    g.fails(pz.SyncFunds(((9, 5),)), NotSeated)
    g.fails(pz.SyncFunds(((1, -1),)), pz.InvalidPlayer)
    g.do(pz.Fold(1))
    assert g.state.phase is pz.Phase.OFFERING
    assert pz.funds_sync(g.state, {2: 0}) is None
    assert g.do(pz.SyncFunds(((2, 0),))) == []
