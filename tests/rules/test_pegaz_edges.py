"""Rules edge cases (issue 11): bounded settings, values of the wrong kind, a game in which every
player still in is expelled, and old event logs (rules version 1) that still replay as played."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from bot.rules import pazaak
from bot.rules import pegaz as pz
from bot.rules.common import POT, InvalidSettings, InvalidValue, RulesError
from bot.rules.pazaak.state import (
    MAX_SETS_TO_WIN,
    MAX_TIMEOUTS_TO_FORFEIT,
    MAX_TURN_TIMEOUT,
    MAX_WAGER,
    MIN_TURN_TIMEOUT,
)
from tests.rules.pegaz_script import Game, P, Script

# --- 9: every numeric setting is bounded ---------------------------------------------------------


@pytest.mark.parametrize(
    "bad",
    [
        {"exchanges": pz.MAX_EXCHANGES + 1},
        {"exchanges": 10**30},
        {"stake": pz.MAX_STAKE + 1},
        {"raise_limit": pz.MAX_RAISE_LIMIT + 1},
        {"max_stake": pz.MAX_STAKE + 1},
        {"turn_timeout": pz.MAX_TURN_TIMEOUT + 1},
        {"turn_timeout": pz.MIN_TURN_TIMEOUT - 1},
        {"detection_modifier": pz.MAX_DETECTION_MODIFIER + 1},
        {"stake": True},
        {"exchanges": 2.0},
    ],
)
def test_pegaz_settings_out_of_bounds_are_refused(bad: dict[str, object]) -> None:
    with pytest.raises(InvalidSettings) as info:
        pz.PegazSettings.parse(bad)
    assert info.value.params["field"] == next(iter(bad))


def test_pegaz_settings_at_the_bounds_are_accepted() -> None:
    top = pz.PegazSettings.parse(
        {
            "stake": pz.MAX_STAKE,
            "exchanges": pz.MAX_EXCHANGES,
            "raise_limit": pz.MAX_RAISE_LIMIT,
            "max_stake": pz.MAX_STAKE,
            "turn_timeout": pz.MAX_TURN_TIMEOUT,
            "detection_modifier": -pz.MAX_DETECTION_MODIFIER,
        }
    )
    assert (top.exchanges, top.turn_timeout) == (pz.MAX_EXCHANGES, pz.MAX_TURN_TIMEOUT)
    assert pz.PegazSettings(turn_timeout=pz.MIN_TURN_TIMEOUT, exchanges=1).exchanges == 1
    assert pz.PegazSettings.wild().exchanges is None


@given(st.integers(-(10**40), 10**40), st.sampled_from(["exchanges", "stake", "turn_timeout"]))
def test_pegaz_settings_accept_exactly_their_bounds(value: int, field: str) -> None:
    low, high = {
        "exchanges": (1, pz.MAX_EXCHANGES),
        "stake": (1, pz.MAX_STAKE),
        "turn_timeout": (pz.MIN_TURN_TIMEOUT, pz.MAX_TURN_TIMEOUT),
    }[field]
    try:
        made = pz.PegazSettings.parse({field: value})
    except InvalidSettings:
        assert not low <= value <= high
    else:
        assert low <= value <= high and getattr(made, field) == value


@given(
    st.sampled_from(["wager", "sets_to_win", "turn_timeout", "timeouts_to_forfeit"]),
    st.integers(0, 10**40),
)
def test_pazaak_settings_accept_exactly_their_bounds(field: str, value: int) -> None:
    low, high = {
        "wager": (0, MAX_WAGER),
        "sets_to_win": (1, MAX_SETS_TO_WIN),
        "turn_timeout": (MIN_TURN_TIMEOUT, MAX_TURN_TIMEOUT),
        "timeouts_to_forfeit": (1, MAX_TIMEOUTS_TO_FORFEIT),
    }[field]
    try:
        made = pazaak.PazaakSettings.parse({field: value})
    except InvalidSettings as err:
        assert not low <= value <= high and err.params["field"] == field
    else:
        assert low <= value <= high and getattr(made, field) == value


def test_a_stored_table_opened_before_the_bounds_still_loads() -> None:
    old = pz.PegazSettings(exchanges=100, turn_timeout=10**7)  # as a log from before reads back
    (opened,) = pz.load_events(pz.dump_events([pz.TableOpened(old)]))
    assert isinstance(opened, pz.TableOpened) and opened.settings == old
    state = pz.replay([opened])
    snapshot = TypeAdapter(pz.PegazState)  # the services' state snapshots
    assert snapshot.validate_json(snapshot.dump_json(state)) == state
    with pytest.raises(InvalidSettings) as info:  # but no new table opens so
        pz.new_table(old)
    assert info.value.params["field"] == "exchanges"
    with pytest.raises(InvalidSettings):
        pz.PegazSettings.parse(old.model_dump())
    match = pazaak.PazaakSettings(wager=10**30, sets_to_win=50)
    started = pazaak.MatchStarted(match, (1, 2), ((), ()))
    (loaded,) = pazaak.load_events(pazaak.dump_events([started]))
    assert isinstance(loaded, pazaak.MatchStarted) and loaded.settings.wager == 10**30
    sel = pazaak.STARTER_COLLECTION[: pazaak.SELECTION_SIZE]
    with pytest.raises(InvalidSettings):
        pazaak.new_match(match, 1, sel, 2, sel, random.Random(1))


# --- 21: amounts, cards and shifts are whole numbers ---------------------------------------------

bad_numbers = st.one_of(
    st.integers(-3, 200).map(float),  # 2.0 == 2: the float that passed as an int
    st.floats(allow_nan=False),
    st.booleans(),
    st.fractions(),
    st.just("12"),
)


def _seated() -> Game:
    return Game(pz.PegazSettings(), [P(1, luck=True, gamble=True), P(2), P(3)])


def _pending() -> Game:
    g = _seated()
    g.start((2, 3, 5), (1, 1, 4), (6, 2, 3))
    return g


def _on_turn() -> Game:
    g = _pending()
    g.do(pz.Keep(1))
    return g


def _cases(x: object) -> list[tuple[Game, pz.Action, pz.Action]]:
    """(game, a legal action, the same action with one value replaced by ``x``)."""
    seated, pending, turn = _seated(), _pending(), _on_turn()
    good_join = pz.Join(5, False, True, 50, 100)
    bools: list[tuple[Game, pz.Action, pz.Action]] = []
    if type(x) is not bool:  # a yes/no must be a bool; True is a fine one
        bools = [(seated, good_join, pz.Join(5, x, True, 50, 100))]  # type: ignore[arg-type]
    return [
        *bools,
        (seated, good_join, pz.Join(5, False, True, 50, x)),  # type: ignore[arg-type]
        (seated, good_join, pz.Join(5, False, True, x, 100)),  # type: ignore[arg-type]
        (seated, good_join, pz.Join(x, False, True, 50, 100)),  # type: ignore[arg-type]
        (pending, pz.Modify(1, ((0, 1),)), pz.Modify(1, ((0, x),))),  # type: ignore[arg-type]
        (pending, pz.Modify(1, ((0, 1),)), pz.Modify(1, ((x, 1),))),  # type: ignore[arg-type]
        (pending, pz.Cheat(1, 0, 2), pz.Cheat(1, 0, x)),  # type: ignore[arg-type]
        (pending, pz.Cheat(1, 0, 2), pz.Cheat(1, x, 2)),  # type: ignore[arg-type]
        (turn, pz.Exchange(1, (0,), 13), pz.Exchange(1, (0,), x)),  # type: ignore[arg-type]
        (turn, pz.Exchange(1, (0,), 13), pz.Exchange(1, (x,), 13)),  # type: ignore[arg-type]
        (turn, pz.Fold(1), pz.Fold(x)),  # type: ignore[arg-type]
        (turn, pz.SyncFunds(((2, 500),)), pz.SyncFunds(((2, x),))),  # type: ignore[arg-type]
    ]


@settings(max_examples=60, deadline=None)
@given(bad_numbers)
def test_pegaz_refuses_values_that_are_not_whole_numbers(x: object) -> None:
    for game, good, bad in _cases(x):
        pz.apply(game.state, good, random.Random(1))  # the good twin is accepted
        before = game.state
        with pytest.raises(InvalidValue):
            pz.apply(game.state, bad, random.Random(1))
        assert game.state == before


@pytest.mark.parametrize(
    "bad",
    [
        pz.Exchange(1, (0,), 12.5),  # type: ignore[arg-type]
        pz.Exchange(1, (True,), 12),  # type: ignore[arg-type]
        pz.Join(5, False, False, 0, 100.5),  # type: ignore[arg-type]
        pz.Join(5, False, False, 0, True),  # type: ignore[arg-type]
        pz.Modify(1, ((0, 1.5),)),  # type: ignore[arg-type]
        pz.Check(1, 2.0),  # type: ignore[arg-type]
    ],
)
def test_the_issues_examples_are_refused(bad: pz.Action) -> None:
    game = _seated() if isinstance(bad, pz.Join) else _pending()
    if isinstance(bad, pz.Exchange | pz.Check):
        game = _on_turn()
    with pytest.raises(RulesError) as info:
        pz.apply(game.state, bad, random.Random(1))
    assert info.value.code == "invalid_value"


def _match() -> tuple[pazaak.PazaakState, int]:
    sel = pazaak.STARTER_COLLECTION[: pazaak.SELECTION_SIZE]
    state, _ = pazaak.new_match(pazaak.PazaakSettings(), 1, sel, 2, sel, random.Random(3))
    player = state.current_player
    assert player is not None
    return state, player


@settings(max_examples=60, deadline=None)
@given(bad_numbers)
def test_pazaak_refuses_values_that_are_not_whole_numbers(x: Any) -> None:
    state, player = _match()
    card = state.players[state.turn_seat].hand[0]
    value = card.values[0]
    pazaak.apply(state, pazaak.PlayCard(player, 0), random.Random(1))
    for bad in (
        pazaak.PlayCard(player, 0, x),
        pazaak.PlayCard(player, x, value),
        pazaak.EndTurn(x),
        pazaak.Forfeit(x),
    ):
        with pytest.raises(InvalidValue):
            pazaak.apply(state, bad, random.Random(1))
    with pytest.raises(InvalidValue):
        pazaak.new_match(pazaak.PazaakSettings(), x, (), 2, (), random.Random(1))


def test_pazaak_card_value_two_point_oh_is_refused() -> None:
    state, player = _match()
    value = state.players[state.turn_seat].hand[0].values[0]
    with pytest.raises(InvalidValue) as info:
        pazaak.apply(state, pazaak.PlayCard(player, 0, float(value)), random.Random(1))  # type: ignore[arg-type]
    assert info.value.params == {"field": "value"}


# --- 23: everyone still in is expelled ----------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(
    st.randoms(use_true_random=False),
    st.integers(2, 8),
    st.sampled_from(["split", "rollover"]),
    st.sampled_from(["dice", "deck"]),
    st.integers(0, 50),
)
def test_money_is_conserved_when_everyone_is_expelled(
    rng: random.Random, n: int, tie: str, source: str, carried: int
) -> None:
    config = pz.PegazSettings(
        cheat_ruling="gm",
        tie=tie,  # type: ignore[arg-type]
        source=source,  # type: ignore[arg-type]
        carried_pot=carried,
    )
    purses = {p: rng.randrange(12, 500) for p in range(1, n + 1)}
    g = Game(config, [P(p, gamble=True, perception=100, funds=f) for p, f in purses.items()])
    total = sum(purses.values()) + carried
    g.do(pz.Start(1), rng)
    for p in purses:
        g.do(pz.Cheat(p, rng.randrange(3), rng.choice((-2, 2))), rng)
    assert set(g.state.rulings) == set(purses)  # Perception 100 catches every cheat
    order = list(purses)
    rng.shuffle(order)
    for p in order:
        g.do(pz.RuleOnCheat(True, p), rng)
        assert sum(s.funds for s in g.state.seats) + g.state.pot == total
    end = g.events[-1]
    assert isinstance(end, pz.GameEnded)
    pot = carried + 12 * n
    assert end.expelled and set(end.players) == set(order[-2:])  # the last two out
    assert end.amounts == (0, 0) and end.rolled_over == pot
    assert g.state.pot == g.state.rolled_over == pot
    assert pz.is_over(g.state) and g.state.winners == () and g.state.offers == ()
    assert all(not pz.transfers(e) or pz.transfers(e)[0].target == POT for e in g.events)
    assert {s.player: s.funds for s in g.state.seats} == {p: f - 12 for p, f in purses.items()}
    assert pz.replay(pz.load_events(pz.dump_events(g.events))) == g.state


# --- old logs (rules version 1) replay as they were played ---------------------------------------


class OldGame(Game):
    """A table opened under rules version 1 (its TableOpened has no version)."""

    def __init__(self, config: pz.PegazSettings, players: list[P]) -> None:
        self.state, self.events = pz.initial_state(config, 1), [pz.TableOpened(config)]
        for p in players:
            self.do(pz.Join(p.id, p.luck, p.gamble, p.perception, p.funds))


def test_a_version_1_log_loads_as_version_1() -> None:
    data = b'[{"kind": "table_opened", "settings": {"source": "deck"}}]'
    (opened,) = pz.load_events(data)
    assert isinstance(opened, pz.TableOpened) and opened.rules_version == 1
    assert pz.replay([opened]).rules_version == 1
    _, fresh = pz.new_table(pz.PegazSettings())
    assert fresh == [pz.TableOpened(pz.PegazSettings(), pz.RULES_VERSION)]


def test_a_version_1_table_goes_on_by_version_1_rules() -> None:
    g = OldGame(pz.PegazSettings(source="deck"), [P(i) for i in range(1, 9)])
    g.do(pz.Start(1), random.Random(5))
    old = g.seat(1).hand
    assert pz.exchangeable(g.state) == 3
    evs = g.do(pz.Exchange(1, (0, 1), 12), random.Random(5))  # as played then: own cards back
    assert [e.kind for e in evs] == ["exchanged", "reshuffled", "drew", "turn"]
    assert Counter(g.seat(1).hand) == Counter(old)
    assert pz.replay(pz.load_events(pz.dump_events(g.events))) == g.state


def test_a_version_1_table_discarded_moved_faces_and_shared_among_cheaters() -> None:
    config = pz.PegazSettings(source="deck", cheat_ruling="gm")
    g = OldGame(config, [P(1, gamble=True, perception=100), P(2, gamble=True, perception=100)])
    g.do(pz.Start(1), Script([0] * 6))  # the deck's first cards: 1 1 1 / 1 2 2
    g.do(pz.Cheat(1, 0, 2), Script([0]))  # a Snake shown as a Griffin
    g.do(pz.Cheat(2, 0, 2), Script([0]))
    g.do(pz.RuleOnCheat(True, 1))
    assert g.state.discard == (2, 0, 1, 0, 0, 0)  # version 1 discarded what the cards showed
    evs = g.do(pz.RuleOnCheat(True, 2))
    end = evs[-1]
    assert isinstance(end, pz.GameEnded) and end.amounts == (12, 12) and not end.expelled


def test_a_moved_card_is_discarded_as_dealt() -> None:
    g = Game(pz.PegazSettings(source="deck"), [P(1, luck=True), P(2), P(3)])
    g.do(pz.Start(1), Script([0, 0, 0, 0, 0, 0, 0, 0, 0]))  # 1 1 1 / 1 2 2 / 2 2 3 in order
    assert (g.seat(1).hand, g.seat(2).hand, g.seat(3).hand) == ((1, 1, 1), (1, 2, 2), (2, 2, 3))
    g.do(pz.Modify(1, ((0, -1),)))  # a Snake shown as a Pegasus
    assert g.seat(1).hand == (6, 1, 1) and g.seat(1).dealt == (1, 1, 1)
    g.do(pz.Exchange(1, (0,), 12), Script([0]))  # gives up the "Pegasus": a Snake is discarded
    assert g.state.discard == (1, 0, 0, 0, 0, 0)
    g.do(pz.Keep(1))
    g.do(pz.Fold(2))
    assert g.state.discard == (2, 2, 0, 0, 0, 0)
