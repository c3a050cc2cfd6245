"""Storage benchmark: ``python bench/storage.py``. Prints figures; never passes or fails.

1. Durable table actions per second: each action takes the table lock, applies the rules, and
   commits events + ledger rows + version + idempotency key in one transaction (synchronous=FULL,
   so one fsync per commit). Whole Pazaak matches and Pegasus games, moves picked from
   ``legal_actions`` by a seeded RNG (the picking is not timed). Median of a few runs.
2. The time to restore 10,000 open tables at startup (open + checks + migrations + replay).
3. The database size per finished game.
4. Read latency while writes run: Pazaak matches on several tables at once (closed loop, as
   many durable actions as the writer takes) while a read (a purse balance, as a handler would
   ask) is issued every few milliseconds (open loop); p50 and p99 from issue to answer, beside
   the same reads with no writes running.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import storage_reads
from bot.rules import pazaak, pegaz
from bot.services import CharacterService, PurseService, TableService
from bot.services.games import default_games
from bot.services.outcomes import TableOutcome
from bot.services.snapshots import codec_for
from bot.storage import ledger, tables
from bot.storage.db import Database
from bot.storage.opening import open_database

GUILD = 1
GM = 1


def rng_factory(seed: int) -> Any:
    source = random.Random(seed)
    return lambda: random.Random(source.getrandbits(64))


class Bench:
    def __init__(self, db: Database, seed: int) -> None:
        self.db = db
        self.characters = CharacterService(db)
        self.purses = PurseService(db)
        self.tables = TableService(db, rng_factory=rng_factory(seed))
        self.rng = random.Random(seed)
        self.keys = 0
        self.actions = 0
        self.timed = 0.0

    def key(self) -> str:
        self.keys += 1
        return f"k{self.keys}"

    async def players(self, n: int, currency: str, prefix: str) -> list[int]:
        ids = []
        for i in range(n):
            who = await self.characters.create(
                GUILD,
                f"{prefix} {i}",
                owner_id=100 + i,
                luck=i % 2 == 0,
                gamble=i % 3 == 0,
                perception=(30 + 10 * i) % 101,
            )
            await self.purses.grant(who.id, currency, 10**7, actor_id=GM)
            ids.append(who.id)
        return ids

    async def timed_call(self, coro: Any) -> TableOutcome:
        start = time.perf_counter()
        outcome: TableOutcome = await coro
        self.timed += time.perf_counter() - start
        self.actions += 1
        return outcome

    async def play(self, outcome: TableOutcome, choose: Any, limit: int | None = None) -> int:
        rules = default_games()[outcome.game].rules
        steps = 0
        while outcome.status not in ("finished", "cancelled") and (limit is None or steps < limit):
            action = choose(self.rng, rules.legal_actions(outcome.state))
            outcome = await self.timed_call(
                self.tables.act(
                    outcome.table_id,
                    action,
                    key=self.key(),
                    expected_version=outcome.version,
                    actor_id=None,
                )
            )
            steps += 1
        return steps

    async def pazaak_match(self, a: int, b: int, limit: int | None = None) -> TableOutcome:
        settings = pazaak.PazaakSettings(wager=10)
        sel_a = await self.characters.match_selection(a)
        sel_b = await self.characters.match_selection(b)
        start = await self.timed_call(
            self.tables.create(
                "pazaak",
                lambda r: pazaak.new_match(settings, a, sel_a, b, sel_b, r),
                guild_id=GUILD,
                channel_id=2,
                actor_id=GM,
                key=self.key(),
            )
        )
        await self.play(start, pazaak_choice, limit)
        return start

    async def pegaz_game(self, players: list[int], limit: int | None = None) -> TableOutcome:
        settings = pegaz.PegazSettings(exchanges=3, raise_limit=6)
        outcome = await self.timed_call(
            self.tables.create(
                "pegaz",
                lambda r: pegaz.new_table(settings),
                guild_id=GUILD,
                channel_id=3,
                actor_id=GM,
                key=self.key(),
            )
        )
        for player in players:
            who = await self.characters.get(player)
            join = pegaz.Join(player, who.luck, who.gamble, who.perception, 10**6)
            outcome = await self.timed_call(
                self.tables.act(
                    outcome.table_id,
                    join,
                    key=self.key(),
                    expected_version=outcome.version,
                    actor_id=who.owner_id,
                )
            )
        await self.play(outcome, pegaz_choice, limit)
        return outcome


def pazaak_choice(rng: random.Random, actions: list[Any]) -> Any:
    return rng.choice([a for a in actions if not isinstance(a, pazaak.Forfeit)] or actions)


def pegaz_choice(rng: random.Random, actions: list[Any]) -> Any:
    for action in actions:
        if isinstance(action, pegaz.Start):
            return action
    return rng.choice(actions)


async def actions_per_second(folder: Path, games: int, seed: int) -> tuple[float, float, int]:
    """(pazaak actions/s, pegaz actions/s, ledger movements written)."""
    db = await open_database(folder / f"rate{seed}.db")
    bench = Bench(db, seed)
    a, b = await bench.players(2, "cr", "Pazaak")
    for _ in range(games):
        await bench.pazaak_match(a, b)
    pazaak_rate = bench.actions / bench.timed
    bench.actions, bench.timed = 0, 0.0
    players = await bench.players(4, "wh", "Pegaz")
    for _ in range(games):
        await bench.pegaz_game(players)
    pegaz_rate = bench.actions / bench.timed
    async with db.read() as tx:
        moved = int(await tx.fetchval("SELECT count(*) FROM movements WHERE table_id IS NOT NULL"))
    await db.close()
    return pazaak_rate, pegaz_rate, moved


async def reads_during_writes(
    folder: Path, seed: int, seconds: float, streams: int, every: float
) -> dict[str, Any]:
    """Read latencies beside ``streams`` tables playing Pazaak (see bench/storage_reads.py)."""
    db = await open_database(folder / f"mixed{seed}.db")
    bench = Bench(db, seed)
    pairs = [await bench.players(2, "cr", f"Mixed {n}") for n in range(streams)]
    found = await storage_reads.measure(bench, pairs, seconds, every)
    await db.close()
    return found


async def size_per_game(folder: Path, games: int) -> tuple[float, float]:
    sizes = []
    for game in ("pazaak", "pegaz"):
        path = folder / f"size-{game}.db"
        db = await open_database(path)
        bench = Bench(db, 99)
        ids = await bench.players(4, "cr" if game == "pazaak" else "wh", game)
        empty = await file_size(db)
        for _ in range(games):
            if game == "pazaak":
                await bench.pazaak_match(ids[0], ids[1])
            else:
                await bench.pegaz_game(ids)
        sizes.append((await file_size(db) - empty) / games)
        await db.close()
    return sizes[0], sizes[1]


async def file_size(db: Database) -> int:
    await db.checkpoint()
    async with db.read() as tx:
        pages = int(await tx.fetchval("PRAGMA page_count"))
        free = int(await tx.fetchval("PRAGMA freelist_count"))
        size = int(await tx.fetchval("PRAGMA page_size"))
    return (pages - free) * size


async def fill_open_tables(path: Path, count: int) -> None:
    """Write ``count`` half-played tables (half Pazaak, up to 60 actions in; half Pegasus, up to
    30) straight through the repositories in big transactions, as the service would have: the
    rules make the events, one version per action, a snapshot of the last state."""
    db = await open_database(path)
    bench = Bench(db, 5)
    pz = await bench.players(16, "cr", "Pz")
    pg = await bench.players(4, "wh", "Pg")
    rng = random.Random(5)
    games = default_games()
    codecs = {name: codec_for(spec) for name, spec in games.items()}
    done = 0
    while done < count:
        async with db.transaction() as tx:
            for _ in range(min(500, count - done)):
                spec = games["pazaak" if done % 2 == 0 else "pegaz"]
                history = half_played(spec, pz, pg, rng, done)
                state, events, version, snap = history
                table_id = await tables.insert(
                    tx,
                    guild_id=GUILD,
                    channel_id=9,
                    game=spec.game,
                    currency=spec.currency,
                    settings=spec.settings_json(state),
                    created_by=GM,
                    at=0,
                )
                await ledger.create_pot(tx, GUILD, table_id, spec.currency)
                for v, (first, batch) in enumerate(events, start=1):
                    blobs = [spec.rules.dump_events([e]) for e in batch]
                    await tables.append_events(tx, table_id, first, v, blobs)
                codec = codecs[spec.game]
                if snap is not None and codec is not None:
                    snap_version, snap_seq, snap_state = snap
                    await tables.put_snapshot(
                        tx,
                        tables.Snapshot(
                            table_id, snap_version, snap_seq, codec.format, codec.dump(snap_state)
                        ),
                    )
                await tx.execute(
                    "UPDATE tables SET version = ?, status = ? WHERE id = ?",
                    (version, spec.status(state), table_id),
                )
                done += 1
    await db.close()


def half_played(
    spec: Any, pz: list[int], pg: list[int], rng: random.Random, n: int
) -> tuple[Any, list[tuple[int, list[Any]]], int, tuple[int, int, Any] | None]:
    """A table some way into its game: (state, [(first seq, events)] per version, version,
    the latest snapshot as (version, next seq, state))."""
    if spec.game == "pazaak":
        a, b = pz[(n // 2) % 8 * 2], pz[(n // 2) % 8 * 2 + 1]
        sel = pazaak.STARTER_COLLECTION
        state, first = pazaak.new_match(pazaak.PazaakSettings(), a, sel, b, sel, rng)
        steps = [first]
        actions = rng.randint(2, 60)
    else:
        state, first = pegaz.new_table(pegaz.PegazSettings(exchanges=None, raise_limit=None))
        steps = [first]
        for p in pg:
            state, more = pegaz.apply(state, pegaz.Join(p, True, True, 50, 10**6), rng)
            steps.append(more)
        actions = rng.randint(2, 30)
    snap = None
    seq = sum(len(e) for e in steps)
    for _ in range(actions):
        moves = [
            m
            for m in spec.rules.legal_actions(state)
            if not isinstance(m, pazaak.Forfeit | pegaz.Fold | pegaz.Check)
        ]
        if not moves:
            break
        next_state, more = spec.rules.apply(state, rng.choice(moves), rng)
        if spec.status(next_state) != "running":
            break
        state = next_state
        steps.append(more)
        seq += len(more)
        snap = (len(steps), seq, state)
    numbered, seq = [], 0
    for batch in steps:
        numbered.append((seq, batch))
        seq += len(batch)
    return state, numbered, len(steps), snap


async def restore_time(folder: Path, count: int, runs: int) -> dict[str, Any]:
    path = folder / "restore.db"
    await fill_open_tables(path, count)
    figures: dict[str, list[float]] = {"open": [], "snapshots": [], "replay": []}
    restored = 0
    for _ in range(runs):
        start = time.perf_counter()
        db = await open_database(path)
        figures["open"].append(time.perf_counter() - start)
        for mode in ("snapshots", "replay"):
            start = time.perf_counter()
            views = await TableService(db).restore(snapshots=mode == "snapshots")
            figures[mode].append(time.perf_counter() - start)
            restored = len(views)
        await db.close()
    result: dict[str, Any] = {k: statistics.median(v) for k, v in figures.items()}
    result.update(count=restored, size=path.stat().st_size)
    return result


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--games", type=int, default=20, help="games per run and kind")
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=3.0, help="of reads while writes run")
    parser.add_argument("--streams", type=int, default=8, help="tables writing at once")
    parser.add_argument("--only-mixed", action="store_true", help="only the read-latency figure")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="szulernia-bench-") as tmp:
        folder = Path(tmp)
        print(f"SQLite file in {folder} (WAL, synchronous=FULL)")
        mixed = [
            await reads_during_writes(folder, seed, args.seconds, args.streams, 0.002)
            for seed in range(args.runs)
        ]
        storage_reads.report(mixed, args.streams)
        if args.only_mixed:
            return
        rates = [await actions_per_second(folder, args.games, seed) for seed in range(args.runs)]
        pz = statistics.median(r[0] for r in rates)
        pg = statistics.median(r[1] for r in rates)
        print(
            f"durable table actions/s, Pazaak matches: median {pz:,.0f} "
            f"(runs: {', '.join(f'{r[0]:,.0f}' for r in rates)})"
        )
        print(
            f"durable table actions/s, Pegasus games:  median {pg:,.0f} "
            f"(runs: {', '.join(f'{r[1]:,.0f}' for r in rates)}; "
            f"{rates[0][2]} ledger movements in run 1)"
        )
        r = await restore_time(folder, args.tables, args.runs)
        print(
            f"restore {r['count']:,} open tables at startup: {r['open'] + r['snapshots']:.2f} s "
            f"median (open + quick_check + migrations {r['open']:.2f} s, snapshots "
            f"{r['snapshots']:.2f} s); replaying every event instead: {r['replay']:.2f} s; "
            f"file {r['size'] / 1e6:.1f} MB"
        )
        per_pazaak, per_pegaz = await size_per_game(folder, args.games)
        print(
            f"database size per finished game: Pazaak {per_pazaak / 1024:.1f} KiB, "
            f"Pegasus {per_pegaz / 1024:.1f} KiB"
        )


if __name__ == "__main__":
    asyncio.run(main())
