"""Read latency while writes run, for bench/storage.py: Pazaak matches on several tables at once
(closed loop, as many durable actions as the writer takes) while a read (a purse balance, as a
handler would ask) is issued every few milliseconds (open loop)."""

from __future__ import annotations

import asyncio
import statistics
import time
from typing import Any


async def measure(
    bench: Any, pairs: list[tuple[int, int]], seconds: float, every: float
) -> dict[str, Any]:
    """Latencies (seconds) of reads issued every ``every`` s, first alone, then while the
    ``pairs`` play; and the durable actions/s meanwhile."""
    reader = pairs[0][0]

    async def one_read(into: list[float]) -> None:
        start = time.perf_counter()
        await bench.purses.balance(reader, "cr")
        into.append(time.perf_counter() - start)

    async def issue_reads(duration: float) -> list[float]:
        latencies: list[float] = []
        pending = []
        end = time.perf_counter() + duration
        while time.perf_counter() < end:
            pending.append(asyncio.create_task(one_read(latencies)))
            await asyncio.sleep(every)
        await asyncio.gather(*pending)
        return latencies

    idle = await issue_reads(min(1.0, seconds))
    stop = asyncio.Event()

    async def play(a: int, b: int) -> None:
        while not stop.is_set():
            await bench.pazaak_match(a, b, limit=40)

    bench.actions, bench.timed = 0, 0.0
    started = time.perf_counter()
    writers = [asyncio.create_task(play(a, b)) for a, b in pairs]
    await asyncio.sleep(0.2)  # the writers get going
    busy = await issue_reads(seconds)
    stop.set()
    await asyncio.gather(*writers)
    rate = bench.actions / (time.perf_counter() - started)
    return {"idle": idle, "busy": busy, "rate": rate}


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(mixed: list[dict[str, Any]], streams: int) -> None:
    """Print the medians over the runs of :func:`measure`."""
    ms = {
        (kind, q): statistics.median(quantile(m[kind], q) for m in mixed) * 1000
        for kind in ("idle", "busy")
        for q in (0.5, 0.99)
    }
    print(
        f"read latency while writes run ({streams} tables playing Pazaak, a read every "
        f"2 ms): p50 {ms['busy', 0.5]:.2f} ms, p99 {ms['busy', 0.99]:.2f} ms "
        f"({len(mixed[0]['busy'])} reads in run 1); with no writes: p50 "
        f"{ms['idle', 0.5]:.2f} ms, p99 {ms['idle', 0.99]:.2f} ms; durable actions/s "
        f"meanwhile: median {statistics.median(m['rate'] for m in mixed):,.0f}"
    )
