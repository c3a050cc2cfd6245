"""Three-Card Pegasus: the actions' logic (validate, build events, fold them).

Use it through :mod:`bot.rules.pegaz`, which documents the rules and every [house] decision.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from bot.rules.common import (
    AlreadySeated,
    GameOver,
    InsufficientFunds,
    NotSeated,
    NotYourTurn,
    WrongPhase,
    check_action,
)
from bot.rules.pegaz.actions import (
    Action,
    Cancel,
    Cheat,
    Check,
    Exchange,
    Fold,
    Join,
    Keep,
    Leave,
    Modify,
    Offer,
    RuleOnCheat,
    Start,
    SyncFunds,
    Timeout,
)
from bot.rules.pegaz.cards import rank_key
from bot.rules.pegaz.events import (
    Cancelled,
    Caught,
    Checked,
    Detection,
    DetectionRoll,
    Event,
    Exchanged,
    Expelled,
    Folded,
    FundsSynced,
    Joined,
    Left,
    ModifierChosen,
    Offered,
    Ruled,
    RulingRequested,
    Started,
    TableOpened,
)
from bot.rules.pegaz.queries import checks_allowed, exchange_terms, require_open_seat
from bot.rules.pegaz.reducer import index_of, initial_state
from bot.rules.pegaz.state import (
    RULES_VERSION,
    CheckNotAllowed,
    IllegalModifier,
    InvalidPlayer,
    NotEnoughPlayers,
    PegazSettings,
    PegazState,
    Phase,
    SeatStatus,
)
from bot.rules.pegaz.steps import (
    Build,
    after_turn,
    draw,
    live,
    pass_turn,
    require_pending,
    require_seat,
    require_turn,
    resume,
)

_ACTIVE = SeatStatus.ACTIVE
_OVER = (Phase.OFFERING, Phase.FINISHED, Phase.CANCELLED)


def new_table(settings: PegazSettings) -> tuple[PegazState, list[Event]]:
    """A fresh table and its first event (:class:`TableOpened`), which ``replay`` starts from.

    Settings past their bounds (``MAX_EXCHANGES``...) raise :class:`InvalidSettings`."""
    opened = TableOpened(settings.check_bounds(), RULES_VERSION)
    return initial_state(settings, RULES_VERSION), [opened]


def apply(state: PegazState, action: Action, rng: random.Random) -> tuple[PegazState, list[Event]]:
    """Validate ``action``, then return the new state and the events that led to it."""
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise TypeError(f"not a Pegasus action: {action!r}")
    check_action(action)
    b = Build(state)
    handler(b, action, rng)
    return b.state, b.events


# --- handlers -----------------------------------------------------------------------------------


def _join(b: Build, a: Join, rng: random.Random) -> None:
    st = b.state
    live(st)
    if st.phase is Phase.SEATING and index_of(st, a.player) >= 0:
        raise AlreadySeated(player=a.player)
    require_open_seat(st)
    if not 0 <= a.perception <= 100:
        raise InvalidPlayer(field="perception", value=a.perception)
    if a.funds < st.settings.stake:
        raise InsufficientFunds(needed=st.settings.stake, available=a.funds)
    b.emit(Joined(a.player, a.luck, a.gamble, a.perception, a.funds, st.settings.stake))


def _leave(b: Build, a: Leave, rng: random.Random) -> None:
    st = b.state
    live(st)
    i = require_seat(st, a.player)
    if st.phase is not Phase.SEATING:
        raise WrongPhase(phase=st.phase.value)
    b.emit(Left(a.player, st.seats[i].paid))


def _start(b: Build, a: Start, rng: random.Random) -> None:
    st = b.state
    live(st)
    if st.phase is not Phase.SEATING:
        raise WrongPhase(phase=st.phase.value)
    if len(st.seats) < 2:
        raise NotEnoughPlayers(seated=len(st.seats), needed=2)
    b.emit(Started(a.player))
    for seat in st.seats:
        draw(b, rng, seat.player, (0, 1, 2), deal=True)
    if not any(s.pending for s in b.state.seats):
        pass_turn(b)


def _choose(
    b: Build, player: int, shifts: tuple[tuple[int, int], ...], timeout: bool, rng: random.Random
) -> None:
    b.emit(ModifierChosen(player, shifts, timeout))
    if len(shifts) == 1 and abs(shifts[0][1]) == 2:
        st = b.state
        s = st.settings
        rolls = tuple(
            DetectionRoll(w.player, rng.randrange(100) + 1, w.perception + s.detection_modifier)
            for w in st.seats
            if w.player != player and w.status is _ACTIVE
        )
        b.emit(Detection(player, rolls))
        caught_by = tuple(r.player for r in rolls if r.success)
        if caught_by:
            b.emit(Caught(player, caught_by))
            if s.cheat_ruling == "expel":
                b.emit(Expelled(player))
            else:
                b.emit(RulingRequested(player, shifts[0][0], shifts[0][1]))
    resume(b)


def _keep(b: Build, a: Keep, rng: random.Random) -> None:
    require_pending(b.state, a.player)
    _choose(b, a.player, (), False, rng)


def _modify(b: Build, a: Modify, rng: random.Random) -> None:
    seat = b.state.seats[require_pending(b.state, a.player)]
    shifts = tuple((int(c), int(d)) for c, d in a.shifts)
    if not 1 <= len(shifts) <= 2:
        raise IllegalModifier(reason="count")
    for card, delta in shifts:
        if delta not in (-1, 1):
            raise IllegalModifier(reason="size", card=card)
        if card not in seat.fresh:
            raise IllegalModifier(reason="card", card=card)
    if len(shifts) == 2:
        if shifts[0][0] == shifts[1][0]:
            raise IllegalModifier(reason="same_card", card=shifts[0][0])
        if not (seat.luck and seat.gamble):
            raise IllegalModifier(reason="needs_both")
    elif not (seat.luck or seat.gamble):
        raise IllegalModifier(reason="no_trait")
    _choose(b, a.player, shifts, False, rng)


def _cheat(b: Build, a: Cheat, rng: random.Random) -> None:
    seat = b.state.seats[require_pending(b.state, a.player)]
    if not seat.gamble:
        raise IllegalModifier(reason="needs_gamble")
    if a.delta not in (-2, 2):
        raise IllegalModifier(reason="size", card=a.card)
    if a.card not in seat.fresh:
        raise IllegalModifier(reason="card", card=a.card)
    _choose(b, a.player, ((a.card, a.delta),), False, rng)


def _exchange(b: Build, a: Exchange, rng: random.Random) -> None:
    cards, new, price = exchange_terms(b.state, a)
    i = index_of(b.state, a.player)
    b.emit(Exchanged(a.player, cards, new, price))
    if cards:
        draw(b, rng, a.player, cards, deal=False)
    if not b.state.seats[i].pending:
        pass_turn(b)


def _check(b: Build, a: Check, rng: random.Random) -> None:
    st = b.state
    i = require_turn(st, a.player)
    if not checks_allowed(st):
        raise CheckNotAllowed(reason="first_round")
    j = index_of(st, a.target)
    if j < 0 or j == i or st.seats[j].status is not _ACTIVE:
        raise CheckNotAllowed(reason="target", target=a.target)
    price = 3 * st.stake
    if price > st.seats[i].funds:
        raise InsufficientFunds(needed=price, available=st.seats[i].funds)
    mine, theirs = st.seats[i].hand, st.seats[j].hand
    diff = rank_key(mine) - rank_key(theirs)
    out = (a.target,) if diff > 0 else (a.player,) if diff < 0 else (a.player, a.target)
    b.emit(Checked(a.player, a.target, price, mine, theirs, out))
    after_turn(b)


def _fold(b: Build, a: Fold, rng: random.Random) -> None:
    require_turn(b.state, a.player)
    b.emit(Folded(a.player, "fold"))
    after_turn(b)


def _timeout(b: Build, a: Timeout, rng: random.Random) -> None:
    st = b.state
    if st.phase is Phase.OFFERING and a.player in st.offers:
        b.emit(Offered(a.player, st.seats[index_of(st, a.player)].offering, False, True))
        return
    live(st)
    i = require_seat(st, a.player)
    if st.seats[i].pending:
        _choose(b, a.player, (), True, rng)
        return
    require_turn(st, a.player)
    b.emit(Folded(a.player, "timeout"))
    after_turn(b)


def _rule(b: Build, a: RuleOnCheat, rng: random.Random) -> None:
    st = b.state
    live(st)
    if not st.rulings or (a.cheater is not None and a.cheater not in st.rulings):
        raise WrongPhase(phase=st.phase.value, waiting="none")
    cheater = st.rulings[0] if a.cheater is None else a.cheater
    b.emit(Ruled(cheater, a.expel))
    if a.expel:
        b.emit(Expelled(cheater))
    resume(b)


def _offer(b: Build, a: Offer, rng: random.Random) -> None:
    st = b.state
    if st.phase is not Phase.OFFERING:
        if st.phase in _OVER:
            raise GameOver(phase=st.phase.value)
        raise WrongPhase(phase=st.phase.value)
    i = require_seat(st, a.player)
    if a.player not in st.offers:
        raise NotYourTurn(player=a.player)
    b.emit(Offered(a.player, st.seats[i].offering, a.accept))


def _cancel(b: Build, a: Cancel, rng: random.Random) -> None:
    st = b.state
    if st.phase is Phase.OFFERING:  # the pot is paid out already: only the offerings are left
        for p in st.offers:
            b.emit(Offered(p, st.seats[index_of(st, p)].offering, False))
        return
    live(st)
    b.emit(Cancelled(tuple((s.player, s.paid) for s in st.seats if s.paid)))


def _sync_funds(b: Build, a: SyncFunds, rng: random.Random) -> None:
    if b.state.phase in _OVER:
        return  # nothing is paid any more; a finished table keeps its record as it was
    for player, funds in a.funds:
        i = index_of(b.state, player)
        if i < 0:
            raise NotSeated(player=player)
        if funds < 0:
            raise InvalidPlayer(field="funds", value=funds)
        if b.state.seats[i].funds != funds:
            b.emit(FundsSynced(player, funds))


_HANDLERS: dict[type[Any], Callable[[Build, Any, random.Random], None]] = {
    Join: _join,
    Leave: _leave,
    Start: _start,
    Keep: _keep,
    Modify: _modify,
    Cheat: _cheat,
    Exchange: _exchange,
    Check: _check,
    Fold: _fold,
    Timeout: _timeout,
    RuleOnCheat: _rule,
    Offer: _offer,
    Cancel: _cancel,
    SyncFunds: _sync_funds,
}
