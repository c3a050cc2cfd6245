"""The property of issue 15: after random grants, takes, payments and games, then random voids
(some refused, some with an overdraft), the ledger audit still balances to the coin, every
voided movement nets to zero on each of its accounts, a refused void changes nothing, and only
an allowed overdraft leaves a purse below zero."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.services.books import BooksService, VoidRefused, VoidShortfall
from bot.services.errors import PurseTooLow
from tests.services.conftest import GM, GUILD, FakeClock, World, all_games, make_world
from tests.services.test_corrections import dice

PLAYERS = 3
WHO = st.integers(0, PLAYERS - 1)
AMOUNT = st.integers(1, 60)
STEP = st.one_of(
    st.tuples(st.just("grant"), WHO, AMOUNT),
    st.tuples(st.just("take"), WHO, AMOUNT),
    st.tuples(st.just("pay"), WHO, WHO, AMOUNT),
    st.tuples(st.just("dice"), st.permutations(range(PLAYERS)), st.integers(2, PLAYERS)),
)
VOID = st.tuples(st.integers(0, 40), st.booleans())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    steps=st.lists(STEP, min_size=1, max_size=12),
    voids=st.lists(VOID, max_size=8),
    overdraft=st.booleans(),
)
def test_voids_keep_the_books_balanced(
    steps: list[tuple[Any, ...]], voids: list[tuple[int, bool]], overdraft: bool
) -> None:
    asyncio.run(evening(steps, voids, overdraft))


async def evening(steps: list[tuple[Any, ...]], voids: list[tuple[int, bool]], od: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        world = await make_world(Path(folder) / "books.db", FakeClock(), all_games())
        try:
            await play(world, steps, voids, od)
        finally:
            await world.db.close()


async def play(
    world: World, steps: list[tuple[Any, ...]], voids: list[tuple[int, bool]], od: bool
) -> None:
    books = BooksService(world.db, clock=world.clock, games=world.tables_games)
    await books.set_overdraft(GUILD, od)
    ids = []
    for n in range(PLAYERS):
        made = await world.characters.create(GUILD, f"P{n}", owner_id=100 + n)
        await world.purses.grant(made.id, "wh", 30, actor_id=GM)
        ids.append(made.id)
    targets: list[tuple[str, int]] = []  # what a void may name: tables and movements
    for n, step in enumerate(steps):
        world.clock.now += 1000
        try:
            if step[0] == "grant":
                done = await world.purses.grant(ids[step[1]], "wh", step[2], actor_id=GM)
            elif step[0] == "take":
                done = await world.purses.take(ids[step[1]], "wh", step[2], actor_id=GM)
            elif step[0] == "pay":
                if step[1] == step[2]:
                    continue
                done = await world.purses.pay(
                    ids[step[1]], ids[step[2]], "wh", step[3], actor_id=GM, as_gm=True
                )
            else:
                seated = [ids[i] for i in step[1][: step[2]]]
                if min([await world.purses.balance(i, "wh") for i in seated]) < 10:
                    continue
                table = await dice(world, seated, f"g{n}")
                targets.append(("table", table.table_id))
                continue
        except PurseTooLow:
            continue
        targets.append(("movement", done.movement_id))

    overdrawn = False
    for pick, asked in voids:
        if not targets:
            break
        kind, target = targets[pick % len(targets)]
        before = await rows(world)
        try:
            if kind == "table":
                await books.void_table(target, guild_id=GUILD, actor_id=GM, overdraft=asked)
            else:
                await books.void_movement(target, guild_id=GUILD, actor_id=GM, overdraft=asked)
        except (VoidRefused, VoidShortfall) as refused:
            assert await rows(world) == before  # a refusal changes nothing
            if refused.code == "void_overdraft_off":
                assert asked and not od
            continue
        overdrawn |= asked and od

    await balanced(world, overdrawn)


async def rows(world: World) -> list[tuple[Any, ...]]:
    async with world.db.read() as tx:
        return await tx.fetchall("SELECT * FROM ledger_entries ORDER BY id")


async def balanced(world: World, overdrawn: bool) -> None:
    audit = await world.purses.audit()
    assert audit.entries_total == 0
    assert audit.unbalanced_movements == () and audit.drifted_accounts == ()
    assert all(total == 0 for total in audit.balances_by_currency.values())
    async with world.db.read() as tx:
        unnetted = await tx.fetchall(
            "SELECT e.account_id, SUM(e.amount) FROM movements c "
            "JOIN ledger_entries e ON e.movement_id IN (c.id, c.reverses) "
            "WHERE c.kind = 'correction' GROUP BY c.id, e.account_id HAVING SUM(e.amount) <> 0"
        )
        below = await tx.fetchall(
            "SELECT kind, balance, floor FROM accounts WHERE balance < 0 AND kind <> 'world'"
        )
        twice = await tx.fetchall(
            "SELECT reverses FROM movements WHERE reverses IS NOT NULL "
            "GROUP BY reverses HAVING COUNT(*) > 1"
        )
        shaky = await tx.fetchall(
            "SELECT id FROM accounts WHERE balance < floor AND kind <> 'world'"
        )
    assert unnetted == [] and twice == [] and shaky == []
    assert all(kind == "purse" and floor <= balance for kind, balance, floor in below)
    assert overdrawn or below == []
