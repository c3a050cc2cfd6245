"""Pazaak challenges against a real SQLite file: accepted in ONE transaction with the table they
open, answered once, expired on time, and nothing held until accepted."""

from __future__ import annotations

import pytest

from bot.rules import pazaak
from bot.services.challenges import ChallengeService, table_key
from bot.services.errors import ChallengeAnswered, ChallengeExpired, PurseTooLow
from bot.storage import tables
from tests.services.conftest import GM, GUILD, World

SECONDS = 900


async def setup(world: World, *, bob_credits: int = 500) -> tuple[ChallengeService, int, int]:
    alice = await world.characters.create(GUILD, "Alice", owner_id=11)
    bob = await world.characters.create(GUILD, "Bob", owner_id=12)
    await world.purses.grant(alice.id, "cr", 500, actor_id=GM)
    if bob_credits:
        await world.purses.grant(bob.id, "cr", bob_credits, actor_id=GM)
    return ChallengeService(world.db, world.tables, clock=world.clock), alice.id, bob.id


async def keyed_table(world: World, cid: int) -> int | None:
    """The table an accept of the challenge opened under its key (what makes a repeat a no-op),
    as the file holds it."""
    async with world.db.read() as tx:
        found = await tables.action_key(tx, table_key(cid))
    return None if found is None else found[0]


async def challenge(service: ChallengeService, a: int, b: int, wager: int = 250) -> int:
    settings = pazaak.PazaakSettings(wager=wager, turn_timeout=300)
    row = await service.create(
        guild_id=GUILD,
        channel_id=5,
        challenger=a,
        opponent=b,
        created_by=11,
        settings=settings.model_dump_json(),
        seconds=SECONDS,
    )
    assert row.status == "pending" and row.table_id is None
    return row.id


async def accept(world: World, service: ChallengeService, cid: int, a: int, b: int) -> int:
    row = await service.get(cid)
    settings = pazaak.PazaakSettings.model_validate_json(row.settings)
    decks = [await world.characters.match_selection(p) for p in (a, b)]
    outcome = await service.accept(
        cid,
        lambda rng: pazaak.new_match(settings, a, decks[0], b, decks[1], rng),
        actor_id=12,
    )
    return outcome.table_id


async def test_accepting_opens_the_table_and_escrows_both_wagers_at_once(world: World) -> None:
    service, a, b = await setup(world)
    cid = await challenge(service, a, b)
    table_id = await accept(world, service, cid, a, b)

    row = await service.get(cid)
    assert (row.status, row.table_id, row.drawn) == ("accepted", table_id, False)
    assert await keyed_table(world, cid) == table_id
    assert await world.tables.pot_balance(table_id) == 500
    assert [await world.purses.balance(p, "cr") for p in (a, b)] == [250, 250]
    assert [c.id for c in await service.undrawn()] == [cid]
    await service.drew(cid)
    assert await service.undrawn() == []

    with pytest.raises(ChallengeAnswered):
        await accept(world, service, cid, a, b)
    with pytest.raises(ChallengeAnswered):
        await service.answer(cid, "declined")
    assert await world.tables.pot_balance(table_id) == 500


async def test_a_short_purse_changes_nothing_and_the_challenge_stays_open(world: World) -> None:
    service, a, b = await setup(world, bob_credits=100)
    cid = await challenge(service, a, b)
    with pytest.raises(PurseTooLow):
        await accept(world, service, cid, a, b)
    assert (await service.get(cid)).status == "pending"
    assert [await world.purses.balance(p, "cr") for p in (a, b)] == [500, 100]
    assert await keyed_table(world, cid) is None


async def test_declined_then_nothing_more(world: World) -> None:
    service, a, b = await setup(world)
    cid = await challenge(service, a, b)
    row = await service.answer(cid, "declined")
    assert row.status == "declined" and not row.drawn
    with pytest.raises(ChallengeAnswered):
        await accept(world, service, cid, a, b)
    assert [await world.purses.balance(p, "cr") for p in (a, b)] == [500, 500]


async def test_a_challenge_expires_on_time_and_survives_a_restart(world: World) -> None:
    service, a, b = await setup(world)
    cid = await challenge(service, a, b)
    world.clock.now += SECONDS * 1000  # exactly on time: still open
    assert await service.expire_due() == []
    world.clock.now += 1
    await world.reopen()
    service = ChallengeService(world.db, world.tables, clock=world.clock)
    with pytest.raises(ChallengeExpired):
        await accept(world, service, cid, a, b)
    row = await service.get(cid)
    assert row.status == "expired" and [c.id for c in await service.undrawn()] == [cid]
    assert await service.expire_due() == []


async def test_a_refereed_challenge_opens_the_referees_table(world: World) -> None:
    """With skills the challenge names its referee (the GM told of every swap): it is kept in the
    file, and the table it opens is the referee's, not the accepting player's."""
    service, a, b = await setup(world)
    settings = pazaak.PazaakSettings(wager=100, skills=True)
    row = await service.create(
        guild_id=GUILD,
        channel_id=5,
        challenger=a,
        opponent=b,
        created_by=11,
        settings=settings.model_dump_json(),
        seconds=SECONDS,
        referee=GM,
    )
    assert (await service.get(row.id)).referee == GM
    table_id = await accept(world, service, row.id, a, b)
    assert await world.tables.opener(table_id) == GM
    plain = await challenge(service, a, b, wager=0)
    assert (await service.get(plain)).referee is None
