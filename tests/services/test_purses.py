"""Purses: GM grants and takes, payments, typed refusals, concurrent debits, history."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.services.errors import (
    AmountNotPositive,
    NotOwner,
    PurseTooLow,
    SamePurse,
    UnknownCharacter,
    UnknownCurrency,
)
from tests.services.conftest import ALICE_USER, BOB_USER, GM, GUILD, World


async def two(world: World) -> tuple[int, int]:
    alice = await world.characters.create(GUILD, "Alice", owner_id=ALICE_USER)
    bob = await world.characters.create(GUILD, "Bob", owner_id=BOB_USER)
    return alice.id, bob.id


async def test_grant_take_and_pay_move_coins_and_balance_the_books(world: World) -> None:
    alice, bob = await two(world)
    granted = await world.purses.grant(alice, "wh", 240, actor_id=GM, reason="loot")
    assert granted.balances == {alice: 240}
    paid = await world.purses.pay(alice, bob, "wh", 40, actor_id=ALICE_USER)
    assert paid.balances == {alice: 200, bob: 40}
    await world.purses.take(alice, "wh", 100, actor_id=GM)
    assert await world.purses.balances(alice) == {"wh": 100, "cr": 0}
    assert await world.purses.balance(bob, "wh") == 40
    audit = await world.purses.audit()
    assert audit.entries_total == 0 and audit.drifted_accounts == ()
    assert audit.balances_by_currency == {"cr": 0, "wh": 0}
    async with world.db.read() as tx:
        world_balance = await tx.fetchval("SELECT balance FROM accounts WHERE kind = 'world'")
    assert world_balance == -140


async def test_refusals_are_typed_and_change_nothing(world: World) -> None:
    alice, bob = await two(world)
    await world.purses.grant(alice, "cr", 50, actor_id=GM)
    with pytest.raises(PurseTooLow) as caught:
        await world.purses.pay(alice, bob, "cr", 51, actor_id=ALICE_USER)
    assert caught.value.params == {
        "character": alice,
        "amount": 51,
        "balance": 50,
        "currency": "cr",
    }
    with pytest.raises(SamePurse):
        await world.purses.pay(alice, alice, "cr", 1, actor_id=ALICE_USER)
    with pytest.raises(NotOwner):
        await world.purses.pay(alice, bob, "cr", 1, actor_id=BOB_USER)
    for bad in (0, -5, True):
        with pytest.raises(AmountNotPositive):
            await world.purses.grant(alice, "cr", bad, actor_id=GM)
    with pytest.raises(UnknownCurrency):
        await world.purses.grant(alice, "gold", 1, actor_id=GM)
    with pytest.raises(UnknownCharacter):
        await world.purses.grant(999, "cr", 1, actor_id=GM)
    with pytest.raises(PurseTooLow):
        await world.purses.take(bob, "cr", 1, actor_id=GM)
    assert await world.purses.balance(alice, "cr") == 50
    assert (await world.purses.history(alice, "cr")).lines[0].kind == "grant"
    # a GM may move coins for anyone
    await world.purses.pay(alice, bob, "cr", 5, actor_id=GM, as_gm=True)
    assert await world.purses.balance(bob, "cr") == 5


async def test_200_concurrent_debits_never_overdraw(world: World) -> None:
    alice, _ = await two(world)
    start = 1000
    await world.purses.grant(alice, "wh", start, actor_id=GM)
    rng = random.Random(7)
    amounts = [rng.randint(1, 20) for _ in range(200)]
    assert sum(amounts) > start  # some must be refused

    async def debit(amount: int) -> int:
        try:
            await world.purses.take(alice, "wh", amount, actor_id=GM)
        except PurseTooLow:
            return 0
        return amount

    taken = await asyncio.gather(*(debit(a) for a in amounts))
    balance = await world.purses.balance(alice, "wh")
    assert balance >= 0
    assert balance + sum(taken) == start
    assert any(t == 0 for t in taken)
    # and the purse never went below zero on the way: replay its ledger, oldest first
    lines, before = [], None
    while True:
        page = await world.purses.history(alice, "wh", before=before, limit=50)
        lines += page.lines
        if page.next_before is None:
            break
        before = page.next_before
    running = 0
    for line in reversed(lines):
        running += line.amount
        assert running >= 0
    assert running == balance
    assert len(lines) == 1 + sum(1 for t in taken if t)


async def test_history_pages_newest_first_without_gaps_or_repeats(world: World) -> None:
    alice, bob = await two(world)
    for n in range(1, 24):
        world.clock.now += 1
        await world.purses.grant(alice, "wh", n, actor_id=GM, reason=f"gift {n}")
    await world.purses.pay(alice, bob, "wh", 5, actor_id=ALICE_USER, reason="beer")
    first = await world.purses.history(alice, "wh", limit=10)
    assert [line.reason for line in first.lines[:3]] == ["beer", "gift 23", "gift 22"]
    assert first.lines[0].amount == -5 and first.lines[0].other_character_id == bob
    assert first.lines[1].other_kind == "world" and first.lines[1].actor_id == GM
    second = await world.purses.history(alice, "wh", before=first.next_before, limit=10)
    third = await world.purses.history(alice, "wh", before=second.next_before, limit=10)
    assert (len(first.lines), len(second.lines), len(third.lines)) == (10, 10, 4)
    assert third.next_before is None
    reasons = [line.reason for page in (first, second, third) for line in page.lines]
    assert reasons == ["beer"] + [f"gift {n}" for n in range(23, 0, -1)]
    ats = [line.at for page in (first, second, third) for line in page.lines]
    assert ats == sorted(ats, reverse=True)
    exact = await world.purses.history(alice, "wh", limit=24)
    assert len(exact.lines) == 24 and exact.next_before is None
    assert (await world.purses.history(bob, "cr")).lines == ()
