"""The history service against a real SQLite file: a closed table's record is its events in steps
(exactly what the table service replays), with who played each seat; a live table, another
server's and a missing one are refused."""

from __future__ import annotations

import random

import pytest

from bot.render.history import Viewer
from bot.render.pegaz import Who
from bot.render.pegaz.history import history_lines
from bot.rules import pegaz
from bot.services.errors import UnknownTable
from bot.services.history import HistoryLive, HistoryService, named
from tests.services.conftest import GM, GUILD, World, backend, world
from tests.services.test_full_games import pegaz_choice, pegaz_table, play

__all__ = ["backend", "world"]  # the fixtures, for the tests here


async def seat_four(world: World) -> list[int]:
    players = []
    for n in range(4):
        who = await world.characters.create(GUILD, f"Player {n}", owner_id=100 + n, gamble=True)
        await world.purses.grant(who.id, "wh", 2400, actor_id=GM)
        players.append(who.id)
    return players


async def test_a_finished_table_gives_its_events_in_steps_with_its_players(world: World) -> None:
    players = await seat_four(world)
    done, _ = await play(
        world, await pegaz_table(world, players, "a"), random.Random(3), pegaz_choice
    )
    history = HistoryService(world.db)

    record = await history.record(done.table_id, GUILD)
    assert (record.table_id, record.game, record.status) == (done.table_id, "pegaz", "finished")
    versions = [version for version, _ in record.steps]
    assert versions == sorted(set(versions)) and versions[-1] == done.version
    assert [e for _, events in record.steps for e in events] == await world.tables.history(
        done.table_id
    )
    assert isinstance(record.steps[0][1][0], pegaz.TableOpened)
    assert {c: p.name for c, p in record.people.items()} == {
        c: f"Player {n}" for n, c in enumerate(players)
    }
    assert record.own(101) == {players[1]} and record.own(999) == frozenset()

    roster = {c: Who(p.name, p.owner_id, p.is_npc) for c, p in record.people.items()}
    public = history_lines(record.steps, roster, Viewer(), "en", table_id=done.table_id)
    mine = history_lines(
        record.steps, roster, Viewer(record.own(100)), "en", table_id=done.table_id
    )
    assert public and not any(line.startswith("🂠") for line in public)
    assert any(line.startswith("🂠 **Player 0**") for line in mine)
    assert not any(line.startswith("🂠 **Player 1**") for line in mine)


async def test_a_live_table_and_another_servers_are_refused(world: World) -> None:
    players = await seat_four(world)
    live = await pegaz_table(world, players[:2], "b")
    history = HistoryService(world.db)
    with pytest.raises(HistoryLive) as refused:
        await history.record(live.table_id, GUILD)
    assert refused.value.params == {"table": live.table_id, "status": "open"}
    with pytest.raises(UnknownTable):
        await history.record(live.table_id, GUILD + 1)
    with pytest.raises(UnknownTable):
        await history.record(live.table_id + 100, GUILD)

    await world.tables.cancel(live.table_id, key="close", actor_id=GM)
    record = await history.record(live.table_id, GUILD)
    assert record.status == "cancelled"
    assert isinstance(record.steps[-1][1][-1], pegaz.Cancelled)


async def test_a_deleted_character_is_left_out_of_the_people(world: World) -> None:
    players = await seat_four(world)
    table = await pegaz_table(world, players[:2], "c")
    await world.tables.act(
        table.table_id,
        pegaz.Leave(players[1]),
        key="c:leave",
        expected_version=table.version,
        actor_id=101,
    )
    await world.tables.cancel(table.table_id, key="c:close", actor_id=GM)
    await world.characters.delete(players[1], actor_id=101)
    record = await HistoryService(world.db).record(table.table_id, GUILD)
    assert set(record.people) == {players[0]}
    assert named(e for _, events in record.steps for e in events) == players[:2]
