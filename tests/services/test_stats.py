"""Stats through the services on a real SQLite file: what a finished table counts for, and the
property that the projection kept step by step equals one rebuilt from the events and the
ledger, after random games of both kinds, a cancelled table, a clock that steps back, a void."""

from __future__ import annotations

import asyncio
import random
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.rules import pazaak
from bot.services.stats import StatsService
from bot.storage import stats
from bot.storage.stats import Result
from tests.services.conftest import GM, GUILD, FakeClock, World, all_games, make_world
from tests.services.test_full_games import (
    pazaak_choice,
    pegaz_choice,
    pegaz_table,
    play,
)

FUNDS = 100_000


async def cast(world: World, count: int = 4) -> list[int]:
    players = []
    for n in range(count):
        who = await world.characters.create(
            GUILD, f"Player {n}", owner_id=100 + n, gamble=n % 2 == 1, perception=50
        )
        await world.purses.grant(who.id, "wh", FUNDS, actor_id=GM)
        await world.purses.grant(who.id, "cr", FUNDS, actor_id=GM)
        players.append(who.id)
    return players


async def pazaak_match(world: World, a: int, b: int, key: str, rng: random.Random) -> int:
    settings = pazaak.PazaakSettings(wager=150)
    sel_a = await world.characters.match_selection(a)
    sel_b = await world.characters.match_selection(b)
    start = await world.tables.create(
        "pazaak",
        lambda r: pazaak.new_match(settings, a, sel_a, b, sel_b, r),
        guild_id=GUILD,
        channel_id=8,
        actor_id=GM,
        key=key,
    )
    done, _ = await play(world, start, rng, pazaak_choice, timeouts=13)
    return done.table_id


async def projection(world: World) -> tuple[list[Result], object]:
    async with world.db.read() as tx:
        return await stats.all_results(tx), await stats.all_totals(tx)


async def test_a_match_counts_its_wager_and_its_pot_and_a_cancelled_table_nothing(
    world: World,
) -> None:
    a, b, c, _ = await cast(world)
    table = await pazaak_match(world, a, b, "m", random.Random(3))
    view = await world.tables.get(table)
    winner = view.state.winner
    loser = b if winner == a else a
    cancelled = await pegaz_table(world, [a, c], "p")
    await world.tables.cancel(cancelled.table_id, key="p:cancel", actor_id=GM)
    results, _ = await projection(world)
    assert [(r.character_id, r.outcome, r.net, r.pot, r.opponent) for r in results] == sorted(
        [(winner, "won", 150, 300, loser), (loser, "lost", -150, 0, winner)]
    )
    service = StatsService(world.db)
    mine = await service.character(winner)
    (totals,) = mine.games
    assert (totals.game, totals.played, totals.won, totals.streak) == ("pazaak", 1, 1, 1)
    assert [(r.opponent_id, r.won, r.lost) for r in mine.rivals] == [(loser, 1, 0)]
    assert (await service.character(c)).games == ()
    (board,) = await service.top(GUILD, "pazaak")
    assert [s.totals.character_id for s in board.standings] == [winner, loser]
    assert await service.rebuild() == 1


async def evening(plan: list[tuple[str, int, int, int]], void: int | None) -> None:
    """Play ``plan`` (game, seed, players or cancel, clock step) and compare the projections."""
    with tempfile.TemporaryDirectory() as folder:
        world = await make_world(Path(folder) / "stats.db", FakeClock(), all_games())
        try:
            players = await cast(world)
            finished: list[int] = []
            for n, (game, seed, size, step) in enumerate(plan):
                rng = random.Random(seed)
                seated = rng.sample(players, 2 if game == "pazaak" else size)
                world.clock.now += step
                if game == "pazaak":
                    finished.append(await pazaak_match(world, *seated, f"m{n}", rng))
                    continue
                start = await pegaz_table(world, seated, f"p{n}")
                if size == 2 and seed % 3 == 0:  # some tables are cancelled before they end
                    await world.tables.cancel(start.table_id, key=f"p{n}:x", actor_id=GM)
                    continue
                done, _ = await play(world, start, rng, pegaz_choice, timeouts=9)
                finished.append(done.table_id)
            if void is not None and finished:
                table_id = finished[void % len(finished)]
                async with world.db.transaction() as tx:
                    await tx.execute("UPDATE tables SET voided_at = 1 WHERE id = ?", (table_id,))
                    seated = await tx.fetchall(
                        "SELECT character_id FROM stat_results WHERE table_id = ?", (table_id,)
                    )
                    await stats.refresh_characters(tx, [int(r[0]) for r in seated])
            kept = await projection(world)
            results, _ = kept
            assert {r.table_id for r in results} == set(finished)
            for table_id in {r.table_id for r in results if r.game == "pazaak"}:
                assert sum(r.net for r in results if r.table_id == table_id) == 0
            assert await StatsService(world.db).rebuild() == len(finished)
            assert await projection(world) == kept
        finally:
            await world.db.close()


GAMES = st.tuples(
    st.sampled_from(["pegaz", "pazaak"]),
    st.integers(0, 2**32),
    st.integers(2, 4),
    st.sampled_from([1_000, 60_000, -(10**8)]),  # a clock set back closes tables "early"
)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(plan=st.lists(GAMES, min_size=1, max_size=5), void=st.none() | st.integers(0, 10))
def test_the_projection_equals_a_rebuild_from_the_events_and_the_ledger(
    plan: list[tuple[str, int, int, int]], void: int | None
) -> None:
    asyncio.run(evening(plan, void))
