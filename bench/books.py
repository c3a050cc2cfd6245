"""The GM's books on a big guild: ``/gm report``'s service call and the whole guild's export.

A database of 5,000 finished Pegasus games (stakes, a payout, now and then an offering, cheats
caught and missed in their events) among grants, takes and payments, 100,000 movements in all
(200,000 ledger entries), spread over 100 evenings. The report is timed for the last evening
(what a GM asks for; the target is under 100 ms) and for the whole history; the export for the
whole guild. Prints figures only.

    python bench/books.py [--runs N]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.render import books as render
from bot.rules import pegaz
from bot.services.books import BooksService
from bot.storage.opening import open_database

GUILD = 1
PLAYERS = 60
GAMES = 5_000
MOVEMENTS = 100_000
EVENINGS = 100
EVENING_MS = 4 * 3600 * 1000
DAY_MS = 24 * 3600 * 1000
START = 1_700_000_000_000


class Builder:
    """Rows written straight with sqlite3 (the schema made by the bot), balances kept."""

    def __init__(self, conn: sqlite3.Connection, rng: random.Random) -> None:
        self.conn, self.rng = conn, rng
        self.balance: dict[int, int] = {}
        self.movements: list[tuple[object, ...]] = []
        self.entries: list[tuple[int, int, int]] = []

    def account(self, kind: str, character: int | None = None, table: int | None = None) -> int:
        cursor = self.conn.execute(
            "INSERT INTO accounts (kind, guild_id, currency, character_id, table_id) "
            "VALUES (?, ?, 'wh', ?, ?)",
            (kind, GUILD, character, table),
        )
        assert cursor.lastrowid is not None
        self.balance[cursor.lastrowid] = 0
        return cursor.lastrowid

    def move(
        self, source: int, target: int, amount: int, kind: str, at: int, table: object
    ) -> None:
        number = len(self.movements) + 1
        self.movements.append((number, at, 1, kind, kind, "wh", amount, table))
        self.entries += [(number, source, -amount), (number, target, amount)]
        self.balance[source] -= amount
        self.balance[target] += amount


def build(path: Path, seed: int = 15) -> None:
    rng = random.Random(seed)
    conn = sqlite3.connect(path)
    conn.execute("BEGIN")
    conn.executemany(
        "INSERT INTO characters (id, guild_id, name, name_key, owner_id, created_at) "
        "VALUES (?, ?, ?, ?, ?, 0)",
        [(c, GUILD, f"Player {c}", f"player {c}", c) for c in range(1, PLAYERS + 1)],
    )
    b = Builder(conn, rng)
    world, offering = b.account("world"), b.account("offering")
    purses = [b.account("purse", c) for c in range(1, PLAYERS + 1)]
    for purse in purses:
        b.move(world, purse, 240 * 100, "grant", START, None)
    cheat = pegaz.dump_events([pegaz.Detection(1, (pegaz.DetectionRoll(2, 50, 30),))])
    filler = pegaz.dump_events([pegaz.FundsSynced(1, 240)])
    events: list[tuple[int, int, int, bytes]] = []
    others_per_game = (MOVEMENTS - len(b.movements)) // GAMES - 5
    for game in range(1, GAMES + 1):
        at = START + (game * EVENINGS // GAMES) * DAY_MS + rng.randrange(EVENING_MS)
        conn.execute(
            "INSERT INTO tables (id, guild_id, channel_id, game, currency, settings, status, "
            "version, created_by, created_at, closed_at) VALUES (?, ?, 1, 'pegaz', 'wh', '{}', "
            "'finished', 9, 1, ?, ?)",
            (game, GUILD, at, at + 600_000),
        )
        pot = b.account("pot", table=game)
        seated = rng.sample(purses, 4)
        for purse in seated:
            b.move(purse, pot, 12, "stake", at, game)
        b.move(pot, seated[0], 48, "payout", at + 500_000, game)
        b.move(seated[0], offering, 4, "offering", at + 510_000, game)
        for seq in range(10):
            blob = cheat if seq == 3 and game % 7 == 0 else filler
            events.append((game, seq, seq, blob))
        for _ in range(others_per_game):
            a, c = rng.sample(purses, 2)
            kind = rng.choice(("grant", "take", "transfer"))
            amount = rng.randint(1, 20)
            if kind == "grant":
                b.move(world, a, amount, kind, at, None)
            elif kind == "take" and b.balance[a] >= amount:
                b.move(a, world, amount, kind, at, None)
            elif b.balance[a] >= amount:
                b.move(a, c, amount, "transfer", at, None)
    while len(b.movements) < MOVEMENTS:  # the few left over, spread over the evenings
        day = START + rng.randrange(EVENINGS) * DAY_MS + rng.randrange(EVENING_MS)
        b.move(world, rng.choice(purses), 1, "grant", day, None)
    conn.executemany(
        "INSERT INTO movements (id, at, actor_id, kind, reason, currency, amount, table_id) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        b.movements,
    )
    conn.executemany(
        "INSERT INTO ledger_entries (movement_id, account_id, amount) VALUES (?, ?, ?)",
        b.entries,
    )
    conn.executemany(
        "INSERT INTO table_events (table_id, seq, version, data) VALUES (?, ?, ?, ?)", events
    )
    conn.executemany(
        "UPDATE accounts SET balance = ? WHERE id = ?", [(v, a) for a, v in b.balance.items()]
    )
    conn.execute("COMMIT")
    conn.execute("ANALYZE")
    conn.close()


async def timed(runs: int, call: Callable[[], Awaitable[object]]) -> list[float]:
    """Milliseconds of each run of ``call``."""
    spent = []
    for _ in range(runs):
        start = time.perf_counter()
        await call()
        spent.append((time.perf_counter() - start) * 1000)
    return spent


def line(name: str, ms: list[float]) -> str:
    ordered = sorted(ms)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return f"{name:<34} median {statistics.median(ms):8.1f} ms   p99 {p99:8.1f} ms   (n={len(ms)})"


async def main(runs: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "books.db"
        await (await open_database(path)).close()
        started = time.perf_counter()
        build(path)
        built = time.perf_counter() - started
        db = await open_database(path)
        try:
            books = BooksService(db)
            last = START + EVENINGS * DAY_MS
            evening = functools.partial(books.report, GUILD, since=last - DAY_MS)
            history = functools.partial(books.report, GUILD, since=0)

            async def export() -> None:
                files = render.ExportFiles("en")
                await books.export(GUILD, files)
                files.close()

            print(f"database: {MOVEMENTS:,} movements, {GAMES:,} finished games ({built:.1f} s)")
            print(line("/gm report (last evening)", await timed(runs * 10, evening)))
            print(line("/gm report (whole history)", await timed(runs, history)))
            print(line("/gm export (whole guild)", await timed(max(3, runs // 4), export)))
        finally:
            await db.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=20)
    asyncio.run(main(parser.parse_args().runs))
