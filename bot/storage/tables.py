"""Game tables: the row, the append-only event log, the seats, and the idempotency keys.

The event log is the truth: a table's state is its game's ``replay`` of the events, in ``seq``
order. Each event row also records the table ``version`` that wrote it, so the events of any one
action (for an idempotent repeat) are one indexed range.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from bot.storage.db import Row, Tx
from bot.storage.errors import ConstraintViolated, SeatTaken, UnknownCharacterRow, VersionConflict

Status = Literal["open", "running", "finished", "cancelled"]

_COLUMNS = (
    "id, guild_id, channel_id, game, currency, settings, status, version, message_id, "
    "created_by, created_at, closed_at, next_timeout_at, timeout_version"
)


@dataclass(frozen=True, slots=True)
class TableRow:
    id: int
    guild_id: int
    channel_id: int
    game: str
    currency: str
    settings: str
    status: Status
    version: int
    message_id: int | None
    created_by: int
    created_at: int
    closed_at: int | None
    next_timeout_at: int | None
    timeout_version: int | None


def _row(row: Row) -> TableRow:
    return TableRow(*row)


async def insert(
    tx: Tx,
    *,
    guild_id: int,
    channel_id: int,
    game: str,
    currency: str,
    settings: str,
    created_by: int,
    at: int,
) -> int:
    return await tx.insert(
        "INSERT INTO tables (guild_id, channel_id, game, currency, settings, status, version, "
        "created_by, created_at) VALUES (?, ?, ?, ?, ?, 'open', 0, ?, ?)",
        (guild_id, channel_id, game, currency, settings, created_by, at),
    )


async def get(tx: Tx, table_id: int, *, lock: bool = False) -> TableRow | None:
    """The table's row. ``lock`` (in a write transaction): hold it until the transaction ends,
    so that another process's step to it waits, and the reads after this one see the version
    it shows. PostgreSQL reads each statement at its own moment; SQLite's writer is alone, so
    it needs no lock."""
    sql = f"SELECT {_COLUMNS} FROM tables WHERE id = ?"
    if lock and tx.dialect == "postgres":
        sql += " FOR UPDATE"
    row = await tx.fetchone(sql, (table_id,))
    return None if row is None else _row(row)


async def live(tx: Tx) -> list[TableRow]:
    rows = await tx.fetchall(
        f"SELECT {_COLUMNS} FROM tables WHERE status IN ('open', 'running') ORDER BY id"
    )
    return [_row(r) for r in rows]


async def in_guild(tx: Tx, guild_id: int) -> list[TableRow]:
    rows = await tx.fetchall(
        f"SELECT {_COLUMNS} FROM tables WHERE guild_id = ? "
        "AND status IN ('open', 'running') ORDER BY id",
        (guild_id,),
    )
    return [_row(r) for r in rows]


async def in_channel(tx: Tx, guild_id: int, channel_id: int) -> list[TableRow]:
    rows = await tx.fetchall(
        f"SELECT {_COLUMNS} FROM tables WHERE guild_id = ? AND channel_id = ? "
        "AND status IN ('open', 'running') ORDER BY id",
        (guild_id, channel_id),
    )
    return [_row(r) for r in rows]


async def advance(
    tx: Tx,
    table_id: int,
    *,
    expected: int,
    status: Status,
    at: int,
    next_timeout_at: int | None,
) -> int:
    """Move the table from version ``expected`` to the next; refuse if it is not at ``expected``."""
    changed = await tx.execute(
        "UPDATE tables SET version = version + 1, status = ?, next_timeout_at = ?, "
        "timeout_version = CASE WHEN CAST(? AS INTEGER) IS NULL THEN NULL ELSE version + 1 END, "
        "closed_at = CASE WHEN ? IN ('finished', 'cancelled') THEN ? ELSE closed_at END "
        "WHERE id = ? AND version = ?",
        (status, next_timeout_at, next_timeout_at, status, at, table_id, expected),
    )
    if changed != 1:
        raise VersionConflict(table_id, expected)
    return expected + 1


async def deadlines(tx: Tx) -> list[tuple[int, int, int]]:
    """``(table_id, version, deadline)`` of every live table whose turn timer runs."""
    rows = await tx.fetchall(
        "SELECT id, timeout_version, next_timeout_at FROM tables "
        "WHERE next_timeout_at IS NOT NULL AND status IN ('open', 'running')"
    )
    return [(int(a), int(b), int(c)) for a, b, c in rows]


# --- events -------------------------------------------------------------------------------------


async def append_events(
    tx: Tx, table_id: int, first_seq: int, version: int, data: Sequence[bytes]
) -> None:
    await tx.executemany(
        "INSERT INTO table_events (table_id, seq, version, data) VALUES (?, ?, ?, ?)",
        [(table_id, first_seq + i, version, blob) for i, blob in enumerate(data)],
    )


async def events(
    tx: Tx, table_id: int, *, upto_version: int | None = None, from_seq: int = 0
) -> list[bytes]:
    if upto_version is None:
        rows = await tx.fetchall(
            "SELECT data FROM table_events WHERE table_id = ? AND seq >= ? ORDER BY seq",
            (table_id, from_seq),
        )
    else:
        rows = await tx.fetchall(
            "SELECT data FROM table_events WHERE table_id = ? AND version <= ? ORDER BY seq",
            (table_id, upto_version),
        )
    return [bytes(r[0]) for r in rows]


async def events_of_version(tx: Tx, table_id: int, version: int) -> list[tuple[int, bytes]]:
    rows = await tx.fetchall(
        "SELECT seq, data FROM table_events WHERE table_id = ? AND version = ? ORDER BY seq",
        (table_id, version),
    )
    return [(int(s), bytes(d)) for s, d in rows]


async def events_between(tx: Tx, table_id: int, after: int, upto: int) -> list[tuple[int, bytes]]:
    """``(version, data)`` of the events of versions ``after < version <= upto``, in order."""
    rows = await tx.fetchall(
        "SELECT version, data FROM table_events WHERE table_id = ? AND version > ? "
        "AND version <= ? ORDER BY seq",
        (table_id, after, upto),
    )
    return [(int(v), bytes(d)) for v, d in rows]


async def event_count(tx: Tx, table_id: int) -> int:
    return int(
        await tx.fetchval("SELECT COUNT(*) FROM table_events WHERE table_id = ?", (table_id,))
    )


async def live_events(tx: Tx, *, after_snapshots: bool) -> dict[int, list[bytes]]:
    """The event logs of every live table in one pass (for the restore at startup); with
    ``after_snapshots``, only the events after each table's snapshot."""
    since = (
        "COALESCE((SELECT s.next_seq FROM table_snapshots s WHERE s.table_id = t.id), 0)"
        if after_snapshots
        else "0"
    )
    rows = await tx.fetchall(
        "SELECT e.table_id, e.data FROM tables t JOIN table_events e ON e.table_id = t.id "
        f"WHERE t.status IN ('open', 'running') AND e.seq >= {since} ORDER BY e.table_id, e.seq"
    )
    logs: dict[int, list[bytes]] = {}
    for table_id, data in rows:
        logs.setdefault(int(table_id), []).append(bytes(data))
    return logs


# --- snapshots ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A table's state after ``version``; ``next_seq`` is the first event not folded into it."""

    table_id: int
    version: int
    next_seq: int
    format: str
    data: bytes


async def put_snapshot(tx: Tx, snapshot: Snapshot) -> None:
    await tx.execute(
        "INSERT INTO table_snapshots (table_id, version, next_seq, format, data) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id) DO UPDATE SET version = excluded.version, "
        "next_seq = excluded.next_seq, format = excluded.format, data = excluded.data",
        (snapshot.table_id, snapshot.version, snapshot.next_seq, snapshot.format, snapshot.data),
    )


async def drop_snapshot(tx: Tx, table_id: int) -> None:
    await tx.execute("DELETE FROM table_snapshots WHERE table_id = ?", (table_id,))


async def snapshot(tx: Tx, table_id: int) -> Snapshot | None:
    row = await tx.fetchone(
        "SELECT table_id, version, next_seq, format, data FROM table_snapshots WHERE table_id = ?",
        (table_id,),
    )
    return None if row is None else _snapshot(row)


async def live_snapshots(tx: Tx) -> dict[int, Snapshot]:
    rows = await tx.fetchall(
        "SELECT s.table_id, s.version, s.next_seq, s.format, s.data FROM table_snapshots s "
        "JOIN tables t ON t.id = s.table_id WHERE t.status IN ('open', 'running')"
    )
    return {int(r[0]): _snapshot(r) for r in rows}


def _snapshot(row: Row) -> Snapshot:
    return Snapshot(int(row[0]), int(row[1]), int(row[2]), str(row[3]), bytes(row[4]))


# --- seats --------------------------------------------------------------------------------------


async def seats(tx: Tx, table_id: int) -> set[int]:
    rows = await tx.fetchall("SELECT character_id FROM table_seats WHERE table_id = ?", (table_id,))
    return {int(r[0]) for r in rows}


async def add_seats(tx: Tx, table_id: int, character_ids: Iterable[int], exclusive: bool) -> None:
    for character_id in sorted(character_ids):
        try:
            async with tx.savepoint():
                await tx.execute(
                    "INSERT INTO table_seats (table_id, character_id, exclusive) VALUES (?, ?, ?)",
                    (table_id, character_id, int(exclusive)),
                )
        except ConstraintViolated as exc:
            other = await tx.fetchval(
                "SELECT table_id FROM table_seats WHERE character_id = ? AND exclusive = 1",
                (character_id,),
            )
            if other is None:  # no exclusive seat: the character itself is missing
                raise UnknownCharacterRow(character_id) from exc
            raise SeatTaken(character_id, int(other)) from exc


async def remove_seats(tx: Tx, table_id: int, character_ids: Iterable[int]) -> None:
    await tx.executemany(
        "DELETE FROM table_seats WHERE table_id = ? AND character_id = ?",
        [(table_id, c) for c in character_ids],
    )


async def live_seats(tx: Tx) -> dict[int, set[int]]:
    """``table_id -> character ids`` for every live table that has seats."""
    rows = await tx.fetchall(
        "SELECT s.table_id, s.character_id FROM table_seats s JOIN tables t ON t.id = s.table_id "
        "WHERE t.status IN ('open', 'running')"
    )
    found: dict[int, set[int]] = {}
    for table_id, character_id in rows:
        found.setdefault(int(table_id), set()).add(int(character_id))
    return found


async def seated_at(tx: Tx, character_id: int) -> list[int]:
    """The live tables where the character holds a seat."""
    rows = await tx.fetchall(
        "SELECT s.table_id FROM table_seats s JOIN tables t ON t.id = s.table_id "
        "WHERE s.character_id = ? AND t.status IN ('open', 'running') ORDER BY s.table_id",
        (character_id,),
    )
    return [int(r[0]) for r in rows]


# --- idempotency keys ---------------------------------------------------------------------------


async def action_key(tx: Tx, key: str) -> tuple[int, int] | None:
    """``(table_id, version)`` written by the action that carried ``key``, if any."""
    row = await tx.fetchone("SELECT table_id, version FROM action_keys WHERE key = ?", (key,))
    return None if row is None else (int(row[0]), int(row[1]))


async def put_action_key(tx: Tx, key: str, table_id: int, version: int) -> None:
    await tx.execute(
        "INSERT INTO action_keys (key, table_id, version) VALUES (?, ?, ?)",
        (key, table_id, version),
    )
