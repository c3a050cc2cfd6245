"""Accounts and the double-entry ledger. Every function runs inside a caller's transaction.

A movement takes ``amount`` from one account and gives it to another: one ``movements`` row (who,
when, why, which table and event) and two ``ledger_entries`` (minus on the source, plus on the
target). The cached ``accounts.balance`` changes in the same statements' transaction. A debit is
one atomic ``UPDATE ... WHERE balance >= ?`` whose row count says whether it happened; nothing
ever reads a balance and writes it back.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from bot.storage.db import Tx
from bot.storage.errors import ConstraintViolated, DebitRefused, UnknownCharacterRow

AccountKind = Literal["purse", "pot", "offering", "world", "escrow"]
MovementKind = Literal["grant", "take", "transfer", "stake", "payout", "refund", "offering"]
GuildAccountKind = Literal["offering", "world"]


@dataclass(frozen=True, slots=True)
class Movement:
    """What to write for one movement, apart from the two accounts and the amount."""

    at: int
    actor_id: int | None
    kind: MovementKind
    reason: str
    currency: str
    table_id: int | None = None
    table_version: int | None = None
    event_seq: int | None = None


@dataclass(frozen=True, slots=True)
class LedgerLine:
    """One entry of an account's history, seen from that account (``amount`` is signed)."""

    entry_id: int
    movement_id: int
    at: int
    amount: int
    kind: MovementKind
    reason: str
    actor_id: int | None
    table_id: int | None
    event_seq: int | None
    other_account_id: int
    other_kind: AccountKind
    other_character_id: int | None


async def purse_accounts(
    tx: Tx, guild_id: int, currency: str, character_ids: Iterable[int]
) -> dict[int, int]:
    """The purse account of each character in ``currency``, created (empty) where missing."""
    wanted = sorted(set(character_ids))
    if not wanted:
        return {}
    marks = ",".join("?" * len(wanted))
    rows = await tx.fetchall(
        f"SELECT character_id, id FROM accounts WHERE kind = 'purse' AND currency = ? "
        f"AND character_id IN ({marks})",
        (currency, *wanted),
    )
    found = {int(c): int(a) for c, a in rows}
    for character_id in wanted:
        if character_id not in found:
            try:
                async with tx.savepoint():
                    found[character_id] = await tx.insert(
                        "INSERT INTO accounts (kind, guild_id, currency, character_id) "
                        "VALUES ('purse', ?, ?, ?)",
                        (guild_id, currency, character_id),
                    )
            except ConstraintViolated as exc:
                if exc.kind != "unique":  # the foreign key: no such character
                    raise UnknownCharacterRow(character_id) from exc
                found[character_id] = int(  # another process opened it meanwhile (PostgreSQL)
                    await tx.fetchval(
                        "SELECT id FROM accounts WHERE kind = 'purse' AND character_id = ? "
                        "AND currency = ?",
                        (character_id, currency),
                    )
                )
    return found


async def find_purse(tx: Tx, character_id: int, currency: str) -> int | None:
    """The purse account of the character in ``currency``, if it was ever opened."""
    found = await tx.fetchval(
        "SELECT id FROM accounts WHERE kind = 'purse' AND character_id = ? AND currency = ?",
        (character_id, currency),
    )
    return None if found is None else int(found)


async def purse_account(tx: Tx, guild_id: int, currency: str, character_id: int) -> int:
    return (await purse_accounts(tx, guild_id, currency, (character_id,)))[character_id]


async def guild_account(tx: Tx, guild_id: int, kind: GuildAccountKind, currency: str) -> int:
    """The guild's offerings or world (mint) account in ``currency``, created where missing."""
    found = await tx.fetchval(
        "SELECT id FROM accounts WHERE guild_id = ? AND kind = ? AND currency = ?",
        (guild_id, kind, currency),
    )
    if found is not None:
        return int(found)
    try:
        async with tx.savepoint():
            return await tx.insert(
                "INSERT INTO accounts (kind, guild_id, currency) VALUES (?, ?, ?)",
                (kind, guild_id, currency),
            )
    except ConstraintViolated as exc:  # another process made it meanwhile (PostgreSQL)
        if exc.kind != "unique":
            raise
    return int(
        await tx.fetchval(
            "SELECT id FROM accounts WHERE guild_id = ? AND kind = ? AND currency = ?",
            (guild_id, kind, currency),
        )
    )


async def create_pot(tx: Tx, guild_id: int, table_id: int, currency: str) -> int:
    return await tx.insert(
        "INSERT INTO accounts (kind, guild_id, currency, table_id) VALUES ('pot', ?, ?, ?)",
        (guild_id, currency, table_id),
    )


async def pot_account(tx: Tx, table_id: int) -> int:
    found = await tx.fetchval(
        "SELECT id FROM accounts WHERE kind = 'pot' AND table_id = ?", (table_id,)
    )
    if found is None:
        raise LookupError(f"table {table_id} has no pot")
    return int(found)


async def balance(tx: Tx, account_id: int) -> int:
    value = await tx.fetchval("SELECT balance FROM accounts WHERE id = ?", (account_id,))
    if value is None:
        raise LookupError(f"no account {account_id}")
    return int(value)


async def balances(tx: Tx, account_ids: Iterable[int]) -> dict[int, int]:
    wanted = sorted(set(account_ids))
    if not wanted:
        return {}
    marks = ",".join("?" * len(wanted))
    rows = await tx.fetchall(
        f"SELECT id, balance FROM accounts WHERE id IN ({marks})", tuple(wanted)
    )
    return {int(a): int(b) for a, b in rows}


async def move(tx: Tx, source: int, target: int, amount: int, movement: Movement) -> int:
    """Move ``amount`` (> 0) from ``source`` to ``target``; return the movement's id.

    Raises :class:`DebitRefused` if ``source`` (other than a world account) holds less than
    ``amount``; the caller's transaction should then be rolled back.
    """
    if amount <= 0 or isinstance(amount, bool):
        raise ValueError(f"a movement needs a positive whole amount, not {amount!r}")
    if source == target:
        raise ValueError("a movement needs two different accounts")
    taken = await tx.execute(
        "UPDATE accounts SET balance = balance - ? "
        "WHERE id = ? AND currency = ? AND (balance >= ? OR kind = 'world')",
        (amount, source, movement.currency, amount),
    )
    if taken != 1:
        held = await tx.fetchval("SELECT balance FROM accounts WHERE id = ?", (source,))
        raise DebitRefused(source, amount, int(held or 0))
    given = await tx.execute(
        "UPDATE accounts SET balance = balance + ? WHERE id = ? AND currency = ?",
        (amount, target, movement.currency),
    )
    if given != 1:
        raise LookupError(f"no account {target} in {movement.currency}")
    movement_id = await tx.insert(
        "INSERT INTO movements (at, actor_id, kind, reason, currency, amount, table_id, "
        "table_version, event_seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            movement.at,
            movement.actor_id,
            movement.kind,
            movement.reason,
            movement.currency,
            amount,
            movement.table_id,
            movement.table_version,
            movement.event_seq,
        ),
    )
    await tx.execute(
        "INSERT INTO ledger_entries (movement_id, account_id, amount) VALUES (?, ?, ?), (?, ?, ?)",
        (movement_id, source, -amount, movement_id, target, amount),
    )
    return movement_id


async def history(
    tx: Tx, account_id: int, *, before: int | None = None, limit: int = 10
) -> list[LedgerLine]:
    """Up to ``limit`` entries of the account, newest first, older than entry id ``before``."""
    rows = await tx.fetchall(
        "SELECT e.id, m.id, m.at, e.amount, m.kind, m.reason, m.actor_id, m.table_id, "
        "m.event_seq, o.account_id, a.kind, a.character_id "
        "FROM ledger_entries e "
        "JOIN movements m ON m.id = e.movement_id "
        "JOIN ledger_entries o ON o.movement_id = e.movement_id AND o.id <> e.id "
        "JOIN accounts a ON a.id = o.account_id "
        "WHERE e.account_id = ? AND e.id < ? ORDER BY e.id DESC LIMIT ?",
        (account_id, before if before is not None else 2**63 - 1, limit),
    )
    return [LedgerLine(*row) for row in rows]


async def contributions(tx: Tx, pot_id: int) -> list[tuple[int, int, int]]:
    """``(account_id, character_id, net amount put in)`` for every purse that paid into the pot
    more than it took out, in the order they first paid."""
    rows = await tx.fetchall(
        "SELECT o.account_id, a.character_id, -SUM(o.amount) AS net "
        "FROM ledger_entries p "
        "JOIN ledger_entries o ON o.movement_id = p.movement_id AND o.id <> p.id "
        "JOIN accounts a ON a.id = o.account_id "
        "WHERE p.account_id = ? AND a.kind = 'purse' "
        "GROUP BY o.account_id, a.character_id HAVING -SUM(o.amount) > 0 ORDER BY MIN(o.id)",
        (pot_id,),
    )
    return [(int(a), int(c), int(n)) for a, c, n in rows]


@dataclass(frozen=True, slots=True)
class Leg:
    """One side of a table movement: the account's kind and, for a purse, its character."""

    kind: AccountKind
    character_id: int | None


async def table_movements(tx: Tx, table_id: int, version: int) -> list[tuple[Leg, Leg, int, str]]:
    """``(source, target, amount, reason)`` of the movements one table action wrote, in order."""
    rows = await tx.fetchall(
        "SELECT sa.kind, sa.character_id, ta.kind, ta.character_id, m.amount, m.reason "
        "FROM movements m "
        "JOIN ledger_entries s ON s.movement_id = m.id AND s.amount < 0 "
        "JOIN accounts sa ON sa.id = s.account_id "
        "JOIN ledger_entries t ON t.movement_id = m.id AND t.amount > 0 "
        "JOIN accounts ta ON ta.id = t.account_id "
        "WHERE m.table_id = ? AND m.table_version = ? ORDER BY m.id",
        (table_id, version),
    )
    return [
        (Leg(sk, sc), Leg(tk, tc), int(amount), str(reason))
        for sk, sc, tk, tc, amount, reason in rows
    ]


async def live_pots(tx: Tx) -> dict[int, int]:
    """``table_id -> pot account id`` for every live table."""
    rows = await tx.fetchall(
        "SELECT a.table_id, a.id FROM accounts a JOIN tables t ON t.id = a.table_id "
        "WHERE a.kind = 'pot' AND t.status IN ('open', 'running')"
    )
    return {int(t): int(a) for t, a in rows}


@dataclass(frozen=True, slots=True)
class Audit:
    """Whole-ledger checks: all zero and empty when the books are right."""

    entries_total: int
    unbalanced_movements: tuple[int, ...]
    drifted_accounts: tuple[int, ...]
    balances_by_currency: dict[str, int]


async def audit(tx: Tx) -> Audit:
    """Check the double entry: entries sum to zero overall and per movement, and every cached
    balance equals the sum of its account's entries. Balances (world included) sum to zero."""
    total = await tx.fetchval("SELECT COALESCE(SUM(amount), 0) FROM ledger_entries")
    unbalanced = await tx.fetchall(
        "SELECT movement_id FROM ledger_entries GROUP BY movement_id "
        "HAVING SUM(amount) <> 0 OR COUNT(*) <> 2"
    )
    drifted = await tx.fetchall(
        "SELECT a.id FROM accounts a LEFT JOIN "
        "(SELECT account_id, SUM(amount) AS s FROM ledger_entries GROUP BY account_id) e "
        "ON e.account_id = a.id WHERE a.balance <> COALESCE(e.s, 0)"
    )
    per_currency = await tx.fetchall(
        "SELECT currency, SUM(balance) FROM accounts GROUP BY currency ORDER BY currency"
    )
    return Audit(
        entries_total=int(total),
        unbalanced_movements=tuple(int(r[0]) for r in unbalanced),
        drifted_accounts=tuple(int(r[0]) for r in drifted),
        balances_by_currency={str(c): int(s) for c, s in per_currency},
    )
