"""``/gm report``'s service on a real SQLite file: one evening's figures to the coin (nets,
pots, offerings, GM grants and takes, corrections, cheats caught and missed, tables), its
default window, the ``since`` it reads, and that every query of it starts from an index."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bot.render import books as render
from bot.render.limits import size
from bot.rules import pegaz
from bot.services.books import BooksService, Cheat, Report, SinceInvalid, parse_since
from bot.storage import books as storage
from bot.storage.books import Pot, PurseMove
from bot.storage.db import Tx
from tests.services import dice_game
from tests.services.conftest import GM, GUILD, World
from tests.services.test_corrections import dice
from tests.services.test_full_games import play

HOUR = 3600 * 1000


def no_cheats(rng: random.Random, actions: list[Any]) -> Any:
    """A random legal move, never a cheat (the test makes its own), starting when it can."""
    starts = [a for a in actions if isinstance(a, pegaz.Start)]
    return (
        starts[0] if starts else rng.choice([a for a in actions if not isinstance(a, pegaz.Cheat)])
    )


async def pegaz_game(world: World, seated: list[int], cheater: int, key: str) -> int:
    """A Pegasus game where ``cheater`` moves a card by 2 first thing, then fair play."""
    settings = pegaz.PegazSettings(stake=12, source="deck")
    outcome = await world.tables.create(
        "pegaz",
        lambda rng: pegaz.new_table(settings),
        guild_id=GUILD,
        channel_id=7,
        actor_id=GM,
        key=key,
    )
    for who in seated:
        row = await world.characters.get(who)
        funds = await world.purses.balance(who, "wh")
        join = pegaz.Join(who, row.luck, row.gamble, row.perception, funds)
        outcome = await world.tables.act(
            outcome.table_id, join, key=f"{key}:j{who}", expected_version=None, actor_id=None
        )
    for n, action in enumerate((pegaz.Start(seated[0]), pegaz.Cheat(cheater, 0, 2))):
        outcome = await world.tables.act(
            outcome.table_id, action, key=f"{key}:{n}", expected_version=None, actor_id=None
        )
    outcome, _ = await play(world, outcome, random.Random(7), no_cheats)
    return outcome.table_id


async def test_one_evening_to_the_coin(world: World) -> None:
    books = BooksService(world.db, clock=world.clock, games=world.tables_games)
    ann = (await world.characters.create(GUILD, "Ann", owner_id=11, gamble=True)).id
    bob = (await world.characters.create(GUILD, "Bob", owner_id=12)).id
    cid = (await world.characters.create(GUILD, "Cid", owner_id=13, perception=100)).id
    for who in (ann, bob, cid):
        await world.purses.grant(who, "wh", 240, actor_id=GM, reason="before")
    world.clock.now += HOUR
    since = world.clock.now

    missed = await pegaz_game(world, [ann, bob], ann, "g1")  # Bob sees nothing: Perception 0
    caught = await pegaz_game(world, [ann, cid], ann, "g2")  # Cid sees everything
    voided = await dice(world, [bob, cid], "d1")
    await books.void_table(voided.table_id, guild_id=GUILD, actor_id=GM)
    gone = await world.tables.create(
        "dice",
        lambda rng: dice_game.new_table(10),
        guild_id=GUILD,
        channel_id=7,
        actor_id=GM,
        key="gone",
    )
    await world.tables.cancel(gone.table_id, key="c", actor_id=GM)
    await world.tables.create(
        "dice",
        lambda rng: dice_game.new_table(10),
        guild_id=GUILD,
        channel_id=7,
        actor_id=GM,
        key="open",
    )
    await world.purses.grant(bob, "wh", 50, actor_id=GM, reason="loot")
    await world.purses.take(cid, "wh", 5, actor_id=GM)
    paid = await world.purses.pay(ann, bob, "wh", 7, actor_id=11)
    await books.void_movement(paid.movement_id, guild_id=GUILD, actor_id=GM)
    world.clock.now += 1000

    report = await books.report(GUILD, since=since)

    final = {n: await world.purses.balance(i, "wh") for n, i in (("Ann", ann), ("Bob", bob))}
    final["Cid"] = await world.purses.balance(cid, "wh")
    outside = {"Ann": 0, "Bob": 50, "Cid": -5}  # what moved away from the tables
    nets = {n: final[n] - 240 - outside[n] for n in final}
    assert report.nets == tuple(
        sorted(((n, "wh", s) for n, s in nets.items() if s), key=lambda x: -x[2])
    )
    assert (
        sum(s for _, _, s in report.nets)
        + sum(s for _, _, s in report.offerings)
        + sum([await world.tables.pot_balance(t) for t in (missed, caught)])
        == 0
    )  # what the players lost at the tables went to the winners, Ranald or a pot
    staked = {t: await paid_in(world, t) for t in (missed, caught)}
    assert sorted((p.table_id, p.amount) for p in report.pots) == sorted(staked.items())
    assert [(m.name, m.kind, m.amount, m.reason) for m in report.gm_moves] == [
        ("Bob", "grant", 50, "loot"),
        ("Cid", "take", -5, "take"),
    ]
    assert sorted((m.name, m.amount, m.reversed_kind) for m in report.corrections) == [
        ("Ann", 7, "transfer"),
        ("Bob", -7, "transfer"),
    ]
    assert report.voided_tables == (voided.table_id,)
    assert [(c.table_id, c.cheater, c.caught_by) for c in report.cheats] == [
        (missed, "Ann", ()),
        (caught, "Ann", ("Cid",)),
    ]
    assert report.opened == 5 and dict(report.closed) == {"finished": 3, "cancelled": 1}

    mine = render.report("en", report, gm_copy=True).to_dict()
    posted = render.report("en", report, gm_copy=False).to_dict()
    fields = {f["name"]: f["value"] for f in mine["fields"]}
    public = {f["name"]: f["value"] for f in posted["fields"]}
    assert fields["Cheats nobody caught"] == f"**Ann** at table #{missed}"
    assert (
        public["Cheats caught"]
        == fields["Cheats caught"]
        == (f"**Ann** at table #{caught}, caught by **Cid**")
    )
    assert "Cheats nobody caught" not in public
    assert f"**Ann** at table #{missed}" not in str(posted)
    assert fields["Tables"] == "Opened: 5. Finished: 3. Cancelled: 1."
    assert fields["Corrections"].startswith(f"Table #{voided.table_id} voided\n")


async def paid_in(world: World, table_id: int) -> int:
    async with world.db.read() as tx:
        return int(
            await tx.fetchval(
                "SELECT SUM(amount) FROM movements WHERE table_id = ? AND kind = 'stake'",
                (table_id,),
            )
        )


async def test_the_default_evening_follows_the_last_report(world: World) -> None:
    books = BooksService(world.db, clock=world.clock)
    start = world.clock.now
    first = await books.report(GUILD)
    assert (first.since, first.until) == (start - 24 * HOUR, start + 1)  # a first: a day
    world.clock.now += 10 * 60 * 1000
    again = await books.report(GUILD)  # asked again soon after (to post it): the same evening
    assert (again.since, again.until) == (first.since, world.clock.now + 1)
    world.clock.now += 2 * HOUR
    later = await books.report(GUILD)  # the next evening starts where the last report ended
    assert later.since == again.until
    explicit = await books.report(GUILD, since="3h")
    assert explicit.since == world.clock.now - 3 * HOUR


def test_since_reads_spans_and_utc_times() -> None:
    now = 1_800_000_000_000
    assert parse_since("3h", now) == now - 3 * HOUR
    assert parse_since(" 1d 2H 30m ", now) == now - 26 * HOUR - 30 * 60 * 1000
    assert parse_since("2026-12-01 18:00", now) == 1_796_148_000_000
    assert parse_since("2026-12-01", now) == 1_796_083_200_000
    for bad in ("yesterday", "3x", "", "2026-13-01"):
        with pytest.raises(SinceInvalid):
            parse_since(bad, now)


class Recorder(Tx):
    """A transaction that also notes every statement it runs."""

    def __init__(self, inner: Tx) -> None:
        self.inner = inner
        self.seen: list[tuple[str, tuple[Any, ...]]] = []

    async def fetchall(self, sql: str, params: Any = ()) -> list[tuple[Any, ...]]:
        self.seen.append((sql, tuple(params)))
        return await self.inner.fetchall(sql, params)

    async def execute(self, sql: str, params: Any = ()) -> int:
        raise AssertionError("a report writes nothing")

    async def insert(self, sql: str, params: Any = ()) -> int:
        raise AssertionError("a report writes nothing")

    async def executemany(self, sql: str, rows: Any) -> None:
        raise AssertionError("a report writes nothing")


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)  # SQLite's EXPLAIN QUERY PLAN
async def test_every_report_query_starts_from_an_index(world: World) -> None:
    async with world.db.read() as tx:
        spy = Recorder(tx)
        for query in (storage.nets, storage.tables_opened, storage.tables_closed):
            await query(spy, GUILD, 0, 1)
        await storage.purse_moves(spy, GUILD, 0, 1, ("grant", "take"))
        await storage.biggest_pots(spy, GUILD, 0, 1, 5)
        await storage.cheat_events(spy, GUILD, 0, 1)
        plans = [
            " | ".join(str(r[-1]) for r in await tx.fetchall("EXPLAIN QUERY PLAN " + sql, p))
            for sql, p in spy.seen
        ]
    for plan in plans:
        # every stored table is searched by a key or an index; only the evening's own list of
        # tables (``v``, made from two index searches) is read whole
        scans = [step for step in plan.split(" | ") if step.startswith("SCAN")]
        assert scans in ([], ["SCAN v"]), plan


def test_a_long_evening_keeps_every_section_within_discord_limits() -> None:
    long = "W" * 32
    moves = tuple(
        PurseMove(n, "grant", "wh", 240 * n, "r" * 200, None, n, f"{long}{n}", None)
        for n in range(300)
    )
    cheats = tuple(Cheat(n, f"{long}{n}", () if n % 2 else (long,) * 3) for n in range(300))
    report = Report(
        since=0,
        until=1,
        nets=tuple((f"{long}{n}", "wh", -n) for n in range(300)),
        pots=tuple(Pot(n, "pegaz", "wh", 10**9) for n in range(5)),
        offerings=tuple((f"{long}{n}", "cr", n) for n in range(300)),
        gm_moves=moves,
        corrections=moves,
        voided_tables=tuple(range(300)),
        cheats=cheats,
        opened=300,
        closed={"finished": 290, "cancelled": 10},
    )
    for lang in ("en", "pl"):
        embed = render.report(lang, report, gm_copy=True)
        assert size(embed) <= 6000 and len(embed.fields) == 8
        assert all(len(f.value or "") <= 1024 for f in embed.fields)
        assert embed.fields[-1].value == render.report(lang, report, gm_copy=False).fields[-1].value
        missed = embed.fields[-2].value or ""
        assert re.search(r"\n… (and \d+ more|i jeszcze \d+)$", missed), missed[-40:]
        assert missed.startswith(f"**{long}1** ")
