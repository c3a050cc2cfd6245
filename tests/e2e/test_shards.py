"""Two bot processes of one sharded bot, end to end: one runs shards 0-1 of 4, the other 2-3,
over one database (a SQLite file, then a PostgreSQL database when a server is given), behind
one fake Discord that routes each guild's events to its shard.

Each bot hears only its own shards' guilds, opens and plays their tables, and, after a restart,
restores and times only its own tables. A DM belongs to shard 0: a card played from a hand DM of
a table on shard 2 is served by the shards 0-1 bot, correctly, and the table's own bot then goes
on with it."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.services.surfaces import SurfaceService
from bot.services.tables import TableService
from bot.storage.opening import open_database
from tests.e2e.pazaak_support import moves_log, settle
from tests.fakediscord import (
    MANAGE_GUILD,
    BotHarness,
    FakeDiscord,
    FakeGuild,
    FakeMessage,
    FakeUser,
)
from tests.fakediscord.clock import FakeClock
from tests.fakediscord.gateway import shard_of
from tests.services.conftest import backend

__all__ = ["backend"]  # the fixture: a SQLite file, then a PostgreSQL database
COUNT = 4
LOW, HIGH = [0, 1], [2, 3]
WH, GC = "wh", 240
CARDS = ["+2", "+2", "+2", "-3", "-3", "-3", "+4", "+4", "+1", "+1"]
"""Side cards that need no choice of value: any of them is played with one click."""


@dataclass
class Bots:
    fake: FakeDiscord
    low: BotHarness
    high: BotHarness
    inn_low: FakeGuild
    """A guild on shard 1: the shards 0-1 bot's."""
    inn_high: FakeGuild
    """A guild on shard 2: the shards 2-3 bot's."""

    def of(self, guild: FakeGuild) -> BotHarness:
        return self.low if shard_of(guild.id, COUNT) in LOW else self.high


@pytest.fixture
async def bots(fake: FakeDiscord, backend: Path | str) -> AsyncIterator[Bots]:
    inn_low = fake.add_guild("The Low Inn", shard=(1, COUNT))
    inn_high = fake.add_guild("The High Inn", shard=(2, COUNT))
    clock = FakeClock()

    def harness(shards: list[int]) -> BotHarness:
        return BotHarness(
            fake,
            database=backend,  # one database for both, as in production
            clock=clock,
            identify_spacing=0.0,
            bot_settings={"shard_count": COUNT, "shard_ids": shards},
        )

    low, high = harness(LOW), harness(HIGH)
    async with AsyncExitStack() as stack:
        for runner in (low, high):  # closed in the reverse order
            stack.push_async_callback(runner.close)
            await runner.start()
        yield Bots(fake, low, high, inn_low, inn_high)
    problems = low.problems() + high.problems()
    if problems:
        pytest.fail("the bots logged errors:\n" + "\n".join(problems))


def steps_of(tables: TableService, name: str) -> list[tuple[Any, ...]]:
    """Record each call of ``tables.<name>`` (its positional arguments) from now on."""
    calls: list[tuple[Any, ...]] = []
    real: Callable[..., Any] = getattr(tables, name)

    async def recorded(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return await real(*args, **kwargs)

    setattr(tables, name, recorded)
    return calls


class Inn:
    """A Pegasus table world in one guild: its GM, players with characters, its channel."""

    def __init__(self, bots: Bots, guild: FakeGuild) -> None:
        self.fake, self.guild, self.bots = bots.fake, guild, bots
        self.gm = bots.fake.add_player(f"{guild.name} GM", permissions=MANAGE_GUILD, guild=guild)

    @property
    def harness(self) -> BotHarness:
        return self.bots.of(self.guild)

    async def player(self, name: str) -> FakeUser:
        services = self.harness.bot.services
        user = self.fake.add_player(f"{name}'s player", guild=self.guild)
        who = await services.characters.create(self.guild.id, name, owner_id=user.id)
        await services.purses.grant(who.id, WH, GC, actor_id=self.gm.id)
        return user

    async def started(self, *players: FakeUser, turn_timeout: str) -> tuple[int, FakeMessage]:
        """``/pegaz open``, the players' Join and the GM's Start: the table id and message."""
        opened = await self.fake.slash(
            self.gm, "pegaz open", channel=self.guild.text_channel, turn_timeout=turn_timeout
        )
        match = re.search(r"Table (\d+) is open", (await opened.reply()).content)
        assert match, (await opened.reply()).content
        table_id = int(match[1])
        message = next(m for m in self.guild.text_channel.messages if m.embeds)
        for user in (*players, self.gm):
            handle = await self.fake.click(user, message, "Start" if user is self.gm else "Join")
            await settle(self.fake, self.harness, handle)
        return table_id, message

    def said(self) -> str:
        return "\n".join(m.content for m in self.guild.text_channel.messages if not m.embeds)


async def test_each_bot_hears_only_its_own_shards_guilds(bots: Bots) -> None:
    fake = bots.fake
    shards = sorted(s.shard for s in fake.gateway.sessions if s.shard is not None)
    assert shards == [(shard, COUNT) for shard in range(COUNT)]
    for harness, owned in ((bots.low, LOW), (bots.high, HIGH)):
        expected = {g.id for g in fake.state.guilds.values() if shard_of(g.id, COUNT) in owned}
        assert {guild.id for guild in harness.bot.guilds} == expected
        assert sorted(harness.bot.shards) == owned
    assert bots.inn_low.id in {g.id for g in bots.low.bot.guilds}
    assert bots.inn_high.id in {g.id for g in bots.high.bot.guilds}
    assert fake.requests("GET /gateway/bot") == []  # the count is configured, not asked
    # a guild added later reaches only the bot of its shard
    late = fake.add_guild("The Late Inn", shard=(3, COUNT))
    await fake.wait_for(lambda: bots.high.bot.get_guild(late.id), what="the late guild")
    assert bots.low.bot.get_guild(late.id) is None


async def test_a_table_in_each_shards_guild_is_played_by_its_own_bot(bots: Bots) -> None:
    low_inn, high_inn = Inn(bots, bots.inn_low), Inn(bots, bots.inn_high)
    fired = {
        "low": steps_of(bots.low.bot.services.tables, "fire_timeout"),
        "high": steps_of(bots.high.bot.services.tables, "fire_timeout"),
    }
    players = [await low_inn.player("Ann"), await low_inn.player("Bob")]
    low_table, _ = await low_inn.started(*players, turn_timeout="2 s")
    players = [await high_inn.player("Cid"), await high_inn.player("Dee")]
    high_table, _ = await high_inn.started(*players, turn_timeout="2 s")
    low_tables, high_tables = bots.low.bot.services.tables, bots.high.bot.services.tables
    assert low_tables.peek(low_table) is not None and low_tables.peek(high_table) is None
    assert high_tables.peek(high_table) is not None and high_tables.peek(low_table) is None

    await bots.low.clock.advance(2)  # both tables' first turns run out, each in its own bot
    await bots.fake.wait_for(lambda: "Ann** ran out of time" in low_inn.said())
    await bots.fake.wait_for(lambda: "Cid** ran out of time" in high_inn.said())
    assert [args[0] for args in fired["low"]] == [low_table]
    assert [args[0] for args in fired["high"]] == [high_table]
    assert "Cid" not in low_inn.said() and "Ann" not in high_inn.said()


async def test_a_restarted_bot_restores_and_times_only_its_own_tables(bots: Bots) -> None:
    low_inn, high_inn = Inn(bots, bots.inn_low), Inn(bots, bots.inn_high)
    low_table, _ = await low_inn.started(
        await low_inn.player("Ann"), await low_inn.player("Bob"), turn_timeout="2 s"
    )
    high_table, _ = await high_inn.started(
        await high_inn.player("Cid"), await high_inn.player("Dee"), turn_timeout="2 s"
    )
    high = await bots.high.restart()
    tables = high.services.tables
    assert tables.peek(high_table) is not None and tables.peek(low_table) is None
    assert [t for t, _ in await tables.due_timeouts(bots.high.clock() + 10_000)] == [high_table]
    assert await tables.owned([low_table, high_table]) == [high_table]

    await bots.low.stop()  # only the shards 2-3 bot runs now: both turns run out
    fired = steps_of(tables, "fire_timeout")
    await bots.high.clock.advance(2)
    await bots.fake.wait_for(lambda: "Cid** ran out of time" in high_inn.said())
    assert [args[0] for args in fired] == [high_table]
    low_version = (await tables.get(low_table)).version
    assert "ran out of time" not in low_inn.said()  # not its table: it waits for its own bot

    low = await bots.low.start()  # which fires its table's timeout, overdue, at once
    await bots.fake.wait_for(lambda: "Ann** ran out of time" in low_inn.said())
    assert (await low.services.tables.get(low_table)).version > low_version
    assert low.services.tables.peek(high_table) is None


async def test_only_its_own_behind_tables_are_redrawn_at_a_bots_start(
    bots: Bots, backend: Path | str
) -> None:
    fake = bots.fake
    low_inn, high_inn = Inn(bots, bots.inn_low), Inn(bots, bots.inn_high)
    players = [await low_inn.player("Ann"), await low_inn.player("Bob")]
    low_table, low_board = await low_inn.started(*players, turn_timeout="2 s")
    players = [await high_inn.player("Cid"), await high_inn.player("Dee")]
    high_table, high_board = await high_inn.started(*players, turn_timeout="2 s")
    await bots.high.stop()
    await bots.low.stop()
    await bots.low.clock.advance(2)
    # both turns run out while no bot runs: saved, and drawn nowhere (as after a crash between
    # a step's commit and its redraw)
    db = await open_database(backend)
    try:
        tables = TableService(db, clock=bots.low.clock, surfaces=SurfaceService(db))
        for table_id in (low_table, high_table):
            assert await tables.fire_timeout(table_id, (await tables.get(table_id)).version)
    finally:
        await db.close()

    mark = fake.mark()
    high = await bots.high.start()
    await settle(fake, bots.high)
    drawn = [r.path for r in fake.requests()[mark:] if r.method == "PATCH"]
    assert any(path.endswith(f"/messages/{high_board.id}") for path in drawn), drawn
    assert not any(str(low_board.id) in path for path in drawn)
    assert "Cid** ran out of time" in high_inn.said() and "ran out of time" not in low_inn.said()
    assert await high.services.surfaces.behind() == [low_table]  # not its own: left alone

    await bots.low.start()
    await settle(fake, bots.low)
    assert "Ann** ran out of time" in low_inn.said()
    assert await high.services.surfaces.behind() == []


async def pazaak_on_high(bots: Bots) -> tuple[FakeMessage, FakeUser, str, int]:
    """Ahsoka (Alice's) challenges Bastila (Bob's) in the shards 2-3 bot's guild, and Bob
    accepts: the board, the user on turn, their character's name, the table id."""
    fake, guild, high = bots.fake, bots.inn_high, bots.high
    users = {"Ahsoka": fake.add_player("Alice", guild=guild)}
    users["Bastila"] = fake.add_player("Bob", guild=guild)
    services = high.bot.services
    for name, user in users.items():
        who = await services.characters.create(guild.id, name, owner_id=user.id)
        await services.purses.grant(who.id, "cr", 1000, actor_id=fake.owner.id)
        await services.characters.take_side_cards(who.id, who.side_cards)
        await services.characters.give_side_cards(who.id, CARDS)
        await services.characters.set_selection(who.id, CARDS, actor_id=user.id)
    asked = await fake.slash(
        users["Ahsoka"],
        "pazaak challenge",
        channel=guild.text_channel,
        opponent="Bastila",
        wager="250 cr",
    )
    challenge = await asked.reply()
    accept = await fake.click(users["Bastila"], challenge, "Accept")
    await settle(fake, high, accept)
    board = await fake.wait_for(  # after the accept's step: a while, on a loaded machine
        lambda: next((m for m in guild.text_channel.messages if m.embeds), None), what="the board"
    )
    turn = re.search(r"\*\*(\w+)\*\* to play", board.text)
    assert turn, board.text
    table_id = int(board.buttons[0]["custom_id"].split(":")[1])
    return board, users[turn[1]], turn[1], table_id


async def play_from_the_dm(bots: Bots, board: FakeMessage, player: FakeUser, name: str) -> None:
    """The player on turn plays their first hand card from their hand DM."""
    hand = [m for m in bots.fake.dms(player) if m.embeds][-1]
    played = await bots.fake.click(player, hand, custom_id=hand.buttons[0]["custom_id"])
    await settle(bots.fake, bots.low, played)
    await bots.fake.wait_for(lambda: f"{name} plays" in moves_log(board)[-1], what="the card")


async def test_only_the_guilds_own_bot_redraws_its_expired_challenge(bots: Bots) -> None:
    fake, guild = bots.fake, bots.inn_high
    alice, bob = fake.add_player("Alice", guild=guild), fake.add_player("Bob", guild=guild)
    services = bots.high.bot.services
    for name, user in (("Ahsoka", alice), ("Bastila", bob)):
        await services.characters.create(guild.id, name, owner_id=user.id)
    asked = await fake.slash(
        alice, "pazaak challenge", channel=guild.text_channel, opponent="Bastila", wager="0"
    )
    challenge = await asked.reply()
    assert challenge.buttons
    await bots.high.stop()  # the challenge's guild has no bot now; the other one sweeps on

    await bots.low.clock.advance(16 * 60)  # past its 15 minutes, and many sweeps
    await settle(fake, bots.low)
    assert challenge.buttons and "expired" not in challenge.content  # not its guild's message

    await bots.high.start()  # its sweep at startup redraws it
    await fake.wait_for(lambda: not challenge.buttons, what="the expired challenge's redraw")
    assert challenge.content == "**Ahsoka**'s challenge to **Bastila** expired. No money moved."


async def test_a_hand_dm_click_is_shard_0s_and_the_tables_own_bot_goes_on_after_it(
    bots: Bots,
) -> None:
    fake, services = bots.fake, bots.high.bot.services
    board, player, name, table_id = await pazaak_on_high(bots)
    acted = {
        "low": steps_of(bots.low.bot.services.tables, "act"),
        "high": steps_of(services.tables, "act"),
    }

    await play_from_the_dm(bots, board, player, name)  # a DM: Discord sends it to shard 0
    assert [args[0] for args in acted["low"]] == [table_id] and acted["high"] == []
    assert bots.low.bot.services.tables.peek(table_id) is None  # not its table: nothing kept
    assert await bots.low.bot.services.tables.due_timeouts(10**15) == []

    # the table's own bot kept the version before the card: a click on the redrawn board,
    # at the newer version, makes it read the table again, and the move goes through
    end = next(b for b in board.buttons if b["custom_id"].endswith(":end"))
    ended = await fake.click(player, board, custom_id=end["custom_id"])
    await settle(fake, bots.high, ended)
    assert [args[0] for args in acted["high"]] == [table_id]
    await fake.wait_for(lambda: f"{name} ends the turn." in moves_log(board))
    assert not [m for m in fake.ephemeral(player) if "out of date" in m.content.lower()]
    view = await services.tables.get(table_id)
    assert await services.tables.due_timeouts(10**15) == [(table_id, view.version)]


async def test_the_tables_own_bot_times_the_turn_after_a_step_made_by_another(
    bots: Bots,
) -> None:
    services = bots.high.bot.services
    board, player, name, table_id = await pazaak_on_high(bots)
    await play_from_the_dm(bots, board, player, name)
    fired = {
        "low": steps_of(bots.low.bot.services.tables, "fire_timeout"),
        "high": steps_of(services.tables, "fire_timeout"),
    }
    version = (await services.tables.get(table_id)).version  # its own, older copy

    await bots.high.clock.advance(300)  # the turn's 5 minutes: its timer finds the table moved
    await bots.high.clock.advance(0.1)  # and fires again at once, at the card's version
    await bots.fake.wait_for(lambda: f"Time is up for {name}" in "\n".join(moves_log(board)))
    assert fired["low"] == []
    assert [args[0] for args in fired["high"]] == [table_id, table_id]  # refused, then at the new
    after = await services.tables.get(table_id)
    assert after.version == version + 2  # the card (by the other bot), then the timeout


async def test_only_the_tables_own_bot_plays_its_npc(bots: Bots) -> None:
    fake, guild = bots.fake, bots.inn_high
    services = bots.high.bot.services
    gm = fake.add_player("Game Master", permissions=MANAGE_GUILD, guild=guild)
    alice = fake.add_player("Alice", guild=guild)
    ahsoka = await services.characters.create(guild.id, "Ahsoka", owner_id=alice.id)
    greedo = await services.characters.create(guild.id, "Greedo", owner_id=gm.id, npc=True)
    for who in (ahsoka, greedo):
        await services.purses.grant(who.id, "cr", 1000, actor_id=gm.id)
    asked = await fake.slash(
        gm,
        "pazaak challenge",
        channel=guild.text_channel,
        opponent="Ahsoka",
        wager="100",
        character="Greedo",
        personality="twilek_dealer",
    )
    challenge = await asked.reply()
    await settle(fake, bots.high, asked)
    accept = await fake.click(alice, challenge, "Accept")
    await settle(fake, bots.high, accept)
    board = await fake.wait_for(  # after the accept's step: a while, on a loaded machine
        lambda: next((m for m in guild.text_channel.messages if m.embeds), None), what="the board"
    )
    table_id = int(board.buttons[0]["custom_id"].split(":")[1])
    if (await services.tables.get(table_id)).state.current_player == ahsoka.id:
        end = next(b for b in board.buttons if b["custom_id"].endswith(":end"))
        await settle(fake, bots.high, await fake.click(alice, board, custom_id=end["custom_id"]))
    assert (await services.tables.get(table_id)).state.current_player == greedo.id

    await bots.high.stop()  # before the NPC's pause is over
    low = await bots.low.restart()  # which reads every table's computer seats
    version = (await low.services.tables.get(table_id)).version
    await bots.low.clock.advance(10)  # more than any NPC's pause
    await settle(fake, bots.low)
    assert (await low.services.tables.get(table_id)).version == version  # not its NPC

    high = await bots.high.start()
    await bots.high.clock.advance(10)
    await settle(fake, bots.high)
    assert (await high.services.tables.get(table_id)).version > version
