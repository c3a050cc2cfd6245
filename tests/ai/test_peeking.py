"""The house-edge players (``bot.ai.peeking``): legal, and using what they see."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bot.ai.pazaak as pazaak_ai
import bot.ai.pegaz as pegaz_ai
from bot.ai.peeking import decide_peeking
from bot.rules import pazaak, pegaz
from bot.rules.pazaak.state import PlayerState, TableCard, player_with, state_with
from bot.rules.pegaz.cards import rank_key

DECK = pazaak.parse_side_cards(["+1", "+2", "+3", "+4", "+5", "-1", "-2", "-3", "-4", "-5"])


def _pegaz_table(seed: int, players: int) -> pegaz.PegazState:
    rng = random.Random(seed)
    state, _ = pegaz.new_table(pegaz.PegazSettings(stake=1, exchanges=2))
    for p in range(1, players + 1):
        state, _ = pegaz.apply(state, pegaz.Join(p, p % 2 == 0, p == 3, 30, 60), rng)
    state, _ = pegaz.apply(state, pegaz.Start(1), rng)
    return state


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4))
def test_pegaz_peeker_plays_legal_moves_and_never_checks_a_hand_it_loses_to(
    seed: int, players: int
) -> None:
    rng = random.Random(seed)
    state = _pegaz_table(seed, players)
    honest = pegaz_ai.Style("solid")
    for _ in range(200):
        if pegaz.is_over(state) or not pegaz.to_act(state):
            break
        player = pegaz.to_act(state)[0]
        if player == 1:
            action = decide_peeking(state, 1, honest, rng)
            assert action in pegaz.legal_actions(state)
            if isinstance(action, pegaz.Check):
                mine = rank_key(pegaz.hand_of(state, 1))
                assert mine >= rank_key(pegaz.hand_of(state, action.target))
        else:
            action = pegaz_ai.decide(pegaz.view(state, player), honest, rng)
        state, _ = pegaz.apply(state, action, rng)
    assert pegaz.is_over(state)


def _pazaak_match(seed: int) -> pazaak.PazaakState:
    state, _ = pazaak.new_match(pazaak.PazaakSettings(), 1, DECK, 2, DECK, random.Random(seed))
    return state


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), level=st.sampled_from(["novice", "regular", "master"]))
def test_pazaak_peeker_plays_legal_moves_to_the_end_of_a_match(seed: int, level: str) -> None:
    rng = random.Random(seed)
    state = _pazaak_match(seed)
    style = pazaak_ai.Style(level)  # type: ignore[arg-type]
    for _ in range(400):
        player = state.current_player
        if player is None:
            break
        if player == 1:
            action = decide_peeking(state, 1, style, rng)
            assert action in pazaak.legal_actions(state)
            assert not isinstance(action, pazaak.Forfeit | pazaak.Swap)
        else:
            action = pazaak_ai.decide(pazaak.view(state, player), style, rng)
        state, _ = pazaak.apply(state, action, rng)
    assert state.phase is pazaak.Phase.OVER


def _on_fifteen(next_cards: tuple[int, ...]) -> pazaak.PazaakState:
    """Seat 0 (player 1) on 15 after its draw, holding +3; player 2 stands on 18."""
    state = _pazaak_match(7)
    a, b = state.players
    a = player_with(a, hand=pazaak.parse_side_cards(["+3"]), table=(TableCard(10), TableCard(5)))
    b = player_with(b, table=(TableCard(10), TableCard(8)), standing=True)
    players: tuple[PlayerState, PlayerState] = (a, b)
    return state_with(state, players=players, turn_seat=0, pool=next_cards)


def test_the_pazaak_peeker_reads_the_next_card() -> None:
    rng = random.Random(0)
    style = pazaak_ai.Style("master")
    # The next card, 10, busts any draw: the +3 ties at 18, which beats losing the set.
    assert decide_peeking(_on_fifteen((10, 10, 10)), 1, style, rng) == pazaak.PlayCard(1, 0)
    # The next card is a 5: ending the turn draws it, for 20, and keeps the +3.
    assert decide_peeking(_on_fifteen((5, 10, 10)), 1, style, rng) == pazaak.EndTurn(1)


def test_the_peeker_refuses_a_style_of_the_other_game() -> None:
    with pytest.raises(TypeError):
        decide_peeking(_pazaak_match(1), 1, pegaz_ai.Style("solid"), random.Random(0))
