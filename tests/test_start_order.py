"""``python -m bot`` opens an existing SQLite file before it imports the bot's code, so that the
file's integrity check (a thread of its own) runs beside that import. Checked in a fresh
interpreter: the test session has imported ``bot.app`` long since."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bot.storage.opening import open_database

START = """
import asyncio, json, sys
from pathlib import Path
import bot.__main__ as main
from bot.config import DatabaseSettings, Settings
from bot.storage import sqlite_files

seen = {}
opening, checking = main.open_database, sqlite_files.quick_check

async def open_database(target, **options):
    seen["opened before bot.app"] = "bot.app" not in sys.modules
    seen["checked later"] = options.get("check_later", False)
    seen["db"] = await opening(target, **options)
    return seen["db"]

def quick_check(path):
    seen["checks"] = seen.get("checks", 0) + 1
    return checking(path)

main.open_database, sqlite_files.quick_check = open_database, quick_check

async def go():
    settings = Settings(database=DatabaseSettings(path=Path(sys.argv[1])), token="unused")
    bot = await main.build_bot(settings)
    db = seen.pop("db", None)
    if db is None:
        return False  # bot.db would say "opened in setup_hook"
    await db.checked()
    given = bot.db is db
    await db.close()
    return given

given = asyncio.run(go())
print(json.dumps({**seen, "the bot got that database": given}))
"""


def started(path: Path) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", START, str(path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    found: dict[str, object] = json.loads(done.stdout)
    return found


async def test_an_existing_file_is_opened_and_checked_before_the_bot_is_imported(
    tmp_path: Path,
) -> None:
    path = tmp_path / "szulernia.db"
    await (await open_database(path)).close()

    assert started(path) == {
        "opened before bot.app": True,
        "checked later": True,
        "checks": 1,
        "the bot got that database": True,
    }


def test_a_file_not_made_yet_is_left_to_the_bot(tmp_path: Path) -> None:
    """Nothing to check: setup_hook makes it, after the login (a wrong token leaves no file)."""
    assert started(tmp_path / "new.db") == {"the bot got that database": False}
    assert not (tmp_path / "new.db").exists()
