"""Pazaak: the actions a player (or the service's turn timer) may take."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play the hand card at ``hand_index`` as ``value`` (required for ``±N``, T and ``±1/2``)."""

    player: int
    hand_index: int
    value: int | None = None


@dataclass(frozen=True, slots=True)
class EndTurn:
    player: int


@dataclass(frozen=True, slots=True)
class Stand:
    player: int


@dataclass(frozen=True, slots=True)
class Forfeit:
    player: int


@dataclass(frozen=True, slots=True)
class Timeout:
    """Sent by the service when the player's turn timer runs out: the player stands."""

    player: int


Action = PlayCard | EndTurn | Stand | Forfeit | Timeout
