"""Three-Card Pegasus: the pure reducer that folds events into states, and ``replay``.

Actions (:mod:`bot.rules.pegaz.engine`) build events and fold them with this same reducer, so
replaying the events equals the live state by construction. The reducer trusts its events: it
does no validation, only bookkeeping.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.rules.pegaz.cards import COPIES, shift
from bot.rules.pegaz.events import (
    Cancelled,
    Caught,
    Checked,
    Dealt,
    Detection,
    Drew,
    Event,
    Exchanged,
    Expelled,
    Folded,
    FundsSynced,
    GameEnded,
    Joined,
    Left,
    ModifierChosen,
    Offered,
    Reshuffled,
    Ruled,
    RulingRequested,
    Started,
    TableOpened,
    TurnStarted,
)
from bot.rules.pegaz.state import (
    RULES_VERSION,
    PegazSettings,
    PegazState,
    Phase,
    Seat,
    SeatStatus,
    seat_with,
    state_with,
)

_ACTIVE = SeatStatus.ACTIVE


def initial_state(settings: PegazSettings, rules_version: int = RULES_VERSION) -> PegazState:
    """An empty table: the carried pot, the starting stake and (deck source) a full deck."""
    deck = settings.source == "deck"
    return PegazState(
        settings=settings,
        pot=settings.carried_pot,
        stake=settings.stake,
        deck=(COPIES,) * settings.die if deck else (),
        discard=(0,) * settings.die if deck else (),
        rules_version=rules_version,
    )


def _physical(st: PegazState, seat: Seat) -> tuple[int, ...]:
    """The cards a seat holds as the deck knows them: as dealt (version 2), or, as version 1
    had it, as shown after any moves."""
    return seat.dealt if st.rules_version >= 2 else seat.hand


def index_of(state: PegazState, player: int) -> int:
    """The seat index of ``player``, or -1."""
    for i, seat in enumerate(state.seats):
        if seat.player == player:
            return i
    return -1


def _put(seats: tuple[Seat, ...], i: int, seat: Seat) -> tuple[Seat, ...]:
    return (*seats[:i], seat, *seats[i + 1 :])


def _add(counts: tuple[int, ...], faces: Sequence[int], sign: int) -> tuple[int, ...]:
    out = list(counts)
    for f in faces:
        out[f - 1] += sign
    return tuple(out)


def _eliminate(st: PegazState, players: Sequence[int], status: SeatStatus) -> PegazState:
    seats = st.seats
    discard = st.discard
    for p in players:
        i = index_of(st, p)
        seat = seats[i]
        if discard:
            discard = _add(discard, _physical(st, seat), 1)
        seats = _put(
            seats, i, seat_with(seat, status=status, hand=(), pending=False, fresh=(), cheat=None)
        )
    active = sum(1 for s in seats if s.status is _ACTIVE)
    last_out = () if active >= 2 else st.last_out + tuple(players)
    return state_with(st, seats=seats, discard=discard, last_out=last_out)


def _opened(st: PegazState, ev: TableOpened) -> PegazState:
    return initial_state(ev.settings, ev.rules_version)


def _joined(st: PegazState, ev: Joined) -> PegazState:
    seat = Seat(ev.player, ev.luck, ev.gamble, ev.perception, ev.funds - ev.ante, ev.ante)
    return state_with(st, seats=(*st.seats, seat), pot=st.pot + ev.ante)


def _left(st: PegazState, ev: Left) -> PegazState:
    i = index_of(st, ev.player)
    return state_with(st, seats=st.seats[:i] + st.seats[i + 1 :], pot=st.pot - ev.refund)


def _started(st: PegazState, ev: Started) -> PegazState:
    return state_with(st, phase=Phase.MODIFIERS)


def _dealt(st: PegazState, ev: Dealt) -> PegazState:
    i = index_of(st, ev.player)
    seat = st.seats[i]
    pending = seat.luck or seat.gamble
    if not st.deck:
        seat = seat_with(seat, hand=ev.cards, pending=pending, fresh=(0, 1, 2) if pending else ())
        return state_with(st, seats=_put(st.seats, i, seat))
    seat = seat_with(
        seat, hand=ev.cards, dealt=ev.cards, pending=pending, fresh=(0, 1, 2) if pending else ()
    )
    return state_with(st, seats=_put(st.seats, i, seat), deck=_add(st.deck, ev.cards, -1))


def _modifier(st: PegazState, ev: ModifierChosen) -> PegazState:
    i = index_of(st, ev.player)
    seat = st.seats[i]
    hand = list(seat.hand)
    die = st.settings.die
    for card, delta in ev.shifts:
        hand[card] = shift(hand[card], delta, die)
    seat = seat_with(seat, hand=tuple(hand), pending=False, fresh=())
    return state_with(st, seats=_put(st.seats, i, seat))


def _nothing(st: PegazState, ev: Any) -> PegazState:
    return st


def _expelled(st: PegazState, ev: Expelled) -> PegazState:
    return _eliminate(st, (ev.player,), SeatStatus.EXPELLED)


def _ruling_requested(st: PegazState, ev: RulingRequested) -> PegazState:
    i = index_of(st, ev.cheater)
    seat = seat_with(st.seats[i], cheat=(ev.card, ev.delta))
    return state_with(st, seats=_put(st.seats, i, seat), rulings=(*st.rulings, ev.cheater))


def _ruled(st: PegazState, ev: Ruled) -> PegazState:
    rulings = tuple(p for p in st.rulings if p != ev.cheater)
    i = index_of(st, ev.cheater)
    seat = st.seats[i]
    hand = seat.hand
    if not ev.expel and seat.cheat is not None:
        card, delta = seat.cheat
        hand = (*hand[:card], shift(hand[card], -delta, st.settings.die), *hand[card + 1 :])
    seat = seat_with(seat, hand=hand, cheat=None)
    return state_with(st, seats=_put(st.seats, i, seat), rulings=rulings)


def _turn(st: PegazState, ev: TurnStarted) -> PegazState:
    swapped = st.swapped if ev.round == st.round else False
    phase = Phase.EXCHANGE if ev.phase == "exchange" else Phase.CHECKS
    turn = index_of(st, ev.player)
    return state_with(st, turn=turn, round=ev.round, phase=phase, swapped=swapped)


def _exchanged(st: PegazState, ev: Exchanged) -> PegazState:
    i = index_of(st, ev.player)
    seat = st.seats[i]
    k = len(ev.cards)
    discard = st.discard
    if k and discard and st.rules_version < 2:  # version 2 discards them after the draw
        discard = _add(discard, [seat.hand[c] for c in ev.cards], 1)
    pending = k > 0 and (seat.luck or seat.gamble)
    shown = seat.shown
    if shown and k:
        shown = tuple(0 if c in ev.cards else f for c, f in enumerate(shown))
    seat = seat_with(
        seat,
        funds=seat.funds - ev.price,
        paid=seat.paid + ev.price,
        pending=pending,
        fresh=ev.cards if pending else (),
        swaps=(*seat.swaps, k),
        shown=shown,
    )
    return state_with(
        st,
        seats=_put(st.seats, i, seat),
        pot=st.pot + ev.price,
        stake=ev.stake,
        discard=discard,
        swapped=st.swapped or k > 0,
    )


def _drew(st: PegazState, ev: Drew) -> PegazState:
    i = index_of(st, ev.player)
    seat = st.seats[i]
    hand = list(seat.hand)
    for card, face in zip(ev.cards, ev.faces, strict=True):
        hand[card] = face
    if not st.deck:
        return state_with(st, seats=_put(st.seats, i, seat_with(seat, hand=tuple(hand))))
    dealt = list(seat.dealt)
    given_up = [dealt[c] for c in ev.cards]
    for card, face in zip(ev.cards, ev.faces, strict=True):
        dealt[card] = face
    discard = _add(st.discard, given_up, 1) if st.rules_version >= 2 else st.discard
    seat = seat_with(seat, hand=tuple(hand), dealt=tuple(dealt))
    return state_with(
        st, seats=_put(st.seats, i, seat), deck=_add(st.deck, ev.faces, -1), discard=discard
    )


def _reshuffled(st: PegazState, ev: Reshuffled) -> PegazState:
    deck = tuple(a + b for a, b in zip(st.deck, st.discard, strict=True))
    return state_with(st, deck=deck, discard=(0,) * len(st.discard))


def _checked(st: PegazState, ev: Checked) -> PegazState:
    i = index_of(st, ev.player)
    seat = st.seats[i]
    seat = seat_with(
        seat, funds=seat.funds - ev.price, paid=seat.paid + ev.price, shown=ev.player_hand
    )
    seats = _put(st.seats, i, seat)
    j = index_of(st, ev.target)
    seats = _put(seats, j, seat_with(seats[j], shown=ev.target_hand))
    st = state_with(st, seats=seats, pot=st.pot + ev.price)
    return _eliminate(st, ev.out, SeatStatus.CHECKED)


_FOLD_STATUS = {
    "fold": SeatStatus.FOLDED,
    "timeout": SeatStatus.FOLDED,
    "broke": SeatStatus.BROKE,
    "cannot_check": SeatStatus.BROKE,
}


def _folded(st: PegazState, ev: Folded) -> PegazState:
    return _eliminate(st, (ev.player,), _FOLD_STATUS[ev.reason])


def _ended(st: PegazState, ev: GameEnded) -> PegazState:
    seats = list(st.seats)
    for player, amount in zip(ev.players, ev.amounts, strict=True):
        i = index_of(st, player)
        seats[i] = seat_with(seats[i], funds=seats[i].funds + amount, won=amount)
    seats = [seat_with(s, pending=False, fresh=()) if s.pending else s for s in seats]
    paid = [(p, a) for p, a in zip(ev.players, ev.amounts, strict=True) if a > 0]
    offers = tuple(p for p, a in paid if a // 10 > 0)
    return state_with(
        st,
        seats=tuple(seats),
        pot=st.pot - sum(ev.amounts),
        phase=Phase.OFFERING if offers else Phase.FINISHED,
        turn=None,
        winners=tuple(p for p, _ in paid),
        offers=offers,
        rolled_over=ev.rolled_over,
    )


def _offered(st: PegazState, ev: Offered) -> PegazState:
    offers = tuple(p for p in st.offers if p != ev.player)
    phase = st.phase if offers else Phase.FINISHED
    if not ev.accepted:
        return state_with(st, offers=offers, phase=phase)
    i = index_of(st, ev.player)
    seat = seat_with(st.seats[i], funds=st.seats[i].funds - ev.amount)
    return state_with(
        st,
        seats=_put(st.seats, i, seat),
        offers=offers,
        phase=phase,
        offered=st.offered + ev.amount,
    )


def _cancelled(st: PegazState, ev: Cancelled) -> PegazState:
    seats = list(st.seats)
    for player, amount in ev.refunds:
        i = index_of(st, player)
        seats[i] = seat_with(seats[i], funds=seats[i].funds + amount, paid=seats[i].paid - amount)
    seats = [seat_with(s, pending=False, fresh=()) if s.pending else s for s in seats]
    return state_with(
        st,
        seats=tuple(seats),
        pot=st.pot - sum(a for _, a in ev.refunds),
        phase=Phase.CANCELLED,
        turn=None,
        rulings=(),
    )


def _funds_synced(st: PegazState, ev: FundsSynced) -> PegazState:
    i = index_of(st, ev.player)
    return state_with(st, seats=_put(st.seats, i, seat_with(st.seats[i], funds=ev.funds)))


_REDUCERS: dict[type[Any], Callable[[PegazState, Any], PegazState]] = {
    TableOpened: _opened,
    Joined: _joined,
    Left: _left,
    Started: _started,
    Dealt: _dealt,
    ModifierChosen: _modifier,
    Detection: _nothing,
    Caught: _nothing,
    Expelled: _expelled,
    RulingRequested: _ruling_requested,
    Ruled: _ruled,
    TurnStarted: _turn,
    Exchanged: _exchanged,
    Drew: _drew,
    Reshuffled: _reshuffled,
    Checked: _checked,
    Folded: _folded,
    GameEnded: _ended,
    Offered: _offered,
    Cancelled: _cancelled,
    FundsSynced: _funds_synced,
}


def fold(state: PegazState, event: Event) -> PegazState:
    """Apply one event to a state. Pure; trusts the event (the actions validated it)."""
    return _REDUCERS[type(event)](state, event)


def replay(events: Sequence[Event]) -> PegazState:
    """Rebuild a table from its events; the first must be :class:`TableOpened`."""
    if not events or not isinstance(events[0], TableOpened):
        raise ValueError("a Pegasus event log starts with table_opened")
    state = initial_state(events[0].settings, events[0].rules_version)
    for event in events[1:]:
        state = _REDUCERS[type(event)](state, event)
    return state
