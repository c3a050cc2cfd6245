"""Durable moves per second on both storage backends, side by side: ``python bench/backends.py
[--postgres URL]``. Prints figures; never passes or fails.

Each run plays whole Pazaak matches through the services (``TableService``: the rules, then the
events, the ledger, the version and the idempotency key in one transaction), on ``streams``
tables at once (closed loop: each table makes its next move as soon as the last one is durable).
SQLite is a file in a temporary folder (WAL, ``synchronous = FULL``); PostgreSQL a new database
on the server the URL names (its default ``fsync`` and ``synchronous_commit``), dropped after.
Without ``--postgres`` (or ``SZULERNIA_TEST_POSTGRES``), only SQLite is measured.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import asyncpg

from bench.storage import Bench
from bot.storage.opening import open_database


async def moves_per_second(target: Path | str, streams: int, matches: int, seed: int) -> float:
    db = await open_database(target)
    try:
        bench = Bench(db, seed)
        pairs = [await bench.players(2, "cr", f"Stream {n}") for n in range(streams)]
        start = time.perf_counter()
        await asyncio.gather(
            *(_matches(bench, a, b, matches) for a, b in pairs)  # type: ignore[misc]
        )
        return bench.actions / (time.perf_counter() - start)
    finally:
        await db.close()


async def _matches(bench: Bench, a: int, b: int, count: int) -> None:
    for _ in range(count):
        await bench.pazaak_match(a, b)


async def fresh_postgres(url: str) -> str:
    name = f"szulernia_bench_{uuid.uuid4().hex[:12]}"
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


async def drop_postgres(admin: str, url: str) -> None:
    conn = await asyncpg.connect(admin)
    try:
        name = urlsplit(url).path.lstrip("/")
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--postgres", default=os.environ.get("SZULERNIA_TEST_POSTGRES"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--matches", type=int, default=4, help="per table and run")
    parser.add_argument("--streams", type=int, nargs="+", default=[1, 16])
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} (2 cores)")
    print("tables at once | SQLite moves/s (median [runs]) | PostgreSQL moves/s | PG / SQLite")
    with tempfile.TemporaryDirectory(prefix="szulernia-bench-") as tmp:
        for streams in args.streams:
            lite = [
                await moves_per_second(
                    Path(tmp) / f"s{streams}-{run}.db", streams, args.matches, run
                )
                for run in range(args.runs)
            ]
            line = f"{streams:>14} | {_figure(lite)}"
            if args.postgres:
                pg = []
                for run in range(args.runs):
                    url = await fresh_postgres(args.postgres)
                    try:
                        pg.append(await moves_per_second(url, streams, args.matches, run))
                    finally:
                        await drop_postgres(args.postgres, url)
                ratio = statistics.median(pg) / statistics.median(lite)
                line += f" | {_figure(pg)} | {ratio:.2f}x"
            else:
                line += " | (no server: --postgres URL) |"
            print(line, flush=True)


def _figure(values: list[float]) -> str:
    runs = ", ".join(f"{v:,.0f}" for v in values)
    return f"{statistics.median(values):,.0f} [{runs}]"


if __name__ == "__main__":
    asyncio.run(main())
