"""A seeded random-kill drill: whole games of both kinds in which the bot is killed (``kill -9``,
the fake freezing it) at random REST calls of random steps, Discord having applied the call or
not, and a new bot starts on the same database each time. Zero stuck tables: after each restart
the tables are healed within seconds with no GM action (one live table message each, the books
balanced), the next move is made from Discord and is taken (it changes the database), the games
end, nothing is announced twice and the purses are conserved.

The kills are seeded (``random.Random(seed)``): a failure names its seed, so it replays. At
least 6 kills per Pegaz run (three games: check, fold, cancel) and 10 per Pazaak match: 54 or more
in all (about 80 with these seeds).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

pytest.register_assert_rewrite("tests.e2e.crash_support", "tests.e2e.crash_games")

from tests.e2e import crash_games as games  # noqa: E402
from tests.e2e import crash_support as cs  # noqa: E402
from tests.e2e.pazaak_support import seat_two  # noqa: E402
from tests.e2e.pegaz_kit import Tavern  # noqa: E402

RECOVERY_SECONDS = 3.0
_clean: dict[str, cs.Seen] = {}


async def pegaz_games(d: cs.Drill, tv: Tavern) -> None:
    for name, flow in (
        ("check", games.pegaz_check_game),
        ("fold", games.pegaz_fold_game),
        ("cancel", games.pegaz_cancel_game),
    ):
        d.labels_prefix = f"{name}: "
        await flow(d, tv)


async def pegaz_drill(database: Path, plan: cs.RandomPlan | None) -> cs.Drill:
    async with cs.world(database) as (fake, harness):

        async def check() -> None:
            await cs.one_live_board(fake, harness, games.PEGAZ)
            await cs.books_balance(harness)

        drill = cs.Drill(fake, harness, prefix=games.PEGAZ, plan=plan, check=check)
        await pegaz_games(drill, Tavern(fake, harness))
        await cs.settle(fake, harness)
        await finished(drill)
        return drill


async def finished(drill: cs.Drill) -> None:
    """Every table ended, none is behind, the books balance; what was seen is kept."""
    fake, harness = drill.fake, drill.harness
    services = harness.bot.services
    assert await services.tables.live_in_channel(fake.guild.id, fake.tavern.id) == []
    assert await services.surfaces.behind() == []
    await cs.books_balance(harness)
    assert max(drill.recoveries, default=0.0) < RECOVERY_SECONDS, drill.recoveries
    drill.seen = cs.Seen.of(fake, harness)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
async def test_pegaz_games_with_random_kills(seed: int, tmp_path: Path) -> None:
    if "pegaz" not in _clean:
        clean = await pegaz_drill(tmp_path / "clean.db", None)
        assert clean.seen is not None
        _clean["pegaz"] = clean.seen
    plan = cs.RandomPlan(random.Random(seed), chance=0.7, reach=5)
    drill = await pegaz_drill(tmp_path / "killed.db", plan)

    assert len(drill.crashed) >= 6, f"seed {seed}: only {len(drill.crashed)} kills"
    assert drill.seen is not None
    drill.seen.compare(_clean["pegaz"])
    print(f"pegaz seed {seed}: {len(drill.crashed)} kills")


@pytest.mark.parametrize("seed", [11, 5, 1234])
async def test_pazaak_matches_with_random_kills(seed: int, tmp_path: Path) -> None:
    async with cs.world(tmp_path / "killed.db", seed=seed) as (fake, harness):

        async def check() -> None:
            await cs.one_live_board(fake, harness, games.PAZAAK)
            await cs.books_balance(harness)

        plan = cs.RandomPlan(random.Random(seed), chance=0.4, reach=2)
        drill = cs.Drill(fake, harness, prefix=games.PAZAAK, plan=plan, check=check)
        table = await seat_two(fake, harness, cards_a=games.CARDS_A, cards_b=games.CARDS_B)
        match = games.PazaakMatch(drill, table)
        await match.accept()
        await match.play_out()
        await cs.settle(fake, harness)
        await finished(drill)

        # each set's result and the match's, once; the pot went to the winner
        state = await match.state()
        said = cs.announcements(fake)
        assert cs.duplicates(said) == []
        sets = [line for line in said if line.startswith("**Set ")]
        assert [line.split("**")[1] for line in sets] == [
            f"Set {n}" for n in range(1, len(state.results) + 1)
        ]
        assert len([line for line in said if "wins the match" in line]) == 1
        purses = sorted(cs.purses(harness.settings.database.path).values())
        assert purses == [750, 1250] and cs.money(harness.settings.database.path)["pot"] == 0
        assert len(drill.crashed) >= 10, f"seed {seed}: only {len(drill.crashed)} kills"
        print(f"pazaak seed {seed}: {len(drill.crashed)} kills in {len(drill.labels)} steps")
