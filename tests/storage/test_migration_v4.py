"""Migration 4 on a real version-3 file: a guild's language follows its server's locale until a
GM chooses one, and look-alike names made before the check are kept while no new one joins."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.services.characters import CharacterService
from bot.services.guilds import GuildService, language_of_locale
from bot.services.names import LookAlikeName
from bot.storage.db import Database
from bot.storage.migrations import LATEST
from bot.storage.opening import open_database

CYRILLIC_BOB = "\u0412\u043eb Smith"
V3_DATA = [
    # 10 chose Polish; 11 set only a GM role (its 'en' is the old default); 12 chose nothing.
    "INSERT INTO guilds (guild_id, language, gm_role_id) VALUES (10, 'pl', 77), (11, 'en', 78)",
    "INSERT INTO characters (id, guild_id, name, name_key, owner_id, created_at) VALUES "
    "(1, 10, 'Bob Smith', 'bob smith', 5, 1000), "
    f"(2, 10, '{CYRILLIC_BOB}', '{CYRILLIC_BOB.casefold()}', 6, 1000), "
    "(3, 10, 'Greta', 'greta', 7, 1000)",
]


@pytest.fixture
async def upgraded(tmp_path: Path) -> Database:
    path = tmp_path / "szulernia.db"
    db = await open_database(path, upgrade_to=3)
    async with db.transaction() as tx:
        for statement in V3_DATA:
            await tx.execute(statement)
    await db.close()
    db = await open_database(path)
    assert await db.schema_version() == LATEST >= 4
    return db


async def test_the_language_follows_the_locale_until_a_gm_chooses(upgraded: Database) -> None:
    locales = {10: "en-US", 11: "pl", 12: "pl", 13: "de"}
    guilds = GuildService(upgraded, default_language="en", locale_of=locales.get)
    try:
        assert await guilds.language(10) == "pl"  # a GM chose Polish: the locale doesn't matter
        assert await guilds.language(11) == "pl"  # only a GM role: the Polish server's locale
        assert await guilds.language(12) == "pl"
        assert await guilds.language(12, "en-GB") == "en"  # the interaction's guild_locale wins
        assert await guilds.language(13) == "en"  # a locale the bot doesn't speak: the default
        assert await guilds.language(14) == "en"  # unknown
        assert await GuildService(upgraded, default_language="pl").language(13) == "pl"

        await guilds.set_gm_role(12, 99)  # a GM role is no language choice
        assert await guilds.language(12) == "pl" and await guilds.gm_role(12) == 99
        await guilds.set_language(12, "en")
        assert await guilds.language(12) == "en" and await guilds.language(12, "pl") == "en"
        assert await guilds.gm_role(12) == 99
        await guilds.set_language(10, "en")
        assert await guilds.language(10, "pl") == "en"
    finally:
        await upgraded.close()


def test_locales_map_to_the_languages_the_bot_speaks() -> None:
    assert [language_of_locale(x) for x in ("pl", "en-US", "en-GB", "de", "", None)] == [
        "pl",
        "en",
        "en",
        None,
        None,
        None,
    ]


async def test_old_look_alikes_are_kept_and_no_new_one_joins(upgraded: Database) -> None:
    characters = CharacterService(upgraded)
    try:
        assert [c.name for c in await characters.search(10)] == ["Bob Smith", "Greta", CYRILLIC_BOB]
        spoof = await characters.by_name(10, CYRILLIC_BOB)
        kept = await characters.edit(spoof.id, actor_id=6, name=CYRILLIC_BOB, luck=True)
        assert kept.name == CYRILLIC_BOB and kept.luck  # its own name, unchanged, is fine
        with pytest.raises(LookAlikeName) as caught:
            await characters.create(10, "B0b Smith", owner_id=8)
        assert caught.value.params["other"] in ("Bob Smith", CYRILLIC_BOB)
        greta = await characters.by_name(10, "Greta")
        with pytest.raises(LookAlikeName):
            await characters.edit(greta.id, actor_id=7, name="Bob Srnith")
        renamed = await characters.edit(spoof.id, actor_id=6, name="Boris")
        assert renamed.name == "Boris"
    finally:
        await upgraded.close()
