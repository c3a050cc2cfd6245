"""Per-guild settings, and the small key/value meta table (e.g. the last synced command hash)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.storage.db import Tx

Language = Literal["en", "pl"]


@dataclass(frozen=True, slots=True)
class GuildRow:
    guild_id: int
    language: Language
    gm_role_id: int | None
    language_chosen: bool = False
    """Whether a GM chose ``language``; if not, the guild speaks its server's locale."""
    images: bool = False
    """Whether its tables show rendered images beside their text (``/settings images``)."""
    threads: bool = False
    """Whether its tables talk in a thread of their own by default (``/settings threads``)."""


async def get(tx: Tx, guild_id: int) -> GuildRow | None:
    row = await tx.fetchone(
        "SELECT guild_id, language, gm_role_id, language_chosen, images, threads FROM guilds "
        "WHERE guild_id = ?",
        (guild_id,),
    )
    if row is None:
        return None
    language: Language = "pl" if row[1] == "pl" else "en"
    role = None if row[2] is None else int(row[2])
    return GuildRow(int(row[0]), language, role, bool(row[3]), bool(row[4]), bool(row[5]))


async def set_language(tx: Tx, guild_id: int, language: Language) -> None:
    """A GM's choice: from now on the guild speaks ``language`` whatever its locale."""
    await tx.execute(
        "INSERT INTO guilds (guild_id, language, language_chosen) VALUES (?, ?, 1) "
        "ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language, language_chosen = 1",
        (guild_id, language),
    )


async def set_gm_role(tx: Tx, guild_id: int, role_id: int | None) -> None:
    await tx.execute(
        "INSERT INTO guilds (guild_id, gm_role_id) VALUES (?, ?) "
        "ON CONFLICT (guild_id) DO UPDATE SET gm_role_id = excluded.gm_role_id",
        (guild_id, role_id),
    )


async def set_images(tx: Tx, guild_id: int, images: bool) -> None:
    await tx.execute(
        "INSERT INTO guilds (guild_id, images) VALUES (?, ?) "
        "ON CONFLICT (guild_id) DO UPDATE SET images = excluded.images",
        (guild_id, int(images)),
    )


async def set_threads(tx: Tx, guild_id: int, threads: bool) -> None:
    await tx.execute(
        "INSERT INTO guilds (guild_id, threads) VALUES (?, ?) "
        "ON CONFLICT (guild_id) DO UPDATE SET threads = excluded.threads",
        (guild_id, int(threads)),
    )


async def get_meta(tx: Tx, key: str) -> str | None:
    value = await tx.fetchval("SELECT value FROM meta WHERE key = ?", (key,))
    return None if value is None else str(value)


async def set_meta(tx: Tx, key: str, value: str) -> None:
    await tx.execute(
        "INSERT INTO meta (key, value) VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


async def delete_meta(tx: Tx, key: str) -> None:
    await tx.execute("DELETE FROM meta WHERE key = ?", (key,))
