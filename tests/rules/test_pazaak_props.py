"""Pazaak properties over random legal matches (Hypothesis picks settings, selections and seeds).

Each match is played by a random policy over ``legal_actions`` plus the odd Timeout or Forfeit.
Before every move a batch of illegal actions is tried: each must raise its typed error without
touching the state or the RNG. At the end: the match ended within a bound, money was conserved,
and the event log replays (also through JSON) to the live state.
"""

import dataclasses
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot.rules import pazaak as pz
from bot.rules.common import POT, Account, GameOver, NotSeated, NotYourTurn, RulesError
from bot.rules.pazaak import (
    ALL_SIDE_CARDS,
    MAIN_POOL,
    EndTurn,
    Event,
    Forfeit,
    PazaakSettings,
    PazaakState,
    PlayCard,
    SideCard,
    Stand,
    Timeout,
)

A, B, STRANGER = 7, 8, 9
PURSE = 10_000
SET_CAP = 12
"""Tied sets score nothing, so a match has no natural length: past this set the test forfeits."""
ACTIONS_PER_SET = 200
"""A set must end within this many actions (a turn is a draw, at most one card, and an end)."""

CLASSIC = [side for side in ALL_SIDE_CARDS if not side.is_kotor2]


@st.composite
def setups(draw: st.DrawFn) -> tuple[PazaakSettings, tuple[SideCard, ...], tuple[SideCard, ...]]:
    table = draw(
        st.builds(
            PazaakSettings,
            wager=st.integers(0, 500),
            main_deck=st.sampled_from(["pool", "infinite"]),
            kotor2_cards=st.booleans(),
            nine_card_win=st.booleans(),
            starter=st.sampled_from(["alternate", "loser"]),
            sets_to_win=st.integers(1, 3),
            timeouts_to_forfeit=st.integers(1, 3),
        )
    )
    cards = st.sampled_from(ALL_SIDE_CARDS if table.kotor2_cards else CLASSIC)
    selection = st.lists(cards, min_size=10, max_size=10).map(tuple)
    return table, draw(selection), draw(selection)


def refused(
    state: PazaakState, action: pz.Action, error: type[RulesError], rng: random.Random
) -> None:
    """``action`` raises ``error`` and changes nothing: not the state, not the RNG."""
    before, rng_before = state, rng.getstate()
    with pytest.raises(error):
        pz.apply(state, action, rng)
    assert rng.getstate() == rng_before
    assert state is before and pz.legal_actions(state) == pz.legal_actions(before)


def try_illegal_actions(state: PazaakState, rng: random.Random) -> None:
    turn = state.turn_seat
    me, other = state.players[turn], state.players[1 - turn]
    out_of_turn = pz.AlreadyStanding if other.standing else NotYourTurn
    for action in (EndTurn(other.id), Stand(other.id), PlayCard(other.id, 0, 1)):
        refused(state, action, out_of_turn, rng)
    refused(state, EndTurn(STRANGER), NotSeated, rng)
    if me.played_card_this_turn:
        if me.hand:
            refused(state, PlayCard(me.id, 0, 1), pz.CardAlreadyPlayedThisTurn, rng)
        return
    refused(state, PlayCard(me.id, len(me.hand)), pz.NoSuchCard, rng)
    for index, side in enumerate(me.hand):
        refused(state, PlayCard(me.id, index, 11), pz.IllegalCardValue, rng)  # no card counts 11
        if len(side.values) > 1:
            refused(state, PlayCard(me.id, index, None), pz.IllegalCardValue, rng)
        else:  # one spelling per play: None, never the card's own value
            own = pz.play_terms(state, PlayCard(me.id, index))[1]
            refused(state, PlayCard(me.id, index, own), pz.IllegalCardValue, rng)
        if side.kind == "double":
            bare = dataclasses.replace(me, table=())
            players = (bare, other) if turn == 0 else (other, bare)
            emptied = dataclasses.replace(state, players=players)
            refused(emptied, PlayCard(me.id, index), pz.DoubleOnEmptyTable, rng)


def check_invariants(state: PazaakState) -> None:
    rules = state.settings
    for player in state.players:
        assert player.sets_won <= rules.sets_to_win
        assert not Counter(player.hand) - Counter(player.selection)
        if player.standing and not pz.is_over(state):
            assert player.total <= 20
    unseen = pz.unseen_pool(pz.view(state, None))  # from public information only
    if rules.main_deck == "pool":
        drawn = [c.chosen for p in state.players for c in p.table if c.side is None]
        assert Counter(state.pool) + Counter(drawn) == Counter(MAIN_POOL)
        assert unseen == tuple(Counter(state.pool)[value] for value in range(1, 11))
    else:
        assert state.pool == () and unseen == (1,) * 10


def choose(state: PazaakState, policy: random.Random) -> pz.Action:
    player = state.current_player
    assert player is not None
    if state.set_number > SET_CAP:
        return Forfeit(policy.choice((A, B)))
    roll = policy.random()
    if roll < 0.04:
        return Timeout(player)
    if roll < 0.05:
        return Forfeit(policy.choice((A, B)))
    return policy.choice([a for a in pz.legal_actions(state) if not isinstance(a, Forfeit)])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups(), seed=st.integers(0, 2**32 - 1))
def test_random_matches(
    setup: tuple[PazaakSettings, tuple[SideCard, ...], tuple[SideCard, ...]], seed: int
) -> None:
    table, selection_a, selection_b = setup
    rng, policy = random.Random(seed), random.Random(~seed)
    accounts: dict[Account, int] = {A: PURSE, B: PURSE, POT: 0}

    def book(events: list[Event], state: PazaakState) -> None:
        for happened in events:
            for transfer in pz.transfers(happened):
                assert type(transfer.amount) is int and transfer.amount > 0
                accounts[transfer.source] -= transfer.amount
                accounts[transfer.target] += transfer.amount
        assert sum(accounts.values()) == 2 * PURSE
        assert accounts[POT] == state.pot

    state, log = pz.new_match(table, A, selection_a, B, selection_b, rng)
    book(log, state)
    assert state.pot == 2 * table.wager
    set_number, actions_this_set = state.set_number, 0
    while not pz.is_over(state):
        try_illegal_actions(state, rng)
        state, events = pz.apply(state, choose(state, policy), rng)
        log += events
        book(events, state)
        check_invariants(state)
        if state.set_number == set_number:
            actions_this_set += 1
            assert actions_this_set <= ACTIONS_PER_SET
        else:
            set_number, actions_this_set = state.set_number, 0

    assert state.set_number <= SET_CAP + 1
    assert state.winner in (A, B) and state.pot == 0 and accounts[POT] == 0
    assert accounts[state.winner] == PURSE + table.wager
    assert pz.legal_actions(state) == []
    for action in (EndTurn(A), Stand(B), PlayCard(A, 0, 1), Forfeit(B), Timeout(A)):
        refused(state, action, GameOver, rng)

    ended = log[-1]
    assert isinstance(ended, pz.MatchEnded)
    event(f"match ended by {ended.reason}")
    for reason in sorted({e.reason for e in log if isinstance(e, pz.SetEnded)}):
        event(f"a set ended by {reason}")

    assert pz.replay(log) == state
    loaded = pz.load_events(pz.dump_events(log))
    assert loaded == log
    assert pz.replay(loaded) == state
