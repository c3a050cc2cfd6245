"""The stats projection on a real SQLite file: streaks, head to head, a voided table, a table
that closed out of order, and leaderboards. Results are written as the service would."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import stats
from bot.storage.db import Database, Tx
from bot.storage.opening import open_database
from bot.storage.stats import Outcome, Result

GUILD = 5


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path / "stats.db")
    async with database.transaction() as tx:
        for character_id, name in ((1, "Anna"), (2, "Bruno"), (3, "Cyra")):
            await tx.execute(
                "INSERT INTO characters (id, guild_id, name, name_key, owner_id, created_at) "
                "VALUES (?, ?, ?, ?, ?, 0)",
                (character_id, GUILD, name, name.lower(), 100 + character_id),
            )
    yield database
    await database.close()


async def table(tx: Tx, table_id: int, game: str, at: int) -> None:
    await tx.execute(
        "INSERT INTO tables (id, guild_id, channel_id, game, currency, settings, status, "
        "version, created_by, created_at, closed_at) "
        "VALUES (?, ?, 9, ?, ?, '{}', 'finished', 3, 100, ?, ?)",
        (table_id, GUILD, game, "cr" if game == "pazaak" else "wh", at - 1, at),
    )


async def match(db: Database, table_id: int, winner: int, loser: int, *, wager: int = 50) -> None:
    """A Pazaak match closing at ``table_id * 1000``, recorded as a finishing step does."""
    at = table_id * 1000
    async with db.transaction() as tx:
        await table(tx, table_id, "pazaak", at)
        await stats.record(
            tx,
            [
                Result(
                    table_id, winner, GUILD, "pazaak", "cr", at, "won", wager, 2 * wager, 0, loser
                ),
                Result(table_id, loser, GUILD, "pazaak", "cr", at, "lost", -wager, 0, 0, winner),
            ],
        )


async def game(
    db: Database, table_id: int, outcomes: dict[int, Outcome], *, at: int | None = None
) -> None:
    """A Pegaz game: each winner takes 30, each loser pays 10; a draw pays 10 too."""
    closed = table_id * 1000 if at is None else at
    async with db.transaction() as tx:
        await table(tx, table_id, "pegaz", closed)
        await stats.record(
            tx,
            [
                Result(
                    table_id, who, GUILD, "pegaz", "wh", closed, outcome,
                    20 if outcome == "won" else -10, 30 if outcome == "won" else 0, int(who == 3),
                )
                for who, outcome in outcomes.items()
            ],
        )  # fmt: skip


async def totals(db: Database, character_id: int, game_name: str) -> stats.Totals:
    async with db.read() as tx:
        (found,) = [t for t in await stats.totals_of(tx, character_id) if t.game == game_name]
    return found


async def projection(db: Database) -> tuple[object, object]:
    async with db.read() as tx:
        return await stats.all_totals(tx)


async def test_streaks_follow_the_order_the_tables_closed(db: Database) -> None:
    # Anna: won, won, lost, lost, lost, drawn, won
    plan: list[Outcome] = ["won", "won", "lost", "lost", "lost", "drawn", "won"]
    for n, outcome in enumerate(plan, start=1):
        await game(db, n, {1: outcome, 2: "lost"})
    anna = await totals(db, 1, "pegaz")
    assert (anna.played, anna.won, anna.lost, anna.drawn) == (7, 3, 3, 1)
    assert (anna.streak, anna.win_streak, anna.loss_streak) == (1, 2, 3)
    assert (anna.net, anna.pots, anna.biggest_pot) == (3 * 20 - 4 * 10, 3, 30)
    bruno = await totals(db, 2, "pegaz")
    assert (bruno.streak, bruno.win_streak, bruno.loss_streak) == (-7, 0, 7)
    before = await projection(db)
    async with db.transaction() as tx:
        await stats.rebuild(tx)
    assert await projection(db) == before


async def test_head_to_head_counts_both_ways_and_the_board_orders_by_record(
    db: Database,
) -> None:
    await match(db, 1, 1, 2)
    await match(db, 2, 1, 2)
    await match(db, 3, 2, 1)
    await match(db, 4, 3, 2)
    async with db.read() as tx:
        anna = await stats.rivals_of(tx, 1)
        bruno = await stats.rivals_of(tx, 2)
        board = await stats.leaderboard(tx, GUILD, "pazaak", "pazaak")
    assert [(r.name, r.won, r.lost) for r in anna] == [("Bruno", 2, 1)]
    assert [(r.name, r.won, r.lost) for r in bruno] == [("Anna", 1, 2), ("Cyra", 0, 1)]
    # Anna 2-1 and Cyra 1-0 are both +1: more wins first; Bruno 1-3 last
    assert [(s.name, s.totals.won, s.totals.lost) for s in board] == [
        ("Anna", 2, 1),
        ("Cyra", 1, 0),
        ("Bruno", 1, 3),
    ]
    before = await projection(db)
    async with db.transaction() as tx:
        await stats.rebuild(tx)
    assert await projection(db) == before


async def test_a_voided_table_stops_counting_for_everyone_at_it(db: Database) -> None:
    await match(db, 1, 1, 2)
    await match(db, 2, 2, 1)
    await match(db, 3, 1, 2)
    await game(db, 4, {1: "won", 2: "lost"})
    async with db.transaction() as tx:
        await tx.execute("UPDATE tables SET voided_at = 1 WHERE id = 2")
        await stats.refresh_characters(tx, [1, 2])
    anna = await totals(db, 1, "pazaak")
    assert (anna.played, anna.won, anna.lost, anna.streak, anna.win_streak) == (2, 2, 0, 2, 2)
    assert anna.net == 100 and anna.biggest_pot == 100
    assert (await totals(db, 1, "pegaz")).played == 1  # the other game is untouched
    async with db.read() as tx:
        rivals = [(r.name, r.won, r.lost) for r in await stats.rivals_of(tx, 2)]
    assert rivals == [("Anna", 0, 2)]
    refreshed = await projection(db)
    async with db.transaction() as tx:
        await stats.rebuild(tx)
    assert await projection(db) == refreshed


async def test_a_table_that_closed_before_the_last_counted_is_folded_in_its_place(
    db: Database,
) -> None:
    await game(db, 1, {1: "won", 2: "lost"}, at=1000)
    await game(db, 2, {1: "won", 2: "lost"}, at=3000)
    await game(db, 3, {1: "lost", 2: "won"}, at=2000)  # closed between the two
    anna = await totals(db, 1, "pegaz")
    assert (anna.streak, anna.win_streak, anna.loss_streak) == (1, 1, 1)
    assert (anna.last_at, anna.last_table) == (3000, 2)
    before = await projection(db)
    async with db.transaction() as tx:
        await stats.rebuild(tx)
    assert await projection(db) == before


async def test_a_table_is_counted_once(db: Database) -> None:
    await match(db, 1, 1, 2)
    async with db.transaction() as tx:
        again = Result(1, 1, GUILD, "pazaak", "cr", 1000, "won", 50, 100, 0, 2)
        await stats.record(tx, [again])
    assert (await totals(db, 1, "pazaak")).played == 1


async def test_the_boards_skip_deleted_characters_and_keep_one_order(db: Database) -> None:
    await game(db, 1, {1: "won", 2: "lost", 3: "lost"})
    await game(db, 2, {1: "lost", 2: "won", 3: "lost"})
    await game(db, 3, {1: "won", 2: "lost", 3: "won"})
    async with db.read() as tx:
        net = await stats.leaderboard(tx, GUILD, "pegaz", "net")
        pots = await stats.leaderboard(tx, GUILD, "pegaz", "pots", limit=2)
    assert [(s.name, s.totals.net) for s in net] == [("Anna", 30), ("Bruno", 0), ("Cyra", 0)]
    assert [(s.name, s.totals.pots) for s in pots] == [("Anna", 2), ("Bruno", 1)]
    assert (await totals(db, 3, "pegaz")).caught == 3
    async with db.transaction() as tx:
        await tx.execute("UPDATE characters SET deleted_at = 1 WHERE id = 1")
    async with db.read() as tx:
        net = await stats.leaderboard(tx, GUILD, "pegaz", "net")
        other_guild = await stats.leaderboard(tx, GUILD + 1, "pegaz", "net")
    assert [s.name for s in net] == ["Bruno", "Cyra"] and other_guild == []
