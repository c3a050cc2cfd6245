"""Side bets' rows and each table's escrow account. Every function runs in a caller's transaction.

A bet is one ``side_bets`` row (one per user and table) and one ledger movement, the bettor's
purse to the table's ``escrow`` account, written together. At the table's end each open bet is
marked won, lost or refunded with what the ledger paid back from the escrow.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from bot.storage.db import Tx
from bot.storage.errors import ConstraintViolated

BetStatus = Literal["open", "won", "lost", "refunded"]


class BetTaken(Exception):
    """The user already has a bet at this table. Nothing was written."""


@dataclass(frozen=True, slots=True)
class BetRow:
    id: int
    table_id: int
    user_id: int
    character_id: int
    seat: int
    amount: int
    placed_at: int
    status: BetStatus
    paid: int


_COLUMNS = "id, table_id, user_id, character_id, seat, amount, placed_at, status, paid"


async def escrow_account(tx: Tx, guild_id: int, table_id: int, currency: str) -> int:
    """The table's escrow account, created (empty) where missing."""
    found = await tx.fetchval(
        "SELECT id FROM accounts WHERE kind = 'escrow' AND table_id = ?", (table_id,)
    )
    if found is not None:
        return int(found)
    return await tx.insert(
        "INSERT INTO accounts (kind, guild_id, currency, table_id) VALUES ('escrow', ?, ?, ?)",
        (guild_id, currency, table_id),
    )


async def find_escrow(tx: Tx, table_id: int) -> int | None:
    found = await tx.fetchval(
        "SELECT id FROM accounts WHERE kind = 'escrow' AND table_id = ?", (table_id,)
    )
    return None if found is None else int(found)


async def insert(
    tx: Tx, *, table_id: int, user_id: int, character_id: int, seat: int, amount: int, at: int
) -> int:
    """A new open bet; :class:`BetTaken` if the user has one at this table."""
    try:
        async with tx.savepoint():
            return await tx.insert(
                "INSERT INTO side_bets (table_id, user_id, character_id, seat, amount, placed_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, user_id, character_id, seat, amount, at),
            )
    except ConstraintViolated as exc:
        if exc.kind == "unique":
            raise BetTaken() from exc
        raise


async def of_table(tx: Tx, table_id: int) -> list[BetRow]:
    """Every bet of the table, in the order placed."""
    rows = await tx.fetchall(
        f"SELECT {_COLUMNS} FROM side_bets WHERE table_id = ? ORDER BY id", (table_id,)
    )
    return [BetRow(*row) for row in rows]


async def any_open(tx: Tx, table_id: int) -> bool:
    found = await tx.fetchval(
        "SELECT 1 FROM side_bets WHERE table_id = ? AND status = 'open' LIMIT 1", (table_id,)
    )
    return found is not None


async def close(tx: Tx, bet_id: int, status: BetStatus, paid: int) -> None:
    """Mark an open bet as ended; a bet ended before is left as it is."""
    changed = await tx.execute(
        "UPDATE side_bets SET status = ?, paid = ? WHERE id = ? AND status = 'open'",
        (status, paid, bet_id),
    )
    if changed != 1:
        raise LookupError(f"side bet {bet_id} is not open")


async def table_version(tx: Tx, table_id: int) -> tuple[int, int] | None:
    """The table's version as committed (for a bet placed against a version) and its opener."""
    row = await tx.fetchone("SELECT version, created_by FROM tables WHERE id = ?", (table_id,))
    return None if row is None else (int(row[0]), int(row[1]))


async def owners(tx: Tx, character_ids: Sequence[int]) -> set[int]:
    """The users who own (play, or run as NPCs) these characters."""
    if not character_ids:
        return set()
    marks = ",".join("?" * len(character_ids))
    rows = await tx.fetchall(
        f"SELECT DISTINCT owner_id FROM characters WHERE id IN ({marks})", tuple(character_ids)
    )
    return {int(row[0]) for row in rows}
