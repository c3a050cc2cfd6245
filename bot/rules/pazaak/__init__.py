"""Pazaak (Star Wars: KOTOR): the pure rules core. The rules are ``shared/rules/pazaak.md``.

A match begins with :func:`new_match`; every later move is an action passed to :func:`apply`. An
action is validated, turned into events (drawing any randomness from the injected RNG), and the
events are folded with the same reducer :func:`replay` uses, so a replayed log equals the live
match by construction. Side cards live in ``pazaak.cards``; settings, state, actions and errors
in ``pazaak.state``; events and the reducer in ``pazaak.events``. This package re-exports them.

[house] decisions (beyond the ones marked in the rules page):

- Timing of the checks: the bust check, then the nine-card check, then the auto-stand at 20 are
  made at the end of the player's own turn (End turn, Stand or Timeout), in that order. So a minus
  card played in the same turn saves a bust, nine cards over 20 are a bust, and nine cards that
  total exactly 20 win the set rather than stand.
- Nine cards means nine or more cards of any origin on the table (a hand card may be the tenth).
- A Flip changes the sign of every card *counting* ±2/±4 (resp. ±3/±6) on the player's own table
  right now: main-deck cards and side cards alike (a D that counts 4 is flipped too). The flip card
  itself counts 0 and is not flipped by later flips.
- D copies the value the last card on one's own table counts now. As the turn's draw comes first,
  in play that is the card just drawn; D on an empty table is refused anyway.
- A T wins a tie whether it was played as +1 or -1; only T cards played in this set count.
- Starter: set 1 is random. With ``starter="loser"``, the loser of the last set starts the next;
  after a tied set the other player starts (as with ``alternate``), so nobody starts twice in a row
  on a tie.
- A standing player takes no more turns this set; the other keeps taking turns (drawing each time)
  until they stand, bust, reach 20 or fill nine cards. Then both stand and the totals compare.
- Timeout: the player stands (and a bust at that moment still loses). Timeouts count per player in
  a row; any real action of that player (playing a card, End turn, Stand) resets the count. The
  ``timeouts_to_forfeit``-th timeout in a row forfeits the match instead of standing.
- Forfeit is allowed to either player at any time during the match, also while standing or out of
  turn; the other player wins the pot.
- A player who is standing and presses End turn / Stand / plays a card gets ``AlreadyStanding``
  (clearer than ``NotYourTurn``).
- For a card with one value (``+N``, ``-N``, flips, D) ``PlayCard.value`` may be None or that very
  value; for a card with a choice (``±N``, T, ``±1/2``) it is required.
- The hand keeps its deal order; playing a card closes the gap, so later indices shift down.
- ``legal_actions`` leaves out ``Timeout``: only the service's turn timer sends it.
- The pot is exactly both wagers and goes whole to the winner; a wager of 0 moves no money.
- Sets are not capped: ties score nothing, so a match lasts until someone wins ``sets_to_win``.
- The 80-card pool cannot run out within a set, so it is never reshuffled mid-set: tables stay
  at most 20 between turns, and minus cards (at most 4 x 6 each) and flips (at most the pool's
  2s, 3s, 4s and 6s, 120 in all) can take back little, so one set's draws total at most
  56 + 48 + 2 x 120 = 344, less than the pool's 440.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bot.rules.common import (
    AlreadySeated,
    GameOver,
    InvalidValue,
    NotSeated,
    NotYourTurn,
    WrongPhase,
    check_action,
)
from bot.rules.pazaak.cards import (
    ALL_SIDE_CARDS,
    HAND_SIZE,
    SELECTION_SIZE,
    STARTER_COLLECTION,
    InvalidSelection,
    SideCard,
    UnknownSideCard,
    check_selection,
    parse_side_card,
    parse_side_cards,
    validate_selection,
)
from bot.rules.pazaak.events import (
    CardDrawn,
    CardPlayed,
    CorruptEventLog,
    Event,
    HandDealt,
    MatchEnded,
    MatchStarted,
    SetEnded,
    SetStarted,
    Stood,
    TurnEnded,
    TurnStarted,
    dump_events,
    fold,
    load_events,
    replay,
    transfers,
)
from bot.rules.pazaak.state import (
    MAIN_POOL,
    NINE_CARDS,
    TARGET,
    Action,
    AlreadyStanding,
    CardAlreadyPlayedThisTurn,
    DoubleOnEmptyTable,
    EndTurn,
    Forfeit,
    IllegalCardValue,
    NoSuchCard,
    PazaakSettings,
    PazaakState,
    PazaakView,
    PlayCard,
    PlayerState,
    SeatView,
    SetEndReason,
    SetResult,
    Stand,
    TableCard,
    Timeout,
    TurnEnd,
    card_value,
    seat_index,
    settings_from,
    table_total,
    view,
)

__all__ = [
    "ALL_SIDE_CARDS",
    "GAME",
    "HAND_SIZE",
    "MAIN_POOL",
    "SELECTION_SIZE",
    "STARTER_COLLECTION",
    "Action",
    "AlreadyStanding",
    "CardAlreadyPlayedThisTurn",
    "CardDrawn",
    "CardPlayed",
    "CorruptEventLog",
    "DoubleOnEmptyTable",
    "EndTurn",
    "Event",
    "Forfeit",
    "HandDealt",
    "IllegalCardValue",
    "InvalidSelection",
    "MatchEnded",
    "MatchStarted",
    "NoSuchCard",
    "PazaakSettings",
    "PazaakState",
    "PazaakView",
    "PlayCard",
    "PlayerState",
    "SeatView",
    "SetEnded",
    "SetResult",
    "SetStarted",
    "SideCard",
    "Stand",
    "Stood",
    "TableCard",
    "Timeout",
    "TurnEnded",
    "TurnStarted",
    "UnknownSideCard",
    "apply",
    "card_value",
    "dump_events",
    "fold",
    "is_over",
    "legal_actions",
    "load_events",
    "new_match",
    "parse_side_card",
    "parse_side_cards",
    "play_terms",
    "replay",
    "settings_from",
    "table_total",
    "transfers",
    "validate_selection",
    "view",
]

GAME = "pazaak"


# --- starting a match ---------------------------------------------------------------------------


def new_match(
    settings: PazaakSettings,
    player_a: int,
    selection_a: Sequence[SideCard],
    player_b: int,
    selection_b: Sequence[SideCard],
    rng: random.Random,
) -> tuple[PazaakState, list[Event]]:
    """Start a match: escrow, deal both hands, pick the set-1 starter, shuffle, first draw.

    Ownership of the selections is the caller's check (:func:`validate_selection`); here only the
    size and the ``kotor2_cards`` option are checked.
    """
    if type(player_a) is not int or type(player_b) is not int:
        raise InvalidValue(field="player")
    settings.check_bounds()
    if player_a == player_b:
        raise AlreadySeated(player=player_b)
    for player, selection in ((player_a, selection_a), (player_b, selection_b)):
        try:
            check_selection(selection, kotor2_cards=settings.kotor2_cards)
        except InvalidSelection as error:  # the card is left out: it may be the other's secret
            raise InvalidSelection(player=player, reason=error.params["reason"]) from None
    events: list[Event] = []
    selections = (tuple(selection_a), tuple(selection_b))
    state = _emit(None, events, MatchStarted(settings, (player_a, player_b), selections))
    for player, selection in zip((player_a, player_b), selections, strict=True):
        state = _emit(state, events, HandDealt(player, tuple(rng.sample(selection, HAND_SIZE))))
    state = _start_set(state, events, rng.randrange(2), rng)
    return state, events


def _emit(state: PazaakState | None, events: list[Event], event: Event) -> PazaakState:
    events.append(event)
    return fold(state, event)


def _start_set(
    state: PazaakState, events: list[Event], seat: int, rng: random.Random
) -> PazaakState:
    if state.settings.main_deck == "pool":
        pool = list(MAIN_POOL)
        rng.shuffle(pool)
        order = tuple(pool)
    else:
        order = ()
    starter = state.players[seat].id
    state = _emit(state, events, SetStarted(state.set_number + 1, starter, order))
    return _start_turn(state, events, seat, rng)


def _start_turn(
    state: PazaakState, events: list[Event], seat: int, rng: random.Random
) -> PazaakState:
    player = state.players[seat].id
    state = _emit(state, events, TurnStarted(player))
    value = state.pool[0] if state.settings.main_deck == "pool" else rng.randrange(1, 11)
    return _emit(state, events, CardDrawn(player, value))


# --- actions ------------------------------------------------------------------------------------


def apply(
    state: PazaakState, action: Action, rng: random.Random
) -> tuple[PazaakState, list[Event]]:
    """Validate ``action``, and return the new state and the events it caused.

    An illegal action raises a :class:`RulesError` and changes nothing; so does a value of the
    wrong kind (``PlayCard(value=2.0)``, a bool as an index: :class:`InvalidValue`).
    """
    seat = _seat_of_actor(state, action)
    events: list[Event] = []
    if isinstance(action, Forfeit):
        winner = state.players[1 - seat].id
        return _emit(state, events, MatchEnded(winner, state.pot, "forfeit")), events
    _require_turn(state, seat, action.player)
    if isinstance(action, PlayCard):
        side, value = play_terms(state, action)
        event = CardPlayed(action.player, action.hand_index, side, value)
        return _emit(state, events, event), events
    how = _TURN_ENDS[type(action)]
    return _end_turn(state, events, seat, how, rng), events


def play_terms(state: PazaakState, action: PlayCard) -> tuple[SideCard, int]:
    """The side card a :class:`PlayCard` plays and the value it adds, or the refusal raised
    exactly as :func:`apply` raises it (the step asks this first): a click asks here before it
    is acknowledged, instead of trying the step."""
    seat = _seat_of_actor(state, action)
    _require_turn(state, seat, action.player)
    me = state.players[seat]
    if me.played_card_this_turn:
        raise CardAlreadyPlayedThisTurn()
    index = action.hand_index
    if not 0 <= index < len(me.hand):
        raise NoSuchCard(hand_index=index, hand_size=len(me.hand))
    side = me.hand[index]
    return side, card_value(side, action.value, me.table)


def _seat_of_actor(state: PazaakState, action: Action) -> int:
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


def _require_turn(state: PazaakState, seat: int, player: int) -> None:
    if state.players[seat].standing:
        raise AlreadyStanding()
    if state.turn != seat:
        raise NotYourTurn(player=player)


_TURN_ENDS: dict[type[Any], TurnEnd] = {EndTurn: "end_turn", Stand: "stand", Timeout: "timeout"}


def _end_turn(
    state: PazaakState, events: list[Event], seat: int, how: TurnEnd, rng: random.Random
) -> PazaakState:
    settings = state.settings
    player = state.players[seat].id
    state = _emit(state, events, TurnEnded(player, how))
    if how == "timeout" and state.players[seat].timeouts >= settings.timeouts_to_forfeit:
        winner = state.players[1 - seat].id
        return _emit(state, events, MatchEnded(winner, state.pot, "timeouts"))
    if how != "end_turn":
        state = _emit(state, events, Stood(player, how))
    me = state.players[seat]
    total = me.total
    if total > TARGET:
        return _end_set(state, events, 1 - seat, "bust", rng)
    if settings.nine_card_win and len(me.table) >= NINE_CARDS:
        return _end_set(state, events, seat, "nine_cards", rng)
    if total == TARGET and not me.standing:
        state = _emit(state, events, Stood(player, "twenty"))
    me, other = state.players[seat], state.players[1 - seat]
    if not other.standing:
        return _start_turn(state, events, 1 - seat, rng)
    if not me.standing:
        return _start_turn(state, events, seat, rng)
    mine, theirs = me.total, other.total
    if mine != theirs:
        return _end_set(state, events, seat if mine > theirs else 1 - seat, "higher_total", rng)
    if me.played_tiebreaker != other.played_tiebreaker:
        return _end_set(
            state, events, seat if me.played_tiebreaker else 1 - seat, "tiebreaker", rng
        )
    return _end_set(state, events, None, "tie", rng)


def _end_set(
    state: PazaakState,
    events: list[Event],
    winner: int | None,
    reason: SetEndReason,
    rng: random.Random,
) -> PazaakState:
    a, b = state.players
    winner_id = None if winner is None else state.players[winner].id
    state = _emit(state, events, SetEnded(state.set_number, winner_id, reason, (a.total, b.total)))
    if winner is not None and state.players[winner].sets_won >= state.settings.sets_to_win:
        return _emit(state, events, MatchEnded(state.players[winner].id, state.pot, "sets"))
    if state.settings.starter == "loser" and winner is not None:
        starter = 1 - winner
    else:
        starter = 1 - state.starter
    return _start_set(state, events, starter, rng)


# --- reading the state --------------------------------------------------------------------------


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
