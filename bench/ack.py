"""Benchmark how soon the bot acknowledges each kind of click, and what it reads first.

Plays the games of bench/requests.py (a 3-player Three-Card Pegasus game, one with Luck, and a
Pazaak match) through the loopback fake Discord with the real bot, and prints per act (the
custom_id's ``act``: ``end``, ``stand``, ``xchg`` for Pay & exchange…, ``chk`` for Check…,
``pay`` for the exchange dialog's submit...):

- the median and the largest time from the click to the bot's first response to it;
- how many SQL statements the bot ran between the click and that response (counted with a
  sqlite3 trace callback on the bot's writer connection, and on its read-only readers' calls
  where the database has them; BEGIN, COMMIT and ROLLBACK left out): 0 means it acknowledged
  before reading.

The games run one click at a time, so these are the bot's own delays, not a queue's; the
statement counts say what a click waits for when the database is busy. ``--busy MS`` makes it
busy: a background writer holds a write transaction for MS milliseconds, over and over (as other
tables' steps would), so a click that reads before it answers waits behind it.

The fake checks no request body against Discord's OpenAPI spec here (that check costs the fake
about 10 ms per modal, in the same process, and would be counted as the bot's delay); ``--spec``
turns it on.

Run: ``python bench/ack.py [games] [--busy MS] [--spec]`` (default 3 of each, not busy).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' fake Discord


from bench import requests as games
from tests.fakediscord import BotHarness, FakeDiscord, InteractionHandle

CONTROL = frozenset({"BEGIN IMMEDIATE", "COMMIT", "ROLLBACK"})
Game = Callable[[FakeDiscord, BotHarness, games.Meter], Awaitable[None]]


class AckMeter(games.Meter):
    """bench/requests.py's meter, which also times every interaction's first response."""

    def __init__(self, fake: FakeDiscord, harness: BotHarness) -> None:
        super().__init__(fake, harness)
        self.statements = [0]
        self.times: dict[str, list[float]] = defaultdict(list)
        self.reads: dict[str, list[int]] = defaultdict(list)
        self._pending: dict[int, tuple[InteractionHandle, float, int]] = {}
        send, notify = fake._send, fake.state.notify

        def timed(handle: InteractionHandle) -> InteractionHandle:
            self._pending[handle.id] = (handle, time.perf_counter(), self.statements[0])
            return send(handle)

        def noticed() -> None:
            """The fake notifies right after it took a response: time it there (a waiting task
            would run only after whatever the loop runs first)."""
            for key, (handle, begun, before) in list(self._pending.items()):
                if handle.acknowledged:
                    del self._pending[key]
                    act = _act(handle)
                    self.times[act].append((time.perf_counter() - begun) * 1000)
                    self.reads[act].append(self.statements[0] - before)
            notify()

        fake._send = timed  # type: ignore[method-assign]
        fake.state.notify = noticed  # type: ignore[method-assign]

    async def trace(self) -> None:
        db: Any = self.harness.bot.db
        db.trace(self._count)  # the writer's statements
        from bot.storage import reader  # the readers', each on a thread of its own

        for name in ("first", "call"):
            run = getattr(reader.Reader, name)

            async def counted(
                self: Any, statement: Any, sql: str, *a: Any, _run: Any = run, _m: Any = self
            ) -> Any:
                _m._count(sql)
                return await _run(self, statement, sql, *a)

            setattr(reader.Reader, name, counted)

    def _count(self, statement: str) -> None:
        if statement not in CONTROL:  # the busy writer's are only these
            self.statements[0] += 1


def _act(handle: InteractionHandle) -> str:
    data = handle.payload.get("data") or {}
    custom_id = str(data.get("custom_id") or "")
    parts = custom_id.split(":")
    if len(parts) >= 4:
        return parts[3]
    return custom_id or str(data.get("name") or "?")


async def _writer(harness: BotHarness, hold_ms: float) -> None:
    """Hold the bot's write transaction for ``hold_ms``, over and over, yielding in between."""
    while True:
        async with harness.bot.db.transaction():
            await asyncio.sleep(hold_ms / 1000)
        await asyncio.sleep(0.001)


async def run(game: Game, seed: int, busy: float = 0.0, spec: bool = False) -> AckMeter:
    with tempfile.TemporaryDirectory() as folder:
        async with FakeDiscord() if spec else FakeDiscord(spec=None) as fake:
            harness = BotHarness(fake, database=Path(folder) / "bench.db", seed=seed)
            await harness.start()
            try:
                meter = AckMeter(fake, harness)
                await meter.trace()
                writer = asyncio.create_task(_writer(harness, busy)) if busy else None
                try:
                    await game(fake, harness, meter)
                finally:
                    if writer is not None:
                        writer.cancel()
                        await asyncio.gather(writer, return_exceptions=True)
            finally:
                await harness.close()
    return meter


async def main(rounds: int, busy: float, spec: bool) -> None:
    played = (
        ("pegaz, 3 players", games.pegaz_game),
        ("pegaz, 3 players with Luck", games.pegaz_lucky),
        ("pazaak", games.pazaak_match),
    )
    times: dict[str, list[float]] = defaultdict(list)
    reads: dict[str, list[int]] = defaultdict(list)
    for _, game in played:
        for seed in range(1, rounds + 1):
            meter = await run(game, seed, busy, spec)
            for act, found in meter.times.items():
                times[act] += found
                reads[act] += meter.reads[act]
    everything = [x for found in times.values() for x in found]
    load = f"; a writer holds the database {busy:g} ms at a time" if busy else ""
    print(
        f"{len(everything)} interactions{load}; click to first response: median "
        f"{statistics.median(everything):.2f} ms, p95 {_p95(everything):.2f} ms"
    )
    print(f"{'act':>8} {'n':>5} {'median ms':>10} {'max ms':>8} {'SQL before ack':>16}")
    for act in sorted(times, key=lambda a: -statistics.median(times[a])):
        found, sql = times[act], reads[act]
        print(
            f"{act:>8} {len(found):>5} {statistics.median(found):>10.2f} {max(found):>8.2f} "
            f"{statistics.mean(sql):>9.2f} (max {max(sql)})"
        )


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


if __name__ == "__main__":
    args = sys.argv[1:]
    checked = "--spec" in args
    if checked:
        args.remove("--spec")
    hold = 0.0
    if "--busy" in args:
        at = args.index("--busy")
        hold = float(args[at + 1])
        del args[at : at + 2]
    asyncio.run(main(int(args[0]) if args else 3, hold, checked))
