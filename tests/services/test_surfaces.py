"""The publisher's marks, against a real SQLite file: what each table has shown in Discord."""

from __future__ import annotations

from bot.services.surfaces import HandMark, SurfaceService
from tests.services import dice_game
from tests.services.conftest import GM, GUILD, World

ALICE_USER = 201


async def open_table(world: World) -> int:
    alice = await world.characters.create(GUILD, "Alice", owner_id=ALICE_USER)
    await world.purses.grant(alice.id, "wh", 100, actor_id=GM)
    outcome = await world.tables.create(
        "dice",
        lambda rng: dice_game.new_table(10),
        guild_id=GUILD,
        channel_id=5,
        actor_id=GM,
        key="open",
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
