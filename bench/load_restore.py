"""The restore part of ``bench/load.py``: the time to READY with many open tables, as echo's."""

from __future__ import annotations

import argparse
import contextlib
import sqlite3
import statistics
import time
from pathlib import Path
from typing import Any

from bench.load_child import Child
from bench.load_report import ratio
from tests.fakediscord import FakeDiscord


def mark_published(path: Path) -> None:
    """As after a clean shutdown: every table's board and posts are up to date in Discord (the
    filled tables were never published, and the bot would publish 10,000 boards at startup)."""
    with contextlib.closing(sqlite3.connect(path)) as conn, conn:
        columns = {row[1] for row in conn.execute("PRAGMA table_info(tables)")}
        marks = [c for c in ("board_version", "posted_version") if c in columns]
        sets = [f"{c} = version" for c in marks]
        if "message_id" in columns:
            sets.append("message_id = 1000000 + id")
        if sets:
            conn.execute(f"UPDATE tables SET {', '.join(sets)}")


async def restore(args: argparse.Namespace, folder: Path) -> None:
    from bench.storage import fill_open_tables

    full = folder / "restore.db"
    began = time.perf_counter()
    await fill_open_tables(full, args.restore)
    mark_published(full)
    print(
        f"\nrestore: wrote {args.restore:,} open tables (marked published) in "
        f"{time.perf_counter() - began:.1f} s; time to READY, median of {args.runs} runs each:"
    )
    figures: dict[str, list[dict[str, Any]]] = {}
    for name, mode, db in (
        ("echo", "echo", None),
        ("bot, no tables", "bot", folder / "empty.db"),
        (f"bot, {args.restore:,} tables", "bot", full),
    ):
        for run in range(args.runs):
            async with FakeDiscord(spec=None) as fake:
                config = {
                    "mode": mode,
                    "api_base": fake.api_base,
                    "gateway_url": fake.gateway_url,
                    "token": fake.token,
                    "db": str(db or folder / "unused.db"),
                    "guild": fake.guild.id,
                    "gm": fake.owner.id,
                }
                async with Child(config, folder / f"restore-{mode}-{run}.log") as child:
                    ready = dict(child.ready)  # its answer came once every table was kept
                    ready["wall"] -= ready["restored"] - ready["ready"]
                    figures.setdefault(name, []).append(ready)
                    await child.ask("quit")

    def median(name: str, key: str) -> float:
        return float(statistics.median(r[key] for r in figures[name]))

    print(
        f"  {'':<22} {'from spawn':>10} {'in-process':>10} {'all kept':>10} {'RSS MiB':>8}"
        "   (READY, from the spawn and in the process; then every open table kept in memory)"
    )
    for name in figures:
        print(
            f"  {name:<22} {median(name, 'wall'):>8.2f} s {median(name, 'ready'):>8.2f} s "
            f"{median(name, 'restored'):>8.2f} s {median(name, 'rss') / 2**20:>8.1f}"
        )
    echo, empty, filled = figures
    spawned = ratio(median(filled, "wall"), median(echo, "wall"))
    inside = ratio(median(filled, "ready"), median(echo, "ready"))
    print(
        f"  the bot with {args.restore:,} tables: {spawned:.2f}x echo's time to READY from spawn "
        f"(imports included), {inside:.1f}x in-process; memory per open "
        f"table {(median(filled, 'rss') - median(empty, 'rss')) / args.restore / 1024:.1f} KiB "
        "(RSS with the tables kept minus RSS with none); every table kept after "
        f"{ratio(median(filled, 'restored'), median(echo, 'ready')):.1f}x echo's time to READY"
    )
