"""Per-guild settings (language, GM role) and the bot's small key/value meta store.

The language: the one a GM chose with ``/settings language``; until then the server's own
locale (Polish for a Polish server, English for an English one), and for any other locale the
``bot.language`` setting. The locale comes from the interaction (``guild_locale``) or, where
there is none (a table redrawn, a timer), from ``locale_of``: the bot's view of the guild.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.storage import guilds
from bot.storage.db import Database
from bot.storage.guilds import GuildRow, Language

LocaleOf = Callable[[int], str | None]
"""``guild_id -> locale`` (a Discord locale such as ``"pl"`` or ``"en-US"``), None if unknown."""


def language_of_locale(locale: str | None) -> Language | None:
    """The language the bot speaks for a Discord locale, or None for one it does not speak."""
    tag = (locale or "").lower()
    if tag == "pl" or tag.startswith("pl-"):
        return "pl"
    if tag == "en" or tag.startswith("en-"):
        return "en"
    return None


class GuildService:
    def __init__(
        self,
        db: Database,
        *,
        default_language: Language = "en",
        locale_of: LocaleOf | None = None,
    ) -> None:
        self._db = db
        self._default_language: Language = default_language
        self._locale_of = locale_of
        self._rows: dict[int, GuildRow | None] = {}
        """The guilds' rows as last read or written here (a click reads no SQL for them)."""

    async def _row(self, guild_id: int) -> GuildRow | None:
        if guild_id not in self._rows:
            async with self._db.read() as tx:
                self._rows[guild_id] = await guilds.get(tx, guild_id)
        return self._rows[guild_id]

    def knows(self, guild_id: int) -> bool:
        """Whether :meth:`language` and :meth:`gm_role` answer for the guild without SQL."""
        return guild_id in self._rows

    def use_locales(self, locale_of: LocaleOf) -> None:
        """Where to learn a guild's locale when no interaction says it (set by the bot)."""
        self._locale_of = locale_of

    async def language(self, guild_id: int, locale: str | None = None) -> Language:
        """The guild's language: the GM's choice, else that of ``locale`` (the interaction's
        ``guild_locale``) or of the guild's known locale, else the default."""
        row = await self._row(guild_id)
        if row is not None and row.language_chosen:
            return row.language
        if locale is None and self._locale_of is not None:
            locale = self._locale_of(guild_id)
        return language_of_locale(locale) or self._default_language

    async def set_language(self, guild_id: int, language: Language) -> None:
        if language not in ("en", "pl"):
            raise ValueError(f"unsupported language {language!r}")
        self._rows.pop(guild_id, None)
        async with self._db.transaction() as tx:
            await guilds.set_language(tx, guild_id, language)
        self._rows.pop(guild_id, None)

    async def gm_role(self, guild_id: int) -> int | None:
        row = await self._row(guild_id)
        return None if row is None else row.gm_role_id

    async def set_gm_role(self, guild_id: int, role_id: int | None) -> None:
        self._rows.pop(guild_id, None)
        async with self._db.transaction() as tx:
            await guilds.set_gm_role(tx, guild_id, role_id)
        self._rows.pop(guild_id, None)

    async def images(self, guild_id: int) -> bool:
        """Whether the guild's tables show rendered images beside their text."""
        row = await self._row(guild_id)
        return row is not None and row.images

    async def set_images(self, guild_id: int, images: bool) -> None:
        self._rows.pop(guild_id, None)
        async with self._db.transaction() as tx:
            await guilds.set_images(tx, guild_id, images)
        self._rows.pop(guild_id, None)

    async def threads(self, guild_id: int) -> bool:
        """Whether the guild's tables talk in a thread of their own unless opened otherwise."""
        row = await self._row(guild_id)
        return row is not None and row.threads

    async def set_threads(self, guild_id: int, threads: bool) -> None:
        self._rows.pop(guild_id, None)
        async with self._db.transaction() as tx:
            await guilds.set_threads(tx, guild_id, threads)
        self._rows.pop(guild_id, None)

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
