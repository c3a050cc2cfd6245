"""Migration 8 on a real version-7 file with money in it: ``accounts`` and ``movements`` are
rebuilt (a CHECK cannot be altered) with every id, balance and entry kept, foreign keys on
again afterwards, and a file whose keys were already broken is refused, left at version 7."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.storage import ledger
from bot.storage.errors import ConstraintViolated, DatabaseError
from bot.storage.migrations import LATEST
from bot.storage.opening import open_database

V7_DATA = [
    "INSERT INTO guilds (guild_id) VALUES (10)",
    "INSERT INTO characters (id, guild_id, name, name_key, owner_id, created_at) VALUES "
    "(1, 10, 'Greta', 'greta', 5, 1000), (2, 10, 'Hans', 'hans', 6, 1000)",
    "INSERT INTO tables (id, guild_id, channel_id, game, currency, settings, status, version, "
    "created_by, created_at, closed_at) VALUES (7, 10, 3, 'pegaz', 'wh', '{}', 'finished', 4, "
    "5, 1000, 2000)",
    "INSERT INTO accounts (id, kind, guild_id, currency, character_id, table_id, balance) VALUES "
    "(1, 'world', 10, 'wh', NULL, NULL, -500), (2, 'purse', 10, 'wh', 1, NULL, 212), "
    "(3, 'purse', 10, 'wh', 2, NULL, 288), (4, 'pot', 10, 'wh', NULL, 7, 0)",
    "INSERT INTO movements (id, at, actor_id, kind, reason, currency, amount, table_id, "
    "table_version, event_seq) VALUES (1, 1000, 9, 'grant', 'Tip', 'wh', 240, NULL, NULL, NULL), "
    "(2, 1000, 9, 'grant', 'Tip', 'wh', 260, NULL, NULL, NULL), "
    "(3, 1500, 5, 'stake', 'ante', 'wh', 28, 7, 1, 0), "
    "(4, 1500, 6, 'stake', 'ante', 'wh', 28, 7, 2, 0), "
    "(5, 1900, NULL, 'payout', 'payout', 'wh', 56, 7, 4, 3)",
    "INSERT INTO ledger_entries (movement_id, account_id, amount) VALUES "
    "(1, 1, -240), (1, 2, 240), (2, 1, -260), (2, 3, 260), (3, 2, -28), (3, 4, 28), "
    "(4, 3, -28), (4, 4, 28), (5, 4, -56), (5, 3, 56)",
]


async def v7_file(tmp_path: Path) -> Path:
    path = tmp_path / "szulernia.db"
    db = await open_database(path, upgrade_to=7)
    async with db.transaction() as tx:
        for statement in V7_DATA:
            await tx.execute(statement)
    await db.close()
    return path


async def test_the_books_survive_the_rebuild(tmp_path: Path) -> None:
    path = await v7_file(tmp_path)
    db = await open_database(path)
    try:
        assert await db.schema_version() == LATEST >= 8
        async with db.read() as tx:
            accounts = await tx.fetchall(
                "SELECT id, kind, balance, floor FROM accounts ORDER BY id"
            )
            movements = await tx.fetchall(
                "SELECT id, kind, amount, table_id, reverses FROM movements ORDER BY id"
            )
            assert await tx.fetchval("PRAGMA foreign_key_check") is None
            audit = await ledger.audit(tx)
            guild = await tx.fetchone(
                "SELECT overdraft, report_from, report_at FROM guilds WHERE guild_id = 10"
            )
            plans = await tx.fetchall("EXPLAIN QUERY PLAN SELECT * FROM movements WHERE at > 1")
        assert accounts == [
            (1, "world", -500, 0),
            (2, "purse", 212, 0),
            (3, "purse", 288, 0),
            (4, "pot", 0, 0),
        ]
        assert [m[:2] for m in movements] == [
            (1, "grant"),
            (2, "grant"),
            (3, "stake"),
            (4, "stake"),
            (5, "payout"),
        ]
        assert all(m[4] is None for m in movements)
        assert audit.entries_total == 0 and audit.unbalanced_movements == ()
        assert audit.drifted_accounts == () and audit.balances_by_currency == {"wh": 0}
        assert guild == (0, None, None)
        assert "movements_at" in str(plans)

        async with db.transaction() as tx:  # the writer enforces foreign keys again
            assert await tx.fetchval("PRAGMA foreign_keys") == 1
            with pytest.raises(ConstraintViolated):
                await tx.execute(
                    "INSERT INTO ledger_entries (movement_id, account_id, amount) VALUES (1, 99, 1)"
                )
        with pytest.raises(ConstraintViolated):  # a purse at floor 0 cannot go below zero
            async with db.transaction() as tx:
                await tx.execute("UPDATE accounts SET balance = -1 WHERE id = 2")
        with pytest.raises(ConstraintViolated):  # a plain movement reverses nothing
            async with db.transaction() as tx:
                await tx.execute("UPDATE movements SET reverses = 1 WHERE id = 2")
        with pytest.raises(ConstraintViolated):  # a pot has no floor to lower
            async with db.transaction() as tx:
                await tx.execute("UPDATE accounts SET floor = -5, balance = -5 WHERE id = 4")
        async with db.transaction() as tx:  # a purse whose floor a correction lowered may
            await tx.execute("UPDATE accounts SET floor = -5, balance = -5 WHERE id = 2")
            await tx.execute("UPDATE accounts SET balance = 217 WHERE id = 2")
    finally:
        await db.close()


async def test_a_file_with_broken_keys_is_refused_and_stays_at_7(tmp_path: Path) -> None:
    # An entry that names no account: written with foreign keys off, as by an old tool.
    path = await v7_file(tmp_path)
    raw = sqlite3.connect(path)
    raw.execute("PRAGMA foreign_keys = OFF")
    raw.execute("INSERT INTO ledger_entries (movement_id, account_id, amount) VALUES (5, 42, 1)")
    raw.commit()
    raw.close()
    with pytest.raises(DatabaseError, match="migration 8 broke foreign keys"):
        await open_database(path)
    db = await open_database(path, upgrade_to=7)
    try:
        assert await db.schema_version() == 7
        async with db.read() as tx:
            assert await tx.fetchval("SELECT COUNT(*) FROM accounts") == 4
            assert (
                await tx.fetchval("SELECT COUNT(*) FROM sqlite_master WHERE name LIKE '%_v8'") == 0
            )
    finally:
        await db.close()
