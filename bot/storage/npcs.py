"""Computer-played NPC seats: which seat of a table the bot plays, as which personality, and
whether the GM has taken it over for now (``computer`` False), and whether the GM gave it the
house edge (``bot.ai.peeking``: it plays with every hand in view)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.db import Tx


@dataclass(frozen=True, slots=True)
class NpcSeat:
    table_id: int
    player: int
    """The NPC character."""
    personality: str
    computer: bool
    """True while the bot plays the seat; False while its GM has taken it over."""
    house_edge: bool = False
    """The GM chose that it plays with the hidden cards in view (never shown to the table)."""


async def put(
    tx: Tx, table_id: int, player: int, personality: str, *, house_edge: bool = False
) -> None:
    """Seat (or re-seat) ``player`` at the table as the bot's, as ``personality``."""
    await tx.execute(
        "INSERT INTO table_npcs (table_id, player, personality, computer, house_edge) "
        "VALUES (?, ?, ?, 1, ?) ON CONFLICT (table_id, player) DO UPDATE SET "
        "personality = excluded.personality, computer = 1, house_edge = excluded.house_edge",
        (table_id, player, personality, int(house_edge)),
    )


async def set_computer(tx: Tx, table_id: int, player: int, computer: bool) -> bool:
    """Take the seat over (False) or hand it back (True); False if it is no computer seat."""
    changed = await tx.execute(
        "UPDATE table_npcs SET computer = ? WHERE table_id = ? AND player = ?",
        (int(computer), table_id, player),
    )
    return changed > 0


async def of_table(tx: Tx, table_id: int) -> list[NpcSeat]:
    rows = await tx.fetchall(
        "SELECT table_id, player, personality, computer, house_edge FROM table_npcs "
        "WHERE table_id = ? "
        "ORDER BY player",
        (table_id,),
    )
    return [NpcSeat(r[0], r[1], r[2], bool(r[3]), bool(r[4])) for r in rows]


async def live(tx: Tx) -> list[NpcSeat]:
    """Every computer seat of a table still open or running."""
    rows = await tx.fetchall(
        "SELECT n.table_id, n.player, n.personality, n.computer, n.house_edge FROM table_npcs n "
        "JOIN tables t ON t.id = n.table_id WHERE t.status IN ('open', 'running') "
        "ORDER BY n.table_id, n.player"
    )
    return [NpcSeat(r[0], r[1], r[2], bool(r[3]), bool(r[4])) for r in rows]
