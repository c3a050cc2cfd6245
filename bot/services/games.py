"""What the table service needs to know about each game, beyond the rules protocol.

``bot.rules.common.GameRules`` covers applying, replaying and the money of events. A table also
needs: the currency its stakes are in, who holds a seat, whether a character may sit at only one
such table at a time, the table's status, when the turn times out and with which actions, and
how to cancel. A :class:`GameSpec` answers those from the state; the table service stays generic.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.rules import pazaak, pegaz
from bot.rules.common import GameRules
from bot.storage.tables import Status


@dataclass(frozen=True, slots=True)
class Timer:
    """The turn timer: after ``seconds`` without a step, the service applies ``actions`` (one per
    player who has let the clock run out), in order, as one step."""

    seconds: int
    actions: tuple[Any, ...]
    turn: object = None
    """What tells one turn from the next when the same players are awaited (None: nothing): a
    new turn restarts the clock (Pazaak: a player takes turns in a row once the other stands)."""


@dataclass(frozen=True, slots=True)
class GameSpec:
    rules: GameRules[Any, Any, Any]
    currency: str
    exclusive_seats: bool
    """True: a character may hold a seat at only one live table of any exclusive game."""
    seated: Callable[[Any], Iterable[int]]
    """The character ids holding a seat while the table is live."""
    status: Callable[[Any], Status]
    timer: Callable[[Any], Timer | None]
    cancel: Callable[[Any], Any | None]
    """The rules' cancel action for this state, or None to refund the pot by the ledger."""
    pot: Callable[[Any], int]
    """What the rules think is in the pot (the tests hold the ledger to it)."""
    settings_json: Callable[[Any], str]
    state_type: type[Any]
    """The state's class, for the JSON snapshots (see ``bot.services.snapshots``)."""
    sync: Callable[[Any, Mapping[int, int]], Any | None] | None = None
    """For a game whose rules track the seats' purses: given the purses as the ledger holds them
    (character id -> balance), the rules' action that brings the state in line, or None. The
    service applies it first in every step, so a grant or a payment made elsewhere counts."""

    @property
    def game(self) -> str:
        return self.rules.GAME


# --- Pazaak -------------------------------------------------------------------------------------


def _pazaak_timer(state: pazaak.PazaakState) -> Timer | None:
    player = state.current_player
    if player is None:
        return None
    drawn = sum(1 for card in state.players[state.turn_seat].table if card.side is None)
    turn = (state.set_number, state.turn_seat, drawn)  # every turn draws one card
    return Timer(state.settings.turn_timeout, (pazaak.Timeout(player),), turn)


def _pazaak_status(state: pazaak.PazaakState) -> Status:
    return {"dealing": "open", "playing": "running", "over": "finished"}[state.phase]  # type: ignore[return-value]


PAZAAK = GameSpec(
    rules=pazaak,
    currency="cr",
    exclusive_seats=True,
    seated=lambda state: [p.id for p in state.players],
    status=_pazaak_status,
    timer=_pazaak_timer,
    cancel=lambda state: None,
    pot=lambda state: int(state.pot),
    settings_json=lambda state: str(state.settings.model_dump_json()),
    state_type=pazaak.PazaakState,
)


# --- Three-Card Pegasus -------------------------------------------------------------------------

_PEGAZ_STATUS: dict[pegaz.Phase, Status] = {
    pegaz.Phase.SEATING: "open",
    pegaz.Phase.FINISHED: "finished",
    pegaz.Phase.CANCELLED: "cancelled",
}


def _pegaz_timer(state: pegaz.PegazState) -> Timer | None:
    if state.phase is pegaz.Phase.SEATING:
        return None
    waiting = pegaz.to_act(state)
    if not waiting:
        return None  # nobody to time out (e.g. only the GM's ruling is awaited)
    return Timer(state.settings.turn_timeout, tuple(pegaz.Timeout(p) for p in waiting))


def _pegaz_cancel(state: pegaz.PegazState) -> pegaz.Cancel | None:
    return None if pegaz.is_over(state) else pegaz.Cancel()


PEGAZ = GameSpec(
    rules=pegaz,
    currency="wh",
    exclusive_seats=False,
    seated=lambda state: [s.player for s in state.seats],
    status=lambda state: _PEGAZ_STATUS.get(state.phase, "running"),
    timer=_pegaz_timer,
    cancel=_pegaz_cancel,
    pot=lambda state: int(state.pot),
    settings_json=lambda state: str(state.settings.model_dump_json()),
    state_type=pegaz.PegazState,
    sync=pegaz.funds_sync,
)


def default_games() -> Mapping[str, GameSpec]:
    """Every game the bot plays, by ``GAME``."""
    return {spec.game: spec for spec in (PEGAZ, PAZAAK)}
