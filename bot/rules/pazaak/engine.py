"""Pazaak: starting a match and applying actions (the only code that makes events)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bot.rules.common import AlreadySeated, GameOver, InvalidValue, WrongPhase, check_action
from bot.rules.pazaak.actions import (
    Action,
    EndTurn,
    Forfeit,
    PlayCard,
    Redraw,
    RuleOnCheat,
    Stand,
    Swap,
    Timeout,
)
from bot.rules.pazaak.cards import (
    ALL_SIDE_CARDS,
    HAND_SIZE,
    InvalidSelection,
    SideCard,
    check_selection,
)
from bot.rules.pazaak.events import (
    CardDrawn,
    CardPlayed,
    Caught,
    DetectionRoll,
    Event,
    HandDealt,
    MatchEnded,
    MatchStarted,
    Redrawn,
    Ruled,
    RulingRequested,
    SetEnded,
    SetStarted,
    Stood,
    Swapped,
    TurnEnded,
    TurnStarted,
)
from bot.rules.pazaak.queries import (
    actor_seat,
    play_terms,
    require_skill,
    require_turn,
    side_deck,
)
from bot.rules.pazaak.reducer import fold
from bot.rules.pazaak.state import (
    MAIN_POOL,
    MAX_PERCEPTION,
    NINE_CARDS,
    TARGET,
    VERDICTS,
    InvalidTraits,
    NoRulingPending,
    NoSuchCard,
    NotInSideDeck,
    PazaakSettings,
    PazaakState,
    SetEndReason,
    Traits,
    TurnEnd,
)


def new_match(
    settings: PazaakSettings,
    player_a: int,
    selection_a: Sequence[SideCard],
    player_b: int,
    selection_b: Sequence[SideCard],
    rng: random.Random,
    traits: tuple[Traits, Traits] = (Traits(), Traits()),
) -> tuple[PazaakState, list[Event]]:
    """Start a match: escrow, deal both hands, pick the set-1 starter, shuffle, first draw.

    Ownership of the selections is the caller's check (:func:`validate_selection`); here only the
    size and the ``kotor2_cards`` option are checked. ``traits`` (in seat order) count only with
    the option ``skills``; a Perception outside 0..100 raises :class:`InvalidTraits`.
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
    _check_traits((player_a, player_b), traits)
    events: list[Event] = []
    selections = (tuple(selection_a), tuple(selection_b))
    started = MatchStarted(settings, (player_a, player_b), selections, (traits[0], traits[1]))
    state = _emit(None, events, started)
    for player, selection in zip((player_a, player_b), selections, strict=True):
        state = _emit(state, events, HandDealt(player, tuple(rng.sample(selection, HAND_SIZE))))
    state = _start_set(state, events, rng.randrange(2), rng)
    return state, events


def _check_traits(players: tuple[int, int], traits: object) -> None:
    if type(traits) is not tuple or len(traits) != 2:
        raise InvalidValue(field="traits")
    for player, trait in zip(players, traits, strict=True):
        if not isinstance(trait, Traits):
            raise InvalidValue(field="traits")
        check_action(trait)  # luck and gamble are bools, perception an int
        if not 0 <= trait.perception <= MAX_PERCEPTION:
            raise InvalidTraits(player=player, field="perception", value=trait.perception)


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
    events: list[Event] = []
    if isinstance(action, RuleOnCheat):
        return _rule(state, events, action, rng), events
    seat = actor_seat(state, action)
    if isinstance(action, Forfeit):
        winner = state.players[1 - seat].id
        return _emit(state, events, MatchEnded(winner, state.pot, "forfeit")), events
    if isinstance(action, Redraw):
        return _redraw(state, events, seat, rng), events
    if isinstance(action, Swap):
        return _swap(state, events, seat, action, rng), events
    require_turn(state, seat, action.player)
    if isinstance(action, PlayCard):
        side, value = play_terms(state, action)
        event = CardPlayed(action.player, action.hand_index, side, value)
        return _emit(state, events, event), events
    how = _TURN_ENDS[type(action)]
    return _end_turn(state, events, seat, how, rng), events


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
        starter = 1 - state.starter_seat
    return _start_set(state, events, starter, rng)


# --- skills -------------------------------------------------------------------------------------


def _redraw(state: PazaakState, events: list[Event], seat: int, rng: random.Random) -> PazaakState:
    require_skill(state, seat, "redraw")
    player = state.players[seat].id
    value = state.players[seat].table[-1].chosen
    if state.settings.main_deck == "pool":
        pool = [*state.pool, value]
        rng.shuffle(pool)
        state = _emit(state, events, Redrawn(player, value, tuple(pool)))
        new_value = state.pool[0]
    else:
        state = _emit(state, events, Redrawn(player, value, ()))
        new_value = rng.randrange(1, 11)
    return _emit(state, events, CardDrawn(player, new_value))


def _swap(
    state: PazaakState, events: list[Event], seat: int, action: Swap, rng: random.Random
) -> PazaakState:
    require_skill(state, seat, "swap")
    me, other = state.players[seat], state.players[1 - seat]
    if not 0 <= action.hand_index < len(me.hand):
        raise NoSuchCard(hand_index=action.hand_index, hand_size=len(me.hand))
    if not isinstance(action.card, SideCard) or action.card not in ALL_SIDE_CARDS:
        raise InvalidValue(field="card")
    if action.card not in side_deck(me):
        raise NotInSideDeck(card=action.card.code)
    out = me.hand[action.hand_index]
    state = _emit(state, events, Swapped(me.id, action.hand_index, out, action.card))
    target = other.traits.perception + state.settings.detection_modifier
    roll = DetectionRoll(other.id, me.id, rng.randint(1, 100), target)
    state = _emit(state, events, roll)
    if not roll.success:
        return state
    state = _emit(state, events, Caught(me.id, other.id))
    if state.settings.cheat_ruling == "gm":
        return _emit(state, events, RulingRequested(me.id))
    return _emit(state, events, MatchEnded(other.id, state.pot, "caught"))


def _rule(
    state: PazaakState, events: list[Event], action: RuleOnCheat, rng: random.Random
) -> PazaakState:
    check_action(action)
    if state.phase == "over":
        raise GameOver()
    if state.phase != "playing":
        raise WrongPhase(phase=state.phase)
    if action.verdict not in VERDICTS:
        raise InvalidValue(field="verdict")
    ruling = state.ruling
    if ruling is None or ruling.cheater != action.cheater:
        raise NoRulingPending(cheater=action.cheater)
    state = _emit(state, events, Ruled(action.cheater, action.verdict))
    seat = 0 if ruling.cheater == state.players[0].id else 1
    if action.verdict == "pardon":
        return state
    if action.verdict == "lose_set":
        return _end_set(state, events, 1 - seat, "cheat", rng)
    return _emit(state, events, MatchEnded(state.players[1 - seat].id, state.pot, "caught"))
