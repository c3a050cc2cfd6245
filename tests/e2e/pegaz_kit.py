"""Helpers for the Three-Card Pegasus end-to-end tests: people, characters, the table message."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.app import Services
from tests.fakediscord import (
    MANAGE_GUILD,
    BotHarness,
    FakeDiscord,
    FakeMessage,
    FakeUser,
    InteractionHandle,
)
from tests.fakediscord.interactions import DEFERRED_UPDATE

P = 1
S = 12
GC = 240
WH = "wh"


@dataclass
class Player:
    user: FakeUser
    id: int
    name: str


class Tavern:
    """One test's table world: a GM, players with characters and purses, and the channel."""

    def __init__(self, fake: FakeDiscord, harness: BotHarness) -> None:
        self.fake = fake
        self.harness = harness
        self.gm = fake.add_player("Gamemaster", permissions=MANAGE_GUILD)

    @property
    def services(self) -> Services:
        return self.harness.bot.services

    async def player(
        self,
        name: str,
        coins: int = 1 * GC,
        *,
        luck: bool = False,
        gamble: bool = False,
        perception: int = 0,
        dms_open: bool = True,
        user: FakeUser | None = None,
        npc: bool = False,
    ) -> Player:
        """A user (or the GM for an NPC) with one character and ``coins`` in its purse."""
        if user is None:
            user = self.gm if npc else self.fake.add_player(f"{name}'s player", dms_open=dms_open)
        character = await self.services.characters.create(
            self.fake.guild.id,
            name,
            owner_id=user.id,
            npc=npc,
            luck=luck,
            gamble=gamble,
            perception=perception,
        )
        if coins:
            await self.services.purses.grant(character.id, WH, coins, actor_id=self.gm.id)
        return Player(user, character.id, name)

    async def purse(self, player: Player) -> int:
        return int(await self.services.purses.balance(player.id, WH))

    async def books_balance(self, *, table_id: int, pot: int) -> None:
        """The ledger's double entry holds and the table's pot holds ``pot``."""
        audit = await self.services.purses.audit()
        assert audit.unbalanced_movements == () and audit.drifted_accounts == ()
        assert await self.services.tables.pot_balance(table_id) == pot

    async def open(self, channel: object = None, **options: object) -> FakeMessage:
        """``/pegaz open`` by the GM; returns the table message."""
        handle = await self.fake.slash(self.gm, "pegaz open", channel=channel, **options)  # type: ignore[arg-type]
        reply = await handle.reply()
        match = re.search(r"(?:Table|Stół) (\d+) (?:is open|jest otwarty)", reply.content)
        assert match, reply.content
        return self.table_message(int(match[1]), channel)

    async def started(self, *players: Player, **options: object) -> FakeMessage:
        """A table opened with ``options``, ``players`` seated in turn, and the GM's Start."""
        table = await self.open(**options)
        for player in players:
            await self.press(player.user, table, "Join")
        await self.press(self.gm, table, "Start")
        return table

    def table_message(self, table: int, channel: object = None) -> FakeMessage:
        where = self.fake.channel(channel) if channel is not None else self.fake.tavern  # type: ignore[arg-type]
        for message in where.messages:
            footer = message.embeds[0].get("footer", {}).get("text") if message.embeds else None
            if footer in (f"Table {table}", f"Stół {table}"):
                return message
        raise AssertionError(f"no table message for table {table}")

    async def press(self, user: FakeUser, message: FakeMessage, label: str) -> FakeMessage:
        """Click a button and wait for the bot's visible answer to it: on the table message,
        the click redraws the table and the answer is an ephemeral follow-up."""
        handle = await self.fake.click(user, message, label)
        return await answer_to(handle, message)

    async def pick(
        self, user: FakeUser, message: FakeMessage, values: list[str], placeholder: str
    ) -> FakeMessage:
        handle = await self.fake.select(user, message, values, placeholder=placeholder)
        return await handle.reply()

    def said(self, channel: object = None) -> list[str]:
        """The channel's plain messages (not the table messages), oldest first."""
        where = self.fake.channel(channel) if channel is not None else self.fake.tavern  # type: ignore[arg-type]
        return [m.content for m in where.messages if not m.embeds]

    def hand_dm(self, player: Player, index: int = -1) -> FakeMessage:
        return self.fake.dms(player.user)[index]


async def answer_to(handle: InteractionHandle, message: FakeMessage) -> FakeMessage:
    """The bot's answer to a click on ``message`` (see :meth:`Tavern.press`)."""
    on_table = not message.ephemeral and message.channel.guild_id is not None
    if on_table and await handle.ack() == DEFERRED_UPDATE:
        return await handle.state.wait_for(
            lambda: next((m for m in handle.followups if m.ephemeral), None),
            what=f"an ephemeral follow-up to {handle!r}",
        )
    return await handle.reply()


def at(player: Player | FakeUser) -> str:
    """How the bot mentions (pings) a player's user."""
    user = player.user if isinstance(player, Player) else player
    return f"<@{user.id}>"


def hand_of(message: FakeMessage) -> list[str]:
    """The cards listed in a hand message (DM or ephemeral), as shown."""
    text = message.embeds[0].get("description") or ""
    return [
        line.split("** ", 1)[1] for line in text.splitlines() if re.match(r"\*\*\d\.\*\*", line)
    ]


def status(message: FakeMessage) -> str:
    """The first line of the table message's description (the phase and whose turn)."""
    return str(message.embeds[0]["description"]).splitlines()[0]


def field(message: FakeMessage, name: str) -> str:
    for item in message.embeds[0].get("fields") or []:
        if str(item["name"]).startswith(name):
            return str(item["value"])
    raise AssertionError(f"no field {name!r} in {message.embeds[0]}")
