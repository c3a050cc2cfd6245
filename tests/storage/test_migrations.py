"""Migrations: a fresh file, an upgrade in place from every earlier version (with data), and a
failed migration that leaves the file as it was."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.storage import migrations
from bot.storage.errors import DatabaseError
from bot.storage.migrations import LATEST
from bot.storage.opening import open_database


def schema(path: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(path) as raw:
        rows = raw.execute(
            "SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name"
        ).fetchall()
    raw.close()
    return rows


def version(path: Path) -> int:
    with sqlite3.connect(path) as raw:
        found = int(raw.execute("PRAGMA user_version").fetchone()[0])
    raw.close()
    return found


V1_DATA = [
    "INSERT INTO guilds (guild_id, language, gm_role_id) VALUES (10, 'pl', 77)",
    "INSERT INTO characters (id, guild_id, name, name_key, owner_id, created_at) "
    "VALUES (1, 10, 'Żaneta', 'żaneta', 5, 1000), (2, 10, 'Bob', 'bob', 6, 1000)",
    "INSERT INTO active_characters VALUES (10, 5, 1)",
    "INSERT INTO tables (id, guild_id, channel_id, game, currency, settings, status, version, "
    "created_by, created_at) VALUES (1, 10, 20, 'pegaz', 'wh', '{}', 'running', 2, 5, 1000)",
    "INSERT INTO table_events VALUES (1, 0, 1, x'5b5d'), (1, 1, 2, x'5b5d')",
    "INSERT INTO table_seats VALUES (1, 1, 0), (1, 2, 0)",
    "INSERT INTO action_keys VALUES ('123', 1, 2)",
    "INSERT INTO accounts (id, kind, guild_id, currency, character_id, table_id, balance) VALUES "
    "(1, 'purse', 10, 'wh', 1, NULL, 88), (2, 'world', 10, 'wh', NULL, NULL, -100), "
    "(3, 'pot', 10, 'wh', NULL, 1, 12)",
    "INSERT INTO movements (id, at, actor_id, kind, reason, currency, amount) VALUES "
    "(1, 1000, 77, 'grant', 'grant', 'wh', 100), (2, 1001, 5, 'stake', 'ante', 'wh', 12)",
    "INSERT INTO ledger_entries (movement_id, account_id, amount) VALUES "
    "(1, 2, -100), (1, 1, 100), (2, 1, -12), (2, 3, 12)",
]


async def test_a_fresh_file_goes_through_every_migration(tmp_path: Path) -> None:
    path = tmp_path / "szulernia.db"
    await (await open_database(path)).close()
    assert version(path) == LATEST
    names = {name for name, _ in schema(path)}
    assert {"characters", "accounts", "movements", "ledger_entries", "tables", "meta"} <= names


@pytest.mark.parametrize("start", range(LATEST))
async def test_upgrading_from_every_earlier_version_gives_the_latest_schema(
    tmp_path: Path, start: int
) -> None:
    fresh = tmp_path / "fresh.db"
    await (await open_database(fresh)).close()
    old = tmp_path / "old.db"
    await (await open_database(old, upgrade_to=start)).close()
    assert version(old) == start
    await (await open_database(old)).close()
    assert version(old) == LATEST
    assert schema(old) == schema(fresh)


async def test_a_version_1_file_with_data_is_upgraded_in_place(tmp_path: Path) -> None:
    path = tmp_path / "szulernia.db"
    db = await open_database(path, upgrade_to=1)
    async with db.transaction() as tx:
        for statement in V1_DATA:
            await tx.execute(statement)
    await db.close()
    assert version(path) == 1
    assert "meta" not in {name for name, _ in schema(path)}

    db = await open_database(path)
    try:
        assert await db.schema_version() == LATEST
        async with db.read() as tx:
            assert await tx.fetchall("SELECT id, name FROM characters ORDER BY id") == [
                (1, "Żaneta"),
                (2, "Bob"),
            ]
            assert await tx.fetchall(
                "SELECT id, version, status, next_timeout_at, timeout_version FROM tables"
            ) == [(1, 2, "running", None, None)]
            assert await tx.fetchval("SELECT SUM(amount) FROM ledger_entries") == 0
            assert await tx.fetchall("SELECT id, balance FROM accounts ORDER BY id") == [
                (1, 88),
                (2, -100),
                (3, 12),
            ]
            assert await tx.fetchval("SELECT count(*) FROM table_events") == 2
            assert await tx.fetchall("SELECT * FROM action_keys") == [("123", 1, 2)]
            assert (
                await tx.fetchval("SELECT value FROM meta WHERE key = 'created_schema_version'")
                == "1"
            )
        async with db.transaction() as tx:  # the new columns work
            await tx.execute("UPDATE tables SET next_timeout_at = 5000, timeout_version = 2")
            await tx.execute("INSERT INTO meta (key, value) VALUES ('commands_hash', 'abc')")
    finally:
        await db.close()


async def test_version_3_keeps_what_was_published_and_moves_the_hand_messages(
    tmp_path: Path,
) -> None:
    path = tmp_path / "szulernia.db"
    db = await open_database(path, upgrade_to=2)
    async with db.transaction() as tx:
        for statement in V1_DATA:
            await tx.execute(statement)
        await tx.execute(
            "INSERT INTO tables (id, guild_id, channel_id, game, currency, settings, status, "
            "version, message_id, created_by, created_at) VALUES "
            "(2, 10, 20, 'pazaak', 'cr', '{}', 'finished', 9, 444, 5, 1000)"
        )
        await tx.execute(
            "INSERT INTO meta (key, value) VALUES ('pazaak:dm:1:2', '31:41'), "
            "('pazaak:dm:12:2', '5:6'), ('commands_hash', 'abc')"
        )
    await db.close()

    db = await open_database(path)
    try:
        async with db.read() as tx:
            # A live table's message is redrawn once; nothing it already announced is posted again.
            assert await tx.fetchall(
                "SELECT id, version, board_version, posted_version FROM tables ORDER BY id"
            ) == [(1, 2, 0, 2), (2, 9, 9, 9)]
            # The hand DM of a table that exists moves to its own table; one of none is dropped.
            assert await tx.fetchall("SELECT * FROM table_hands") == [(1, 2, 31, 41, "")]
            assert await tx.fetchall("SELECT key FROM meta ORDER BY key") == [("commands_hash",)]
    finally:
        await db.close()


async def test_a_failing_migration_leaves_the_file_at_its_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "szulernia.db"
    db = await open_database(path)
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO meta (key, value) VALUES ('keep', 'me')")
    await db.close()
    broken = (
        "CREATE TABLE half_done (x INTEGER)",
        "INSERT INTO no_such_table VALUES (1)",
    )
    monkeypatch.setattr(migrations, "MIGRATIONS", (*migrations.MIGRATIONS, broken))
    monkeypatch.setattr(migrations, "LATEST", LATEST + 1)
    with pytest.raises(DatabaseError, match=f"migration to schema version {LATEST + 1} failed"):
        await open_database(path, upgrade_to=LATEST + 1)
    assert version(path) == LATEST
    assert "half_done" not in {name for name, _ in schema(path)}
    db = await open_database(path)
    async with db.read() as tx:
        assert await tx.fetchval("SELECT value FROM meta WHERE key = 'keep'") == "me"
    await db.close()
