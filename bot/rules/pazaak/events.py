"""Pazaak events: what happened in a match, their JSON form, and the money they move."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from bot.rules.common import POT, Transfer
from bot.rules.pazaak.cards import SideCard
from bot.rules.pazaak.state import (
    MatchEndReason,
    PazaakSettings,
    SetEndReason,
    StandReason,
    TurnEnd,
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
