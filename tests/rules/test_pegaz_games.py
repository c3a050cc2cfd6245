"""Three-Card Pegasus: random legal games, with illegal moves tried at every step.

Each game checks: it ends within a bound; money is conserved (and ``transfers`` agree with the
state); ``replay`` equals the live state, also through JSON; ``legal_actions`` lists exactly what
``apply`` accepts on a universe of probe actions; a refused action raises ``RulesError`` and
leaves the state as it was. With a deck: the deck, the discard pile and the cards as dealt
always make N creatures x 4, whatever Luck, Gamble and cheats moved; and an exchange draws only
from the other cards (the deck and the discard pile as they were before it).
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.rules import pegaz as pz
from bot.rules.common import OFFERING, POT, RulesError

settings_strategy = st.one_of(
    st.builds(
        pz.PegazSettings,
        stake=st.sampled_from([1, 12, 30]),
        exchanges=st.sampled_from([1, 2, 3, None]),
        raise_limit=st.sampled_from([0, 1, 5, None]),
        die=st.sampled_from(pz.DICE),
        source=st.sampled_from(["dice", "deck"]),
        detection_modifier=st.sampled_from([-30, 0, 20]),
        cheat_ruling=st.sampled_from(["expel", "gm"]),
        tie=st.sampled_from(["split", "rollover"]),
        carried_pot=st.sampled_from([0, 7]),
    ),
    st.builds(
        pz.PegazSettings,
        stake=st.just(12),
        raise_limit=st.just(None),
        max_stake=st.sampled_from([12, 20, 100]),
        source=st.sampled_from(["dice", "deck"]),
        cheat_ruling=st.sampled_from(["expel", "gm"]),
    ),
    st.builds(
        pz.PegazSettings.wild,
        stake=st.sampled_from([1, 12]),
        source=st.sampled_from(["dice", "deck"]),
        die=st.sampled_from([6, 20]),
    ),
)


def probes(state: pz.PegazState) -> list[pz.Action]:
    """A finite universe of actions, legal or not, whose acceptance ``legal_actions`` predicts."""
    players = [s.player for s in state.seats] + [99]
    stake = state.stake
    limit = state.settings.raise_limit
    stakes = {stake - 1, stake, stake + 1}
    if limit is not None:
        stakes.add(stake + limit + 1)
    out: list[pz.Action] = []
    for p in players:
        out += [pz.Fold(p), pz.Keep(p), pz.Offer(p, True), pz.Offer(p, False)]
        out += [pz.Check(p, t) for t in players]
        out += [pz.Cheat(p, c, d) for c in (0, 2) for d in (-2, 1, 2)]
        out += [pz.Modify(p, sh) for sh in (((0, 1),), ((1, -1),), ((0, 1), (2, -1)))]
        out += [pz.Modify(p, sh) for sh in (((0, 1), (0, -1)), ((1, 2),), ((0, 2), (1, 1)))]
        out += [pz.Exchange(p, cards, s) for cards in ((), (1,), (0, 2)) for s in stakes]
        out += [pz.Exchange(p, (0, 0), stake), pz.Exchange(p, (3,), stake)]
    out += [pz.RuleOnCheat(e, c) for e in (True, False) for c in players]
    return out


def assert_exchange_terms(state: pz.PegazState, action: pz.Exchange, rng: random.Random) -> None:
    """The query prices an exchange as its step does, and refuses it with the same error."""
    try:
        terms = pz.exchange_terms(state, action)
    except RulesError as refused:
        try:
            pz.apply(state, action, random.Random(0))
        except RulesError as err:
            assert (type(err), err.params) == (type(refused), refused.params), action
        else:
            raise AssertionError(f"the query refused what the step takes: {action}") from None
        return
    _, events = pz.apply(state, action, random.Random(0))
    done = next(e for e in events if isinstance(e, pz.Exchanged))
    assert terms == (done.cards, done.stake, done.price), action


def assert_probes(state: pz.PegazState, legal: list[pz.Action], rng: random.Random) -> None:
    legal_set = set(legal)
    for action in probes(state):
        if isinstance(action, pz.Exchange):
            assert_exchange_terms(state, action, rng)
        try:
            pz.apply(state, action, rng)
        except RulesError as err:
            assert action not in legal_set, (action, err)
            hands = {s.hand for s in state.seats if s.hand}
            assert not any(v in hands for v in err.params.values()), err
            continue
        # accepted: it must be listed, unless it is a raise to a stake the list skips
        if action not in legal_set:
            assert isinstance(action, pz.Exchange), action
            assert pz.Exchange(action.player, action.cards, state.stake) in legal_set, action


def pile(*counts: tuple[int, ...]) -> Counter[int]:
    return Counter({f: sum(c[f - 1] for c in counts) for f in range(1, len(counts[0]) + 1)})


class DeckWatch:
    """The physical cards in each hand, read off the deal and draw events alone."""

    def __init__(self) -> None:
        self.held: dict[int, list[int]] = {}

    def step(self, before: pz.PegazState, evs: list[pz.Event], after: pz.PegazState) -> None:
        for e in evs:
            if isinstance(e, pz.Dealt):
                self.held[e.player] = list(e.cards)
            elif isinstance(e, pz.Drew):
                for card, face in zip(e.cards, e.faces, strict=True):
                    self.held[e.player][card] = face
            elif isinstance(e, pz.Exchanged) and e.cards:
                drew = next(d for d in evs if isinstance(d, pz.Drew))
                others = pile(before.deck, before.discard)
                assert not Counter(drew.faces) - others, "dealt back the cards given up"
        for seat in after.seats:
            if not seat.hand:
                self.held.pop(seat.player, None)
        in_hands: Counter[int] = Counter(f for cards in self.held.values() for f in cards)
        counts = pile(after.deck, after.discard)
        for face in range(1, after.settings.die + 1):
            assert in_hands[face] + counts[face] == 4, (face, in_hands, after.deck, after.discard)
        for seat in after.seats:
            assert seat.dealt == tuple(self.held.get(seat.player, ())) or not seat.hand


def _active(state: pz.PegazState) -> set[int]:
    """The players still in the game (not folded, out or expelled)."""
    return {s.player for s in state.seats if s.status is pz.SeatStatus.ACTIVE}


def play(seed_rng: random.Random, config: pz.PegazSettings, n: int) -> None:
    rng = random.Random(seed_rng.randrange(2**32))
    state, events = pz.new_table(config)
    purses: dict[int, int] = {}
    for p in range(1, n + 1):
        funds = rng.randrange(config.stake, config.stake * 40)
        luck, gamble = rng.random() < 0.5, rng.random() < 0.5
        state, evs = pz.apply(state, pz.Join(p, luck, gamble, rng.randrange(101), funds), rng)
        events += evs
        purses[p] = funds
    total = sum(purses.values()) + config.carried_pot
    state, evs = pz.apply(state, pz.Start(1), rng)
    events += evs

    bound = 4 * total // config.stake + 10 * n + 20
    contenders = _active(state)
    steps = 0
    probe_every = rng.choice([1, 3])
    watch = DeckWatch() if config.source == "deck" else None
    if watch:
        watch.step(state, evs, state)
    while not pz.is_over(state):
        legal = pz.legal_actions(state)
        assert legal, state
        if steps % probe_every == 0:
            assert_probes(state, legal, random.Random(steps))
        # illegal by construction: tried and refused without a trace
        for bad in (pz.Join(1, False, False, 0, 10**6), pz.Start(1), pz.Leave(2)):
            before = state
            try:
                pz.apply(state, bad, rng)
            except RulesError:
                assert state == before
            else:
                raise AssertionError(f"{bad} was accepted")
        roll = rng.random()
        if roll < 0.01:
            action: pz.Action = pz.Cancel()
        elif roll < 0.06 and pz.to_act(state):
            action = pz.Timeout(rng.choice(pz.to_act(state)))
        else:
            action = rng.choice(legal)
        before = state
        state, evs = pz.apply(state, action, rng)
        events += evs
        if watch:
            watch.step(before, evs, state)
        steps += 1
        # the pot goes to the last one standing, or is shared by the last ones out together
        for e in evs:
            if isinstance(e, pz.GameEnded):
                assert set(e.players) <= contenders
                assert len(e.players) == 1 or set(e.players) == contenders
        active = _active(state)
        if len(active) >= 2:
            contenders = active
        assert steps <= bound, "the game did not end"
        # money is conserved at every step
        assert sum(s.funds for s in state.seats) + state.pot + state.offered == total
        assert state.pot >= 0 and all(s.funds >= 0 for s in state.seats)

    assert pz.legal_actions(state) == []
    # the replay, also through JSON, equals the live state
    assert pz.replay(events) == state
    loaded = pz.load_events(pz.dump_events(events))
    assert loaded == events
    assert pz.replay(loaded) == state
    # the ledger the transfers describe matches the state
    ledger: Counter[object] = Counter()
    for e in events:
        for t in pz.transfers(e):
            assert t.amount > 0 and isinstance(t.amount, int)
            ledger[t.source] -= t.amount
            ledger[t.target] += t.amount
    assert ledger[POT] == state.pot - config.carried_pot
    assert ledger[OFFERING] == state.offered
    for seat in state.seats:
        assert ledger[seat.player] == seat.funds - purses[seat.player]
    if state.phase is pz.Phase.FINISHED:
        assert state.pot == state.rolled_over
        assert state.winners or state.rolled_over


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), settings_strategy, st.integers(2, 6))
def test_random_games(seed: random.Random, config: pz.PegazSettings, n: int) -> None:
    play(seed, config, n)


@settings(max_examples=20, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from(["dice", "deck"]))
def test_random_full_tables(seed: random.Random, source: str) -> None:
    play(seed, pz.PegazSettings(source=source), 8)  # type: ignore[arg-type]
