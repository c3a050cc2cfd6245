"""Pazaak: the pure reducer that folds events into a state, and ``replay``.

:func:`fold` is the only code that builds a new state: the engine builds events and folds them
with it, and :func:`replay` folds a stored log with it, so a replayed match equals the live one by
construction. The reducer trusts its events except where a broken log would corrupt the state.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from bot.rules.pazaak.cards import FLIPPED_VALUES
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
from bot.rules.pazaak.queries import seat_index
from bot.rules.pazaak.state import (
    PazaakState,
    PendingRuling,
    Phase,
    PlayerState,
    SetResult,
    TableCard,
    player_with,
    state_with,
)


class CorruptEventLog(ValueError):
    """The events do not describe a possible match (a storage bug, never a player's mistake)."""


def _seat(state: PazaakState, player: int) -> int:
    seat = seat_index(state, player)
    if seat is None:
        raise CorruptEventLog(f"player {player} is not in this match")
    return seat


def _players(state: PazaakState, seat: int, player: PlayerState) -> tuple[PlayerState, PlayerState]:
    """Both players, with ``player`` in ``seat``."""
    return (player, state.players[1]) if seat == 0 else (state.players[0], player)


def _match_started(e: MatchStarted) -> PazaakState:
    a, b = (
        PlayerState(pid, sel, (), traits=traits)
        for pid, sel, traits in zip(e.players, e.selections, e.traits, strict=True)
    )
    return PazaakState(e.settings, (a, b), pot=2 * e.settings.wager)


def _hand_dealt(s: PazaakState, e: HandDealt) -> PazaakState:
    seat = _seat(s, e.player)
    return state_with(s, players=_players(s, seat, player_with(s.players[seat], hand=e.cards)))


def _set_started(s: PazaakState, e: SetStarted) -> PazaakState:
    seat = _seat(s, e.starter)
    a, b = (
        player_with(p, table=(), standing=False, played_card_this_turn=False) for p in s.players
    )
    return state_with(
        s,
        players=(a, b),
        pool=e.pool,
        set_number=e.set_number,
        turn_seat=seat,
        starter_seat=seat,
        phase=Phase.PLAYING,
    )


def _turn_started(s: PazaakState, e: TurnStarted) -> PazaakState:
    seat = _seat(s, e.player)
    return state_with(
        s,
        players=_players(s, seat, player_with(s.players[seat], played_card_this_turn=False)),
        turn_seat=seat,
    )


def _card_drawn(s: PazaakState, e: CardDrawn) -> PazaakState:
    seat = _seat(s, e.player)
    p = s.players[seat]
    pool = s.pool
    if s.settings.main_deck == "pool":
        if not pool or pool[0] != e.value:
            raise CorruptEventLog("a drawn card is not the top of the pool")
        pool = pool[1:]
    table = (*p.table, TableCard(e.value, None, e.value))
    return state_with(s, players=_players(s, seat, player_with(p, table=table)), pool=pool)


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
    player = player_with(
        p,
        hand=hand[: e.hand_index] + hand[e.hand_index + 1 :],
        table=(*table, TableCard(e.value, e.card, e.value)),
        played_card_this_turn=True,
        timeouts=0,
        played=(*p.played, e.card),
    )
    return state_with(s, players=_players(s, seat, player))


def _turn_ended(s: PazaakState, e: TurnEnded) -> PazaakState:
    seat = _seat(s, e.player)
    p = s.players[seat]
    return state_with(
        s,
        players=_players(
            s, seat, player_with(p, timeouts=p.timeouts + 1 if e.how == "timeout" else 0)
        ),
    )


def _stood(s: PazaakState, e: Stood) -> PazaakState:
    seat = _seat(s, e.player)
    return state_with(s, players=_players(s, seat, player_with(s.players[seat], standing=True)))


def _set_ended(s: PazaakState, e: SetEnded) -> PazaakState:
    result = SetResult(e.set_number, e.winner, e.reason, e.totals)
    if e.winner is None:
        return state_with(s, results=(*s.results, result))
    seat = _seat(s, e.winner)
    p = s.players[seat]
    return state_with(
        s,
        players=_players(s, seat, player_with(p, sets_won=p.sets_won + 1)),
        results=(*s.results, result),
    )


def _match_ended(s: PazaakState, e: MatchEnded) -> PazaakState:
    _seat(s, e.winner)  # the winner must be one of the two players
    return state_with(s, phase=Phase.OVER, pot=s.pot - e.pot, winner=e.winner, ruling=None)


def _redrawn(s: PazaakState, e: Redrawn) -> PazaakState:
    seat = _seat(s, e.player)
    p = s.players[seat]
    if not p.table or p.table[-1] != TableCard(e.value, None, e.value):
        raise CorruptEventLog("a redrawn card is not the last draw on the table")
    pool = s.pool
    if s.settings.main_deck == "pool":
        if Counter(e.pool) != Counter((*pool, e.value)):
            raise CorruptEventLog("a redraw's pool is not the pool with the card put back")
        pool = e.pool
    player = player_with(p, table=p.table[:-1], redrew=True)
    return state_with(s, players=_players(s, seat, player), pool=pool)


def _swapped(s: PazaakState, e: Swapped) -> PazaakState:
    seat = _seat(s, e.player)
    p = s.players[seat]
    hand = p.hand
    if not 0 <= e.hand_index < len(hand) or hand[e.hand_index] != e.out:
        raise CorruptEventLog("a swapped-out card is not in the hand")
    if (Counter(p.selection) - Counter(hand) - Counter(p.played))[e.card] <= 0:
        raise CorruptEventLog("a swapped-in card is not in the side deck")
    hand = (*hand[: e.hand_index], e.card, *hand[e.hand_index + 1 :])
    swap = PendingRuling(e.player, e.hand_index, e.out, e.card)
    player = player_with(p, hand=hand, swapped=True)
    return state_with(s, players=_players(s, seat, player), last_swap=swap)


def _ruling_requested(s: PazaakState, e: RulingRequested) -> PazaakState:
    swap = s.last_swap
    if swap is None or swap.cheater != e.cheater:
        raise CorruptEventLog("a ruling is asked on a swap that was not made")
    return state_with(s, ruling=swap)


def _ruled(s: PazaakState, e: Ruled) -> PazaakState:
    ruling = s.ruling
    if ruling is None or ruling.cheater != e.cheater:
        raise CorruptEventLog("a ruling on a swap that awaits none")
    if e.verdict == "forfeit":
        return state_with(s, ruling=None)
    seat = _seat(s, e.cheater)
    p = s.players[seat]
    i = ruling.hand_index
    hand = (*p.hand[:i], ruling.card_out, *p.hand[i + 1 :])
    return state_with(s, players=_players(s, seat, player_with(p, hand=hand)), ruling=None)


def _nothing(s: PazaakState, e: DetectionRoll | Caught) -> PazaakState:
    """A detection roll and a catch change nothing themselves: what follows a catch does."""
    return s


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
    Redrawn: _redrawn,
    Swapped: _swapped,
    DetectionRoll: _nothing,
    Caught: _nothing,
    RulingRequested: _ruling_requested,
    Ruled: _ruled,
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
