"""Side bets against a real SQLite file: the stake goes into the table's escrow with its row in
one transaction (or nothing does), the refusals, and the settlement in the step that ends the
table (pari-mutuel payout, refunds), with the ledger's audit balanced throughout."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.rules import pegaz
from bot.services.books import BooksService
from bot.services.errors import PurseTooLow, UnknownCharacter
from bot.services.outcomes import TableOutcome
from bot.services.side_bets import (
    SideBetOpener,
    SideBetsClosed,
    SideBetSeated,
    SideBetService,
    SideBetsOff,
    SideBetTwice,
    settle_side_bets,
    winner_of,
)
from bot.storage import side_bets as rows
from tests.services.conftest import ALICE_USER, GM, GUILD, World

S = 12
CAROL = 21
DAVE = 22


async def act(world: World, table_id: int, action: object, key: str) -> TableOutcome:
    return await world.tables.act(table_id, action, key=key, expected_version=None, actor_id=GM)


async def setup(world: World, *, side_bets: bool = True) -> tuple[int, int, int, int, int]:
    """A Pegaz table with Ann and Bob seated; Carol and Dave (spectators) hold 100 p each."""
    created = await world.tables.create(
        "pegaz",
        lambda rng: pegaz.new_table(pegaz.PegazSettings(stake=S, side_bets=side_bets)),
        guild_id=GUILD,
        channel_id=1,
        actor_id=GM,
        key="open",
    )
    table = created.table_id
    players = []
    for n, name in enumerate(("Ann", "Bob")):
        who = await world.characters.create(GUILD, name, owner_id=ALICE_USER + n)
        await world.purses.grant(who.id, "wh", 100, actor_id=GM)
        await act(world, table, pegaz.Join(who.id, False, False, 0, 100), f"j{n}")
        players.append(who.id)
    spectators = []
    for user, name in ((CAROL, "Carol"), (DAVE, "Dave")):
        who = await world.characters.create(GUILD, name, owner_id=user)
        await world.purses.grant(who.id, "wh", 100, actor_id=GM)
        spectators.append(who.id)
    return table, players[0], players[1], spectators[0], spectators[1]


def bets(world: World) -> SideBetService:
    return SideBetService(world.db, world.tables, clock=world.clock)


async def escrow(world: World, table: int) -> int:
    async with world.db.read() as tx:
        account = await rows.find_escrow(tx, table)
        return (
            0
            if account is None
            else int(await tx.fetchval("SELECT balance FROM accounts WHERE id = ?", (account,)))
        )


async def balanced(world: World) -> None:
    audit = await world.purses.audit()
    assert audit.entries_total == 0
    assert audit.unbalanced_movements == () and audit.drifted_accounts == ()


async def play_out(
    world: World, table: int, loser: int | None = None, *, winner: int = 0
) -> TableOutcome:
    """Start; everyone but ``winner`` (or ``loser`` alone, of two) folds on their turn, the
    winner keeps their cards; the winner keeps the offering, so the table finishes."""
    done = await act(world, table, pegaz.Start(loser or winner), "start")
    while not pegaz.is_over(done.state):
        if done.state.phase is pegaz.Phase.OFFERING:
            done = await act(world, table, pegaz.Offer(done.state.offers[0], False), "offer")
            continue
        turn = pegaz.whose_turn(done.state)
        assert turn is not None
        folds = turn == loser if loser is not None else turn != winner
        move: object = pegaz.Fold(turn) if folds else pegaz.Exchange(turn, (), done.state.stake)
        done = await act(world, table, move, f"move{done.version}")
    return done


async def test_a_bet_goes_into_escrow_with_its_row(world: World) -> None:
    table, ann, _, carol, _ = await setup(world)
    placed = await bets(world).place(
        table, guild_id=GUILD, user_id=CAROL, character_id=carol, seat=ann, amount=30
    )
    assert placed.amount == 30 and placed.currency == "wh"
    assert await world.purses.balance(carol, "wh") == 70
    assert await escrow(world, table) == 30
    book = await bets(world).book(table)
    assert [(b.character_id, b.seat, b.amount, b.status) for b in book.bets] == [
        (carol, ann, 30, "open")
    ]
    assert book.pools() == {ann: 30}
    await balanced(world)


async def test_a_refused_debit_leaves_nothing_behind(world: World) -> None:
    table, ann, _, carol, _ = await setup(world)
    with pytest.raises(PurseTooLow):
        await bets(world).place(
            table, guild_id=GUILD, user_id=CAROL, character_id=carol, seat=ann, amount=101
        )
    assert await world.purses.balance(carol, "wh") == 100
    assert (await bets(world).book(table)).bets == ()
    assert await escrow(world, table) == 0
    await balanced(world)


async def test_refusals(world: World) -> None:
    table, ann, bob, carol, dave = await setup(world)
    service = bets(world)
    with pytest.raises(SideBetSeated):  # Ann's player backs a seat of their own table
        await service.place(
            table, guild_id=GUILD, user_id=ALICE_USER, character_id=carol, seat=bob, amount=5
        )
    with pytest.raises(UnknownCharacter):  # somebody else's character pays
        await service.place(
            table, guild_id=GUILD, user_id=CAROL, character_id=dave, seat=bob, amount=5
        )
    await service.place(
        table, guild_id=GUILD, user_id=CAROL, character_id=carol, seat=ann, amount=5
    )
    with pytest.raises(SideBetTwice):
        await service.place(
            table, guild_id=GUILD, user_id=CAROL, character_id=carol, seat=bob, amount=5
        )
    await act(world, table, pegaz.Start(ann), "start")
    with pytest.raises(SideBetsClosed):  # the game has started
        await service.place(
            table, guild_id=GUILD, user_id=DAVE, character_id=dave, seat=bob, amount=5
        )
    assert await world.purses.balance(carol, "wh") == 95
    assert await world.purses.balance(dave, "wh") == 100
    await balanced(world)


async def test_a_table_without_the_option_takes_no_bets(world: World) -> None:
    table, ann, _, carol, _ = await setup(world, side_bets=False)
    with pytest.raises(SideBetsOff):
        await bets(world).place(
            table, guild_id=GUILD, user_id=CAROL, character_id=carol, seat=ann, amount=5
        )


async def test_the_winners_backers_share_the_pool_at_the_end(world: World) -> None:
    table, ann, bob, carol, dave = await setup(world)
    service = bets(world)
    await service.place(
        table, guild_id=GUILD, user_id=CAROL, character_id=carol, seat=ann, amount=30
    )
    await service.place(table, guild_id=GUILD, user_id=DAVE, character_id=dave, seat=bob, amount=10)
    done = await play_out(world, table, loser=bob)
    assert done.status == "finished" and done.state.winners == (ann,)
    assert await world.purses.balance(carol, "wh") == 110  # 30 back and Dave's 10
    assert await world.purses.balance(dave, "wh") == 90
    assert await escrow(world, table) == 0
    book = await service.book(table)
    assert [(b.status, b.paid) for b in book.bets] == [("won", 40), ("lost", 0)]
    assert book.settled and book.winner == ann and not book.refunded
    await balanced(world)


async def test_nobody_on_the_winner_gets_every_bet_back(world: World) -> None:
    table, _, bob, carol, dave = await setup(world)
    service = bets(world)
    await service.place(
        table, guild_id=GUILD, user_id=CAROL, character_id=carol, seat=bob, amount=7
    )
    await service.place(table, guild_id=GUILD, user_id=DAVE, character_id=dave, seat=bob, amount=3)
    await play_out(world, table, loser=bob)
    assert await world.purses.balance(carol, "wh") == 100
    assert await world.purses.balance(dave, "wh") == 100
    book = await service.book(table)
    assert book.refunded and [b.paid for b in book.bets] == [7, 3]
    await balanced(world)


async def test_a_cancelled_table_refunds_every_bet(world: World) -> None:
    table, ann, bob, carol, dave = await setup(world)
    service = bets(world)
    await service.place(
        table, guild_id=GUILD, user_id=CAROL, character_id=carol, seat=ann, amount=9
    )
    await service.place(table, guild_id=GUILD, user_id=DAVE, character_id=dave, seat=bob, amount=4)
    await act(world, table, pegaz.Start(ann), "start")
    done = await world.tables.cancel(table, key="cancel", actor_id=GM)
    assert done.status == "cancelled"
    assert await world.purses.balance(carol, "wh") == 100
    assert await world.purses.balance(dave, "wh") == 100
    assert await escrow(world, table) == 0
    assert all(b.status == "refunded" for b in (await service.book(table)).bets)
    await balanced(world)


async def test_the_settlement_rolls_back_with_its_transaction(world: World) -> None:
    """The settlement writes into the finishing step's transaction: rolled back, it leaves the
    bets open and the escrow full."""
    table, ann, _, carol, _ = await setup(world)
    await bets(world).place(
        table, guild_id=GUILD, user_id=CAROL, character_id=carol, seat=ann, amount=9
    )
    state = (await world.tables.get(table)).state
    with pytest.raises(RuntimeError):
        async with world.db.transaction() as tx:
            settled = await settle_side_bets(
                tx,
                table_id=table,
                game="pegaz",
                currency="wh",
                state=state,
                status="cancelled",
                actor_id=GM,
                at=0,
            )
            assert settled is not None and settled.refund and settled.total == 9
            raise RuntimeError("the step failed after the settlement")
    assert await escrow(world, table) == 9
    assert await world.purses.balance(carol, "wh") == 91
    assert [b.status for b in (await bets(world).book(table)).bets] == ["open"]
    await balanced(world)


async def test_the_tables_gm_may_not_bet(world: World) -> None:
    table, ann, _, _, _ = await setup(world)
    gms = await world.characters.create(GUILD, "Greta", owner_id=GM)
    await world.purses.grant(gms.id, "wh", 50, actor_id=GM)
    with pytest.raises(SideBetOpener):
        await bets(world).place(
            table, guild_id=GUILD, user_id=GM, character_id=gms.id, seat=ann, amount=5
        )
    assert await world.purses.balance(gms.id, "wh") == 50


async def test_a_bettor_who_then_sits_down_is_refunded_outside_the_pool(world: World) -> None:
    table, ann, bob, carol, dave = await setup(world)
    service = bets(world)
    await service.place(
        table, guild_id=GUILD, user_id=CAROL, character_id=carol, seat=bob, amount=20
    )
    await service.place(table, guild_id=GUILD, user_id=DAVE, character_id=dave, seat=ann, amount=5)
    cara = await world.characters.create(GUILD, "Cara", owner_id=CAROL)  # Carol's second
    await world.purses.grant(cara.id, "wh", 100, actor_id=GM)
    await act(world, table, pegaz.Join(cara.id, False, False, 0, 100), "j-cara")
    done = await play_out(world, table, winner=ann)
    assert done.state.winners == (ann,)
    assert await world.purses.balance(carol, "wh") == 100  # refunded: she played at the table
    assert await world.purses.balance(dave, "wh") == 100  # alone in the pool: his 5 back
    assert [(b.status, b.paid) for b in (await service.book(table)).bets] == [
        ("refunded", 20),
        ("won", 5),
    ]
    await balanced(world)


async def test_voiding_the_table_undoes_its_side_bets_too(world: World) -> None:
    table, ann, bob, carol, dave = await setup(world)
    service = bets(world)
    await service.place(
        table, guild_id=GUILD, user_id=CAROL, character_id=carol, seat=ann, amount=8
    )
    await service.place(table, guild_id=GUILD, user_id=DAVE, character_id=dave, seat=bob, amount=4)
    await play_out(world, table, loser=bob)
    assert await world.purses.balance(carol, "wh") == 104
    books = BooksService(world.db, clock=world.clock, games=world.tables_games)
    await books.void_table(table, guild_id=GUILD, actor_id=GM)
    assert await world.purses.balance(carol, "wh") == 100
    assert await world.purses.balance(dave, "wh") == 100
    assert await escrow(world, table) == 0
    await balanced(world)


def test_only_one_winner_of_a_finished_table_is_a_winner() -> None:
    split = SimpleNamespace(winners=(1, 2))
    alone = SimpleNamespace(winners=(2,))
    assert winner_of("pegaz", alone, "finished") == 2
    assert winner_of("pegaz", split, "finished") is None  # a split pot: refunds
    assert winner_of("pegaz", SimpleNamespace(winners=()), "finished") is None  # rolled over
    assert winner_of("pegaz", alone, "cancelled") is None
    assert winner_of("pazaak", SimpleNamespace(winner=7), "finished") == 7
    assert winner_of("pazaak", SimpleNamespace(winner=None), "finished") is None
