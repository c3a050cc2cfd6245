"""What the services hand back to the Discord layer: plain frozen values, ready to render.

They are the services' own, not storage's rows, so a column can change without the Discord layer
noticing (``character_of`` and ``purse_line_of`` build them from the rows)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.rules.common import Transfer
from bot.storage.characters import CharacterRow
from bot.storage.ledger import LedgerLine
from bot.storage.tables import Status


@dataclass(frozen=True, slots=True)
class Character:
    """A living character: its guild, name, owner (an NPC's is its GM), traits, side cards and
    saved Pazaak selection (card codes)."""

    id: int
    guild_id: int
    name: str
    owner_id: int
    is_npc: bool
    luck: bool
    gamble: bool
    perception: int
    side_cards: tuple[str, ...]
    selection: tuple[str, ...]
    created_at: int


def character_of(row: CharacterRow) -> Character:
    return Character(
        row.id,
        row.guild_id,
        row.name,
        row.owner_id,
        row.is_npc,
        row.luck,
        row.gamble,
        row.perception,
        row.side_cards,
        row.selection,
        row.created_at,
    )


@dataclass(frozen=True, slots=True)
class PurseLine:
    """One movement of a purse's history, seen from the purse (``amount`` is signed: into the
    purse is positive); ``other_kind``: the account on the other side (``purse``, ``world``,
    ``pot``, ``offering``), ``other_character_id`` its character for a purse."""

    entry_id: int
    """Its place in the history (the paging cursor)."""
    movement_id: int
    at: int
    amount: int
    kind: str
    reason: str
    actor_id: int | None
    table_id: int | None
    other_kind: str
    other_character_id: int | None


def purse_line_of(line: LedgerLine) -> PurseLine:
    return PurseLine(
        line.entry_id,
        line.movement_id,
        line.at,
        line.amount,
        line.kind,
        line.reason,
        line.actor_id,
        line.table_id,
        line.other_kind,
        line.other_character_id,
    )


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

    lines: tuple[PurseLine, ...]
    next_before: int | None
