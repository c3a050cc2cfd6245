"""Pazaak: read-only questions about a match (whose seat, what a card would count, what is
legal, what a player may see). A caller asks here instead of trying an action."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.rules.common import GameOver, NotSeated, NotYourTurn, WrongPhase, check_action
from bot.rules.pazaak.actions import Action, EndTurn, Forfeit, PlayCard, Stand
from bot.rules.pazaak.cards import SideCard
from bot.rules.pazaak.state import (
    AlreadyStanding,
    CardAlreadyPlayedThisTurn,
    DoubleOnEmptyTable,
    IllegalCardValue,
    NoSuchCard,
    PazaakState,
    Phase,
    SetResult,
    TableCard,
)


def seat_index(state: PazaakState, player: int) -> int | None:
    """The seat (0 or 1) of ``player``, or None when they are not in this match."""
    players = state.players
    if players[0].id == player:
        return 0
    if players[1].id == player:
        return 1
    return None


def play_terms(state: PazaakState, action: PlayCard) -> tuple[SideCard, int]:
    """The side card a :class:`PlayCard` plays and the value it adds, or the refusal raised
    exactly as :func:`apply` raises it (the step asks this first): a click asks here before it
    is acknowledged, instead of trying the step."""
    seat = actor_seat(state, action)
    require_turn(state, seat, action.player)
    me = state.players[seat]
    if me.played_card_this_turn:
        raise CardAlreadyPlayedThisTurn()
    index = action.hand_index
    if not 0 <= index < len(me.hand):
        raise NoSuchCard(hand_index=index, hand_size=len(me.hand))
    side = me.hand[index]
    return side, card_value(side, action.value, me.table)


def actor_seat(state: PazaakState, action: Action) -> int:
    """The actor's seat in a match under way (the checks every action shares)."""
    check_action(action)
    if state.phase == "over":
        raise GameOver()
    seat = seat_index(state, action.player)
    if seat is None:
        raise NotSeated(player=action.player)
    if state.phase != "playing":
        raise WrongPhase(phase=state.phase)
    return seat


def require_turn(state: PazaakState, seat: int, player: int) -> None:
    if state.players[seat].standing:
        raise AlreadyStanding()
    if state.turn != seat:
        raise NotYourTurn(player=player)


def is_over(state: PazaakState) -> bool:
    return state.phase == "over"


def legal_actions(state: PazaakState) -> list[Action]:
    """Every legal action of the player whose turn it is (``Timeout`` is the service's, not here).

    A hand card appears once per value it may be played as; single-valued cards with ``value``
    None. Forfeit is listed too. Empty when the match is over.
    """
    if state.phase != "playing":
        return []
    me = state.players[state.turn]
    player = me.id
    actions: list[Action] = []
    if not me.played_card_this_turn:
        for index, side in enumerate(me.hand):
            values = side.values
            if len(values) > 1:
                actions.extend(PlayCard(player, index, value) for value in values)
            elif values or me.table:
                actions.append(PlayCard(player, index))
    actions += (EndTurn(player), Stand(player), Forfeit(player))
    return actions


@dataclass(frozen=True, slots=True)
class SeatView:
    """What anyone may see of one seat: the table is public, the hand only by its size."""

    player: int
    table: tuple[TableCard, ...]
    total: int
    standing: bool
    sets_won: int
    hand_size: int
    played_tiebreaker: bool


@dataclass(frozen=True, slots=True)
class PazaakView:
    """What ``viewer`` may see: their own hand, both tables, never the other hand or the pool."""

    viewer: int | None
    hand: tuple[SideCard, ...]
    """The viewer's own hand; empty for a spectator."""
    seats: tuple[SeatView, SeatView]
    current_player: int | None
    set_number: int
    phase: Phase
    pot: int
    winner: int | None
    results: tuple[SetResult, ...]
    pool_left: int
    """How many main-deck cards are left (0 when the main deck is infinite)."""


def view(state: PazaakState, viewer: int | None) -> PazaakView:
    """The state as ``viewer`` may see it (None: a spectator). Raises NotSeated for a stranger."""
    seat = None if viewer is None else seat_index(state, viewer)
    if viewer is not None and seat is None:
        raise NotSeated(player=viewer)
    a, b = (
        SeatView(p.id, p.table, p.total, p.standing, p.sets_won, len(p.hand), p.played_tiebreaker)
        for p in state.players
    )
    return PazaakView(
        viewer,
        () if seat is None else state.players[seat].hand,
        (a, b),
        state.current_player,
        state.set_number,
        state.phase,
        state.pot,
        state.winner,
        state.results,
        len(state.pool),
    )


def card_value(side: SideCard, value: int | None, table: Sequence[TableCard]) -> int:
    """What ``side`` counts as when played as ``value`` on ``table``, or a typed error."""
    if side.kind == "double":
        if not table:
            raise DoubleOnEmptyTable()
        allowed: tuple[int, ...] = (table[-1].value,)
    else:
        allowed = side.values
    if value is None:
        if len(allowed) == 1:
            return allowed[0]
    elif value in allowed:
        return value
    raise IllegalCardValue(card=side.code, value=value, allowed=allowed)
