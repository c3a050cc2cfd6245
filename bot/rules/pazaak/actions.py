"""Pazaak: the actions a player (or the service's turn timer) may take."""

from __future__ import annotations

from dataclasses import dataclass

from bot.rules.pazaak.cards import SideCard
from bot.rules.pazaak.state import Verdict


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


@dataclass(frozen=True, slots=True)
class Redraw:
    """Luck, once per match: send the turn's draw back into the main deck and draw again."""

    player: int


@dataclass(frozen=True, slots=True)
class Swap:
    """Gamble, once per match, a cheat: give up the hand card at ``hand_index`` and take
    ``card`` from the side deck (see :func:`~bot.rules.pazaak.queries.swap_choices`)."""

    player: int
    hand_index: int
    card: SideCard


@dataclass(frozen=True, slots=True)
class RuleOnCheat:
    """The GM's verdict on a caught swap. The caller checks that a GM sent it."""

    cheater: int
    verdict: Verdict


PlayerAction = PlayCard | EndTurn | Stand | Forfeit | Timeout | Redraw | Swap
"""An action taken by (or for) one of the two players: it has a ``player``."""
Action = PlayerAction | RuleOnCheat
