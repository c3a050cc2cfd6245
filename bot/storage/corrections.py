"""Corrections: a movement undone by a compensating one, in the caller's transaction.

Nothing is deleted or rewritten. A correction moves the same amount back, from the original
target to the original source, and names the movement it reverses (``movements.reverses``, unique:
a movement is reversed at most once; a correction is never reversed itself). Its debit is as
guarded as any other: an account that no longer holds the coins refuses it, unless the caller
allows a purse to go below zero, which then lowers that purse's ``floor`` to the new balance
(the only way a purse gets below zero, see migration 8).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.storage.db import Tx
from bot.storage.errors import DebitRefused

_LEGS = (
    "SELECT m.id, m.kind, m.currency, m.amount, m.table_id, s.account_id, t.account_id, "
    "sa.guild_id FROM movements m "
    "JOIN ledger_entries s ON s.movement_id = m.id AND s.amount < 0 "
    "JOIN accounts sa ON sa.id = s.account_id "
    "JOIN ledger_entries t ON t.movement_id = m.id AND t.amount > 0 "
)


@dataclass(frozen=True, slots=True)
class Original:
    """A movement as a correction sees it: what moved, and between which two accounts."""

    id: int
    kind: str
    currency: str
    amount: int
    table_id: int | None
    source: int
    target: int
    guild_id: int


@dataclass(frozen=True, slots=True)
class End:
    """Where undoing some movements leaves one account they touched."""

    account: int
    kind: str
    character_id: int | None
    change: int
    """Signed: what the undoing adds to the account (0 for one it only passes through)."""
    balance: int
    """Before the undoing."""
    floor: int


async def ends(tx: Tx, originals: Sequence[Original]) -> list[End]:
    """Every account the movements touched, and what undoing them all does to it."""
    change: dict[int, int] = {}
    for m in originals:
        change[m.source] = change.get(m.source, 0) + m.amount
        change[m.target] = change.get(m.target, 0) - m.amount
    if not change:
        return []
    marks = ",".join("?" * len(change))
    rows = await tx.fetchall(
        f"SELECT id, kind, character_id, balance, floor FROM accounts WHERE id IN ({marks}) "
        "ORDER BY id",
        sorted(change),
    )
    return [End(int(a), str(k), c, change[int(a)], int(b), int(f)) for a, k, c, b, f in rows]


async def movement(tx: Tx, movement_id: int) -> Original | None:
    row = await tx.fetchone(_LEGS + "WHERE m.id = ?", (movement_id,))
    return None if row is None else Original(*row)


async def table_movements(tx: Tx, table_id: int) -> list[Original]:
    """Every movement a table's game wrote (corrections excluded), in the order written."""
    rows = await tx.fetchall(
        _LEGS + "WHERE m.table_id = ? AND m.kind <> 'correction' ORDER BY m.id", (table_id,)
    )
    return [Original(*row) for row in rows]


async def reversal_of(tx: Tx, movement_id: int) -> int | None:
    """The correction that reversed the movement, if one did."""
    found = await tx.fetchval("SELECT id FROM movements WHERE reverses = ?", (movement_id,))
    return None if found is None else int(found)


async def carried_into(tx: Tx, table_id: int) -> int | None:
    """The table that took over this table's pot (a rollover carried on), if one did and that
    was not undone since (by voiding that table)."""
    found = await tx.fetchval(
        "SELECT m.table_id FROM accounts p "
        "JOIN ledger_entries e ON e.account_id = p.id AND e.amount < 0 "
        "JOIN movements m ON m.id = e.movement_id "
        "WHERE p.kind = 'pot' AND p.table_id = ? AND m.table_id <> ? AND m.kind <> 'correction' "
        "AND NOT EXISTS (SELECT 1 FROM movements r WHERE r.reverses = m.id) LIMIT 1",
        (table_id, table_id),
    )
    return None if found is None else int(found)


async def reverse(
    tx: Tx, original: Original, *, at: int, actor_id: int, reason: str, overdraft: bool
) -> int:
    """Write the correction of ``original``; return its id.

    Raises :class:`DebitRefused` when the original target no longer holds the amount, unless
    ``overdraft`` and the target is a purse; the caller's transaction should then roll back.
    """
    amount = original.amount
    taken = await tx.execute(
        "UPDATE accounts SET balance = balance - ?, "
        "floor = CASE WHEN kind = 'purse' AND balance - ? < floor THEN balance - ? "
        "ELSE floor END "
        "WHERE id = ? AND (balance >= ? OR kind = 'world' OR (? = 1 AND kind = 'purse'))",
        (amount, amount, amount, original.target, amount, int(overdraft)),
    )
    if taken != 1:
        held = await tx.fetchval("SELECT balance FROM accounts WHERE id = ?", (original.target,))
        raise DebitRefused(original.target, amount, int(held or 0))
    await tx.execute(
        "UPDATE accounts SET balance = balance + ? WHERE id = ?", (amount, original.source)
    )
    correction = await tx.insert(
        "INSERT INTO movements (at, actor_id, kind, reason, currency, amount, table_id, "
        "reverses) VALUES (?, ?, 'correction', ?, ?, ?, ?, ?)",
        (at, actor_id, reason, original.currency, amount, original.table_id, original.id),
    )
    await tx.execute(
        "INSERT INTO ledger_entries (movement_id, account_id, amount) VALUES (?, ?, ?), (?, ?, ?)",
        (correction, original.target, -amount, correction, original.source, amount),
    )
    return correction


async def restore_floor(tx: Tx, account_id: int, floor: int) -> None:
    """Put back a floor lowered on the way through several corrections, down only to where the
    account ended (a dip between them leaves no trace)."""
    await tx.execute(
        "UPDATE accounts SET floor = CASE WHEN balance < ? THEN balance ELSE ? END WHERE id = ?",
        (floor, floor, account_id),
    )


async def mark_voided(tx: Tx, table_id: int, at: int) -> bool:
    """Set the table's ``voided_at``; False if it was voided already."""
    changed = await tx.execute(
        "UPDATE tables SET voided_at = ? WHERE id = ? AND voided_at IS NULL", (at, table_id)
    )
    return changed == 1


async def voided_at(tx: Tx, table_id: int) -> int | None:
    found = await tx.fetchval("SELECT voided_at FROM tables WHERE id = ?", (table_id,))
    return None if found is None else int(found)
