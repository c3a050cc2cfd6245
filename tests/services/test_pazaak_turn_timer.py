"""Pazaak's turn timer restarts with every new turn, also when the same player takes turns in a
row (the other stands); a hand card played within a turn does not restart it."""

from __future__ import annotations

from bot.rules import pazaak
from tests.services.conftest import ALICE_USER, BOB_USER, GUILD, World


async def test_every_pazaak_turn_gets_the_whole_turn_time(world: World) -> None:
    a = await world.characters.create(GUILD, "Ahsoka", owner_id=ALICE_USER)
    b = await world.characters.create(GUILD, "Bastila", owner_id=BOB_USER)
    settings = pazaak.PazaakSettings(turn_timeout=60)
    selection = pazaak.STARTER_COLLECTION
    started = await world.tables.create(
        "pazaak",
        lambda rng: pazaak.new_match(settings, a.id, selection, b.id, selection, rng),
        guild_id=GUILD,
        channel_id=1,
        actor_id=ALICE_USER,
        key="start",
    )
    assert started.deadline == world.clock.now + 60_000
    first = started.state.current_player
    second = b.id if first == a.id else a.id

    world.clock.now += 10_000
    stood = await world.tables.act(
        started.table_id, pazaak.Stand(first), key="1", expected_version=1, actor_id=None
    )
    assert stood.state.current_player == second
    assert stood.deadline == world.clock.now + 60_000

    world.clock.now += 10_000
    played = await world.tables.act(
        stood.table_id, pazaak.PlayCard(second, 0), key="2", expected_version=2, actor_id=None
    )
    assert played.deadline == stood.deadline  # the same turn: the clock runs on

    world.clock.now += 10_000
    again = await world.tables.act(
        stood.table_id, pazaak.EndTurn(second), key="3", expected_version=3, actor_id=None
    )
    assert again.state.current_player == second  # the other stands: a new turn, same player
    assert again.deadline == world.clock.now + 60_000
