"""Opening a SQLite file: the checks of the path, the writer's pragmas, the integrity check."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from bot.storage.errors import DatabaseError, DatabaseUnreadable

BUSY_MS = 5000


def check_path(path: Path) -> None:
    if path.is_dir():
        raise DatabaseUnreadable(path, "it is a directory")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise DatabaseError(path, f"the folder {parent} does not exist")
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        raise DatabaseUnreadable(path, "permission denied (the bot needs to read and write it)")
    if not path.exists() and not os.access(parent, os.W_OK | os.X_OK):
        raise DatabaseError(path, f"permission denied: cannot create a file in {parent}")


def prepare(conn: sqlite3.Connection, path: Path) -> int:
    """The writer's pragmas and checks, on its thread; ``busy_timeout`` ends at 0, since the
    writer's statements run on the loop (see :mod:`bot.storage.writer`). The file's schema
    version."""
    try:
        # Reading the schema is the first thing that touches the file's pages: random bytes fail
        # here with "file is not a database".
        conn.execute(f"PRAGMA busy_timeout = {BUSY_MS:d}")
        conn.execute("SELECT count(*) FROM sqlite_master").fetchall()
        conn.execute("PRAGMA foreign_keys = ON")
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchall()
        if mode != [("wal",)]:
            raise DatabaseUnreadable(path, f"cannot switch to WAL mode (got {mode!r})")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA busy_timeout = 0")
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    except sqlite3.Error as exc:
        raise DatabaseUnreadable(path, str(exc)) from exc


def quick_check(path: Path) -> None:
    """``PRAGMA quick_check`` on a read-only connection of its own (a reader beside the writer,
    as WAL allows); raises :class:`DatabaseUnreadable` for a damaged file."""
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_MS:d}")
            check = [row[0] for row in conn.execute("PRAGMA quick_check").fetchall()]
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise DatabaseUnreadable(path, str(exc)) from exc
    if check != ["ok"]:
        raise DatabaseUnreadable(path, "damaged: " + "; ".join(map(str, check[:3])))
