"""Two bot processes (real OS processes) over one PostgreSQL database, behind one fake Discord of
4 shards: one process runs shards 0-1, the other 2-3 (``tests/e2e/process_bot.py``).

- 200 takes of one coin from both processes at once against one purse of 150: exactly 150 go
  through, and the purse ends at zero, never below.
- A click storm on one Pazaak table from both shards' sides: its hand DM (Discord sends DMs to
  shard 0, so the shards 0-1 process serves them) and its board (the shards 2-3 process).
  Exactly one move is applied for the version the clicks saw.
- The match goes on to its end while the table's own process is killed (``kill -9``) in the
  middle of a move and started again.

Afterwards no coin was lost or created (the ledger audit, the two purses and the pot), no step
was applied twice (one event range per version), and the match ended.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

from bot.services import CharacterService, PurseService
from bot.storage.db import Database
from bot.storage.opening import open_database
from tests import pg
from tests.e2e.process_bot import BotProcess
from tests.fakediscord import FakeDiscord, FakeGuild, FakeMessage, FakeUser
from tests.fakediscord.messages import walk_components

COUNT = 4
CARDS = ["+2", "+2", "+2", "-3", "-3", "-3", "+4", "+4", "+1", "+1"]
PURSE = 1000
TURN = re.compile(r"\*\*(\w+)\*\* to play")


def version(message: FakeMessage) -> int:
    """The version the board's buttons were drawn at (0: it has none, the match is over)."""
    found = [
        int(parts[2])
        for c in walk_components(message.components)
        if len(parts := str(c.get("custom_id") or "").split(":")) >= 4 and parts[2].isdigit()
    ]
    return max(found, default=0)


def act(message: FakeMessage, name: str) -> str | None:
    return next(
        (
            b["custom_id"]
            for b in message.buttons
            if str(b.get("custom_id", "")).endswith(f":{name}") and not b.get("disabled")
        ),
        None,
    )


def playable(board: FakeMessage) -> bool:
    return act(board, "end") is not None or act(board, "stand") is not None


class Tavern:
    """The fake, the database seen from outside both bots, and the bot processes."""

    def __init__(self, fake: FakeDiscord, db: Database, url: str, folder: Path) -> None:
        self.fake, self.db, self.url, self.folder = fake, db, url, folder
        self.bots: dict[str, BotProcess] = {}

    def bot(self, name: str, shards: list[int]) -> BotProcess:
        config = {
            "api_base": self.fake.api_base,
            "gateway_url": self.fake.gateway_url,
            "token": self.fake.token,
            "db": self.url,
            "seed": 7 + len(self.bots),
            "shard_count": COUNT,
            "shards": shards,
        }
        self.bots[name] = BotProcess(config, self.folder / f"{name}.log")
        return self.bots[name]

    async def character(self, guild: FakeGuild, name: str, user: FakeUser, coins: int) -> int:
        characters, purses = CharacterService(self.db), PurseService(self.db)
        who = await characters.create(guild.id, name, owner_id=user.id)
        await purses.grant(who.id, "cr", coins, actor_id=self.fake.owner.id)
        await characters.take_side_cards(who.id, who.side_cards)
        await characters.give_side_cards(who.id, CARDS)
        await characters.set_selection(who.id, CARDS, actor_id=user.id)
        return who.id

    async def table_version(self, table_id: int) -> tuple[int, str]:
        async with self.db.read() as tx:
            row = await tx.fetchone("SELECT version, status FROM tables WHERE id = ?", (table_id,))
        assert row is not None
        return int(row[0]), str(row[1])

    async def shown(self, board: FakeMessage, table_id: int) -> int:
        """Wait until the board shows the table's version (or, the match over, no moves)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 20.0
        while True:
            current, status = await self.table_version(table_id)
            if (status == "finished" and not playable(board)) or version(board) == current:
                return current
            if loop.time() > deadline:
                raise AssertionError(
                    f"the board shows version {version(board)}, the table is at {current}"
                )
            await asyncio.sleep(0.05)


@asynccontextmanager
async def tavern(fake: FakeDiscord, folder: Path) -> AsyncIterator[Tavern]:
    async with pg.scratch() as url:
        db = await open_database(url)
        try:
            yield Tavern(fake, db, url, folder)
        finally:
            await db.close()


@pg.needs_server
async def test_two_processes_share_one_postgresql_without_losing_a_coin(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    low_inn = fake.add_guild("The Low Inn", shard=(1, COUNT))
    high_inn = fake.add_guild("The High Inn", shard=(2, COUNT))
    gm = fake.add_player("Mira", guild=low_inn)
    alice = fake.add_player("Alice", guild=high_inn)
    bob = fake.add_player("Bob", guild=high_inn)
    async with tavern(fake, tmp_path) as tv, AsyncExitStack() as stack:
        hero = await tv.character(low_inn, "Hero", gm, 150)
        players = {
            "Ahsoka": (alice, await tv.character(high_inn, "Ahsoka", alice, PURSE)),
            "Bastila": (bob, await tv.character(high_inn, "Bastila", bob, PURSE)),
        }
        low = await stack.enter_async_context(tv.bot("low", [0, 1]))
        high = await stack.enter_async_context(tv.bot("high", [2, 3]))

        # 200 debits from both processes at once against one purse of 150
        one, two = await asyncio.gather(
            low.ask(f"debit {hero} cr 100"), high.ask(f"debit {hero} cr 100")
        )
        assert one["errors"] == [] and two["errors"] == []
        assert one["refused"] + two["refused"] == 50
        assert await PurseService(tv.db).balance(hero, "cr") == 0

        board, table_id = await challenge(fake, high_inn, alice, bob)
        await storm(tv, board, table_id, players)
        await play_to_the_end(tv, board, table_id, players, high)

        await books_balance(tv, table_id, [p for _, p in players.values()])


async def challenge(
    fake: FakeDiscord, guild: FakeGuild, alice: FakeUser, bob: FakeUser
) -> tuple[FakeMessage, int]:
    asked = await fake.slash(
        alice, "pazaak challenge", channel=guild.text_channel, opponent="Bastila", wager="250 cr"
    )
    offer = await asked.reply(timeout=10)
    accepted = await fake.click(bob, offer, "Accept")
    await accepted.ack(10)
    board = await fake.wait_for(
        lambda: next((m for m in guild.text_channel.messages if act(m, "end")), None),
        timeout=10,
        what="the board",
    )
    return board, int(str(act(board, "end")).split(":")[1])


async def storm(
    tv: Tavern, board: FakeMessage, table_id: int, players: dict[str, tuple[FakeUser, int]]
) -> None:
    """Three clicks of the first hand card in the hand DM (shard 0's process) and three of End
    turn on the board (the table's own process), all at once, at one version."""
    before = await tv.shown(board, table_id)
    turn = TURN.search(board.text)
    assert turn, board.text
    user = players[turn[1]][0]
    hand = await tv.fake.wait_for(
        lambda: next((m for m in reversed(tv.fake.dms(user)) if m.buttons), None),
        what="the hand DM",
    )
    card, end = hand.buttons[0]["custom_id"], act(board, "end")
    assert end is not None
    clicks = [tv.fake.click(user, hand, custom_id=card) for _ in range(3)]
    clicks += [tv.fake.click(user, board, custom_id=end) for _ in range(3)]
    handles = await asyncio.gather(*clicks)
    for handle in handles:
        await handle.ack(10)  # acknowledged first: the moves may still be on their way
    await tv.fake.wait_for(lambda: version(board) > before, timeout=20, what="a move")
    await asyncio.sleep(1.0)  # what else of the storm was going to land has landed
    after = await tv.shown(board, table_id)
    assert after == before + 1, f"{after - before} moves applied for one version"


async def play_to_the_end(
    tv: Tavern,
    board: FakeMessage,
    table_id: int,
    players: dict[str, tuple[FakeUser, int]],
    high: BotProcess,
) -> None:
    """Each player on turn stands at once; in the second move, the table's own process is
    killed right after the click is sent, and started again."""
    moves = 0
    while True:
        current = await tv.shown(board, table_id)
        if not playable(board):
            break
        turn = TURN.search(board.text)
        assert turn, board.text
        user = players[turn[1]][0]
        custom_id = act(board, "stand") or act(board, "end")
        assert custom_id is not None, board.buttons
        moves += 1
        assert moves < 60, "the match does not end"
        clicked = asyncio.ensure_future(tv.fake.click(user, board, custom_id=custom_id))
        if moves == 2:
            await asyncio.sleep(0.02)  # the click is on its way, perhaps half done
            await high.kill()
            clicked.cancel()
            await high.start()  # the same shards: it restores the table and heals its board
            continue
        handle = await clicked
        await handle.ack(10)
        await tv.fake.wait_for(
            lambda shown=current: version(board) != shown, timeout=20, what="the move"
        )
    _, status = await tv.table_version(table_id)
    assert status == "finished"


async def books_balance(tv: Tavern, table_id: int, players: list[int]) -> None:
    audit = await PurseService(tv.db).audit()
    assert audit.entries_total == 0
    assert not audit.unbalanced_movements and not audit.drifted_accounts
    purses = PurseService(tv.db)
    assert sum([await purses.balance(p, "cr") for p in players]) == 2 * PURSE
    async with tv.db.read() as tx:
        versions: list[Any] = await tx.fetchall(
            "SELECT version, min(seq), max(seq), count(*) FROM table_events WHERE table_id = ? "
            "GROUP BY version ORDER BY version",
            (table_id,),
        )
    seqs = [(int(lo), int(hi), int(n)) for _, lo, hi, n in versions]
    assert all(hi - lo + 1 == n for lo, hi, n in seqs)  # each version's events: one range
    assert [lo for lo, _, _ in seqs] == [0] + [hi + 1 for _, hi, _ in seqs[:-1]]
