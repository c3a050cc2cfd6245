"""Load benchmark: ``python bench/load.py``. Prints figures; never passes or fails.

Drives N tables at once (``--tables 1,20,200``; half Three-Card Pegasus with 2-3 players, half
Pazaak) through the loopback fake Discord (``tests/fakediscord``), closed loop: each table's
players make their next move as soon as the previous move's table update arrived. The same load
runs, in the same run and through the same fake, against a bare discord.py echo bot (one
UPDATE_MESSAGE response per click), and against the same bare bot in the bot's shape, the floor,
run after the bot: a deferral first, then the update through the interaction's token, carrying
the bot's board of that run, and the bot's follow-ups and rate-limited posts an interaction
(what the bot's own traffic costs with no game behind it). For the bot and echo it prints:

- p50/p95/p99 of the acknowledgement (click -> the first interaction response) and of the table
  update (click -> the table message shows the new version), and the bot-to-echo ratios;
- the acknowledgement's three legs, for the bot, echo and the floor: from the click's sending
  until the bot parsed it from the gateway, until the bot began its answer (its own queue),
  until the fake saw the answer (discord.py's stamps in the child, on the clock both processes
  read);
- interactions per second at saturation;
- SQL statements and commits per move (a sqlite3 trace callback in the bot's process);
- REST requests per move, as interaction responses and rate-limited routes;
- CPU ms per move of the bot alone: each bot runs in a child process (``bench/load_bot.py``)
  that talks to the fake over its loopback ports, so its CPU time is its own; the fake and the
  players run in this process, and their CPU is printed apart.

Restore: the bot's time to READY with ``--restore`` (10,000) open tables against the echo bot's,
and the bot's resident memory per open table (RSS with the tables minus RSS with none).

``--no-spec`` turns off the fake's OpenAPI validation (it costs the fake, not the bot, CPU).
``--rate-limits`` turns on Discord's rate limits in the fake (``FakeDiscord.enable_rate_limits``)
and reports the moves per second sustained and the 429s.
``--postgres URL`` runs the bot a second time at each table count over a new PostgreSQL
database on that server (dropped after), and prints the durable moves per second of both
backends side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.load_child import Child
from bench.load_report import PAUSES, Phase, collector_held, ratio, report
from bench.load_restore import restore
from bench.load_support import (
    Driver,
    Record,
    Seat,
    echo_table,
    pazaak_table,
    pegaz_table,
)
from tests.fakediscord import MANAGE_GUILD, FakeDiscord
from tests.fakediscord.stats import RequestStats

CONSONANTS, VOWELS = "bdfgkpstvz", "aeiou"


def tag(n: int) -> str:
    """A distinct, pronounceable, unconfusable name part: 0 -> "Baba", 1 -> "Baca"..."""
    syllables = [c + v for c in CONSONANTS for v in VOWELS]
    return (syllables[n // len(syllables) % len(syllables)] + syllables[n % len(syllables)]).title()


async def run_phase(
    kind: str,
    tables: int,
    args: argparse.Namespace,
    folder: Path,
    database: str | None = None,
    mix: dict[str, Any] | None = None,
) -> Phase:
    fake = FakeDiscord(spec=None) if args.no_spec else FakeDiscord()
    await fake.start()
    phase = Phase(kind, tables)
    try:
        if args.rate_limits:
            enable = getattr(fake, "enable_rate_limits", None)
            if enable is not None:
                enable()
        with collector_held():
            await drive(fake, phase, args, folder, database, mix)
        if kind == "bot":
            phase.board = board_sample(fake)
        counted = getattr(fake, "rate_limit_stats", None)
        if args.rate_limits and counted is not None:
            seen = counted()
            phase.limits = (
                f"{seen.global_429} global and {seen.route_429} per-route 429s in the whole run, "
                f"at most {seen.peak_global_window} requests in one global window"
            )
    finally:
        await fake.close()
    return phase


async def drive(
    fake: FakeDiscord,
    phase: Phase,
    args: argparse.Namespace,
    folder: Path,
    database: str | None = None,
    mix: dict[str, Any] | None = None,
) -> None:
    games = args.games
    gm = fake.add_player("Gamemaster", permissions=MANAGE_GUILD)
    characters: list[tuple[int, str, str]] = []
    plans: list[Any] = []
    for i in range(phase.tables):
        channel = fake.guild.add_channel(f"table-{i}")
        game = games[i % len(games)]
        if phase.kind in ("echo", "floor"):
            plans.append(("echo", channel, fake.add_player(f"Tapper {tag(i)}")))
        elif game == "pegaz":
            count = 2 + (i // len(games)) % 2
            seats = [
                Seat(fake.add_player(f"{n} {tag(i)}'s player"), f"{n} {tag(i)}")
                for n in ("Ann", "Bob", "Cid")[:count]
            ]
            characters += [(s.user.id, s.name, "wh") for s in seats]
            plans.append(("pegaz", channel, seats))
        else:
            seats = [
                Seat(fake.add_player(f"{n} {tag(i)}'s player"), f"{n} {tag(i)}")
                for n in ("Ahsoka", "Bastila")
            ]
            characters += [(s.user.id, s.name, "cr") for s in seats]
            plans.append(("pazaak", channel, seats))
    config = {
        "mode": phase.kind,
        "api_base": fake.api_base,
        "gateway_url": fake.gateway_url,
        "token": fake.token,
        "db": database or str(folder / f"load-{phase.kind}-{phase.tables}.db"),
        "guild": fake.guild.id,
        "gm": gm.id,
        "characters": characters,
        "mix": mix,
    }
    record = Record()
    driver = Driver(fake, record)
    async with Child(config, folder / f"load-{phase.kind}-{phase.tables}.log") as child:
        tasks = []
        for number, (game, channel, who) in enumerate(plans):
            if game == "echo":
                loop = echo_table(driver, channel, who, number + 1)
            elif game == "pegaz":
                loop = pegaz_table(driver, channel, gm, who, number + 1)
            else:
                loop = pazaak_table(driver, channel, who[0], who[1], number + 1)
            tasks.append(asyncio.create_task(loop))
        warmup = args.warmup if args.warmup is not None else 3 + 0.04 * phase.tables
        await asyncio.sleep(warmup)  # every table past its first moves
        start, mark = await window_mark(fake, child)
        await asyncio.sleep(args.seconds)
        end, final = await window_mark(fake, child)
        await asyncio.sleep(args.grace)  # moves begun in the window may finish
        driver.stopping = True
        stuck = driver.unfinished(start)
        if stuck and os.environ.get("LOAD_DEBUG"):
            print(*stuck, fake.state.summary(12), sep="\n", file=sys.stderr)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        said = await child.ask("quit")
        phase.problems = said.get("problems", [])
    phase.seconds = end - start
    phase.pauses = PAUSES.between(start, end)
    phase.cpu = final["cpu"] - mark["cpu"]
    phase.loop_cpu = final["loop_cpu"] - mark["loop_cpu"]
    phase.gc_cpu = final.get("gc_cpu", 0.0) - mark.get("gc_cpu", 0.0)
    phase.gc_runs = final.get("gc_runs", 0) - mark.get("gc_runs", 0)
    phase.fake_cpu = final["fake_cpu"] - mark["fake_cpu"]
    phase.statements = final["statements"] - mark["statements"]
    phase.commits = final["commits"] - mark["commits"]
    phase.control = final["control"] - mark["control"]
    requests = fake.state.requests[mark["requests"] : final["requests"]]
    phase.stats = RequestStats.of(requests, fake.application_id)
    phase.dm_posts = sum(
        1
        for r in requests
        if r.method == "POST"
        and r.template == "/channels/{channel_id}/messages"
        and getattr(fake.state.channels.get(int(r.path.split("/")[2])), "guild_id", 0) is None
    )
    phase.throttled = sum(1 for r in requests if r.status == 429)

    def inside(t: float) -> bool:
        return start <= t < end

    phase.acks = {k: [ms for t, ms, _ in v if inside(t)] for k, v in record.acks.items()}
    phase.updates = [ms for t, ms, _ in record.updates if inside(t)]
    for t, ms, what in record.updates:
        if inside(t):
            phase.update_by.setdefault(what, []).append(ms)
    stamps = said.get("stamps", {})
    for sent, ms, key in itertools.chain.from_iterable(record.acks.values()):
        parsed, answering = stamps.get(str(key), (0.0, 0.0))
        if inside(sent) and answering:
            acked = sent + ms / 1000
            phase.ack_split.append(
                ((parsed - sent) * 1000, (answering - parsed) * 1000, (acked - answering) * 1000)
            )
    phase.moves = sum(1 for t in record.moves if inside(t))
    phase.interactions = sum(1 for t in record.interactions if inside(t))
    phase.stuck = len(stuck)
    phase.failures = record.failures + [f"fake: {p}" for p in fake.problems()[:5]]


def board_sample(fake: FakeDiscord) -> dict[str, Any] | None:
    """A table message the bot drew (the one of median size): its embed and button labels."""
    boards = [
        m
        for m in fake.state.messages.values()
        if m.embeds and m.buttons and m.channel.guild_id is not None and not m.ephemeral_to
    ]
    if not boards:
        return None
    boards.sort(key=lambda m: len(json.dumps(m.embeds[0])))
    board = boards[len(boards) // 2]
    return {"embed": board.embeds[0], "labels": [str(b.get("label") or "-") for b in board.buttons]}


async def window_mark(fake: FakeDiscord, child: Child) -> tuple[float, dict[str, Any]]:
    at = asyncio.get_running_loop().time()
    counts = await child.ask("mark")
    counts |= {"requests": fake.mark(), "fake_cpu": time.process_time()}
    return at, counts


async def postgres_phase(tables: int, args: argparse.Namespace, folder: Path) -> Phase:
    from bench.backends import drop_postgres, fresh_postgres

    url = await fresh_postgres(args.postgres)
    try:
        return await run_phase("bot", tables, args, folder, database=url)
    finally:
        await drop_postgres(args.postgres, url)


def _p99(samples: list[float]) -> float:
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


async def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--tables", default="1,20,200", help="table counts, comma-separated")
    parser.add_argument("--seconds", type=float, default=8.0, help="measured window per run")
    parser.add_argument(
        "--warmup", type=float, help="seconds before the window (default 3 + 0.04 per table)"
    )
    parser.add_argument("--grace", type=float, default=2.0)
    parser.add_argument("--games", default="pegaz,pazaak")
    parser.add_argument("--no-spec", action="store_true", help="no OpenAPI validation in the fake")
    parser.add_argument("--rate-limits", action="store_true", help="Discord's limits in the fake")
    parser.add_argument("--restore", type=int, default=10_000, help="open tables; 0 skips")
    parser.add_argument("--runs", type=int, default=3, help="restore runs (median)")
    parser.add_argument("--keep", type=Path, help="keep the databases and the bots' logs here")
    parser.add_argument("--postgres", help="also run the bot over PostgreSQL (a server's URL)")
    args = parser.parse_args()
    args.games = [g.strip() for g in args.games.split(",") if g.strip()]
    counts = [int(n) for n in args.tables.split(",") if n.strip() and int(n) > 0]
    limits = "on" if args.rate_limits else "off"
    if args.rate_limits and not hasattr(FakeDiscord, "enable_rate_limits"):
        limits = "unavailable (FakeDiscord has no enable_rate_limits yet)"
    print(
        f"Szulernia load bench: {os.cpu_count()} cores, load average "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}; games {','.join(args.games)}; "
        f"fake OpenAPI validation {'off' if args.no_spec else 'on'}; rate limits {limits}; "
        f"{'auto' if args.warmup is None else f'{args.warmup:g} s'} warm-up, "
        f"{args.seconds:g} s measured per run. CPU per move: each bot "
        f"in its own process (all its threads), the fake and the players in this one."
    )
    with tempfile.TemporaryDirectory(prefix="szulernia-load-") as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("load-*.db*"):  # a kept database from an earlier run (its synced
            old.unlink()  # commands would not be synced again into this run's fresh fake)
        pairs = []
        backends: list[tuple[int, Phase, Phase]] = []
        for tables in counts:
            echo = await run_phase("echo", tables, args, folder)
            bot = await run_phase("bot", tables, args, folder)
            floor = await run_phase("floor", tables, args, folder, mix=bot.traffic())
            pairs.append((bot, echo, floor))
            print(f"  {tables} tables: {bot.moves} moves by the bot, {echo.moves} by echo")
            if args.postgres:
                backends.append((tables, bot, await postgres_phase(tables, args, folder)))
        for tables, lite, pg in backends:
            print(
                f"durable moves/s at {tables} tables: SQLite {ratio(lite.moves, lite.seconds):,.1f}"
                f", PostgreSQL {ratio(pg.moves, pg.seconds):,.1f} "
                f"(update p99 {_p99(lite.updates):.0f} ms vs {_p99(pg.updates):.0f} ms)"
            )
        if pairs:
            report(pairs, args)
        if args.restore:
            with contextlib.suppress(KeyboardInterrupt):
                await restore(args, folder)
    if not args.no_spec:
        print(
            "note: the fake validates every request against the OpenAPI spec in this process, "
            "which bounds echo's figures; compare with --no-spec"
        )
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    asyncio.run(main())
