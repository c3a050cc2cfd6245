"""The table service against the tiny dice game: outcomes, idempotency, stale versions, rules
errors, refunds, seats, timers and the restore."""

from __future__ import annotations

import random

import pytest

from bot.rules.common import POT, NotSeated, NotYourTurn, Transfer
from bot.services import TableService
from bot.services.errors import (
    AlreadyInMatch,
    PotMismatch,
    PurseTooLow,
    StaleAction,
    TableClosed,
    UnknownGame,
    UnknownTable,
)
from tests.services import dice_game
from tests.services.conftest import ALICE_USER, BOB_USER, GM, GUILD, World, dice_spec


async def seat_two(world: World, ante: int = 10, funds: int = 100) -> tuple[int, int, int]:
    alice = await world.characters.create(GUILD, "Alice", owner_id=ALICE_USER)
    bob = await world.characters.create(GUILD, "Bob", owner_id=BOB_USER)
    for who in (alice, bob):
        await world.purses.grant(who.id, "wh", funds, actor_id=GM)
    table = await world.tables.create(
        "dice",
        lambda rng: dice_game.new_table(ante),
        guild_id=GUILD,
        channel_id=5,
        actor_id=GM,
        key="create",
    )
    for n, who in enumerate((alice, bob)):
        await world.tables.act(
            table.table_id,
            dice_game.Join(who.id),
            key=f"join{n}",
            expected_version=None,
            actor_id=who.owner_id,
        )
    return table.table_id, alice.id, bob.id


async def test_an_action_returns_its_outcome_and_writes_it(world: World) -> None:
    table_id, alice, bob = await seat_two(world)
    view = await world.tables.get(table_id)
    assert view.version == 3 and view.status == "open" and view.seats == {alice, bob}
    started = await world.tables.act(
        table_id, dice_game.Start(alice), key=100, expected_version=3, actor_id=ALICE_USER
    )
    assert started.version == 4 and started.status == "running"
    assert started.events == (dice_game.Started(),)
    assert started.transfers == ()
    assert started.deadline == world.clock.now + 60_000
    assert await world.purses.balance(alice, "wh") == 90
    assert await world.tables.pot_balance(table_id) == 20


async def test_a_full_game_pays_the_winner_and_frees_the_seats(world: World) -> None:
    table_id, alice, bob = await seat_two(world)
    await world.tables.act(
        table_id, dice_game.Start(alice), key="s", expected_version=None, actor_id=ALICE_USER
    )
    await world.tables.act(
        table_id, dice_game.Roll(alice), key="r1", expected_version=None, actor_id=ALICE_USER
    )
    last = await world.tables.act(
        table_id, dice_game.Roll(bob), key="r2", expected_version=None, actor_id=BOB_USER
    )
    assert last.status == "finished" and last.deadline is None
    won = last.events[-1]
    assert isinstance(won, dice_game.Won)
    assert last.transfers == tuple(
        Transfer(POT, p, a, "payout") for p, a in zip(won.players, won.amounts, strict=True)
    )
    assert await world.tables.pot_balance(table_id) == 0
    assert await world.tables.seated_at(alice) == []
    total = sum([await world.purses.balance(c, "wh") for c in (alice, bob)])
    assert total == 200
    with pytest.raises(TableClosed):
        await world.tables.act(
            table_id, dice_game.Roll(bob), key="late", expected_version=None, actor_id=BOB_USER
        )


async def test_the_same_key_twice_is_one_action(world: World) -> None:
    table_id, alice, _ = await seat_two(world)
    first = await world.tables.act(
        table_id, dice_game.Start(alice), key=777, expected_version=3, actor_id=ALICE_USER
    )
    again = await world.tables.act(
        table_id, dice_game.Start(alice), key="777", expected_version=3, actor_id=ALICE_USER
    )
    assert again.repeated and not first.repeated
    assert (again.table_id, again.version, again.events, again.transfers, again.state) == (
        first.table_id,
        first.version,
        first.events,
        first.transfers,
        first.state,
    )
    assert (await world.tables.get(table_id)).version == 4


async def test_a_repeated_key_after_a_restart_rebuilds_an_older_outcome(world: World) -> None:
    table_id, alice, bob = await seat_two(world)
    joined_again = await world.tables.act(
        table_id, dice_game.Join(bob), key="join1", expected_version=None, actor_id=BOB_USER
    )
    await world.tables.act(
        table_id, dice_game.Start(alice), key="s", expected_version=None, actor_id=ALICE_USER
    )
    await world.reopen()
    again = await world.tables.act(
        table_id, dice_game.Join(bob), key="join1", expected_version=None, actor_id=BOB_USER
    )
    assert again.repeated and again.version == 3 == joined_again.version
    assert again.events == (dice_game.Joined(bob, 10),)
    assert again.transfers == (Transfer(bob, POT, 10, "ante"),)
    assert again.state.players == (alice, bob) and again.state.phase == "seating"
    assert again.status == "open"


async def test_a_stale_version_is_refused_and_changes_nothing(world: World) -> None:
    table_id, alice, _ = await seat_two(world)
    with pytest.raises(StaleAction) as caught:
        await world.tables.act(
            table_id, dice_game.Start(alice), key="old", expected_version=2, actor_id=ALICE_USER
        )
    assert caught.value.code == "stale_action"
    assert caught.value.params == {"table": table_id, "expected": 2, "current": 3}
    view = await world.tables.get(table_id)
    assert view.version == 3 and view.state.phase == "seating"
    await world.reopen()
    assert (await world.tables.get(table_id)).version == 3
    # the refused key was not burnt: it may be used for a real action
    done = await world.tables.act(
        table_id, dice_game.Start(alice), key="old", expected_version=3, actor_id=ALICE_USER
    )
    assert not done.repeated and done.version == 4


async def test_only_the_player_of_a_seat_acts_for_it(world: World) -> None:
    table_id, alice, _ = await seat_two(world)
    with pytest.raises(NotSeated):  # Bob's user acting for Alice's seat
        await world.tables.act(
            table_id,
            dice_game.Start(alice),
            key="bob-for-alice",
            expected_version=3,
            actor_id=BOB_USER,
            seat=alice,
        )
    assert (await world.tables.get(table_id)).version == 3
    done = await world.tables.act(
        table_id,
        dice_game.Start(alice),
        key="alice",
        expected_version=3,
        actor_id=ALICE_USER,
        seat=alice,
    )
    assert done.version == 4


async def test_a_rules_error_propagates_typed_and_changes_nothing(world: World) -> None:
    table_id, alice, bob = await seat_two(world)
    await world.tables.act(
        table_id, dice_game.Start(alice), key="s", expected_version=None, actor_id=ALICE_USER
    )
    audit_before = await world.purses.audit()
    with pytest.raises(NotYourTurn) as caught:
        await world.tables.act(
            table_id, dice_game.Roll(bob), key="bad", expected_version=4, actor_id=BOB_USER
        )
    assert caught.value.code == "not_your_turn" and caught.value.params == {"player": bob}
    assert (await world.tables.get(table_id)).version == 4
    assert await world.purses.audit() == audit_before
    async with world.db.read() as tx:
        assert await tx.fetchval("SELECT count(*) FROM action_keys WHERE key = 'bad'") == 0


async def test_insufficient_funds_in_the_purse_rolls_back_the_whole_action(world: World) -> None:
    table_id, _, _ = await seat_two(world, ante=10)
    poor = await world.characters.create(GUILD, "Poor Pete", owner_id=99)
    await world.purses.grant(poor.id, "wh", 9, actor_id=GM)
    with pytest.raises(PurseTooLow) as caught:
        await world.tables.act(
            table_id, dice_game.Join(poor.id), key="poor", expected_version=3, actor_id=99
        )
    assert caught.value.params == {
        "character": poor.id,
        "amount": 10,
        "balance": 9,
        "currency": "wh",
    }
    view = await world.tables.get(table_id)
    assert view.version == 3 and poor.id not in view.seats
    async with world.db.read() as tx:
        assert (
            await tx.fetchval("SELECT count(*) FROM table_events WHERE table_id = ?", (table_id,))
            == 3
        )
    assert await world.purses.balance(poor.id, "wh") == 9


async def test_cancel_with_the_rules_cancel_action_refunds_every_ante(world: World) -> None:
    table_id, alice, bob = await seat_two(world)
    done = await world.tables.cancel(table_id, key="c", actor_id=GM)
    assert done.status == "cancelled"
    assert set(done.transfers) == {
        Transfer(POT, alice, 10, "refund"),
        Transfer(POT, bob, 10, "refund"),
    }
    assert isinstance(done.events[0], dice_game.Cancelled)
    assert await world.purses.balance(alice, "wh") == 100
    assert await world.tables.pot_balance(table_id) == 0
    assert await world.tables.seated_at(alice) == []
    with pytest.raises(TableClosed):
        await world.tables.cancel(table_id, key="c2", actor_id=GM)


async def test_cancel_without_a_rules_cancel_refunds_by_the_ledger(world: World) -> None:
    world.use_game(dice_spec(cancel=False))
    table_id, alice, bob = await seat_two(world, ante=7)
    await world.tables.act(
        table_id, dice_game.Start(alice), key="s", expected_version=None, actor_id=ALICE_USER
    )
    done = await world.tables.cancel(table_id, key="c", actor_id=GM)
    assert done.events == () and done.status == "cancelled"
    assert done.transfers == (Transfer(POT, alice, 7, "refund"), Transfer(POT, bob, 7, "refund"))
    assert [await world.purses.balance(c, "wh") for c in (alice, bob)] == [100, 100]
    assert await world.tables.pot_balance(table_id) == 0
    again = await world.tables.cancel(table_id, key="c", actor_id=GM)
    assert again.repeated and again.transfers == done.transfers


async def test_an_exclusive_game_seats_a_character_once(world: World) -> None:
    world.use_game(dice_spec(exclusive=True))
    table_id, alice, _ = await seat_two(world)
    other = await world.tables.create(
        "dice",
        lambda rng: dice_game.new_table(1),
        guild_id=GUILD,
        channel_id=6,
        actor_id=GM,
        key="other",
    )
    with pytest.raises(AlreadyInMatch) as caught:
        await world.tables.act(
            other.table_id,
            dice_game.Join(alice),
            key="j",
            expected_version=None,
            actor_id=ALICE_USER,
        )
    assert caught.value.params == {"character": alice, "table": table_id}
    assert (await world.tables.get(other.table_id)).version == 1
    assert await world.purses.balance(alice, "wh") == 90


async def test_the_turn_timer_survives_a_restart_and_fires_once(world: World) -> None:
    table_id, alice, _ = await seat_two(world)
    started = await world.tables.act(
        table_id, dice_game.Start(alice), key="s", expected_version=None, actor_id=ALICE_USER
    )
    assert await world.tables.due_timeouts() == []
    world.clock.now += 60_000
    await world.reopen()
    assert await world.tables.next_deadline() == started.deadline
    assert await world.tables.due_timeouts() == [(table_id, 4)]
    fired = await world.tables.fire_timeout(table_id, 4)
    assert fired is not None and fired.events[0] == dice_game.Rolled(alice, fired.state.rolls[0])
    assert fired.deadline == world.clock.now + 60_000
    assert await world.tables.fire_timeout(table_id, 4) is None  # stale: already fired
    assert await world.tables.due_timeouts() == []


async def test_unknown_table_and_game(world: World) -> None:
    with pytest.raises(UnknownTable):
        await world.tables.get(404)
    with pytest.raises(UnknownTable):
        await world.tables.act(404, dice_game.Start(1), key="x", expected_version=None, actor_id=1)
    with pytest.raises(UnknownGame):
        await world.tables.create(
            "poker",
            lambda rng: dice_game.new_table(1),
            guild_id=GUILD,
            channel_id=1,
            actor_id=GM,
            key="p",
        )


async def test_restore_rebuilds_every_live_table_equal_to_the_live_one(world: World) -> None:
    table_id, alice, _ = await seat_two(world)
    await world.tables.act(
        table_id, dice_game.Start(alice), key="s", expected_version=None, actor_id=ALICE_USER
    )
    live = await world.tables.get(table_id)
    await world.reopen()
    restored = await world.tables.restore()
    assert restored == [live]


async def test_the_reading_helpers(world: World) -> None:
    table_id, alice, _ = await seat_two(world)
    other = await world.tables.create(
        "dice",
        lambda rng: dice_game.new_table(1),
        guild_id=GUILD + 1,
        channel_id=9,
        actor_id=BOB_USER,
        key="elsewhere",
    )
    assert await world.tables.opener(table_id) == GM
    assert await world.tables.opener(other.table_id) == BOB_USER
    assert [v.table_id for v in await world.tables.live_in_guild(GUILD)] == [table_id]
    assert await world.tables.live_in_channel(GUILD, 5) == [table_id]
    assert await world.tables.seated_at(alice) == [table_id]
    assert await world.tables.history(table_id) == [
        dice_game.Opened(10),
        dice_game.Joined(alice, 10),
        dice_game.Joined(alice + 1, 10),
    ]


class AlwaysThree(random.Random):
    def randint(self, a: int, b: int) -> int:
        return 3


async def test_a_rolled_over_pot_is_carried_into_the_next_table(world: World) -> None:
    world.tables = TableService(
        world.db, games=world.tables_games, rng_factory=AlwaysThree, clock=world.clock
    )
    alice = await world.characters.create(GUILD, "Alice", owner_id=ALICE_USER)
    bob = await world.characters.create(GUILD, "Bob", owner_id=BOB_USER)
    for who in (alice, bob):
        await world.purses.grant(who.id, "wh", 100, actor_id=GM)
    first = await world.tables.create(
        "dice",
        lambda r: dice_game.new_table(10, rollover=True),
        guild_id=GUILD,
        channel_id=1,
        actor_id=GM,
        key="t1",
    )
    for n, action in enumerate(
        [
            dice_game.Join(alice.id),
            dice_game.Join(bob.id),
            dice_game.Start(alice.id),
            dice_game.Roll(alice.id),
            dice_game.Roll(bob.id),
        ]
    ):
        done = await world.tables.act(
            first.table_id, action, key=f"a{n}", expected_version=None, actor_id=GM
        )
    assert done.status == "finished" and done.transfers == ()
    assert await world.tables.pot_balance(first.table_id) == 20
    with pytest.raises(PotMismatch):  # the rules expect a carried pot the ledger does not hold
        await world.tables.create(
            "dice",
            lambda r: dice_game.new_table(10, carried=20),
            guild_id=GUILD,
            channel_id=1,
            actor_id=GM,
            key="bad",
        )
    second = await world.tables.create(
        "dice",
        lambda r: dice_game.new_table(10, carried=20),
        guild_id=GUILD,
        channel_id=1,
        actor_id=GM,
        key="t2",
        carry_from=first.table_id,
    )
    assert await world.tables.pot_balance(second.table_id) == 20
    assert await world.tables.pot_balance(first.table_id) == 0
    with pytest.raises(TableClosed):  # a live table's pot is not for carrying
        await world.tables.create(
            "dice",
            lambda r: dice_game.new_table(1),
            guild_id=GUILD,
            channel_id=1,
            actor_id=GM,
            key="t3",
            carry_from=second.table_id,
        )
    audit = await world.purses.audit()
    assert audit.balances_by_currency["wh"] == 0 and audit.drifted_accounts == ()
