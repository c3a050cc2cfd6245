"""The Database wrapper: pragmas, transactions that never interleave, and unusable files."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from pathlib import Path

import pytest

from bot.storage.errors import DatabaseError, DatabaseUnreadable, SchemaTooNew
from bot.storage.migrations import LATEST
from bot.storage.opening import open_database
from tests.storage.damage import damage_beyond_the_schema, filled


async def test_a_new_file_gets_the_latest_schema_and_the_pragmas(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "szulernia.db")
    try:
        assert await db.schema_version() == LATEST
        async with db.read() as tx:
            assert await tx.fetchval("PRAGMA journal_mode") == "wal"
            assert await tx.fetchval("PRAGMA foreign_keys") == 1
            assert await tx.fetchval("PRAGMA synchronous") == 2  # FULL
    finally:
        await db.close()


async def test_reopening_is_a_no_op(tmp_path: Path) -> None:
    path = tmp_path / "szulernia.db"
    await (await open_database(path)).close()
    db = await open_database(path)
    assert await db.schema_version() == LATEST
    await db.close()


async def test_a_failed_transaction_rolls_back_and_leaves_others_alone(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "szulernia.db")

    async def failing() -> None:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO meta (key, value) VALUES ('a', '1')")
            await asyncio.sleep(0.01)  # others wait: they must not join this transaction
            raise RuntimeError("boom")

    async def fine(n: int) -> None:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO meta (key, value) VALUES (?, 'x')", (f"ok{n}",))

    results = await asyncio.gather(failing(), *(fine(n) for n in range(20)), return_exceptions=True)
    assert isinstance(results[0], RuntimeError) and results[1:] == [None] * 20
    async with db.read() as tx:
        keys = {r[0] for r in await tx.fetchall("SELECT key FROM meta")}
    assert keys == {f"ok{n}" for n in range(20)}
    await db.close()


async def test_a_cancelled_transaction_rolls_back(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "szulernia.db")
    entered = asyncio.Event()

    async def slow() -> None:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO meta (key, value) VALUES ('slow', '1')")
            entered.set()
            await asyncio.sleep(10)

    task = asyncio.create_task(slow())
    await entered.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    async with db.transaction() as tx:
        assert await tx.fetchval("SELECT count(*) FROM meta WHERE key = 'slow'") == 0
    await db.close()


async def test_nesting_in_one_task_is_refused_instead_of_deadlocking(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "szulernia.db")
    async with db.transaction():
        with pytest.raises(RuntimeError, match="nested"):
            async with db.read():
                pass
    await db.close()


async def test_random_bytes_are_refused_with_the_file_named(tmp_path: Path) -> None:
    path = tmp_path / "szulernia.db"
    junk = os.urandom(8192)
    path.write_bytes(junk)
    with pytest.raises(DatabaseUnreadable) as caught:
        await open_database(path)
    message = str(caught.value)
    assert message.startswith("szulernia.db is not a readable SQLite database: ")
    assert str(path) in message
    assert path.read_bytes() == junk  # never replaced


async def test_a_text_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "szulernia.db"
    path.write_text("token = 'not a database'\n" * 100)
    with pytest.raises(DatabaseUnreadable, match=r"szulernia\.db is not a readable SQLite"):
        await open_database(path)


async def test_a_directory_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "szulernia.db"
    path.mkdir()
    with pytest.raises(DatabaseUnreadable, match="it is a directory"):
        await open_database(path)
    assert path.is_dir()


async def test_a_missing_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DatabaseError, match="does not exist"):
        await open_database(tmp_path / "nowhere" / "szulernia.db")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their permissions")
async def test_a_file_without_permission_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "szulernia.db"
    await (await open_database(path)).close()
    path.chmod(0)
    try:
        with pytest.raises(DatabaseUnreadable, match="permission denied"):
            await open_database(path)
    finally:
        path.chmod(0o600)


async def test_a_damaged_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "szulernia.db"
    await filled(path, 200)
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 4 * page
    data[2 * page : len(data)] = os.urandom(len(data) - 2 * page)  # keep the header, ruin the rest
    path.write_bytes(bytes(data))
    with pytest.raises(DatabaseUnreadable, match=r"szulernia\.db is not a readable SQLite"):
        await open_database(path)


async def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "szulernia.db"
    with sqlite3.connect(path) as raw:
        raw.execute(f"PRAGMA user_version = {LATEST + 5}")
    raw.close()
    with pytest.raises(SchemaTooNew) as caught:
        await open_database(path)
    assert (caught.value.found, caught.value.known) == (LATEST + 5, LATEST)
    assert "szulernia.db" in str(caught.value)


async def test_a_later_integrity_check_refuses_a_damaged_file_when_awaited(
    tmp_path: Path,
) -> None:
    path = tmp_path / "szulernia.db"
    await damage_beyond_the_schema(path)
    with pytest.raises(DatabaseUnreadable, match=r"szulernia\.db is not a readable SQLite"):
        await open_database(path)  # checked at once by default
    db = await open_database(path, check_later=True)  # the check runs beside what follows
    try:
        with pytest.raises(DatabaseUnreadable, match=r"szulernia\.db is not a readable SQLite"):
            await db.checked()
        with pytest.raises(DatabaseUnreadable):
            await db.checked()  # the verdict stays
    finally:
        await db.close()


async def test_a_later_integrity_check_passes_a_sound_file(tmp_path: Path) -> None:
    path = tmp_path / "szulernia.db"
    await (await open_database(path)).close()
    db = await open_database(path, check_later=True)
    try:
        await db.checked()
        assert await db.schema_version() == LATEST
    finally:
        await db.close()
