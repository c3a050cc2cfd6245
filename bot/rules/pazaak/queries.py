"""Pazaak: read-only questions about a match (whose seat, what a card would count, what is
legal, what a player may see). A caller asks here instead of trying an action."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from bot.rules.common import (
    GameOver,
    InvalidValue,
    NotSeated,
    NotYourTurn,
    RulesError,
    WrongPhase,
    check_action,
)
from bot.rules.pazaak.actions import (
    Action,
    EndTurn,
    Forfeit,
    PlayCard,
    PlayerAction,
    Redraw,
    RuleOnCheat,
    Stand,
    Swap,
)
from bot.rules.pazaak.cards import SideCard
from bot.rules.pazaak.state import (
    MAIN_COPIES,
    VERDICTS,
    AlreadyStanding,
    CardAlreadyPlayedThisTurn,
    DoubleOnEmptyTable,
    IllegalCardValue,
    NoSuchCard,
    NoSuchTrait,
    PazaakSettings,
    PazaakState,
    Phase,
    PlayerState,
    RedrawTooLate,
    RulingPending,
    SetResult,
    Skill,
    SkillsOff,
    SkillUsed,
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


def actor_seat(state: PazaakState, action: PlayerAction) -> int:
    """The actor's seat in a match under way (the checks every action shares)."""
    check_action(action)
    return live_seat(state, action.player)


def live_seat(state: PazaakState, player: int) -> int:
    """``player``'s seat in a match under way, or the refusal: over, not seated, not started."""
    if state.phase == "over":
        raise GameOver()
    seat = seat_index(state, player)
    if seat is None:
        raise NotSeated(player=player)
    if state.phase != "playing":
        raise WrongPhase(phase=state.phase)
    return seat


def require_turn(state: PazaakState, seat: int, player: int) -> None:
    refusal = turn_refusal(state, seat, player)
    if refusal is not None:
        raise refusal


def turn_refusal(state: PazaakState, seat: int, player: int) -> RulesError | None:
    """Why the player in ``seat`` may not act on a turn now, or None when they may."""
    if state.ruling is not None:
        return RulingPending()
    if state.players[seat].standing:
        return AlreadyStanding()
    if state.turn_seat != seat:
        return NotYourTurn(player=player)
    return None


def skill_refusal(state: PazaakState, seat: int, skill: Skill) -> RulesError | None:
    """Why the player in ``seat`` may not use ``skill`` now (the error :func:`apply` raises), or
    None when they may. The swap's own card and index are the engine's to check."""
    if state.ruling is not None:
        return RulingPending()
    if not state.settings.skills:
        return SkillsOff()
    me = state.players[seat]
    if skill == "redraw":
        if not me.traits.luck:
            return NoSuchTrait(trait="luck")
        if me.redrew:
            return SkillUsed(skill=skill)
    else:
        if not me.traits.gamble:
            return NoSuchTrait(trait="gamble")
        if me.swapped:
            return SkillUsed(skill=skill)
    refusal = turn_refusal(state, seat, me.id)
    if refusal is not None:
        return refusal
    if skill == "swap":
        return CardAlreadyPlayedThisTurn() if me.played_card_this_turn else None
    if me.played_card_this_turn or not me.table or me.table[-1].side is not None:
        return RedrawTooLate()
    return None


def require_skill(state: PazaakState, seat: int, skill: Skill) -> None:
    refusal = skill_refusal(state, seat, skill)
    if refusal is not None:
        raise refusal


def require_redraw(state: PazaakState, player: int) -> None:
    """Refuse a :class:`Redraw` by ``player`` now exactly as :func:`apply` would, so a click is
    refused before it is acknowledged."""
    require_skill(state, actor_seat(state, Redraw(player)), "redraw")


def require_swap(state: PazaakState, player: int) -> None:
    """Refuse a :class:`Swap` by ``player`` now as :func:`apply` would, before the card and the
    hand index are known (those the step checks: :class:`NoSuchCard`, ``NotInSideDeck``)."""
    if type(player) is not int:
        raise InvalidValue(field="player")
    require_skill(state, live_seat(state, player), "swap")


def _skilled(state: PazaakState, player: int, skill: Skill) -> PlayerState | None:
    """``player``'s state when they may use ``skill`` now, else None."""
    if not state.settings.skills or state.phase != "playing":
        return None
    seat = seat_index(state, player)
    if seat is None or skill_refusal(state, seat, skill) is not None:
        return None
    return state.players[seat]


def may_redraw(state: PazaakState, player: int) -> bool:
    """Whether ``player`` may use Luck's redraw now (right after their turn's draw)."""
    return _skilled(state, player, "redraw") is not None


def may_swap(state: PazaakState, player: int) -> bool:
    """Whether ``player`` may use Gamble's swap now (their turn, before a hand card)."""
    me = _skilled(state, player, "swap")
    return me is not None and bool(me.hand) and bool(side_deck(me))


def swap_choices(state: PazaakState, player: int) -> tuple[SideCard, ...]:
    """The side-deck cards ``player`` may swap in now, each once, in selection order; empty
    when they may not swap."""
    me = _skilled(state, player, "swap")
    return () if me is None or not me.hand else side_deck(me)


def side_deck(player: PlayerState) -> tuple[SideCard, ...]:
    """The distinct cards of the selection that are neither in the hand nor played (copies
    count: with two +1 selected and one in the hand, +1 is still here)."""
    left = Counter(player.selection)
    left.subtract(player.hand)
    left.subtract(player.played)
    return tuple(dict.fromkeys(side for side in player.selection if left[side] > 0))


def is_over(state: PazaakState) -> bool:
    return state.phase == "over"


def legal_actions(state: PazaakState) -> list[Action]:
    """Every legal action of the player whose turn it is (``Timeout`` is the service's, not here).

    A hand card appears once per value it may be played as; single-valued cards with ``value``
    None. A redraw and every swap (each hand index with each of :func:`swap_choices`) when
    allowed, and Forfeit, are listed too. While a ruling is pending: the GM's three verdicts
    only. Empty when the match is over.
    """
    if state.phase != "playing":
        return []
    if state.ruling is not None:
        cheater = state.ruling.cheater
        return [RuleOnCheat(cheater, verdict) for verdict in VERDICTS]
    me = state.players[state.turn_seat]
    player = me.id
    actions: list[Action] = []
    if not me.played_card_this_turn:
        for index, side in enumerate(me.hand):
            values = side.values
            if len(values) > 1:
                actions.extend(PlayCard(player, index, value) for value in values)
            elif values or me.table:
                actions.append(PlayCard(player, index))
    if state.settings.skills:
        if may_redraw(state, player):
            actions.append(Redraw(player))
        choices = swap_choices(state, player)
        actions.extend(Swap(player, i, side) for i in range(len(me.hand)) for side in choices)
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
    played: tuple[SideCard, ...]
    """The hand cards played this match, in order: each was shown on the table."""
    played_card_this_turn: bool
    redrew: bool
    """Luck's redraw was used this match (it is announced)."""


@dataclass(frozen=True, slots=True)
class PazaakView:
    """What ``viewer`` may see: their own hand and side deck, both tables and the settings,
    never the other hand, the other side deck or the pool's order."""

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
    settings: PazaakSettings
    """The table's settings: both players saw them before accepting."""
    side_deck: tuple[SideCard, ...]
    """The viewer's own side deck (as :func:`side_deck`: what a swap may take); secret."""
    may_redraw: bool
    """Whether the viewer may use Luck's redraw now (:func:`may_redraw`)."""
    may_swap: bool
    """Whether the viewer may use Gamble's swap now (:func:`may_swap`); it takes a card of
    ``side_deck``."""


def view(state: PazaakState, viewer: int | None) -> PazaakView:
    """The state as ``viewer`` may see it (None: a spectator). Raises NotSeated for a stranger."""
    seat = None if viewer is None else seat_index(state, viewer)
    if viewer is not None and seat is None:
        raise NotSeated(player=viewer)
    a, b = (
        SeatView(
            p.id,
            p.table,
            p.total,
            p.standing,
            p.sets_won,
            len(p.hand),
            p.played_tiebreaker,
            p.played,
            p.played_card_this_turn,
            p.redrew,
        )
        for p in state.players
    )
    me = None if seat is None else state.players[seat]
    return PazaakView(
        viewer,
        () if me is None else me.hand,
        (a, b),
        state.current_player,
        state.set_number,
        state.phase,
        state.pot,
        state.winner,
        state.results,
        len(state.pool),
        state.settings,
        () if me is None else side_deck(me),
        me is not None and may_redraw(state, me.id),
        me is not None and may_swap(state, me.id),
    )


def unseen_pool(view: PazaakView) -> tuple[int, ...]:
    """How many of each value 1..10 the next main-deck draw may be, from public information
    alone: the 80-card pool minus the main-deck cards on both tables this set (as drawn: a flip
    changes what a card counts, not what it was). With ``main_deck="infinite"``, one of each:
    the uniform draw."""
    if view.settings.main_deck == "infinite":
        return (1,) * 10
    left = [MAIN_COPIES] * 10
    for table_seat in view.seats:
        for card in table_seat.table:
            if card.side is None:
                left[card.chosen - 1] -= 1
    return tuple(left)


def card_value(side: SideCard, value: int | None, table: Sequence[TableCard]) -> int:
    """What ``side`` counts as when played as ``value`` on ``table``, or a typed error.

    One spelling per play: a card with one value (``+N``, ``-N``, a flip, D) takes None only,
    a card with a choice one of its values."""
    if side.kind == "double":
        if not table:
            raise DoubleOnEmptyTable()
        allowed: tuple[int, ...] = (table[-1].value,)
    else:
        allowed = side.values
    if len(allowed) == 1:
        if value is None:
            return allowed[0]
    elif value is not None and value in allowed:
        return value
    raise IllegalCardValue(card=side.code, value=value, allowed=allowed)
