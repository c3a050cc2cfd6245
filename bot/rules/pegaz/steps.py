"""Three-Card Pegasus: the shared steps of every action (collecting events, checking whose
turn it is, drawing cards, passing the turn, ending the game). Used by :mod:`.engine`."""

from __future__ import annotations

import random

from bot.rules.common import (
    GameOver,
    NotSeated,
    NotYourTurn,
    WrongPhase,
)
from bot.rules.pegaz.events import (
    Dealt,
    Drew,
    Event,
    Folded,
    GameEnded,
    Reshuffled,
    TurnStarted,
)
from bot.rules.pegaz.reducer import fold, index_of
from bot.rules.pegaz.state import (
    PegazState,
    Phase,
    SeatStatus,
)

_ACTIVE = SeatStatus.ACTIVE
_OVER = (Phase.OFFERING, Phase.FINISHED, Phase.CANCELLED)


class Build:
    """Collects an action's events, folding each at once so later steps see the new state."""

    __slots__ = ("events", "state")

    def __init__(self, state: PegazState) -> None:
        self.state = state
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.state = fold(self.state, event)
        self.events.append(event)


# --- validation helpers -------------------------------------------------------------------------


def live(st: PegazState) -> None:
    if st.phase in _OVER:
        raise GameOver(phase=st.phase.value)


def require_seat(st: PegazState, player: int) -> int:
    i = index_of(st, player)
    if i < 0:
        raise NotSeated(player=player)
    return i


def require_turn(st: PegazState, player: int) -> int:
    live(st)
    i = require_seat(st, player)
    if st.phase not in (Phase.EXCHANGE, Phase.CHECKS):
        raise WrongPhase(phase=st.phase.value)
    if st.rulings:
        raise WrongPhase(phase=st.phase.value, waiting="ruling")
    if st.turn != i:
        raise NotYourTurn(player=player)
    if st.seats[i].pending:
        raise WrongPhase(phase=st.phase.value, waiting="modifier")
    return i


def require_pending(st: PegazState, player: int) -> int:
    live(st)
    i = require_seat(st, player)
    if not st.seats[i].pending:
        raise NotYourTurn(player=player)
    return i


# --- flow ---------------------------------------------------------------------------------------


def _take(rng: random.Random, counts: list[int], n: int) -> list[int]:
    """Draw ``n`` cards at random from a pile of ``counts`` (copies per face), in place."""
    total = sum(counts)
    got: list[int] = []
    for _ in range(n):
        r = rng.randrange(total)
        f = 0
        while r >= counts[f]:
            r -= counts[f]
            f += 1
        counts[f] -= 1
        total -= 1
        got.append(f + 1)
    return got


def draw(b: Build, rng: random.Random, player: int, cards: tuple[int, ...], deal: bool) -> None:
    """Deal three cards, or draw new ones for the given card indexes.

    Deck source: what the deck holds is drawn first; when it runs short, every card left in it
    is taken, the discard pile is reshuffled into the deck and the rest is drawn from it. Under
    rules version 2 the cards being exchanged are not on the discard pile yet (the reducer
    discards them with :class:`Drew`), so an exchange never deals them straight back.
    """
    st = b.state
    if not st.deck:
        die = st.settings.die
        faces = tuple(rng.randrange(die) + 1 for _ in cards)
        b.emit(Dealt(player, faces) if deal else Drew(player, cards, faces))
        return
    deck = list(st.deck)
    left = sum(deck)
    got = _take(rng, deck, min(left, len(cards)))
    if len(got) < len(cards):
        pile = list(st.discard)
        b.emit(Reshuffled(sum(pile)))
        got += _take(rng, pile, len(cards) - len(got))
    b.emit(Dealt(player, tuple(got)) if deal else Drew(player, cards, tuple(got)))


def settle(b: Build) -> bool:
    """End the game if fewer than two are left (and no ruling is pending)."""
    st = b.state
    if st.rulings:
        return False
    active = [s.player for s in st.seats if s.status is _ACTIVE]
    if len(active) >= 2:
        return False
    if active:
        b.emit(GameEnded((active[0],), (st.pot,)))
        return True
    group = tuple(s.player for s in st.seats if s.player in st.last_out)
    if not group:  # cannot happen: somebody went out last; keep the pot safe regardless
        group = tuple(s.player for s in st.seats)
    expelled = all(s.status is SeatStatus.EXPELLED for s in st.seats if s.player in group)
    if expelled and st.rules_version >= 2:  # no cheater takes a coin: the pot waits
        b.emit(GameEnded(group, (0,) * len(group), st.pot, expelled=True))
    elif st.settings.tie == "rollover":
        b.emit(GameEnded(group, (0,) * len(group), st.pot))
    else:
        share, odd = divmod(st.pot, len(group))
        b.emit(GameEnded(group, tuple(share + (1 if j < odd else 0) for j in range(len(group)))))
    return True


def pass_turn(b: Build) -> None:
    """Give the turn to the next seat still in, forcing out those who cannot pay."""
    while True:
        st = b.state
        seats = st.seats
        rnd, phase = st.round, st.phase
        cur = -1 if st.turn is None else st.turn
        if phase is Phase.MODIFIERS:
            rnd, phase, cur = 1, Phase.EXCHANGE, -1
        j = next((k for k in range(cur + 1, len(seats)) if seats[k].status is _ACTIVE), -1)
        if j < 0:
            j = next(k for k in range(len(seats)) if seats[k].status is _ACTIVE)
            rnd += 1
            limit = st.settings.exchanges
            if phase is Phase.EXCHANGE and (
                (limit is not None and rnd > limit) or (limit is None and not st.swapped)
            ):
                phase = Phase.CHECKS
        player = seats[j].player
        b.emit(TurnStarted(player, rnd, "exchange" if phase is Phase.EXCHANGE else "checks"))
        need = st.stake if phase is Phase.EXCHANGE else 3 * st.stake
        if seats[j].funds >= need:
            return
        b.emit(Folded(player, "broke" if phase is Phase.EXCHANGE else "cannot_check"))
        if settle(b):
            return


def resume(b: Build) -> None:
    """After a modifier choice or a ruling: end the game, start round 1 or pass the turn."""
    st = b.state
    if st.rulings or settle(b):
        return
    if st.phase is Phase.MODIFIERS:
        if not any(s.pending for s in st.seats):
            pass_turn(b)
    elif not st.seats[st.turn or 0].pending:
        pass_turn(b)


def after_turn(b: Build) -> None:
    if not settle(b):
        pass_turn(b)
