"""Applying the schema's migrations (:mod:`bot.storage.schema`). ``PRAGMA user_version`` holds
the number applied.

Each migration is applied in one transaction together with the new ``user_version`` (it is
part of the file header, so it rolls back with the rest), after a ``foreign_key_check``. A
migration that rebuilds a table runs with foreign keys off, set before its transaction.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import aiosqlite

from bot.storage.errors import DatabaseError, SchemaTooNew
from bot.storage.schema import MIGRATIONS, REBUILDS

LATEST = len(MIGRATIONS)


async def migrate(conn: aiosqlite.Connection, path: Path, target: int = LATEST) -> int:
    """Apply every migration above the file's version up to ``target``; return the new version."""
    current = int(next(iter(await conn.execute_fetchall("PRAGMA user_version")))[0])
    if current > LATEST:
        raise SchemaTooNew(path, current, LATEST)
    for version in range(current + 1, target + 1):
        rebuild = version in REBUILDS
        if rebuild:  # a no-op inside a transaction: it must come before BEGIN
            await conn.execute("PRAGMA foreign_keys = OFF")
        try:
            await _apply(conn, path, version)
        finally:
            if rebuild:
                await conn.execute("PRAGMA foreign_keys = ON")
    return max(current, target)


async def _apply(conn: aiosqlite.Connection, path: Path, version: int) -> None:
    """One migration and its ``user_version`` in one transaction, foreign keys checked first."""
    await conn.execute("BEGIN IMMEDIATE")
    try:
        for statement in MIGRATIONS[version - 1]:
            await conn.execute(statement)
        problems = list(await conn.execute_fetchall("PRAGMA foreign_key_check"))
        if problems:
            raise DatabaseError(path, f"migration {version} broke foreign keys: {problems[:3]}")
        await conn.execute(f"PRAGMA user_version = {version:d}")
        await conn.execute("COMMIT")
    except sqlite3.Error as exc:
        await conn.execute("ROLLBACK")
        raise DatabaseError(path, f"migration to schema version {version} failed: {exc}") from exc
    except BaseException:
        await conn.execute("ROLLBACK")
        raise
