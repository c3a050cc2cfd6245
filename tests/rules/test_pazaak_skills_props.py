"""Pazaak skills over random matches: Hypothesis picks the settings (skills on), both players'
traits, the detection modifier and the ruling; a policy plays ``legal_actions`` with a taste for
the skills, the GM's verdicts when one is due, and the odd Timeout or Forfeit.

After every step: money is conserved, the pool holds its 80 cards minus those on the tables,
every hand is part of its selection, a swap took a card of the side deck, and each skill was used
at most once per player. The queries agree with the engine, and the log replays to the match.
"""

import random
from collections import Counter

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot.rules import pazaak as pz
from bot.rules.common import POT, Account, RulesError
from bot.rules.pazaak import (
    ALL_SIDE_CARDS,
    MAIN_POOL,
    Event,
    Forfeit,
    PazaakSettings,
    PazaakState,
    Redraw,
    Redrawn,
    RuleOnCheat,
    SideCard,
    Swap,
    Swapped,
    Timeout,
    Traits,
)

A, B = 7, 8
PURSE = 10_000
STEP_CAP = 400
"""Past this many steps the policy forfeits (ties score nothing, so a match has no bound)."""

Setup = tuple[PazaakSettings, tuple[SideCard, ...], tuple[SideCard, ...], tuple[Traits, Traits]]


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    table = draw(
        st.builds(
            PazaakSettings,
            wager=st.integers(0, 500),
            main_deck=st.sampled_from(["pool", "infinite"]),
            nine_card_win=st.booleans(),
            starter=st.sampled_from(["alternate", "loser"]),
            sets_to_win=st.integers(1, 3),
            timeouts_to_forfeit=st.integers(1, 3),
            skills=st.just(True),
            detection_modifier=st.integers(-100, 100),
            cheat_ruling=st.sampled_from(["forfeit", "gm"]),
        )
    )
    # few kinds of card, so that copies (a card both in the hand and in the side deck) are common
    kinds = draw(st.lists(st.sampled_from(ALL_SIDE_CARDS), min_size=1, max_size=6, unique=True))
    selection = st.lists(st.sampled_from(kinds), min_size=10, max_size=10).map(tuple)
    traits = st.builds(
        Traits, luck=st.booleans(), gamble=st.booleans(), perception=st.integers(0, 100)
    )
    return table, draw(selection), draw(selection), (draw(traits), draw(traits))


def choose(state: PazaakState, policy: random.Random, steps: int) -> pz.Action:
    legal = pz.legal_actions(state)
    if state.ruling is not None:
        assert all(isinstance(x, RuleOnCheat) for x in legal) and len(legal) == 3
        return policy.choice([*legal, Forfeit(policy.choice((A, B)))])
    player = state.current_player
    assert player is not None
    if steps > STEP_CAP:
        return Forfeit(policy.choice((A, B)))
    skills = [x for x in legal if isinstance(x, Redraw | Swap)]
    roll = policy.random()
    if skills and roll < 0.5:
        return policy.choice(skills)
    if roll < 0.52:
        return Timeout(player)
    if roll < 0.53:
        return Forfeit(policy.choice((A, B)))
    return policy.choice([x for x in legal if not isinstance(x, Forfeit)])


def side_deck(player: pz.PlayerState) -> Counter[SideCard]:
    return Counter(player.selection) - Counter(player.hand) - Counter(player.played)


def check_queries(state: PazaakState, rng: random.Random) -> None:
    """Each player's ``may_redraw``, ``may_swap`` and ``swap_choices`` say what the engine does
    (tried on a throwaway RNG, so the match itself is not disturbed)."""
    for player in state.players:
        pid = player.id
        try:
            pz.apply(state, Redraw(pid), random.Random(0))
        except RulesError:
            assert not pz.may_redraw(state, pid)
        else:
            assert pz.may_redraw(state, pid)
        choices = pz.swap_choices(state, pid)
        assert pz.may_swap(state, pid) == bool(choices)
        if choices:  # the distinct cards of the side deck, in selection order, and each is taken
            left = side_deck(player)
            assert choices == tuple(dict.fromkeys(c for c in player.selection if left[c] > 0))
            pz.apply(state, Swap(pid, rng.randrange(len(player.hand)), choices[0]), rng)
        else:
            try:
                pz.apply(state, Swap(pid, 0, player.selection[0]), random.Random(0))
            except RulesError:
                pass
            else:
                raise AssertionError("a swap was taken that the queries did not offer")
        for card in set(player.selection) - set(choices):
            if player.hand:
                try:
                    pz.apply(state, Swap(pid, 0, card), random.Random(0))
                except RulesError:
                    pass
                else:
                    raise AssertionError(f"a swap for {card}, not in the side deck, was taken")


def check_step(before: PazaakState, events: list[Event], after: PazaakState) -> None:
    for happened in events:
        if isinstance(happened, Swapped):
            (me,) = [p for p in before.players if p.id == happened.player]
            assert side_deck(me)[happened.card] > 0
            assert me.hand[happened.hand_index] == happened.out
        if isinstance(happened, Redrawn) and after.settings.main_deck == "pool":
            assert len(happened.pool) == len(before.pool) + 1
    for player in after.players:
        assert not Counter(player.hand) + Counter(player.played) - Counter(player.selection)
        assert len(player.hand) + len(player.played) == pz.HAND_SIZE
    if after.settings.main_deck == "pool":
        drawn = [c.chosen for p in after.players for c in p.table if c.side is None]
        assert len(after.pool) + len(drawn) == len(MAIN_POOL)
        assert Counter(after.pool) + Counter(drawn) == Counter(MAIN_POOL)
    else:
        assert after.pool == ()
    assert (after.current_player is None) == (pz.is_over(after) or after.ruling is not None)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups(), seed=st.integers(0, 2**32 - 1))
def test_random_matches_with_skills(setup: Setup, seed: int) -> None:
    table, selection_a, selection_b, traits = setup
    rng, policy, probe = random.Random(seed), random.Random(~seed), random.Random(seed ^ 1)
    accounts: dict[Account, int] = {A: PURSE, B: PURSE, POT: 0}

    def book(events: list[Event], state: PazaakState) -> None:
        for happened in events:
            for transfer in pz.transfers(happened):
                assert type(transfer.amount) is int and transfer.amount > 0
                accounts[transfer.source] -= transfer.amount
                accounts[transfer.target] += transfer.amount
        assert sum(accounts.values()) == 2 * PURSE
        assert accounts[POT] == state.pot

    state, log = pz.new_match(table, A, selection_a, B, selection_b, rng, traits=traits)
    book(log, state)
    steps = 0
    while not pz.is_over(state):
        if state.ruling is None:
            check_queries(state, probe)
        before = state
        state, events = pz.apply(state, choose(state, policy, steps), rng)
        log += events
        steps += 1
        book(events, state)
        check_step(before, events, state)
        for player in (A, B):
            assert sum(isinstance(e, Redrawn) and e.player == player for e in log) <= 1
            assert sum(isinstance(e, Swapped) and e.player == player for e in log) <= 1

    assert state.winner in (A, B) and state.pot == 0 and accounts[POT] == 0
    assert accounts[state.winner] == PURSE + table.wager
    assert pz.legal_actions(state) == []
    ended = log[-1]
    assert isinstance(ended, pz.MatchEnded)
    event(f"match ended by {ended.reason}")
    for kind in sorted({e.kind for e in log if isinstance(e, Redrawn | Swapped | pz.Ruled)}):
        event(f"a match with {kind}")
    for verdict in sorted({e.verdict for e in log if isinstance(e, pz.Ruled)}):
        event(f"a verdict: {verdict}")

    assert pz.replay(log) == state
    loaded = pz.load_events(pz.dump_events(log))
    assert loaded == log and pz.replay(loaded) == state
