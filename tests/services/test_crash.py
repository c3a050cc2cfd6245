"""A crash in the middle of an action: a child process runs the action and calls ``os._exit``
between two of its steps, inside the transaction. After reopening, either all of the action is
there (events, ledger rows, seats, version, key) or none of it."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from tests.services import dice_game
from tests.services.conftest import GM, GUILD, FakeClock, World, all_games, make_world

ROOT = Path(__file__).parents[2]

CHILD = """
import asyncio, os, sys
from bot.storage import ledger, tables
from tests.services import dice_game
from tests.services.conftest import FakeClock, all_games, make_world

path, point, table_id, character = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])

def crash_after(module, name, calls=1):
    original = getattr(module, name)
    seen = 0
    async def wrapped(*args, **kwargs):
        nonlocal seen
        result = await original(*args, **kwargs)
        seen += 1
        if seen == calls:
            os._exit(17)
        return result
    setattr(module, name, wrapped)

STEPS = {
    "events": (tables, "append_events"),
    "ledger": (ledger, "move"),
    "seats": (tables, "add_seats"),
    "version": (tables, "advance"),
    "key": (tables, "put_action_key"),
}

async def main():
    world = await make_world(path, FakeClock(), all_games())
    if point in STEPS:
        crash_after(*STEPS[point])
    await world.tables.act(table_id, dice_game.Join(character), key="crashy",
                           expected_version=2, actor_id=1)
    os._exit(0 if point == "committed" else 1)

asyncio.run(main())
"""


async def prepare(tmp_path: Path) -> tuple[Path, int, int, int]:
    path = tmp_path / "szulernia.db"
    world = await make_world(path, FakeClock(), all_games())
    first = await world.characters.create(GUILD, "First", owner_id=21)
    joiner = await world.characters.create(GUILD, "Joiner", owner_id=22)
    for who in (first, joiner):
        await world.purses.grant(who.id, "wh", 100, actor_id=GM)
    table = await world.tables.create(
        "dice",
        lambda rng: dice_game.new_table(10),
        guild_id=GUILD,
        channel_id=3,
        actor_id=GM,
        key="c",
    )
    await world.tables.act(
        table.table_id, dice_game.Join(first.id), key="j1", expected_version=1, actor_id=21
    )
    await world.db.close()
    return path, table.table_id, joiner.id, first.id


async def snapshot(world: World, table_id: int, character: int) -> dict[str, object]:
    purse = await world.purses.balance(character, "wh")
    async with world.db.read() as tx:
        return {
            "version": await tx.fetchval("SELECT version FROM tables WHERE id = ?", (table_id,)),
            "events": await tx.fetchval(
                "SELECT count(*) FROM table_events WHERE table_id = ?", (table_id,)
            ),
            "movements": await tx.fetchval(
                "SELECT count(*) FROM movements WHERE table_id = ?", (table_id,)
            ),
            "seated": await tx.fetchval(
                "SELECT count(*) FROM table_seats WHERE character_id = ?", (character,)
            ),
            "key": await tx.fetchval("SELECT count(*) FROM action_keys WHERE key = 'crashy'"),
            "purse": purse,
        }


NONE = {"version": 2, "events": 2, "movements": 1, "seated": 0, "key": 0, "purse": 100}
ALL = {"version": 3, "events": 3, "movements": 2, "seated": 1, "key": 1, "purse": 90}


@pytest.mark.parametrize(
    ("point", "expected"),
    [
        ("events", NONE),
        ("ledger", NONE),
        ("seats", NONE),
        ("version", NONE),
        ("key", NONE),
        ("committed", ALL),
    ],
)
async def test_a_crash_inside_an_action_leaves_all_or_nothing(
    tmp_path: Path, point: str, expected: dict[str, object]
) -> None:
    path, table_id, joiner, _ = await prepare(tmp_path)
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        CHILD,
        str(path),
        point,
        str(table_id),
        str(joiner),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _, stderr = await asyncio.wait_for(child.communicate(), timeout=120)
    assert child.returncode == (0 if point == "committed" else 17), stderr.decode()
    world = await make_world(path, FakeClock(), all_games())
    try:
        assert await snapshot(world, table_id, joiner) == expected
        audit = await world.purses.audit()
        assert audit.entries_total == 0 and audit.drifted_accounts == ()
        assert audit.balances_by_currency["wh"] == 0
        view = await world.tables.get(table_id)
        assert view.version == expected["version"]
        assert len(view.state.players) == expected["seated"] + 1
        # the table goes on normally after the crash
        retry = await world.tables.act(
            table_id, dice_game.Join(joiner), key="crashy", expected_version=None, actor_id=22
        )
        assert retry.repeated == (point == "committed")
        assert retry.version == 3
    finally:
        await world.db.close()
