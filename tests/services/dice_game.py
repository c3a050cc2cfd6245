"""A tiny game for the table-service tests, following the rules protocol of bot/rules/common.py.

"High roll": players join paying an ante into the pot, someone starts, each player in turn rolls
a d6; the highest roll takes the pot (a tie splits it, odd units to the earlier seat). The winner
Cancel refunds every ante. A timeout rolls for the player.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from bot.rules.common import (
    POT,
    AlreadySeated,
    GameOver,
    NotSeated,
    NotYourTurn,
    RulesError,
    Transfer,
    WrongPhase,
)

GAME = "dice"
Phase = Literal["seating", "rolling", "over", "cancelled"]


@dataclass(frozen=True, slots=True)
class DiceState:
    ante: int
    rollover: bool = False
    players: tuple[int, ...] = ()
    phase: Phase = "seating"
    rolls: tuple[int, ...] = ()
    pot: int = 0
    paid: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Opened:
    ante: int
    carried: int = 0
    rollover: bool = False
    kind: Literal["opened"] = "opened"


@dataclass(frozen=True, slots=True)
class Joined:
    player: int
    ante: int
    kind: Literal["joined"] = "joined"


@dataclass(frozen=True, slots=True)
class Started:
    kind: Literal["started"] = "started"


@dataclass(frozen=True, slots=True)
class Rolled:
    player: int
    value: int
    kind: Literal["rolled"] = "rolled"


@dataclass(frozen=True, slots=True)
class Won:
    players: tuple[int, ...]
    amounts: tuple[int, ...]
    kind: Literal["won"] = "won"


@dataclass(frozen=True, slots=True)
class Cancelled:
    refunds: tuple[tuple[int, int], ...]
    kind: Literal["cancelled"] = "cancelled"


Event = Opened | Joined | Started | Rolled | Won | Cancelled
_ADAPTER: TypeAdapter[list[Event]] = TypeAdapter(
    list[Annotated[Event, Field(discriminator="kind")]]
)


@dataclass(frozen=True, slots=True)
class Join:
    player: int


@dataclass(frozen=True, slots=True)
class Start:
    player: int


@dataclass(frozen=True, slots=True)
class Roll:
    player: int


@dataclass(frozen=True, slots=True)
class Timeout:
    player: int


@dataclass(frozen=True, slots=True)
class Cancel:
    pass


Action = Join | Start | Roll | Timeout | Cancel


class NotEnoughPlayers(RulesError):
    code = "not_enough_players"


def new_table(ante: int, carried: int = 0, rollover: bool = False) -> tuple[DiceState, list[Event]]:
    opened = Opened(ante, carried, rollover)
    return fold(None, opened), [opened]


def fold(state: DiceState | None, event: Event) -> DiceState:
    if isinstance(event, Opened):
        return DiceState(event.ante, event.rollover, pot=event.carried)
    assert state is not None
    if isinstance(event, Joined):
        return replace(
            state,
            players=(*state.players, event.player),
            pot=state.pot + event.ante,
            paid=(*state.paid, event.ante),
        )
    if isinstance(event, Started):
        return replace(state, phase="rolling")
    if isinstance(event, Rolled):
        return replace(state, rolls=(*state.rolls, event.value))
    if isinstance(event, Won):
        return replace(state, phase="over", pot=state.pot - sum(event.amounts))
    return replace(state, phase="cancelled", pot=0, paid=tuple(0 for _ in state.paid))


def replay(events: Sequence[Event]) -> DiceState:
    state: DiceState | None = None
    for event in events:
        state = fold(state, event)
    assert state is not None
    return state


def whose_turn(state: DiceState) -> int | None:
    if state.phase != "rolling":
        return None
    return state.players[len(state.rolls)]


def apply(state: DiceState, action: Action, rng: random.Random) -> tuple[DiceState, list[Event]]:
    events: list[Event] = []

    def emit(event: Event) -> None:
        nonlocal state
        events.append(event)
        state = fold(state, event)

    if state.phase in ("over", "cancelled"):
        raise GameOver(phase=state.phase)
    if isinstance(action, Cancel):
        emit(Cancelled(tuple((p, a) for p, a in zip(state.players, state.paid, strict=True))))
    elif isinstance(action, Join):
        if state.phase != "seating":
            raise WrongPhase(phase=state.phase)
        if action.player in state.players:
            raise AlreadySeated(player=action.player)
        emit(Joined(action.player, state.ante))
    elif isinstance(action, Start):
        if state.phase != "seating":
            raise WrongPhase(phase=state.phase)
        if len(state.players) < 2:
            raise NotEnoughPlayers(seated=len(state.players))
        emit(Started())
    else:
        if action.player not in state.players:
            raise NotSeated(player=action.player)
        if whose_turn(state) != action.player:
            raise NotYourTurn(player=action.player)
        emit(Rolled(action.player, rng.randint(1, 6)))
        if len(state.rolls) == len(state.players):
            best = max(state.rolls)
            winners = tuple(p for p, r in zip(state.players, state.rolls, strict=True) if r == best)
            if len(winners) > 1 and state.rollover:
                emit(Won(winners, tuple(0 for _ in winners)))
            else:
                share, odd = divmod(state.pot, len(winners))
                emit(
                    Won(winners, tuple(share + (1 if i < odd else 0) for i in range(len(winners))))
                )
    return state, events


def legal_actions(state: DiceState) -> list[Action]:
    turn = whose_turn(state)
    return [] if turn is None else [Roll(turn)]


def transfers(event: Event) -> tuple[Transfer, ...]:
    if isinstance(event, Joined):
        return (Transfer(event.player, POT, event.ante, "ante"),)
    if isinstance(event, Won):
        pairs = zip(event.players, event.amounts, strict=True)
        return tuple(Transfer(POT, p, a, "payout") for p, a in pairs if a)
    if isinstance(event, Cancelled):
        return tuple(Transfer(POT, p, a, "refund") for p, a in event.refunds if a)
    return ()


def dump_events(events: Sequence[Event]) -> bytes:
    return _ADAPTER.dump_json(list(events))


def load_events(data: bytes) -> list[Event]:
    return _ADAPTER.validate_json(data)


def is_over(state: DiceState) -> bool:
    return state.phase in ("over", "cancelled")
