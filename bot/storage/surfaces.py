"""What each table has published to Discord: the publisher's marks (see ``cogs.kit.publisher``).

- ``tables.message_id`` / ``board_version``: the table message and the version it was drawn at;
- ``tables.posted_version``: the last version whose posts (announcements, hand deliveries, the
  GM's notes) have gone out;
- ``table_hands``: one message per seat that shows its hand (a DM edited in place), with a digest
  of what it shows, so it is edited only when that changes;
- ``tables.threaded`` / ``thread_id``: whether the table talks in a thread of its own, and that
  thread (None: not started yet; 0: it could not be, so the table talks in its channel).

The marks only ever move forward: a slow publisher that drew an older version cannot move them
back over a newer one.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.db import Tx


@dataclass(frozen=True, slots=True)
class HandMark:
    player: int
    channel_id: int | None
    message_id: int | None
    """None with a digest: the hand could not be sent (DMs closed); the seat was told once."""
    digest: str


@dataclass(frozen=True, slots=True)
class Marks:
    table_id: int
    message_id: int | None
    board_version: int
    posted_version: int
    claimed_version: int
    """Announcements up to this version may have gone out as follow-ups (see the publisher)."""
    hands: dict[int, HandMark]
    threaded: bool = False
    thread_id: int | None = None
    """The table's thread (see the module docstring)."""


async def marks(tx: Tx, table_id: int) -> Marks | None:
    row = await tx.fetchone(
        "SELECT message_id, board_version, posted_version, claimed_version, threaded, "
        "thread_id FROM tables WHERE id = ?",
        (table_id,),
    )
    if row is None:
        return None
    rows = await tx.fetchall(
        "SELECT player, channel_id, message_id, digest FROM table_hands WHERE table_id = ?",
        (table_id,),
    )
    hands = {int(p): HandMark(int(p), c, m, str(d)) for p, c, m, d in rows}
    thread = None if row[5] is None else int(row[5])
    return Marks(
        table_id, row[0], int(row[1]), int(row[2]), int(row[3]), hands, bool(row[4]), thread
    )


async def set_board(tx: Tx, table_id: int, message_id: int, version: int) -> None:
    """The table message is ``message_id``, drawn at ``version`` (never moves the mark back for
    the same message)."""
    await tx.execute(
        "UPDATE tables SET board_version = CASE WHEN message_id = ? AND board_version > ? "
        "THEN board_version ELSE ? END, message_id = ? WHERE id = ?",
        (message_id, version, version, message_id, table_id),
    )


async def set_posted(tx: Tx, table_id: int, version: int) -> None:
    await tx.execute(
        "UPDATE tables SET posted_version = ? WHERE id = ? AND posted_version < ?",
        (version, table_id, version),
    )


async def set_claimed(tx: Tx, table_id: int, version: int) -> None:
    await tx.execute(
        "UPDATE tables SET claimed_version = ? WHERE id = ? AND claimed_version < ?",
        (version, table_id, version),
    )


async def set_threaded(tx: Tx, table_id: int, threaded: bool, thread_id: int | None) -> None:
    """The table's choice, as it opens (``thread_id`` 0: it may not start one, so none)."""
    await tx.execute(
        "UPDATE tables SET threaded = ?, thread_id = ? WHERE id = ?",
        (int(threaded), thread_id, table_id),
    )


async def set_thread(tx: Tx, table_id: int, thread_id: int) -> None:
    """The table's thread was started (or, 0, could not be); set once."""
    await tx.execute(
        "UPDATE tables SET thread_id = ? WHERE id = ? AND thread_id IS NULL", (thread_id, table_id)
    )


async def set_hand(tx: Tx, table_id: int, mark: HandMark) -> None:
    await tx.execute(
        "INSERT INTO table_hands (table_id, player, channel_id, message_id, digest) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id, player) DO UPDATE SET "
        "channel_id = excluded.channel_id, message_id = excluded.message_id, "
        "digest = excluded.digest",
        (table_id, mark.player, mark.channel_id, mark.message_id, mark.digest),
    )


async def behind(tx: Tx, game: str | None = None) -> list[int]:
    """Tables (of ``game``) whose board or posts are behind their version, oldest first: live
    ones, and closed ones whose last step (the result, the refunds) has not been shown yet."""
    sql = "SELECT id FROM tables WHERE (board_version < version OR posted_version < version)"
    params: tuple[object, ...] = ()
    if game is not None:
        sql += " AND game = ?"
        params = (game,)
    rows = await tx.fetchall(sql + " ORDER BY id", params)
    return [int(r[0]) for r in rows]
