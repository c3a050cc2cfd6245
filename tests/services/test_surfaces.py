"""The publisher's marks, against a real SQLite file: what each table has shown in Discord."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.services.surfaces import HandMark, SurfaceService
from bot.storage import surfaces as storage_surfaces
from tests.services import dice_game
from tests.services.conftest import GM, GUILD, World

ALICE_USER = 201


async def open_table(world: World) -> int:
    alice = await world.characters.create(GUILD, "Alice", owner_id=ALICE_USER)
    await world.purses.grant(alice.id, "wh", 100, actor_id=GM)
    return await dice_table(world, channel_id=5, key="open")


async def dice_table(world: World, *, channel_id: int, key: str) -> int:
    outcome = await world.tables.create(
        "dice",
        lambda rng: dice_game.new_table(10),
        guild_id=GUILD,
        channel_id=channel_id,
        actor_id=GM,
        key=key,
    )
    return outcome.table_id


async def test_a_new_table_is_behind_until_its_board_and_posts_are_marked(world: World) -> None:
    surfaces = SurfaceService(world.db)
    table_id = await open_table(world)
    marks = await surfaces.marks(table_id)
    assert (marks.message_id, marks.board_version, marks.posted_version) == (None, 0, 0)
    assert await surfaces.behind() == [table_id]
    assert await surfaces.behind("pegaz") == []

    await surfaces.drew_board(table_id, 555, 1)
    assert await surfaces.behind() == [table_id]  # the posts of version 1 are still owed
    await surfaces.record(table_id, posted=1)
    assert await surfaces.behind() == []


async def test_the_marks_never_move_back_and_survive_a_restart(world: World) -> None:
    surfaces = SurfaceService(world.db)
    table_id = await open_table(world)
    await surfaces.drew_board(table_id, 555, 3)
    await surfaces.drew_board(table_id, 555, 2)  # a slow pass that drew an older version
    await surfaces.record(table_id, posted=3)
    await surfaces.record(table_id, posted=1)
    await surfaces.record(table_id, hands=[HandMark(7, 70, 700, "abc")])
    await surfaces.record(table_id, hands=[HandMark(7, 70, 701, "def")])
    await world.reopen()

    marks = await SurfaceService(world.db).marks(table_id)
    assert (marks.message_id, marks.board_version, marks.posted_version) == (555, 3, 3)
    assert marks.hands == {7: HandMark(7, 70, 701, "def")}


async def test_a_board_posted_again_is_drawn_at_its_own_version(world: World) -> None:
    surfaces = SurfaceService(world.db)
    table_id = await open_table(world)
    await surfaces.drew_board(table_id, 555, 5)
    await surfaces.drew_board(table_id, 556, 4)  # the old message was gone: a new one
    marks = await surfaces.marks(table_id)
    assert (marks.message_id, marks.board_version) == (556, 4)


async def test_the_marks_kept_in_memory_are_the_ones_in_the_file(world: World) -> None:
    """Every record moves the kept marks as its statements move the rows (a fresh service
    reads them from the file)."""
    surfaces = SurfaceService(world.db)
    table_id = await open_table(world)
    await surfaces.marks(table_id)  # kept from here on
    steps: list[dict[str, object]] = [
        {"board": (555, 3), "posted": 2},
        {"board": (555, 2), "hands": [HandMark(7, 70, 700, "a")], "claimed": 4},
        {"posted": 1, "claimed": 3, "hands": [HandMark(8, None, None, "closed")]},
        {"board": (556, 1), "hands": [HandMark(7, 70, 701, "b")]},
        {"board": (556, 5), "posted": 5},
    ]
    for step in steps:
        await surfaces.record(table_id, **step)  # type: ignore[arg-type]
        assert await surfaces.marks(table_id) == await SurfaceService(world.db).marks(table_id)
    final = await surfaces.marks(table_id)
    assert (final.message_id, final.board_version, final.posted_version) == (556, 5, 5)
    assert final.claimed_version == 4 and final.hands[7].message_id == 701


async def test_a_write_to_another_table_does_not_spoil_a_read(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under load some table is always being written: a read of one table that a write to
    another overlapped is still kept (no SQL the next time); one that a write to its own table
    overlapped is read again."""
    surfaces = SurfaceService(world.db)
    first, second = await open_table(world), await dice_table(world, channel_id=6, key="open-other")
    reads = 0
    read_marks = storage_surfaces.marks

    async def counting(tx: Any, table_id: int) -> Any:
        nonlocal reads
        reads += 1
        await asyncio.sleep(0)  # a read that waits (for its reader, say): the write begins
        return await read_marks(tx, table_id)

    monkeypatch.setattr(storage_surfaces, "marks", counting)

    async def read_while_writing(read: int, written: int) -> None:
        reading = asyncio.ensure_future(surfaces.marks(read))
        await asyncio.sleep(0)  # the read has begun
        await surfaces.record(written, posted=1)
        await reading

    await read_while_writing(first, second)
    before = reads
    await surfaces.marks(first)
    assert reads == before  # kept

    surfaces.forget(second)
    await read_while_writing(second, second)
    before = reads
    assert (await surfaces.marks(second)).posted_version == 1
    assert reads > before  # overlapped by its own table's write: read again


async def test_a_read_that_saw_the_file_before_a_write_committed_is_not_kept(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race that kept a table's marks from before its board was posted (so the next pass
    posted the board again): a read begun while a record was writing, that saw the file as it
    was before the commit, and ended after the record had moved the kept marks."""
    surfaces = SurfaceService(world.db)
    table_id = await open_table(world)
    writing, read_done = asyncio.Event(), asyncio.Event()
    set_posted, read_marks = storage_surfaces.set_posted, storage_surfaces.marks

    async def slow_write(tx: Any, table: int, version: int) -> None:
        await writing.wait()  # the record has begun, and not committed
        await set_posted(tx, table, version)

    async def slow_read(tx: Any, table: int) -> Any:
        found = await read_marks(tx, table)  # the file before the commit
        await read_done.wait()  # and it ends after the record
        return found

    monkeypatch.setattr(storage_surfaces, "set_posted", slow_write)
    monkeypatch.setattr(storage_surfaces, "marks", slow_read)
    recording = asyncio.ensure_future(surfaces.record(table_id, posted=1))
    await asyncio.sleep(0.01)
    reading = asyncio.ensure_future(surfaces.marks(table_id))
    await asyncio.sleep(0.01)
    writing.set()
    await recording
    read_done.set()
    assert (await reading).posted_version == 0  # what it saw
    monkeypatch.setattr(storage_surfaces, "marks", read_marks)
    assert (await surfaces.marks(table_id)).posted_version == 1  # not kept: read again
