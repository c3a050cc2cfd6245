"""Damaging a database file on purpose, for the tests of the integrity check."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from bot.storage.opening import open_database


async def filled(path: Path, rows: int) -> None:
    """A new database with ``rows`` rows of 500 bytes in ``meta``, its WAL folded into the file
    (so that the file's bytes are all there is)."""
    db = await open_database(path)
    async with db.transaction() as tx:
        await tx.executemany(
            "INSERT INTO meta (key, value) VALUES (?, ?)",
            [(f"k{n}", "v" * 500) for n in range(rows)],
        )
    await db.close()
    with sqlite3.connect(path) as raw:
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw.close()


async def damage_beyond_the_schema(path: Path) -> None:
    """A file whose schema reads, but whose data pages are ruined (only the integrity check can
    tell)."""
    await filled(path, 400)
    with sqlite3.connect(path) as raw:
        (pages,) = raw.execute("PRAGMA page_count").fetchone()
        (size,) = raw.execute("PRAGMA page_size").fetchone()
        (root,) = raw.execute("SELECT rootpage FROM sqlite_master WHERE name = 'meta'").fetchone()
    raw.close()
    assert pages > root + 4
    _ruin(path, root * size, size)  # the page after meta's root: one of its leaves


def _ruin(path: Path, start: int, size: int) -> None:
    data = bytearray(path.read_bytes())
    data[start : start + size] = os.urandom(size)
    path.write_bytes(bytes(data))
