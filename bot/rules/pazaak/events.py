"""Pazaak events, their JSON form and money, and the pure reducer that folds them into a state.

:func:`fold` is the only code that builds a new state: live actions (``bot.rules.pazaak``) build
events and fold them with it, and :func:`replay` folds a stored log with it, so a replayed match
equals the live one by construction.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from bot.rules.common import POT, Transfer
from bot.rules.pazaak.cards import FLIPPED_VALUES, SideCard
from bot.rules.pazaak.state import (
    MatchEndReason,
    PazaakSettings,
    PazaakState,
    PlayerState,
    SetEndReason,
    SetResult,
    StandReason,
    TableCard,
    TurnEnd,
    seat_index,
)

# --- events -------------------------------------------------------------------------------------
# ``kind`` comes last, with a default, so events can be built positionally.


@dataclass(frozen=True, slots=True)
class MatchStarted:
    """The match begins; both wagers go into the pot (see ``transfers``)."""

    settings: PazaakSettings
    players: tuple[int, int]
    selections: tuple[tuple[SideCard, ...], tuple[SideCard, ...]]
    kind: Literal["match_started"] = "match_started"


@dataclass(frozen=True, slots=True)
class HandDealt:
    """Four of the player's selection, dealt at random. Secret: send it by DM."""

    player: int
    cards: tuple[SideCard, ...]
    kind: Literal["hand_dealt"] = "hand_dealt"


@dataclass(frozen=True, slots=True)
class SetStarted:
    set_number: int
    starter: int
    pool: tuple[int, ...]
    """The shuffled 80-card pool, next card first; empty when the main deck is infinite."""
    kind: Literal["set_started"] = "set_started"


@dataclass(frozen=True, slots=True)
class TurnStarted:
    player: int
    kind: Literal["turn_started"] = "turn_started"


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """The automatic draw from the main deck at the start of a turn."""

    player: int
    value: int
    kind: Literal["card_drawn"] = "card_drawn"


@dataclass(frozen=True, slots=True)
class CardPlayed:
    player: int
    hand_index: int
    card: SideCard
    value: int
    """What the card counts as when played (0 for a flip, the copied value for D)."""
    kind: Literal["card_played"] = "card_played"


@dataclass(frozen=True, slots=True)
class TurnEnded:
    player: int
    how: TurnEnd
    kind: Literal["turn_ended"] = "turn_ended"


@dataclass(frozen=True, slots=True)
class Stood:
    player: int
    reason: StandReason
    kind: Literal["stood"] = "stood"


@dataclass(frozen=True, slots=True)
class SetEnded:
    set_number: int
    winner: int | None
    reason: SetEndReason
    totals: tuple[int, int]
    kind: Literal["set_ended"] = "set_ended"


@dataclass(frozen=True, slots=True)
class MatchEnded:
    """The winner takes the pot (see ``transfers``)."""

    winner: int
    pot: int
    reason: MatchEndReason
    kind: Literal["match_ended"] = "match_ended"


Event = (
    MatchStarted
    | HandDealt
    | SetStarted
    | TurnStarted
    | CardDrawn
    | CardPlayed
    | TurnEnded
    | Stood
    | SetEnded
    | MatchEnded
)


@cache
def _adapter() -> TypeAdapter[list[Event]]:
    """Built when first used, not at import (it costs some 60 ms of the bot's start)."""
    return TypeAdapter(list[Annotated[Event, Field(discriminator="kind")]])


def dump_events(events: Sequence[Event]) -> bytes:
    """The events as JSON (side cards as their codes)."""
    return _adapter().dump_json(list(events))


def load_events(data: bytes) -> list[Event]:
    """The inverse of :func:`dump_events`."""
    return _adapter().validate_json(data)


def transfers(event: Event) -> tuple[Transfer, ...]:
    """The money an event moves: the escrow at the start, the payout at the end."""
    if isinstance(event, MatchStarted):
        wager = event.settings.wager
        if not wager:
            return ()
        return tuple(Transfer(player, POT, wager, "escrow") for player in event.players)
    if isinstance(event, MatchEnded) and event.pot:
        return (Transfer(POT, event.winner, event.pot, "payout"),)
    return ()


# --- the reducer --------------------------------------------------------------------------------


class CorruptEventLog(ValueError):
    """The events do not describe a possible match (a storage bug, never a player's mistake)."""


def _seat(state: PazaakState, player: int) -> int:
    seat = seat_index(state, player)
    if seat is None:
        raise CorruptEventLog(f"player {player} is not in this match")
    return seat


def _with_player(state: PazaakState, seat: int, player: PlayerState, **changes: Any) -> PazaakState:
    players = (player, state.players[1]) if seat == 0 else (state.players[0], player)
    return _copy(state, players=players, **changes)


def _copy(state: PazaakState, **changes: Any) -> PazaakState:
    # Faster than dataclasses.replace, which inspects the fields on every call.
    return PazaakState(
        changes.get("settings", state.settings),
        changes.get("players", state.players),
        changes.get("pool", state.pool),
        changes.get("set_number", state.set_number),
        changes.get("turn", state.turn),
        changes.get("starter", state.starter),
        changes.get("phase", state.phase),
        changes.get("pot", state.pot),
        changes.get("winner", state.winner),
        changes.get("results", state.results),
    )


def _player(p: PlayerState, **changes: Any) -> PlayerState:
    return PlayerState(
        p.id,
        p.selection,
        changes.get("hand", p.hand),
        changes.get("table", p.table),
        changes.get("standing", p.standing),
        changes.get("sets_won", p.sets_won),
        changes.get("played_card_this_turn", p.played_card_this_turn),
        changes.get("timeouts", p.timeouts),
    )


def _match_started(e: MatchStarted) -> PazaakState:
    a, b = (PlayerState(pid, sel, ()) for pid, sel in zip(e.players, e.selections, strict=True))
    return PazaakState(e.settings, (a, b), pot=2 * e.settings.wager)


def _hand_dealt(s: PazaakState, e: HandDealt) -> PazaakState:
    seat = _seat(s, e.player)
    return _with_player(s, seat, _player(s.players[seat], hand=e.cards))


def _set_started(s: PazaakState, e: SetStarted) -> PazaakState:
    seat = _seat(s, e.starter)
    a, b = (_player(p, table=(), standing=False, played_card_this_turn=False) for p in s.players)
    return _copy(
        s,
        players=(a, b),
        pool=e.pool,
        set_number=e.set_number,
        turn=seat,
        starter=seat,
        phase="playing",
    )


def _turn_started(s: PazaakState, e: TurnStarted) -> PazaakState:
    seat = _seat(s, e.player)
    return _with_player(s, seat, _player(s.players[seat], played_card_this_turn=False), turn=seat)


def _card_drawn(s: PazaakState, e: CardDrawn) -> PazaakState:
    seat = _seat(s, e.player)
    p = s.players[seat]
    pool = s.pool
    if s.settings.main_deck == "pool":
        if not pool or pool[0] != e.value:
            raise CorruptEventLog("a drawn card is not the top of the pool")
        pool = pool[1:]
    table = (*p.table, TableCard(e.value, None, e.value))
    return _with_player(s, seat, _player(p, table=table), pool=pool)


def _card_played(s: PazaakState, e: CardPlayed) -> PazaakState:
    seat = _seat(s, e.player)
    p = s.players[seat]
    hand = p.hand
    if not 0 <= e.hand_index < len(hand) or hand[e.hand_index] != e.card:
        raise CorruptEventLog("a played card is not in the hand")
    table = p.table
    flipped = FLIPPED_VALUES.get(e.card.kind)
    if flipped is not None:
        table = tuple(
            TableCard(-c.value, c.side, c.chosen) if c.value in flipped else c for c in table
        )
    player = _player(
        p,
        hand=hand[: e.hand_index] + hand[e.hand_index + 1 :],
        table=(*table, TableCard(e.value, e.card, e.value)),
        played_card_this_turn=True,
        timeouts=0,
    )
    return _with_player(s, seat, player)


def _turn_ended(s: PazaakState, e: TurnEnded) -> PazaakState:
    seat = _seat(s, e.player)
    p = s.players[seat]
    return _with_player(s, seat, _player(p, timeouts=p.timeouts + 1 if e.how == "timeout" else 0))


def _stood(s: PazaakState, e: Stood) -> PazaakState:
    seat = _seat(s, e.player)
    return _with_player(s, seat, _player(s.players[seat], standing=True))


def _set_ended(s: PazaakState, e: SetEnded) -> PazaakState:
    result = SetResult(e.set_number, e.winner, e.reason, e.totals)
    if e.winner is None:
        return _copy(s, results=(*s.results, result))
    seat = _seat(s, e.winner)
    p = s.players[seat]
    return _with_player(s, seat, _player(p, sets_won=p.sets_won + 1), results=(*s.results, result))


def _match_ended(s: PazaakState, e: MatchEnded) -> PazaakState:
    _seat(s, e.winner)  # the winner must be one of the two players
    return _copy(s, phase="over", pot=s.pot - e.pot, winner=e.winner)


_REDUCERS: dict[type[Any], Callable[[Any, Any], PazaakState]] = {
    HandDealt: _hand_dealt,
    SetStarted: _set_started,
    TurnStarted: _turn_started,
    CardDrawn: _card_drawn,
    CardPlayed: _card_played,
    TurnEnded: _turn_ended,
    Stood: _stood,
    SetEnded: _set_ended,
    MatchEnded: _match_ended,
}


def fold(state: PazaakState | None, event: Event) -> PazaakState:
    """The state after ``event``. Pure; ``state`` is None only before ``MatchStarted``."""
    if isinstance(event, MatchStarted):
        if state is not None:
            raise CorruptEventLog("a match can start only once")
        return _match_started(event)
    if state is None:
        raise CorruptEventLog("the log must begin with MatchStarted")
    return _REDUCERS[type(event)](state, event)


def replay(events: Sequence[Event]) -> PazaakState:
    """Rebuild a match from its events alone (no seed, no other input)."""
    state: PazaakState | None = None
    for event in events:
        state = fold(state, event)
    if state is None:
        raise CorruptEventLog("no events")
    return state
