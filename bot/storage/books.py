"""The GM's books: the guild's settings for them, one evening's figures, and the ledger export.

Every query of an evening starts from an index on time (``movements_at``, ``tables_opened``,
``tables_closed``, migration 8) and joins by keys, so its cost follows the evening, not the
whole ledger. The export pages through the ledger by movement id (keyset), a chunk at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.storage import dialect
from bot.storage.db import Tx

# --- the guild's settings -----------------------------------------------------------------------


async def overdraft(tx: Tx, guild_id: int) -> bool:
    """Whether a GM's correction may leave a purse below zero on this server."""
    return bool(await tx.fetchval("SELECT overdraft FROM guilds WHERE guild_id = ?", (guild_id,)))


async def set_overdraft(tx: Tx, guild_id: int, allowed: bool) -> None:
    await tx.execute(
        "INSERT INTO guilds (guild_id, overdraft) VALUES (?, ?) "
        "ON CONFLICT (guild_id) DO UPDATE SET overdraft = excluded.overdraft",
        (guild_id, int(allowed)),
    )


async def last_report(tx: Tx, guild_id: int) -> tuple[int, int] | None:
    """``(since, until)`` of the guild's last report, if it had one."""
    row = await tx.fetchone(
        "SELECT report_from, report_at FROM guilds WHERE guild_id = ? AND report_at IS NOT NULL",
        (guild_id,),
    )
    return None if row is None else (int(row[0]), int(row[1]))


async def set_last_report(tx: Tx, guild_id: int, since: int, until: int) -> None:
    await tx.execute(
        "INSERT INTO guilds (guild_id, report_from, report_at) VALUES (?, ?, ?) "
        "ON CONFLICT (guild_id) DO UPDATE SET report_from = excluded.report_from, "
        "report_at = excluded.report_at",
        (guild_id, since, until),
    )


# --- one evening --------------------------------------------------------------------------------

_PURSE_LEGS = (
    "FROM movements m "  # CROSS JOIN keeps this order: the evening's movements, by time, first
    "CROSS JOIN ledger_entries e ON e.movement_id = m.id "
    "CROSS JOIN accounts a ON a.id = e.account_id AND a.kind = 'purse' "
    "LEFT JOIN characters c ON c.id = a.character_id "
    "WHERE m.at >= ? AND m.at < ? AND a.guild_id = ? "
)


@dataclass(frozen=True, slots=True)
class PurseMove:
    """One purse's side of a movement of the evening (``amount`` signed, into the purse > 0)."""

    movement_id: int
    kind: str
    currency: str
    amount: int
    reason: str
    table_id: int | None
    character_id: int
    name: str
    reversed_kind: str | None
    """For a correction, the kind of the movement it reversed."""


async def nets(tx: Tx, guild_id: int, since: int, until: int) -> list[tuple[int, str, str, int]]:
    """``(character, name, currency, net)`` of every purse that played at a table."""
    rows = await tx.fetchall(
        "SELECT a.character_id, COALESCE(c.name, '?'), m.currency, SUM(e.amount) "
        + _PURSE_LEGS
        + "AND m.table_id IS NOT NULL GROUP BY a.character_id, c.name, m.currency",
        (since, until, guild_id),
    )
    return [(int(i), str(n), str(c), int(s)) for i, n, c, s in rows]


async def purse_moves(
    tx: Tx, guild_id: int, since: int, until: int, kinds: Sequence[str]
) -> list[PurseMove]:
    """The purse sides of the evening's movements of these kinds, in the order written."""
    marks = ",".join("?" * len(kinds))
    rows = await tx.fetchall(
        "SELECT m.id, m.kind, m.currency, e.amount, m.reason, m.table_id, a.character_id, "
        "COALESCE(c.name, '?'), o.kind "
        + _PURSE_LEGS.replace("WHERE", "LEFT JOIN movements o ON o.id = m.reverses WHERE")
        + f"AND m.kind IN ({marks}) ORDER BY m.id, e.id",
        (since, until, guild_id, *kinds),
    )
    return [PurseMove(*row) for row in rows]


@dataclass(frozen=True, slots=True)
class Pot:
    table_id: int
    game: str
    currency: str
    amount: int
    """What was paid into the pot (stakes, and a pot carried in), corrections aside."""


async def biggest_pots(tx: Tx, guild_id: int, since: int, until: int, limit: int) -> list[Pot]:
    """The finished tables of the evening with the largest pots (voided ones left out)."""
    rows = await tx.fetchall(
        "SELECT id, game, currency, pot FROM (SELECT t.id, t.game, t.currency, "
        "(SELECT COALESCE(SUM(e.amount), 0) "
        "FROM ledger_entries e JOIN movements m ON m.id = e.movement_id "
        "WHERE e.account_id = p.id AND e.amount > 0 AND m.kind <> 'correction') AS pot "
        "FROM tables t JOIN accounts p ON p.kind = 'pot' AND p.table_id = t.id "
        "WHERE t.guild_id = ? AND t.closed_at >= ? AND t.closed_at < ? "
        "AND t.status = 'finished' AND NOT EXISTS (SELECT 1 FROM movements v "
        "WHERE v.table_id = t.id AND v.kind = 'correction')) pots "
        "WHERE pot > 0 ORDER BY pot DESC, id LIMIT ?",
        (guild_id, since, until, limit),
    )
    return [Pot(int(i), str(g), str(c), int(a)) for i, g, c, a in rows]


async def tables_opened(tx: Tx, guild_id: int, since: int, until: int) -> int:
    return int(
        await tx.fetchval(
            "SELECT COUNT(*) FROM tables WHERE guild_id = ? AND created_at >= ? AND created_at < ?",
            (guild_id, since, until),
        )
    )


async def tables_closed(tx: Tx, guild_id: int, since: int, until: int) -> dict[str, int]:
    """``status -> count`` of the tables that finished or were cancelled in the evening."""
    rows = await tx.fetchall(
        "SELECT status, COUNT(*) FROM tables WHERE guild_id = ? AND closed_at >= ? "
        "AND closed_at < ? GROUP BY status",
        (guild_id, since, until),
    )
    return {str(s): int(n) for s, n in rows}


CHEAT_KINDS = ("detection", "swapped", "caught")
"""The event kinds (``"kind"`` in the JSON) that tell of a cheat and whether it was caught."""


async def cheat_events(
    tx: Tx, guild_id: int, since: int, until: int
) -> list[tuple[int, str, bytes]]:
    """``(table, game, event data)`` of the events of the evening's tables (opened or closed in
    it) that tell of a cheat, in order. Only those rows are read out, not the whole logs."""
    where = " OR ".join(
        dialect.blob_contains(tx.dialect, "e.data", f'"kind":"{kind}"') for kind in CHEAT_KINDS
    )
    rows = await tx.fetchall(
        "WITH evening (id) AS ("
        "SELECT id FROM tables WHERE guild_id = ? AND created_at >= ? AND created_at < ? "
        "UNION SELECT id FROM tables WHERE guild_id = ? AND closed_at >= ? AND closed_at < ?) "
        "SELECT t.id, t.game, e.data FROM evening v JOIN tables t ON t.id = v.id "
        f"JOIN table_events e ON e.table_id = t.id WHERE {where} ORDER BY t.id, e.seq",
        (guild_id, since, until, guild_id, since, until),
    )
    return [(int(i), str(g), bytes(d)) for i, g, d in rows]


async def names(tx: Tx, character_ids: Sequence[int]) -> dict[int, str]:
    """Character names by id (deleted characters too: the books remember them)."""
    wanted = sorted(set(character_ids))
    if not wanted:
        return {}
    marks = ",".join("?" * len(wanted))
    rows = await tx.fetchall(f"SELECT id, name FROM characters WHERE id IN ({marks})", wanted)
    return {int(i): str(n) for i, n in rows}


# --- the export ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ExportRow:
    movement_id: int
    at: int
    kind: str
    reason: str
    currency: str
    amount: int
    table_id: int | None
    game: str | None
    reverses: int | None
    actor_id: int | None
    source_kind: str
    source_character: int | None
    source_name: str | None
    target_kind: str
    target_character: int | None
    target_name: str | None


_EXPORT = (
    "SELECT m.id, m.at, m.kind, m.reason, m.currency, m.amount, m.table_id, t.game, m.reverses, "
    "m.actor_id, sa.kind, sa.character_id, sc.name, ta.kind, ta.character_id, tc.name "
    "FROM movements m "  # CROSS JOIN keeps this order: the movements first, by id
    "CROSS JOIN ledger_entries s ON s.movement_id = m.id AND s.amount < 0 "
    "CROSS JOIN accounts sa ON sa.id = s.account_id "
    "CROSS JOIN ledger_entries d ON d.movement_id = m.id AND d.amount > 0 "
    "CROSS JOIN accounts ta ON ta.id = d.account_id "
    "LEFT JOIN characters sc ON sc.id = sa.character_id "
    "LEFT JOIN characters tc ON tc.id = ta.character_id "
    "LEFT JOIN tables t ON t.id = m.table_id "
)


async def guild_chunk(tx: Tx, guild_id: int, after: int, limit: int) -> list[ExportRow]:
    """Up to ``limit`` of the guild's movements with an id above ``after``, in id order."""
    rows = await tx.fetchall(
        _EXPORT + "WHERE m.id > ? AND sa.guild_id = ? ORDER BY m.id LIMIT ?",
        (after, guild_id, limit),
    )
    return [ExportRow(*row) for row in rows]


async def purse_ids(tx: Tx, character_id: int) -> list[int]:
    rows = await tx.fetchall(
        "SELECT id FROM accounts WHERE kind = 'purse' AND character_id = ? ORDER BY currency",
        (character_id,),
    )
    return [int(r[0]) for r in rows]


async def account_chunk(
    tx: Tx, account_id: int, after: int, limit: int
) -> list[tuple[int, ExportRow]]:
    """Up to ``limit`` ``(entry id, movement)`` of one account, entry ids above ``after``, in
    order (the keyset of the account's index)."""
    rows = await tx.fetchall(
        "SELECT x.id, "
        + _EXPORT.removeprefix("SELECT ").replace(
            "FROM movements m ",
            "FROM ledger_entries x JOIN movements m ON m.id = x.movement_id ",
        )
        + "WHERE x.account_id = ? AND x.id > ? ORDER BY x.id LIMIT ?",
        (account_id, after, limit),
    )
    return [(int(row[0]), ExportRow(*row[1:])) for row in rows]


async def voidable(tx: Tx, guild_id: int, limit: int) -> list[ExportRow]:
    """The guild's latest grants, takes and payments not undone yet, newest first."""
    rows = await tx.fetchall(
        _EXPORT + "WHERE sa.guild_id = ? AND m.table_id IS NULL "
        "AND m.kind IN ('grant', 'take', 'transfer') "
        "AND NOT EXISTS (SELECT 1 FROM movements r WHERE r.reverses = m.id) "
        "ORDER BY m.id DESC LIMIT ?",
        (guild_id, limit),
    )
    return [ExportRow(*row) for row in rows]
