"""Three-Card Pegasus: read-only questions about a state (whose move, prices, legal moves).

Nothing here changes a state; the UI, the AI and the tests use these to ask what may happen.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.rules.common import InsufficientFunds, NotSeated, WrongPhase, check_action
from bot.rules.pegaz.actions import (
    Action,
    Cheat,
    Check,
    Exchange,
    Fold,
    Keep,
    Leave,
    Modify,
    Offer,
    RuleOnCheat,
    Start,
    SyncFunds,
)
from bot.rules.pegaz.reducer import index_of
from bot.rules.pegaz.state import (
    MAX_SEATS,
    IllegalExchange,
    NoCardsToDraw,
    PegazState,
    Phase,
    RaiseTooHigh,
    Seat,
    SeatStatus,
    StakeOverMax,
    TableFull,
)
from bot.rules.pegaz.steps import require_turn

_SUBSETS: tuple[tuple[int, ...], ...] = (
    (),
    (0,),
    (1,),
    (2,),
    (0, 1),
    (0, 2),
    (1, 2),
    (0, 1, 2),
)
_OVER = (Phase.OFFERING, Phase.FINISHED, Phase.CANCELLED)


def is_over(state: PegazState) -> bool:
    """Finished (offerings decided too) or cancelled: nothing more can happen."""
    return state.phase is Phase.FINISHED or state.phase is Phase.CANCELLED


def is_settled(state: PegazState) -> bool:
    """The pot is paid out (or refunded); only offerings to Ranald may still be pending."""
    return state.phase in _OVER


def require_open_seat(state: PegazState) -> None:
    """Raise the refusal of any join, whoever asks: the game is under way, or every seat is
    taken (so a player is refused before being asked which character)."""
    if state.phase is not Phase.SEATING:
        raise WrongPhase(phase=state.phase.value)
    if len(state.seats) >= MAX_SEATS:
        raise TableFull(max=MAX_SEATS)


def seat_of(state: PegazState, player: int) -> Seat:
    i = index_of(state, player)
    if i < 0:
        raise NotSeated(player=player)
    return state.seats[i]


def hand_of(state: PegazState, player: int) -> tuple[int, ...]:
    """The player's own cards (empty before the deal and after going out)."""
    return seat_of(state, player).hand


def whose_turn(state: PegazState) -> int | None:
    """The player who must exchange, check or fold now, if anyone."""
    if state.phase not in (Phase.EXCHANGE, Phase.CHECKS) or state.turn is None or state.rulings:
        return None
    seat = state.seats[state.turn]
    return None if seat.pending else seat.player


def to_act(state: PegazState) -> tuple[int, ...]:
    """Every player who may act now: secret modifier choices, the turn, or the offering."""
    if state.phase is Phase.OFFERING:
        return state.offers
    out = [s.player for s in state.seats if s.pending]
    turn = whose_turn(state)
    if turn is not None:
        out.append(turn)
    return tuple(out)


def checks_allowed(state: PegazState) -> bool:
    """Whether the player on turn could check now (from exchange round 2 on)."""
    return state.phase is Phase.CHECKS or (state.phase is Phase.EXCHANGE and state.round >= 2)


def exchangeable(state: PegazState) -> int:
    """The most cards an exchange may take now (0..3).

    Dice: always 3. Deck source (rules version 2): no more than the other cards there are to
    draw, the deck plus the discard pile; the cards given up are not among them, so nobody
    pays to be dealt their own cards back. With 8 seats on a 24-card deck nothing is left after
    the deal, so until somebody goes out an exchange can only be of no cards.
    """
    if not state.deck or state.rules_version < 2:
        return 3
    return min(3, sum(state.deck) + sum(state.discard))


def expelled_all(state: PegazState) -> bool:
    """The game ended with everyone still in expelled, so the pot rolled over to the next game."""
    if not state.rolled_over or not state.last_out or state.rules_version < 2:
        return False
    out = set(state.last_out)
    return all(s.status is SeatStatus.EXPELLED for s in state.seats if s.player in out)


def check_price(state: PegazState) -> int:
    return 3 * state.stake


def exchange_price(state: PegazState, k: int, new_stake: int | None = None) -> int:
    """What exchanging ``k`` cards costs at ``new_stake`` (default: the current stake)."""
    return (1 + k) * (state.stake if new_stake is None else new_stake)


def exchange_terms(state: PegazState, action: Exchange) -> tuple[tuple[int, ...], int, int]:
    """``(cards, new stake, price)`` of ``action`` now, or the rules' refusal raised exactly as
    :func:`~bot.rules.pegaz.apply` raises it (its step asks this first): a preview asks here
    instead of trying the step."""
    check_action(action)
    i = require_turn(state, action.player)
    if state.phase is not Phase.EXCHANGE:
        raise WrongPhase(phase=state.phase.value)
    cards = tuple(sorted(action.cards))
    if len(set(cards)) != len(cards) or any(c not in (0, 1, 2) for c in cards):
        raise IllegalExchange(reason="cards")
    left = exchangeable(state)
    if len(cards) > left:
        raise NoCardsToDraw(left=left)
    rules = state.settings
    new = action.stake
    if new < state.stake:
        raise IllegalExchange(reason="below_stake", stake=state.stake)
    if rules.raise_limit is not None and new - state.stake > rules.raise_limit:
        raise RaiseTooHigh(limit=rules.raise_limit, stake=state.stake)
    if rules.max_stake is not None and new > rules.max_stake:
        raise StakeOverMax(max_stake=rules.max_stake)
    price = (1 + len(cards)) * new
    funds = state.seats[i].funds
    if price > funds:
        raise InsufficientFunds(needed=price, available=funds)
    return cards, new, price


def stake_bounds(state: PegazState) -> tuple[int, int | None]:
    """The lowest and highest stake an exchange may set now (``None``: no ceiling)."""
    s = state.settings
    high: int | None = None if s.raise_limit is None else state.stake + s.raise_limit
    if s.max_stake is not None:
        high = s.max_stake if high is None else min(high, s.max_stake)
    return state.stake, high


def _modifier_choices(seat: Seat) -> list[Action]:
    out: list[Action] = [Keep(seat.player)]
    p, fresh = seat.player, seat.fresh
    if seat.luck or seat.gamble:
        out.extend(Modify(p, ((c, d),)) for c in fresh for d in (-1, 1))
    if seat.luck and seat.gamble:
        out.extend(
            Modify(p, ((c, d), (e, f)))
            for c in fresh
            for e in fresh
            if c < e
            for d in (-1, 1)
            for f in (-1, 1)
        )
    if seat.gamble:
        out.extend(Cheat(p, c, d) for c in fresh for d in (-2, 2))
    return out


def _turn_choices(state: PegazState, seat: Seat) -> list[Action]:
    p, funds, stake = seat.player, seat.funds, state.stake
    out: list[Action] = []
    if state.phase is Phase.EXCHANGE:
        _, high = stake_bounds(state)
        most = exchangeable(state)
        for cards in _SUBSETS:
            if len(cards) > most:
                continue
            afford = funds // (1 + len(cards))
            top = afford if high is None else min(high, afford)
            if top < stake:
                continue
            out.append(Exchange(p, cards, stake))
            if top > stake:
                out.append(Exchange(p, cards, stake + 1))
            if top > stake + 1:
                out.append(Exchange(p, cards, top))
    if checks_allowed(state) and funds >= 3 * stake:
        out.extend(
            Check(p, t.player)
            for t in state.seats
            if t.status is SeatStatus.ACTIVE and t.player != p
        )
    out.append(Fold(p))
    return out


def legal_actions(state: PegazState) -> list[Action]:
    """A finite, representative list of every legal action for whoever may act now.

    Modifier choices of every pending player (all of them), the GM's rulings, and for the player
    on turn: exchanges of every card subset at the current stake, one penny more and the most
    allowed (capped by what the player can pay); a check on each opponent; fold. Before the
    start: start (by the first seat) and leave. Join, Cancel and Timeout are never listed.
    """
    phase = state.phase
    if phase is Phase.SEATING:
        out: list[Action] = [Leave(s.player) for s in state.seats]
        if len(state.seats) >= 2:
            out.insert(0, Start(state.seats[0].player))
        return out
    if phase is Phase.OFFERING:
        return [Offer(p, accept) for p in state.offers for accept in (True, False)]
    if phase in _OVER:
        return []
    out = []
    for seat in state.seats:
        if seat.pending:
            out.extend(_modifier_choices(seat))
    for cheater in state.rulings:
        out.append(RuleOnCheat(True, cheater))
        out.append(RuleOnCheat(False, cheater))
    turn = whose_turn(state)
    if turn is not None:
        out.extend(_turn_choices(state, state.seats[state.turn or 0]))
    return out


def funds_sync(state: PegazState, purses: Mapping[int, int]) -> SyncFunds | None:
    """The action that brings the seats' funds in line with ``purses`` (player -> the purse as
    the ledger holds it), or None when they agree (or the game is over). A purse below zero (a
    GM's correction, where the server allows an overdraft) leaves its seat nothing to spend."""
    if state.phase in (Phase.FINISHED, Phase.CANCELLED, Phase.OFFERING):
        return None
    spendable = {player: max(0, purse) for player, purse in purses.items()}
    changed = tuple(
        (seat.player, spendable[seat.player])
        for seat in state.seats
        if seat.player in spendable and spendable[seat.player] != seat.funds
    )
    return SyncFunds(changed) if changed else None
