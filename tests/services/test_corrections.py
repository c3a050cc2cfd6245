"""Corrections (``/gm void``) against a real SQLite file: a finished table or one movement is
undone by compensating movements in one transaction, nothing deleted; refused, changing nothing,
when a purse no longer holds the coins (unless the server allows an overdraft and the GM asks),
for a live, cancelled or already voided table, or one whose rolled-over pot moved on."""

from __future__ import annotations

from typing import Any

import pytest

from bot.services.books import BooksService, VoidRefused, VoidShortfall
from bot.services.errors import PurseTooLow, UnknownTable
from bot.services.outcomes import TableOutcome
from tests.services import dice_game
from tests.services.conftest import ALICE_USER, BOB_USER, GM, GUILD, World

ANTE = 10


async def books_of(world: World) -> BooksService:
    return BooksService(world.db, clock=world.clock, games=world.tables_games)


async def character(world: World, name: str, user: int, coins: int) -> int:
    made = await world.characters.create(GUILD, name, owner_id=user)
    if coins:
        await world.purses.grant(made.id, "wh", coins, actor_id=GM, reason="start")
    return made.id


async def dice(
    world: World, players: list[int], key: str, *, rollover: bool = False, **kw: Any
) -> TableOutcome:
    """A dice table played to its end (every player rolls in turn)."""
    outcome = await world.tables.create(
        "dice",
        lambda rng: dice_game.new_table(ANTE, kw.get("carried", 0), rollover),
        guild_id=GUILD,
        channel_id=7,
        actor_id=GM,
        key=key,
        carry_from=kw.get("carry_from"),
    )
    steps = [dice_game.Join(p) for p in players] + [dice_game.Start(players[0])]
    steps += [dice_game.Roll(p) for p in players]
    for n, step in enumerate(steps):
        outcome = await world.tables.act(
            outcome.table_id, step, key=f"{key}:{n}", expected_version=None, actor_id=None
        )
    return outcome


async def decisive(world: World, players: list[int], key: str) -> tuple[TableOutcome, int, int]:
    """A dice table with one winner (a tie splits the pot: played again): it, winner, loser."""
    for n in range(20):
        before = await world.purses.balance(players[0], "wh")
        done = await dice(world, players, f"{key}:{n}")
        won = await world.purses.balance(players[0], "wh") - before
        if won:
            winner, loser = players if won > 0 else players[::-1]
            return done, winner, loser
    raise AssertionError("twenty ties in a row")


async def balances(world: World, *ids: int) -> list[int]:
    return [await world.purses.balance(i, "wh") for i in ids]


async def ledger_rows(world: World) -> list[tuple[Any, ...]]:
    async with world.db.read() as tx:
        return await tx.fetchall("SELECT * FROM ledger_entries ORDER BY id")


async def audited(world: World) -> None:
    audit = await world.purses.audit()
    assert audit.entries_total == 0 and audit.unbalanced_movements == ()
    assert audit.drifted_accounts == ()
    assert all(v == 0 for v in audit.balances_by_currency.values())


async def test_a_voided_table_gives_everything_back_in_reverse_order(world: World) -> None:
    books = await books_of(world)
    alice = await character(world, "Alice", ALICE_USER, 100)
    bob = await character(world, "Bob", BOB_USER, 100)
    done, winner, loser = await decisive(world, [alice, bob], "t1")
    assert done.status == "finished"
    names = {alice: "Alice", bob: "Bob"}
    assert await balances(world, winner, loser) == [110, 90]

    voided = await books.void_table(done.table_id, guild_id=GUILD, actor_id=GM)

    assert await balances(world, alice, bob) == [100, 100]
    assert await world.tables.pot_balance(done.table_id) == 0
    assert voided.table_id == done.table_id and voided.corrections == 3
    assert sorted((c.name, c.amount, c.balance) for c in voided.changes) == sorted(
        [(names[winner], -10, 100), (names[loser], 10, 100)]
    )
    async with world.db.read() as tx:
        rows = await tx.fetchall(
            "SELECT id, kind, reverses FROM movements WHERE table_id = ? ORDER BY id",
            (done.table_id,),
        )
        voided_at = await tx.fetchval("SELECT voided_at FROM tables WHERE id = ?", (done.table_id,))
    originals = [r for r in rows if r[1] != "correction"]
    fixes = [r for r in rows if r[1] == "correction"]
    assert [r[1] for r in originals] == ["stake", "stake", "payout"]  # nothing deleted
    assert [r[2] for r in fixes] == [r[0] for r in reversed(originals)]  # newest first
    assert voided_at == world.clock.now
    await audited(world)
    history = await world.purses.history(winner, "wh", limit=4)
    assert [(line.kind, line.amount, line.table_id) for line in history.lines] == [
        ("correction", 10, done.table_id),
        ("correction", -20, done.table_id),
        ("payout", 20, done.table_id),
        ("stake", -10, done.table_id),
    ]


async def test_a_winner_who_spent_part_of_the_winnings_can_still_be_voided(world: World) -> None:
    books = await books_of(world)
    alice = await character(world, "Alice", ALICE_USER, 100)
    bob = await character(world, "Bob", BOB_USER, 100)
    done, winner, loser = await decisive(world, [alice, bob], "t1")
    # 110 after the game; the payout was 20. Spending 95 leaves 15: undoing the payout alone
    # would need 20, but the whole table needs only 10 (its stake comes back after).
    await world.purses.take(winner, "wh", 95, actor_id=GM)
    await books.void_table(done.table_id, guild_id=GUILD, actor_id=GM)
    assert await balances(world, winner, loser) == [5, 100]
    async with world.db.read() as tx:
        assert await tx.fetchval("SELECT MIN(floor) FROM accounts") == 0  # the dip left no trace
    await audited(world)


async def test_a_purse_that_no_longer_holds_the_coins_refuses_unless_allowed(
    world: World,
) -> None:
    books = await books_of(world)
    alice = await character(world, "Alice", ALICE_USER, 100)
    bob = await character(world, "Bob", BOB_USER, 100)
    done, winner, _ = await decisive(world, [alice, bob], "t1")
    await world.purses.take(winner, "wh", 106, actor_id=GM)  # 4 left; the void takes 10
    before = await ledger_rows(world)

    with pytest.raises(VoidShortfall) as refused:
        await books.void_table(done.table_id, guild_id=GUILD, actor_id=GM)
    assert refused.value.code == "void_short"
    assert refused.value.params == {
        "name": "Alice" if winner == alice else "Bob",
        "balance": 4,
        "amount": 10,
        "currency": "wh",
    }
    with pytest.raises(VoidRefused) as off:
        await books.void_table(done.table_id, guild_id=GUILD, actor_id=GM, overdraft=True)
    assert off.value.code == "void_overdraft_off"
    await books.set_overdraft(GUILD, True)
    with pytest.raises(VoidShortfall) as hinted:
        await books.void_table(done.table_id, guild_id=GUILD, actor_id=GM)
    assert hinted.value.code == "void_short_allowed"
    assert await ledger_rows(world) == before  # every refusal changed nothing

    await books.void_table(done.table_id, guild_id=GUILD, actor_id=GM, overdraft=True)
    assert await world.purses.balance(winner, "wh") == -6
    with pytest.raises(PurseTooLow):  # ordinary debits stay guarded below zero
        await world.purses.take(winner, "wh", 1, actor_id=GM)
    await world.purses.grant(winner, "wh", 10, actor_id=GM)
    assert await world.purses.balance(winner, "wh") == 4
    await audited(world)


async def test_tables_that_cannot_be_voided_are_refused(world: World) -> None:
    books = await books_of(world)
    alice = await character(world, "Alice", ALICE_USER, 100)
    bob = await character(world, "Bob", BOB_USER, 100)
    live = await world.tables.create(
        "dice",
        lambda rng: dice_game.new_table(ANTE),
        guild_id=GUILD,
        channel_id=7,
        actor_id=GM,
        key="live",
    )
    cancelled = await world.tables.create(
        "dice",
        lambda rng: dice_game.new_table(ANTE),
        guild_id=GUILD,
        channel_id=7,
        actor_id=GM,
        key="gone",
    )
    await world.tables.cancel(cancelled.table_id, key="c", actor_id=GM)
    done = await dice(world, [alice, bob], "t1")
    before = await ledger_rows(world)

    async def code(table: int, guild: int = GUILD) -> str:
        with pytest.raises((VoidRefused, UnknownTable)) as refused:
            await books.void_table(table, guild_id=guild, actor_id=GM)
        return refused.value.code

    assert await code(live.table_id) == "void_table_live"
    assert await code(cancelled.table_id) == "void_table_cancelled"
    assert await code(done.table_id, guild=GUILD + 1) == "unknown_table"
    assert await code(999) == "unknown_table"
    assert await ledger_rows(world) == before
    await books.void_table(done.table_id, guild_id=GUILD, actor_id=GM)
    assert await code(done.table_id) == "void_twice"


async def test_a_pot_that_rolled_over_is_voided_only_after_the_next_table(world: World) -> None:
    books = await books_of(world)
    alice = await character(world, "Alice", ALICE_USER, 100)
    bob = await character(world, "Bob", BOB_USER, 100)
    n = 0
    while True:  # play until a tie rolls the pot over (the seeded dice decide when)
        first = await dice(world, [alice, bob], f"roll{n}", rollover=True)
        n += 1
        if await world.tables.pot_balance(first.table_id) == 2 * ANTE:
            break
        await books.void_table(first.table_id, guild_id=GUILD, actor_id=GM)
    second = await dice(world, [alice, bob], "next", carried=2 * ANTE, carry_from=first.table_id)
    with pytest.raises(VoidRefused) as refused:
        await books.void_table(first.table_id, guild_id=GUILD, actor_id=GM)
    assert refused.value.code == "void_pot_carried"
    assert refused.value.params == {"table": first.table_id, "into": second.table_id}

    await books.void_table(second.table_id, guild_id=GUILD, actor_id=GM)
    assert await world.tables.pot_balance(first.table_id) == 2 * ANTE  # back where it rolled
    await books.void_table(first.table_id, guild_id=GUILD, actor_id=GM)
    assert await balances(world, alice, bob) == [100, 100]
    await audited(world)


async def test_one_grant_take_or_payment_is_undone_once(world: World) -> None:
    books = await books_of(world)
    alice = await character(world, "Alice", ALICE_USER, 0)
    bob = await character(world, "Bob", BOB_USER, 0)
    grant = await world.purses.grant(alice, "wh", 50, actor_id=GM, reason="loot")
    paid = await world.purses.pay(alice, bob, "wh", 20, actor_id=ALICE_USER)
    take = await world.purses.take(bob, "wh", 5, actor_id=GM)
    assert await balances(world, alice, bob) == [30, 15]

    undone = await books.void_movement(take.movement_id, guild_id=GUILD, actor_id=GM)
    assert [(c.name, c.amount, c.balance) for c in undone.changes] == [("Bob", 5, 20)]
    await books.void_movement(paid.movement_id, guild_id=GUILD, actor_id=GM)
    assert await balances(world, alice, bob) == [50, 0]
    await books.void_movement(grant.movement_id, guild_id=GUILD, actor_id=GM)
    assert await balances(world, alice, bob) == [0, 0]

    async def code(movement: int, guild: int = GUILD) -> str:
        with pytest.raises(VoidRefused) as refused:
            await books.void_movement(movement, guild_id=guild, actor_id=GM)
        return refused.value.code

    assert await code(grant.movement_id) == "void_movement_twice"
    assert await code(grant.movement_id, guild=GUILD + 1) == "void_unknown_movement"
    async with world.db.read() as tx:
        correction = await tx.fetchval("SELECT MAX(id) FROM movements")
    assert await code(int(correction)) == "void_movement_kind"
    friend = await character(world, "Carl", 13, 100)
    other = await character(world, "Dora", 14, 100)
    done = await dice(world, [friend, other], "t1")
    async with world.db.read() as tx:
        stake = await tx.fetchval(
            "SELECT MIN(id) FROM movements WHERE table_id = ?", (done.table_id,)
        )
    assert await code(int(stake)) == "void_movement_table"
    await audited(world)


async def test_a_grant_already_spent_is_refused(world: World) -> None:
    books = await books_of(world)
    alice = await character(world, "Alice", ALICE_USER, 0)
    grant = await world.purses.grant(alice, "wh", 50, actor_id=GM)
    await world.purses.take(alice, "wh", 45, actor_id=GM)
    with pytest.raises(VoidShortfall) as refused:
        await books.void_movement(grant.movement_id, guild_id=GUILD, actor_id=GM)
    assert refused.value.params["balance"] == 5 and refused.value.params["amount"] == 50
    await books.set_overdraft(GUILD, True)
    await books.void_movement(grant.movement_id, guild_id=GUILD, actor_id=GM, overdraft=True)
    assert await world.purses.balance(alice, "wh") == -45
    await audited(world)
