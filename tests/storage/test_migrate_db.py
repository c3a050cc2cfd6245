"""Copying a SQLite database into PostgreSQL (``bot.storage.copy``): a file with real data made
through the services (characters, grants, played and voided games, a live table) arrives whole,
row for row, with the same audit and sequences moved past the copied ids; a target that is not
empty, one with another schema, an unbalanced source and a value of the wrong type are refused,
and leave the target as it was."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.rules import pegaz
from bot.storage import copy, ledger
from bot.storage.copy import CopyRefused, migrate_database
from bot.storage.db import Database, Row
from bot.storage.opening import open_database
from tests import pg
from tests.services.conftest import GM, GUILD, FakeClock, all_games, make_world
from tests.services.test_corrections import books_of, decisive
from tests.services.test_full_games import pegaz_choice, pegaz_table, play
from tests.services.test_side_bets import CAROL, bets, play_out, setup

pytestmark = pg.needs_server


async def fill(path: Path) -> None:
    """A bot's evening: characters with coins, a Pegasus game played to its end, a dice table
    voided by the GM, a payment between characters, a game with a side bet, and a Pegasus
    table left running."""
    world = await make_world(path, FakeClock(), all_games())
    try:
        await world.guilds.set_language(GUILD, "pl")
        players = []
        for n in range(4):
            who = await world.characters.create(
                GUILD, f"Player {n}", owner_id=100 + n, luck=n % 2 == 0, perception=20 * n
            )
            await world.purses.grant(who.id, "wh", 2400, actor_id=GM)
            players.append(who.id)
            await world.characters.set_active(GUILD, 100 + n, who.id)
        await play(world, await pegaz_table(world, players, "a"), random.Random(1), pegaz_choice)
        done, _winner, _loser = await decisive(world, players[:2], "dice")
        await (await books_of(world)).void_table(done.table_id, guild_id=GUILD, actor_id=GM)
        await world.purses.pay(players[2], players[3], "wh", 5, actor_id=102)
        table, ann, _bob, carol, _dave = await setup(world)
        await bets(world).place(
            table, guild_id=GUILD, user_id=CAROL, character_id=carol, seat=ann, amount=30
        )
        await play_out(world, table, winner=0)
        live = await pegaz_table(world, players[:3], "b")
        await world.tables.act(
            live.table_id, pegaz.Start(players[0]), key="b:start", expected_version=None,
            actor_id=100,
        )  # fmt: skip
    finally:
        await world.db.close()


async def columns(db: Database) -> dict[str, list[str]]:
    """The source's tables and their columns, read off the SQLite file."""
    async with db.read() as tx:
        names = await tx.fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
        found = {}
        for (name,) in names:
            info = await tx.fetchall("SELECT name FROM pragma_table_info(?)", (name,))
            found[name] = [c for (c,) in info]
    return found


async def contents(db: Database, tables: dict[str, list[str]]) -> dict[str, list[Row]]:
    """Every row of every table, in one order on both backends."""
    found = {}
    async with db.read() as tx:
        for name, cols in tables.items():
            picked = ", ".join(f'"{c}"' for c in cols)
            rows = await tx.fetchall(f'SELECT {picked} FROM "{name}"')
            found[name] = sorted(rows, key=repr)
    return found


async def audit_of(db: Database) -> ledger.Audit:
    async with db.read() as tx:
        return await ledger.audit(tx)


async def run(source: Path, url: str, *, chunk: int = 1000) -> tuple[Any, list[str]]:
    lines: list[str] = []
    copied = await migrate_database(source, url, say=lines.append, chunk=chunk)
    return copied, lines


async def target_rows(url: str) -> dict[str, int]:
    """Rows per table of the target's schema (none at all when it has no tables)."""
    conn = await asyncpg.connect(url)
    try:
        names = await conn.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
        )
        return {r[0]: int(await conn.fetchval(f'SELECT count(*) FROM "{r[0]}"')) for r in names}
    finally:
        await conn.close()


async def test_a_filled_file_is_copied_whole(tmp_path: Path) -> None:
    source = tmp_path / "szulernia.db"
    await fill(source)
    async with pg.scratch(migrated=False) as url:
        copied, lines = await run(source, url, chunk=3)  # small chunks: many keyset pages
        src = await open_database(source)
        dst = await open_database(url)
        try:
            tables = await columns(src)
            assert await contents(dst, tables) == await contents(src, tables)
            assert await audit_of(dst) == await audit_of(src)
        finally:
            await src.close()
            await dst.close()
        counts = copied.books.counts
        assert counts.keys() == tables.keys()
        empty = {name for name, count in counts.items() if count == 0}
        assert empty <= {"meta", "challenges", "stat_rivals", "table_hands", "table_npcs"}
        paged = ("characters", "accounts", "movements", "ledger_entries", "table_events",
                 "action_keys", "stat_results", "active_characters")  # fmt: skip
        assert all(counts[name] > 3 for name in paged), counts
        assert f"  characters: {counts['characters']:,} rows" in lines
        assert f"  guilds: {counts['guilds']} row" in lines
        order = [line.split(":")[0].strip() for line in lines if line.startswith("  ")]
        assert order.index("characters") < order.index("accounts") < order.index("movements")
        assert order.index("movements") < order.index("ledger_entries")
        assert any(line.startswith("verified before the commit") for line in lines)
        # the sequences moved past the copied ids: new rows on the target get new ids
        world = await make_world(url, FakeClock(), all_games())
        try:
            fresh = await world.characters.create(GUILD, "Newcomer", owner_id=999)
            await world.purses.grant(fresh.id, "wh", 50, actor_id=GM)
            async with world.db.read() as tx:
                top = await tx.fetchval("SELECT max(id) FROM characters WHERE id <> ?", (fresh.id,))
            assert fresh.id > top
            assert (await world.purses.audit()).drifted_accounts == ()
        finally:
            await world.db.close()


async def test_an_old_file_is_brought_up_to_date_first_and_says_so(tmp_path: Path) -> None:
    source = tmp_path / "old.db"
    db = await open_database(source, upgrade_to=7)
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO guilds (guild_id, language) VALUES (5, 'pl')")
    await db.close()
    async with pg.scratch(migrated=False) as url:
        copied, lines = await run(source, url)
        assert (copied.found_version, copied.version) == (7, await schema(source))
        upgraded = f"schema version {copied.version}, upgraded from 7 first (as the bot does)"
        assert lines[0] == f"source: old.db, {upgraded}"
        assert (await target_rows(url))["guilds"] == 1


async def schema(path: Path) -> int:
    db = await open_database(path)
    try:
        return await db.schema_version()
    finally:
        await db.close()


async def test_a_target_that_is_not_empty_is_refused_and_left_alone(tmp_path: Path) -> None:
    source = tmp_path / "szulernia.db"
    await fill(source)
    async with pg.scratch(migrated=True) as url:
        world = await make_world(url, FakeClock(), all_games())
        await world.characters.create(GUILD, "Already here", owner_id=5)
        await world.db.close()
        before = await target_rows(url)
        with pytest.raises(
            CopyRefused,
            match=r"is not empty \(rows in accounts, characters\): copy only into a new",
        ):
            await run(source, url)
        assert await target_rows(url) == before


async def test_rows_that_come_after_the_first_look_are_found_inside_the_transaction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A writer between the first look and the copy: the transaction looks again, under lock."""
    source = tmp_path / "szulernia.db"
    await fill(source)

    async def nothing_yet(url: str, shown: str) -> list[str]:
        return []

    monkeypatch.setattr(copy, "_precheck", nothing_yet)
    async with pg.scratch(migrated=True) as url:
        db = await open_database(url)
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO meta (key, value) VALUES ('late', 'row')")
        await db.close()
        with pytest.raises(CopyRefused, match=r"is not empty \(rows in meta\)"):
            await run(source, url)
        assert {n: c for n, c in (await target_rows(url)).items() if c} == {
            "meta": 1,
            "schema_version": 1,
        }


async def test_an_unbalanced_source_is_refused_naming_what_is_wrong(tmp_path: Path) -> None:
    source = tmp_path / "szulernia.db"
    await fill(source)
    conn = sqlite3.connect(source)
    with conn:
        conn.execute("UPDATE accounts SET balance = balance + 5 WHERE id = 3")
        conn.execute("DELETE FROM ledger_entries WHERE id = (SELECT max(id) FROM ledger_entries)")
        movement = conn.execute("SELECT max(movement_id) FROM ledger_entries").fetchone()[0]
    conn.close()
    async with pg.scratch(migrated=False) as url:
        with pytest.raises(CopyRefused) as refused:
            await run(source, url)
        text = str(refused.value)
        assert "does not balance" in text
        assert f"movements {movement} do not have two entries" in text
        assert "accounts 3" in text
        assert await target_rows(url) == {}  # not even the schema was made


async def test_a_target_with_another_schema_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "szulernia.db"
    await fill(source)
    async with pg.scratch(migrated=True) as url:
        conn = await asyncpg.connect(url)
        await conn.execute("ALTER TABLE characters DROP COLUMN selection")
        await conn.execute("ALTER TABLE guilds ALTER COLUMN report_at TYPE text")
        await conn.close()
        with pytest.raises(CopyRefused) as refused:
            await run(source, url)
        text = str(refused.value)
        assert "characters: the target lacks selection" in text
        assert "guilds.report_at is text, not bigint" in text
        assert set((await target_rows(url)).values()) == {0, 1}  # the version row alone


async def test_a_float_is_refused_and_the_copy_rolled_back(tmp_path: Path) -> None:
    source = tmp_path / "szulernia.db"
    await fill(source)
    conn = sqlite3.connect(source)
    with conn:
        conn.execute("UPDATE characters SET perception = 12.5 WHERE id = 2")
    conn.close()
    async with pg.scratch(migrated=False) as url:
        with pytest.raises(CopyRefused, match=r"characters.perception holds a float .* rowid = 2"):
            await run(source, url)
        rows = await target_rows(url)
        assert rows["characters"] == 0 and rows["guilds"] == 0  # copied before, rolled back
