"""Applying the schema's migrations (:mod:`bot.storage.schema`) to a SQLite file (PostgreSQL's
runner is in :mod:`bot.storage.postgres`). ``PRAGMA user_version`` holds the number applied.

Each migration is applied in one transaction together with the new ``user_version`` (it is
part of the file header, so it rolls back with the rest), after a ``foreign_key_check``. A
migration that rebuilds a table runs with foreign keys off, set before its transaction.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.storage.errors import DatabaseError, SchemaTooNew
from bot.storage.schema import MIGRATIONS, REBUILDS
from bot.storage.schema_steps import Only, Step

LATEST = len(MIGRATIONS)


def statements(version: int, dialect: str) -> list[str]:
    """The statements of migration ``version`` for one backend, in order (PostgreSQL's still
    in the repositories' spelling: see :mod:`bot.storage.dialect`)."""
    return [sql for step in MIGRATIONS[version - 1] if (sql := _for(step, dialect)) is not None]


def _for(step: Step, dialect: str) -> str | None:
    if isinstance(step, Only):
        return step.sql if step.dialect == dialect else None
    return step


def migrate(conn: sqlite3.Connection, path: Path, target: int = LATEST) -> int:
    """Apply every migration above the file's version up to ``target``; return the new version.
    Synchronous: the writer runs it on its thread (``bot.storage.writer``)."""
    current = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if current > LATEST:
        raise SchemaTooNew(path, current, LATEST)
    for version in range(current + 1, target + 1):
        rebuild = version in REBUILDS
        if rebuild:  # a no-op inside a transaction: it must come before BEGIN
            conn.execute("PRAGMA foreign_keys = OFF")
        try:
            _apply(conn, path, version)
        finally:
            if rebuild:
                conn.execute("PRAGMA foreign_keys = ON")
    return max(current, target)


def _apply(conn: sqlite3.Connection, path: Path, version: int) -> None:
    """One migration and its ``user_version`` in one transaction, foreign keys checked first."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        for statement in statements(version, "sqlite"):
            conn.execute(statement)
        problems = conn.execute("PRAGMA foreign_key_check").fetchall()
        if problems:
            raise DatabaseError(path, f"migration {version} broke foreign keys: {problems[:3]}")
        conn.execute(f"PRAGMA user_version = {version:d}")
        conn.execute("COMMIT")
    except sqlite3.Error as exc:
        conn.execute("ROLLBACK")
        raise DatabaseError(path, f"migration to schema version {version} failed: {exc}") from exc
    except BaseException:
        conn.execute("ROLLBACK")
        raise
