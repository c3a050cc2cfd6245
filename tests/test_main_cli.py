"""``python -m bot migrate-db``, run in-process through ``main``: exit codes and what it prints.
An expected problem is one line on stderr and exit code 1, never a traceback, and never the
password of the URL; the refusals that need no server are checked before anything is opened."""

from __future__ import annotations

import asyncio
import socket
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from bot.__main__ import main
from bot.storage.opening import open_database
from tests import pg
from tests.services.conftest import GUILD, FakeClock, all_games, make_world

SECRET = "hunter2-not-shown"


def migrate(source: Path | str, target: str) -> int:
    return main(["migrate-db", "--from", str(source), "--to", target])


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("migrate-db: "), err
    assert "Traceback" not in err and SECRET not in err
    return err


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def with_password(url: str) -> tuple[str, str]:
    """``url`` with a password (a made-up one where it has none: the test server trusts) and
    that password."""
    parts = urlsplit(url)
    if parts.password:
        return url, parts.password
    host = f"{parts.username or 'postgres'}:{SECRET}@{parts.hostname}:{parts.port or 5432}"
    return urlunsplit(parts._replace(netloc=host)), SECRET


def test_a_missing_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nowhere.db"
    assert migrate(missing, f"postgresql://bot:{SECRET}@127.0.0.1:1/x") == 1
    assert f"no SQLite file at {missing}" in one_line(capsys)
    assert not missing.exists()


def test_a_file_that_is_not_sqlite_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"\x00not a database at all" * 100)
    assert migrate(junk, f"postgresql://bot:{SECRET}@127.0.0.1:1/x") == 1
    assert "junk.db is not a readable SQLite database" in one_line(capsys)


def test_another_programs_sqlite_file_is_refused_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "notes.db"
    with closing(sqlite3.connect(other)) as conn, conn:
        conn.execute("CREATE TABLE notes (body TEXT)")
    before = other.read_bytes()
    assert migrate(other, f"postgresql://bot:{SECRET}@127.0.0.1:1/x") == 1
    assert "holds tables but no schema version: not the bot's file" in one_line(capsys)
    assert other.read_bytes() == before


@pytest.mark.parametrize(
    ("target", "said"),
    [
        ("other.db", "--to takes a PostgreSQL URL"),
        (f"postgresql://bot:{SECRET}@127.0.0.1:port/x", "bad PostgreSQL URL postgresql://bot:***@"),
        (f"postgresql://bot:{SECRET}@127.0.0.1:99999/x", "bad PostgreSQL URL"),
        (f"postgresql://bot:{SECRET}@127.0.0.1:5432", "names no database"),
    ],
)
def test_a_bad_url_is_refused_without_its_password(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str, said: str
) -> None:
    source = tmp_path / "szulernia.db"
    source.touch()
    assert migrate(source, target) == 1
    assert said in one_line(capsys)
    assert source.stat().st_size == 0  # the source was not even opened


def test_an_unreachable_server_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "szulernia.db"
    source.touch()
    url = f"postgresql://bot:{SECRET}@127.0.0.1:{free_port()}/szulernia"
    assert migrate(source, url) == 1
    err = one_line(capsys)
    assert "the database postgresql://bot:***@127.0.0.1:" in err and "cannot be read" in err
    assert source.stat().st_size == 0


def test_the_source_must_be_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert migrate(tmp_path, "postgresql://bot@127.0.0.1:1/x") == 1
    assert "is not a file" in one_line(capsys)
    assert migrate("postgresql://bot@127.0.0.1/x", "postgresql://bot@127.0.0.1:1/x") == 1
    assert "--from takes a SQLite file" in one_line(capsys)


def test_missing_arguments_are_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["migrate-db", "--from", "szulernia.db"])
    assert exited.value.code == 2
    assert "--to" in capsys.readouterr().err


async def filled(path: Path) -> None:
    world = await make_world(path, FakeClock(), all_games())
    try:
        who = await world.characters.create(GUILD, "Ann", owner_id=5)
        await world.purses.grant(who.id, "wh", 120, actor_id=1)
    finally:
        await world.db.close()


@pg.needs_server
async def test_a_copy_exits_0_and_says_what_it_did(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "szulernia.db"
    await filled(source)
    async with pg.scratch(migrated=False) as url:
        shown, password = with_password(url)
        # main() runs its own event loop: run it where this test's loop is not
        code = await _in_thread(lambda: migrate(source, shown))
        out, err = capsys.readouterr()
        assert code == 0, err
        assert err == "" and password not in out
        assert "  characters: 1 row\n" in out and "  ledger_entries: 2 rows\n" in out
        assert "verified before the commit, the same on both sides: " in out
        assert "coins held outside the mints: 120 wh\n" in out
        db = await open_database(url)
        try:
            async with db.read() as tx:
                assert await tx.fetchval("SELECT name FROM characters") == "Ann"
        finally:
            await db.close()
        # a second run finds the target filled: refused, exit 1
        assert await _in_thread(lambda: migrate(source, shown)) == 1
        err = one_line(capsys)
        assert "is not empty (rows in accounts, characters, ledger_entries, movements)" in err
        assert password not in err


async def _in_thread(call: Callable[[], int]) -> int:
    return await asyncio.to_thread(call)
