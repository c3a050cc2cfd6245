"""``/gm export`` on 100,000 ledger rows: every movement of the guild (and none of another) in
both files, the sums to the coin, the coins beside every amount, memory that stays bounded
while it streams (tracemalloc), and one character's export netting to its purses."""

from __future__ import annotations

import csv
import gzip
import io
import json
import random
import sqlite3
import tracemalloc
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.render import books as render
from bot.rules.money import CURRENCIES, format_amount
from bot.services.books import BooksService
from bot.storage import books
from bot.storage.db import Database
from bot.storage.opening import open_database

GUILD = 10
OTHER = 11
ROWS = 100_000
CHARACTERS = 40
MEMORY_CAP = 8 * 2**20
"""Some 2.6 MiB are used; 100,000 rows at once take well over 100 MiB as records."""


def build(path: Path, rows: int, seed: int = 5) -> dict[int, dict[str, int]]:
    """``rows`` movements of GUILD (grants, payments, stakes and payouts) and a few of OTHER,
    written in one go with every balance kept; returns each character's balances."""
    rng = random.Random(seed)
    conn = sqlite3.connect(path)
    conn.execute("BEGIN")
    conn.executemany(
        "INSERT INTO characters (id, guild_id, name, name_key, owner_id, created_at) "
        "VALUES (?, ?, ?, ?, ?, 0)",
        [
            (c, GUILD if c <= CHARACTERS else OTHER, f"P{c}", f"p{c}", c)
            for c in range(1, CHARACTERS + 3)
        ],
    )
    accounts: dict[tuple[str, int], int] = {}  # (currency, character) -> account
    balance: dict[int, int] = {}
    kinds: dict[int, str] = {}

    def account(
        kind: str, guild: int, currency: str, character: int | None, table: int | None
    ) -> int:
        cursor = conn.execute(
            "INSERT INTO accounts (kind, guild_id, currency, character_id, table_id) "
            "VALUES (?, ?, ?, ?, ?)",
            (kind, guild, currency, character, table),
        )
        assert cursor.lastrowid is not None
        balance[cursor.lastrowid], kinds[cursor.lastrowid] = 0, kind
        return cursor.lastrowid

    world = {c: account("world", GUILD, c, None, None) for c in CURRENCIES}
    for character in range(1, CHARACTERS + 1):
        for currency in CURRENCIES:
            accounts[(currency, character)] = account("purse", GUILD, currency, character, None)
    conn.execute(
        "INSERT INTO tables (id, guild_id, channel_id, game, currency, settings, status, "
        "version, created_by, created_at) VALUES (1, ?, 1, 'pegaz', 'wh', '{}', 'finished', 1, "
        "1, 0)",
        (GUILD,),
    )
    pot = account("pot", GUILD, "wh", None, 1)
    other_world = account("world", OTHER, "wh", None, None)
    other_purse = account("purse", OTHER, "wh", CHARACTERS + 1, None)
    movements: list[tuple[Any, ...]] = []
    entries: list[tuple[int, int, int]] = []

    def move(source: int, target: int, amount: int, kind: str, currency: str, table: Any) -> None:
        number = len(movements) + 1
        movements.append((number, number, 1, kind, f"{kind} {number}", currency, amount, table))
        entries.extend(((number, source, -amount), (number, target, amount)))
        balance[source] -= amount
        balance[target] += amount

    while len(movements) - len(movements) // 97 < rows:
        currency = rng.choice(list(CURRENCIES))
        purse = accounts[(currency, rng.randint(1, CHARACTERS))]
        other = accounts[(currency, rng.randint(1, CHARACTERS))]
        amount = rng.randint(1, 500)
        roll = rng.random()
        if len(movements) % 97 == 96:  # another guild's, which must never show
            move(other_world, other_purse, amount, "grant", "wh", None)
        elif roll < 0.3 or balance[purse] < amount:
            move(world[currency], purse, amount, "grant", currency, None)
        elif roll < 0.6 and other != purse:
            move(purse, other, amount, "transfer", currency, None)
        elif currency == "wh" and roll < 0.8:
            move(purse, pot, amount, "stake", "wh", 1)
        elif currency == "wh" and balance[pot] >= amount:
            move(pot, purse, amount, "payout", "wh", 1)
        else:
            move(purse, world[currency], amount, "take", currency, None)
    conn.executemany(
        "INSERT INTO movements (id, at, actor_id, kind, reason, currency, amount, table_id) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        movements,
    )
    conn.executemany(
        "INSERT INTO ledger_entries (movement_id, account_id, amount) VALUES (?, ?, ?)", entries
    )
    conn.executemany(
        "UPDATE accounts SET balance = ? WHERE id = ?", [(b, a) for a, b in balance.items()]
    )
    conn.execute("COMMIT")
    conn.close()
    held: dict[int, dict[str, int]] = {}
    for (currency, character), acc in accounts.items():
        held.setdefault(character, {})[currency] = balance[acc]
    return held


@pytest.fixture
async def big(tmp_path: Path) -> AsyncIterator[tuple[Database, dict[int, dict[str, int]], int]]:
    path = tmp_path / "big.db"
    await (await open_database(path)).close()
    held = build(path, ROWS)  # and 1 in 97 more for the other guild
    db = await open_database(path)
    async with db.read() as tx:
        ours = int(
            await tx.fetchval(
                "SELECT COUNT(*) FROM movements m JOIN ledger_entries e ON e.movement_id = m.id "
                "AND e.amount > 0 JOIN accounts a ON a.id = e.account_id WHERE a.guild_id = ?",
                (GUILD,),
            )
        )
    yield db, held, ours
    await db.close()


def nets(
    records: list[dict[str, Any]] | csv.DictReader[str],
) -> tuple[Counter[tuple[str, str]], int]:
    """What the rows did to each character's purse (by name and currency), and their count."""
    net: Counter[tuple[str, str]] = Counter()
    count = 0
    for r in records:
        count += 1
        amount = int(r["amount"])
        if r["from_character"] not in (None, ""):
            net[(str(r["from"]), str(r["currency"]))] -= amount
        if r["to_character"] not in (None, ""):
            net[(str(r["to"]), str(r["currency"]))] += amount
        if count % 997 == 0:  # the coins beside the amount, in the guild's language
            assert r["amount_text"] == format_amount(amount, CURRENCIES[str(r["currency"])], "pl")
    return net, count


def nonzero(net: Counter[tuple[str, str]]) -> dict[tuple[str, str], int]:
    return {k: v for k, v in net.items() if v}


async def test_the_whole_guild_streams_to_the_coin(
    big: tuple[Database, dict[int, dict[str, int]], int],
) -> None:
    db, held, ours = big
    assert ours == ROWS
    books_service = BooksService(db)
    tracemalloc.start()
    out = render.ExportFiles("pl")
    rows = await books_service.export(GUILD, out)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < MEMORY_CAP, f"{peak / 2**20:.1f} MiB"
    try:
        assert rows == out.rows == ours
        assert out.fit(2**40) and not out.packed  # small enough: left as it is
        expected = {(f"P{c}", cur): v for c, by in held.items() for cur, v in by.items() if v}
        text = io.TextIOWrapper(out.csv, encoding="utf-8", newline="")
        from_csv, counted = nets(csv.DictReader(text))
        assert counted == ours and nonzero(from_csv) == expected
        records = json.load(out.json)
        from_json, counted = nets(records)
        assert counted == ours and nonzero(from_json) == expected
        assert all(r["reason"].startswith(r["kind"]) for r in records)
        assert {r["game"] for r in records if r["table"] is not None} == {"pegaz"}
        assert [r["movement"] for r in records] == sorted(r["movement"] for r in records)
    finally:
        out.close()

    one = render.ExportFiles("pl")
    try:
        await books_service.export(GUILD, one, character_id=3)
        assert one.fit(100_000) and one.packed == {"csv", "json"}  # too large: gzipped
        assert one.filename("ledger-p3", "csv") == "ledger-p3.csv.gz"
        from_one, counted = nets(json.load(gzip.GzipFile(fileobj=one.json)))
        mine = {k: v for k, v in nonzero(from_one).items() if k[0] == "P3"}
        assert mine == {("P3", cur): v for cur, v in held[3].items() if v}
        text = io.TextIOWrapper(gzip.GzipFile(fileobj=one.csv), "utf-8")
        assert counted == len(list(csv.DictReader(text)))
        assert not one.fit(10)  # not even gzipped
    finally:
        one.close()


async def test_an_empty_ledger_exports_empty_files(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "empty.db")
    try:
        out = render.ExportFiles("en")
        assert await BooksService(db).export(GUILD, out) == 0
        assert out.csv.read() == b"" and json.load(out.json) == []
        out.close()
        async with db.read() as tx:  # the export pages by key, never sorting the ledger
            for sql in (
                "EXPLAIN QUERY PLAN " + books._EXPORT + "WHERE m.id > 0 AND sa.guild_id = 1 "
                "ORDER BY m.id LIMIT 10",
            ):
                plan = " | ".join(str(r[-1]) for r in await tx.fetchall(sql))
                assert "TEMP B-TREE" not in plan and "SCAN" not in plan, plan
    finally:
        await db.close()
