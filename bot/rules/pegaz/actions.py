"""Three-Card Pegasus actions: what a player (or the GM, or the table) asks to do.

Each is a frozen dataclass; a player's act carries ``player``. :func:`bot.rules.pegaz.apply`
validates and performs them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Join:
    """Sit down: ``funds`` is the purse the game may spend; the ante is paid from it at once."""

    player: int
    luck: bool
    gamble: bool
    perception: int
    funds: int


@dataclass(frozen=True, slots=True)
class Leave:
    """Stand up before the start; the ante comes back."""

    player: int


@dataclass(frozen=True, slots=True)
class Start:
    """Deal. ``player`` records who started; whether they may is the caller's business."""

    player: int


@dataclass(frozen=True, slots=True)
class Keep:
    player: int


@dataclass(frozen=True, slots=True)
class Modify:
    """Luck and/or Gamble: ``shifts`` is one or two ``(card index, +-1)`` on different cards."""

    player: int
    shifts: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class Cheat:
    """Gamble only: move one card by +-2. Nothing else this deal; others may notice."""

    player: int
    card: int
    delta: int


@dataclass(frozen=True, slots=True)
class Exchange:
    """Pay ``(1 + len(cards)) * stake`` and redraw the given card indexes.

    ``stake`` is always spelled out: the current stake, or a raise. So one move has one
    spelling, and a payment agreed at one stake is refused, not repriced, if the stake has
    moved since (``IllegalExchange(reason="below_stake")``).
    """

    player: int
    cards: tuple[int, ...]
    stake: int


@dataclass(frozen=True, slots=True)
class Check:
    player: int
    target: int


@dataclass(frozen=True, slots=True)
class Fold:
    player: int


@dataclass(frozen=True, slots=True)
class Timeout:
    """The player let the clock run out: keep in a modifier step, fold on a turn, decline an
    offering."""

    player: int


@dataclass(frozen=True, slots=True)
class RuleOnCheat:
    """The GM's ruling on a caught cheater (``cheater`` None: the longest waiting)."""

    expel: bool
    cheater: int | None = None


@dataclass(frozen=True, slots=True)
class Offer:
    player: int
    accept: bool


@dataclass(frozen=True, slots=True)
class Cancel:
    """Call the game off: every stake still in the pot goes back to whoever paid it."""


@dataclass(frozen=True, slots=True)
class SyncFunds:
    """The purses changed outside the game (a GM's grant, a payment at another table): set each
    seat's funds to ``(player, purse)`` as the ledger holds it. Not a player's act: the table
    service sends it before every step, so forced folds and prices see the real purse."""

    funds: tuple[tuple[int, int], ...]


Action = (
    Join
    | Leave
    | Start
    | Keep
    | Modify
    | Cheat
    | Exchange
    | Check
    | Fold
    | Timeout
    | RuleOnCheat
    | Offer
    | Cancel
    | SyncFunds
)
