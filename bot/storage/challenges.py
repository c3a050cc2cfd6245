"""Pazaak challenges: the terms, the message that shows them, and their life.

``pending`` until answered: ``accepted`` (with the table it opened, written in the transaction
that opened it), ``declined``, ``withdrawn`` or ``expired``. ``drawn`` says whether the message
shows the answer yet (the publisher's mark for it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.storage.db import Row, Tx

ChallengeStatus = Literal["pending", "accepted", "declined", "withdrawn", "expired"]

_COLUMNS = (
    "id, guild_id, channel_id, message_id, challenger, opponent, created_by, settings, "
    "expires_at, status, table_id, answered_at, drawn, referee, personality, house_edge, thread"
)


@dataclass(frozen=True, slots=True)
class ChallengeRow:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    challenger: int
    opponent: int
    created_by: int
    settings: str
    expires_at: int
    """Unix milliseconds."""
    status: ChallengeStatus
    table_id: int | None
    answered_at: int | None
    drawn: bool
    referee: int | None = None
    """With the ``skills`` option: the user id of the GM who referees the match."""
    personality: str | None = None
    """The personality of a challenging NPC the bot plays (None: its GM plays it)."""
    house_edge: bool = False
    """That NPC plays with every hand in view (``bot.ai.peeking``): its GM chose it."""
    thread: bool = False
    """The table it opens talks in a thread of its own (``cogs.kit.threads``)."""


def _row(row: Row) -> ChallengeRow:
    values = list(row)
    values[-5] = bool(values[-5])
    values[-2] = bool(values[-2])
    values[-1] = bool(values[-1])
    return ChallengeRow(*values)


async def insert(
    tx: Tx,
    *,
    guild_id: int,
    channel_id: int,
    challenger: int,
    opponent: int,
    created_by: int,
    settings: str,
    expires_at: int,
    referee: int | None = None,
    personality: str | None = None,
    house_edge: bool = False,
    thread: bool = False,
) -> int:
    return await tx.insert(
        "INSERT INTO challenges (guild_id, channel_id, challenger, opponent, created_by, "
        "settings, expires_at, referee, personality, house_edge, thread) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            guild_id,
            channel_id,
            challenger,
            opponent,
            created_by,
            settings,
            expires_at,
            referee,
            personality,
            int(house_edge),
            int(thread),
        ),
    )


async def get(tx: Tx, challenge_id: int) -> ChallengeRow | None:
    row = await tx.fetchone(f"SELECT {_COLUMNS} FROM challenges WHERE id = ?", (challenge_id,))
    return None if row is None else _row(row)


async def set_message(tx: Tx, challenge_id: int, message_id: int) -> None:
    await tx.execute(
        "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)
    )


async def answer(
    tx: Tx, challenge_id: int, status: ChallengeStatus, at: int, table_id: int | None = None
) -> bool:
    """Move a pending challenge to ``status``; False if it was not pending."""
    changed = await tx.execute(
        "UPDATE challenges SET status = ?, table_id = ?, answered_at = ?, drawn = 0 "
        "WHERE id = ? AND status = 'pending'",
        (status, table_id, at, challenge_id),
    )
    return changed == 1


async def expire(tx: Tx, now: int) -> list[int]:
    """Mark every pending challenge past its time as expired; return their ids."""
    rows = await tx.fetchall(
        "SELECT id FROM challenges WHERE status = 'pending' AND expires_at < ?", (now,)
    )
    ids = [int(r[0]) for r in rows]
    await tx.executemany(
        "UPDATE challenges SET status = 'expired', answered_at = ?, drawn = 0 "
        "WHERE id = ? AND status = 'pending'",
        [(now, i) for i in ids],
    )
    return ids


async def undrawn(tx: Tx) -> list[ChallengeRow]:
    rows = await tx.fetchall(
        f"SELECT {_COLUMNS} FROM challenges WHERE drawn = 0 AND status <> 'pending' ORDER BY id"
    )
    return [_row(r) for r in rows]


async def set_drawn(tx: Tx, challenge_id: int) -> None:
    await tx.execute("UPDATE challenges SET drawn = 1 WHERE id = ?", (challenge_id,))


async def next_expiry(tx: Tx) -> int | None:
    value = await tx.fetchval("SELECT MIN(expires_at) FROM challenges WHERE status = 'pending'")
    return None if value is None else int(value)
