"""Stats benchmark: ``python bench/stats.py``. Prints figures; never passes or fails.

Builds a server's books directly in SQLite (fast, but with the shapes the bot writes): 5,000
finished tables (3,000 Pegasus games of 2-6 players, 2,000 Pazaak matches) whose events come
from the rules' own event classes and whose movements are each event's ``transfers``, plus GM
grants and payments between purses up to 100,000 movements (twice as many ledger entries).
The projection is then built the slow way, by ``StatsService.rebuild`` (timed too), and the
reads behind ``/stats top`` (each board) and ``/stats character`` are timed: median and p99.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.rules import pazaak, pegaz
from bot.rules.common import OFFERING, POT
from bot.services.stats import StatsService
from bot.storage.db import Database, Tx
from bot.storage.opening import open_database

GUILD = 1
GM = 1
START = 1_700_000_000_000


class Books:
    """Rows to insert, with ids handed out here (the file starts empty)."""

    def __init__(self, characters: int, seed: int) -> None:
        self.rng = random.Random(seed)
        self.characters = list(range(1, characters + 1))
        self.accounts: dict[tuple[str, object], int] = {}
        self.account_rows: list[tuple[int, str, str, int | None, int | None]] = []
        self.tables: list[tuple[Any, ...]] = []
        self.events: list[tuple[int, int, int, bytes]] = []
        self.movements: list[tuple[Any, ...]] = []
        self.entries: list[tuple[int, int, int]] = []
        self.at = START

    def account(self, kind: str, currency: str, owner: object = None) -> int:
        key = (f"{kind}:{currency}", owner)
        if key not in self.accounts:
            self.accounts[key] = len(self.account_rows) + 1
            character = owner if kind == "purse" else None
            table = owner if kind == "pot" else None
            self.account_rows.append((self.accounts[key], kind, currency, character, table))  # type: ignore[arg-type]
        return self.accounts[key]

    def move(
        self,
        source: int,
        target: int,
        amount: int,
        kind: str,
        reason: str,
        currency: str,
        table: tuple[int, int, int] | None = None,
    ) -> None:
        movement_id = len(self.movements) + 1
        table_id, version, seq = table or (None, None, None)
        self.movements.append(
            (movement_id, self.at, GM, kind, reason, currency, amount, table_id, version, seq)
        )
        self.entries.append((movement_id, source, -amount))
        self.entries.append((movement_id, target, amount))

    def table(self, game: str, currency: str, settings: str, events: list[Any], rules: Any) -> None:
        table_id = len(self.tables) + 1
        self.at += self.rng.randint(60_000, 900_000)
        pot = self.account("pot", currency, table_id)
        for seq, event in enumerate(events):
            version = seq + 1
            self.events.append((table_id, seq, version, rules.dump_events([event])))
            for transfer in rules.transfers(event):
                ends = []
                for end in (transfer.source, transfer.target):
                    if end == POT:
                        ends.append(pot)
                    elif end == OFFERING:
                        ends.append(self.account("offering", currency))
                    else:
                        ends.append(self.account("purse", currency, end))
                kind = "stake" if transfer.target == POT else "payout"
                if transfer.target == OFFERING:
                    kind = "offering"
                self.move(
                    *ends,
                    transfer.amount,
                    kind,
                    transfer.reason,
                    currency,
                    (table_id, version, seq),
                )
        self.tables.append(
            (
                table_id,
                GUILD,
                10,
                game,
                currency,
                settings,
                "finished",
                len(events),
                GM,
                self.at - 600_000,
                self.at,
            )
        )

    def pegaz_game(self) -> None:
        rng = self.rng
        settings = pegaz.PegazSettings()
        players = rng.sample(self.characters, rng.randint(2, 6))
        stake = settings.stake
        events: list[Any] = [pegaz.TableOpened(settings, pegaz.RULES_VERSION)]
        events += [pegaz.Joined(p, False, p % 3 == 0, 40, 10**7, stake) for p in players]
        events.append(pegaz.Started(players[0]))
        events += [pegaz.Dealt(p, tuple(rng.randint(1, 8) for _ in range(3))) for p in players]
        pot = stake * len(players)
        for round_ in range(rng.randint(1, 3)):
            for p in players:
                events.append(pegaz.TurnStarted(p, round_ + 1, "exchange"))
                price = (1 + rng.randint(0, 2)) * stake
                events.append(pegaz.Exchanged(p, (0,), stake, price))
                events.append(pegaz.Drew(p, (0,), (rng.randint(1, 8),)))
                pot += price
        cheater = players[-1]
        if cheater % 3 == 0 and rng.random() < 0.2:
            events.append(pegaz.Caught(cheater, (players[0],)))
        winner = rng.choice(players)
        events += [pegaz.Folded(p, "fold") for p in players if p != winner]
        events.append(pegaz.GameEnded((winner,), (pot,)))
        events.append(pegaz.Offered(winner, pot // 10, rng.random() < 0.5))
        self.table("pegaz", "wh", settings.model_dump_json(), events, pegaz)

    def pazaak_match(self) -> None:
        rng = self.rng
        a, b = rng.sample(self.characters, 2)
        settings = pazaak.PazaakSettings(wager=rng.choice([50, 100, 250]))
        selection = pazaak.STARTER_COLLECTION[:10]
        _, events = pazaak.new_match(settings, a, selection, b, selection, rng)
        winner = rng.choice((a, b))
        events.append(pazaak.MatchEnded(winner, 2 * settings.wager, "sets"))
        self.table("pazaak", "cr", settings.model_dump_json(), list(events), pazaak)

    def everyday(self, movements: int) -> None:
        """GM grants and payments between purses, until the ledger holds ``movements``."""
        world = {c: self.account("world", c) for c in ("wh", "cr")}
        for character in self.characters:
            for currency in ("wh", "cr"):
                self.move(
                    world[currency],
                    self.account("purse", currency, character),
                    10**7,
                    "grant",
                    "starting purse",
                    currency,
                )
        while len(self.movements) < movements:
            self.at += 1000
            currency = self.rng.choice(("wh", "cr"))
            a, b = self.rng.sample(self.characters, 2)
            self.move(
                self.account("purse", currency, a),
                self.account("purse", currency, b),
                self.rng.randint(1, 500),
                "transfer",
                "a round",
                currency,
            )


async def fill(db: Database, books: Books) -> None:
    async with db.transaction() as tx:
        await tx.executemany(
            "INSERT INTO characters (id, guild_id, name, name_key, owner_id, created_at) "
            "VALUES (?, ?, ?, ?, ?, 0)",
            [(c, GUILD, f"Gambler {c}", f"gambler {c}", 1000 + c) for c in books.characters],
        )
        await tx.executemany(
            "INSERT INTO tables (id, guild_id, channel_id, game, currency, settings, status, "
            "version, created_by, created_at, closed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            books.tables,
        )
        await tx.executemany(
            "INSERT INTO accounts (id, kind, guild_id, currency, character_id, table_id) "
            f"VALUES (?, ?, {GUILD}, ?, ?, ?)",
            books.account_rows,
        )
        await tx.executemany(
            "INSERT INTO table_events (table_id, seq, version, data) VALUES (?, ?, ?, ?)",
            books.events,
        )
        await tx.executemany(
            "INSERT INTO movements (id, at, actor_id, kind, reason, currency, amount, table_id, "
            "table_version, event_seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            books.movements,
        )
        await tx.executemany(
            "INSERT INTO ledger_entries (movement_id, account_id, amount) VALUES (?, ?, ?)",
            books.entries,
        )
        await balances(tx)


async def balances(tx: Tx) -> None:
    await tx.execute(
        "UPDATE accounts SET balance = (SELECT COALESCE(SUM(amount), 0) FROM ledger_entries e "
        "WHERE e.account_id = accounts.id)"
    )


async def timed(call: Callable[[], Awaitable[object]], runs: int) -> tuple[float, float]:
    """Median and p99 of ``runs`` calls, in milliseconds."""
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        await call()
        times.append((time.perf_counter() - began) * 1000)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.99))]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--characters", type=int, default=300)
    parser.add_argument("--pegaz", type=int, default=3000)
    parser.add_argument("--pazaak", type=int, default=2000)
    parser.add_argument("--movements", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=15)
    options = parser.parse_args()

    books = Books(options.characters, options.seed)
    games = ["pegaz"] * options.pegaz + ["pazaak"] * options.pazaak
    books.rng.shuffle(games)
    for game in games:
        if game == "pegaz":
            books.pegaz_game()
        else:
            books.pazaak_match()
    books.everyday(options.movements)
    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(Path(folder) / "stats.db")
        began = time.perf_counter()
        await fill(db, books)
        filled = time.perf_counter() - began
        service = StatsService(db)
        began = time.perf_counter()
        tables = await service.rebuild()
        rebuilt = time.perf_counter() - began
        async with db.read() as tx:
            movements = int(await tx.fetchval("SELECT count(*) FROM movements"))
            entries = int(await tx.fetchval("SELECT count(*) FROM ledger_entries"))
        print(
            f"books: {tables:,} finished tables, {movements:,} movements, {entries:,} ledger "
            f"entries, {options.characters} characters (filled in {filled:.1f} s)"
        )
        print(f"rebuild of the stats from every table's events and movements: {rebuilt:.2f} s")
        for board in ("net", "pots", "pazaak"):
            median, p99 = await timed(lambda b=board: service.top(GUILD, b), options.runs)  # type: ignore[misc]
            print(f"/stats top by {board}: median {median:.2f} ms, p99 {p99:.2f} ms")
        pick = random.Random(options.seed)
        median, p99 = await timed(
            lambda: service.character(pick.choice(books.characters)), options.runs
        )
        print(f"/stats character: median {median:.2f} ms, p99 {p99:.2f} ms")
        await db.close()


if __name__ == "__main__":
    asyncio.run(main())
