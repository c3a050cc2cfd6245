"""Characters, their side-card collections and each user's active character, per guild.

A deleted character keeps its row (its ledger rows point at its purse) but frees its name:
the unique index on ``(guild_id, name_key)`` only covers living characters.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from bot.storage.db import Row, Tx
from bot.storage.errors import ConstraintViolated, NameTaken

_COLUMNS = (
    "id, guild_id, name, owner_id, is_npc, luck, gamble, perception, side_cards, selection, "
    "created_at"
)


@dataclass(frozen=True, slots=True)
class CharacterRow:
    id: int
    guild_id: int
    name: str
    owner_id: int
    is_npc: bool
    luck: bool
    gamble: bool
    perception: int
    side_cards: tuple[str, ...]
    selection: tuple[str, ...]
    created_at: int


def _row(row: Row) -> CharacterRow:
    return CharacterRow(
        id=int(row[0]),
        guild_id=int(row[1]),
        name=str(row[2]),
        owner_id=int(row[3]),
        is_npc=bool(row[4]),
        luck=bool(row[5]),
        gamble=bool(row[6]),
        perception=int(row[7]),
        side_cards=tuple(json.loads(row[8])),
        selection=tuple(json.loads(row[9])),
        created_at=int(row[10]),
    )


def _codes(codes: Sequence[str]) -> str:
    return json.dumps(list(codes), ensure_ascii=False)


async def insert(
    tx: Tx,
    *,
    guild_id: int,
    name: str,
    name_key: str,
    owner_id: int,
    is_npc: bool,
    luck: bool,
    gamble: bool,
    perception: int,
    side_cards: Sequence[str],
    selection: Sequence[str],
    at: int,
) -> int:
    try:
        async with tx.savepoint():
            return await tx.insert(
                "INSERT INTO characters (guild_id, name, name_key, owner_id, is_npc, luck, gamble, "
                "perception, side_cards, selection, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (
                    guild_id,
                    name,
                    name_key,
                    owner_id,
                    int(is_npc),
                    int(luck),
                    int(gamble),
                    perception,
                    _codes(side_cards),
                    _codes(selection),
                    at,
                ),
            )
    except ConstraintViolated as exc:
        if exc.kind == "unique":
            raise NameTaken(name) from exc
        raise


async def owner_of(tx: Tx, character_id: int) -> int | None:
    """The user who plays a living character (an NPC's GM), or None."""
    value = await tx.fetchval(
        "SELECT owner_id FROM characters WHERE id = ? AND deleted_at IS NULL", (character_id,)
    )
    return None if value is None else int(value)


async def get(tx: Tx, character_id: int) -> CharacterRow | None:
    row = await tx.fetchone(
        f"SELECT {_COLUMNS} FROM characters WHERE id = ? AND deleted_at IS NULL", (character_id,)
    )
    return None if row is None else _row(row)


async def by_name(tx: Tx, guild_id: int, name_key: str) -> CharacterRow | None:
    row = await tx.fetchone(
        f"SELECT {_COLUMNS} FROM characters "
        "WHERE guild_id = ? AND name_key = ? AND deleted_at IS NULL",
        (guild_id, name_key),
    )
    return None if row is None else _row(row)


async def living_names(tx: Tx, guild_id: int) -> list[tuple[int, str]]:
    """``(id, name)`` of every living character of the guild (for the look-alike check)."""
    rows = await tx.fetchall(
        "SELECT id, name FROM characters WHERE guild_id = ? AND deleted_at IS NULL ORDER BY id",
        (guild_id,),
    )
    return [(int(r[0]), str(r[1])) for r in rows]


async def search(
    tx: Tx, guild_id: int, *, key_prefix: str = "", owner_id: int | None = None, limit: int = 25
) -> list[CharacterRow]:
    """Living characters of the guild whose name starts with ``key_prefix``, by name."""
    escaped = key_prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    sql = (
        f"SELECT {_COLUMNS} FROM characters WHERE guild_id = ? AND deleted_at IS NULL "
        "AND name_key LIKE ? ESCAPE '\\'"
    )
    params: list[object] = [guild_id, escaped + "%"]
    if owner_id is not None:
        sql += " AND owner_id = ?"
        params.append(owner_id)
    sql += " ORDER BY name_key LIMIT ?"
    params.append(limit)
    return [_row(r) for r in await tx.fetchall(sql, params)]


async def rename(tx: Tx, character_id: int, name: str, name_key: str) -> None:
    try:
        async with tx.savepoint():
            await tx.execute(
                "UPDATE characters SET name = ?, name_key = ? WHERE id = ?",
                (name, name_key, character_id),
            )
    except ConstraintViolated as exc:
        if exc.kind == "unique":
            raise NameTaken(name) from exc
        raise


async def set_traits(
    tx: Tx, character_id: int, *, luck: bool, gamble: bool, perception: int
) -> None:
    await tx.execute(
        "UPDATE characters SET luck = ?, gamble = ?, perception = ? WHERE id = ?",
        (int(luck), int(gamble), perception, character_id),
    )


async def set_side_cards(tx: Tx, character_id: int, side_cards: Sequence[str]) -> None:
    await tx.execute(
        "UPDATE characters SET side_cards = ? WHERE id = ?", (_codes(side_cards), character_id)
    )


async def set_selection(tx: Tx, character_id: int, selection: Sequence[str]) -> None:
    await tx.execute(
        "UPDATE characters SET selection = ? WHERE id = ?", (_codes(selection), character_id)
    )


async def mark_deleted(tx: Tx, character_id: int, at: int) -> None:
    await tx.execute("DELETE FROM active_characters WHERE character_id = ?", (character_id,))
    await tx.execute(
        "UPDATE characters SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL",
        (at, character_id),
    )


async def set_active(tx: Tx, guild_id: int, user_id: int, character_id: int) -> None:
    await tx.execute(
        "INSERT INTO active_characters (guild_id, user_id, character_id) VALUES (?, ?, ?) "
        "ON CONFLICT (guild_id, user_id) DO UPDATE SET character_id = excluded.character_id",
        (guild_id, user_id, character_id),
    )


async def active(tx: Tx, guild_id: int, user_id: int) -> CharacterRow | None:
    row = await tx.fetchone(
        f"SELECT {', '.join('c.' + c for c in _COLUMNS.split(', '))} FROM active_characters a "
        "JOIN characters c ON c.id = a.character_id "
        "WHERE a.guild_id = ? AND a.user_id = ? AND c.deleted_at IS NULL",
        (guild_id, user_id),
    )
    return None if row is None else _row(row)


async def seated_live(tx: Tx) -> list[tuple[int, int, str, int, bool]]:
    """``(table id, character id, name, owner id, is NPC)`` of every living character seated at
    a live table, in one query (the table service's rosters, at startup)."""
    rows = await tx.fetchall(
        "SELECT s.table_id, c.id, c.name, c.owner_id, c.is_npc FROM table_seats s "
        "JOIN tables t ON t.id = s.table_id JOIN characters c ON c.id = s.character_id "
        "WHERE t.status IN ('open', 'running') AND c.deleted_at IS NULL"
    )
    return [(int(r[0]), int(r[1]), str(r[2]), int(r[3]), bool(r[4])) for r in rows]
