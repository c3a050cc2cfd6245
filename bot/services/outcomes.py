"""What the services hand back to the Discord layer: plain frozen values, ready to render."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.rules.common import Transfer
from bot.storage.characters import CharacterRow
from bot.storage.ledger import LedgerLine
from bot.storage.tables import Status

Character = CharacterRow
"""A living character: id, guild, name, owner, NPC flag, traits, side cards, saved selection."""


@dataclass(frozen=True, slots=True)
class TableOutcome:
    """The result of one table action (or of a repeat of it, with ``repeated`` set).

    ``state`` is the whole game state (it holds secrets: render per viewer with the game's
    ``view``). ``events`` and ``transfers`` are what this action caused, in order. ``deadline`` is
    when the turn timer fires (Unix ms), or None.
    """

    table_id: int
    version: int
    status: Status
    game: str
    state: Any
    events: tuple[Any, ...]
    transfers: tuple[Transfer, ...]
    deadline: int | None
    repeated: bool = False


@dataclass(frozen=True, slots=True)
class TableView:
    """A table as it stands now (from the live cache, or rebuilt from its events)."""

    table_id: int
    guild_id: int
    channel_id: int
    game: str
    currency: str
    status: Status
    version: int
    state: Any
    seats: frozenset[int]
    deadline: int | None


@dataclass(frozen=True, slots=True)
class Receipt:
    """One purse movement done: its ledger id and the balances right after it."""

    movement_id: int
    currency: str
    amount: int
    balances: dict[int, int]
    """``character id -> balance`` of the purse(s) involved, after the movement."""


@dataclass(frozen=True, slots=True)
class HistoryPage:
    """Newest first. Pass ``next_before`` back to get the next (older) page; None at the end."""

    lines: tuple[LedgerLine, ...]
    next_before: int | None
