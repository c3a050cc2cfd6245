"""Per-guild settings (language, GM role) and the bot's small key/value meta store."""

from __future__ import annotations

from bot.storage import guilds
from bot.storage.db import Database
from bot.storage.guilds import Language


class GuildService:
    def __init__(self, db: Database, *, default_language: Language = "en") -> None:
        self._db = db
        self._default_language: Language = default_language

    async def language(self, guild_id: int) -> Language:
        async with self._db.read() as tx:
            row = await guilds.get(tx, guild_id)
        return self._default_language if row is None else row.language

    async def set_language(self, guild_id: int, language: Language) -> None:
        if language not in ("en", "pl"):
            raise ValueError(f"unsupported language {language!r}")
        async with self._db.transaction() as tx:
            await guilds.set_language(tx, guild_id, language)

    async def gm_role(self, guild_id: int) -> int | None:
        async with self._db.read() as tx:
            row = await guilds.get(tx, guild_id)
        return None if row is None else row.gm_role_id

    async def set_gm_role(self, guild_id: int, role_id: int | None) -> None:
        async with self._db.transaction() as tx:
            await guilds.set_gm_role(tx, guild_id, role_id)

    async def meta(self, key: str) -> str | None:
        """E.g. ``meta("commands_hash")``: the hash of the last synced command set."""
        async with self._db.read() as tx:
            return await guilds.get_meta(tx, key)

    async def set_meta(self, key: str, value: str | None) -> None:
        async with self._db.transaction() as tx:
            if value is None:
                await guilds.delete_meta(tx, key)
            else:
                await guilds.set_meta(tx, key, value)
