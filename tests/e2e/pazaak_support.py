"""Helpers for the pazaak end-to-end tests: two players at a table, moves as people make them
(buttons on the board, in the hand DM, or under "Show my hand"), and waiting until the bot is done
(its requests to the fake have gone quiet).

Characters, purses and side cards are made through the services directly, so these tests do not
depend on the other cogs. Ahsoka (Alice's) challenges Bastila (Bob's): Ahsoka sits in seat 0.
"""

# ruff: noqa: ASYNC109 (wait helpers take ``timeout=`` on purpose: it reads best in tests)

from __future__ import annotations

import asyncio
import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.services.outcomes import Character
from tests.fakediscord import BotHarness, FakeDiscord, FakeMessage, FakeUser, InteractionHandle

DEFERRED_UPDATE = 6
MINUS = "\u2212"
LABELS = ("end", "stand")
Move = tuple[str, str] | tuple[str, str, int] | tuple[str, str, int, int]
"""``("A", "end")``, ``("B", "stand")``, ``("A", "card", index)``, ``("B", "card", i, value)``."""


QUIET_SECONDS = 0.05
"""How long the bot must send nothing for its work to count as done."""
POLL_SECONDS = 0.005
STALL_SECONDS = 0.02
"""A poll that comes this late found the process stalled (a garbage collection, CPU-bound work):
that time does not count as quiet, as the bot could not have sent anything in it either."""


async def settle(
    fake: FakeDiscord, harness: BotHarness, *handles: InteractionHandle, timeout: float = 5.0
) -> None:
    """Wait until every interaction was answered and the bot's requests have gone quiet: none
    is in flight and none was made for :data:`QUIET_SECONDS` of running time (the bot's own work
    between two requests, e.g. saving a step before its board is drawn, takes far less)."""
    for handle in handles:
        await handle.ack(timeout)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    seen, quiet, last = -1, 0.0, loop.time()
    while quiet < QUIET_SECONDS:
        await asyncio.sleep(POLL_SECONDS)
        requests = fake.requests()
        now = loop.time()
        gap, last = now - last, now
        if len(requests) != seen or any(r.status == 0 and not r.held for r in requests):
            seen, quiet = len(requests), 0.0
        elif gap <= STALL_SECONDS:
            quiet += gap
        if now > deadline:
            raise AssertionError(f"the bot was still sending requests after {timeout} s")


def challenge_id(challenge: FakeMessage) -> int:
    """The challenge's id, from its buttons (``pzc:<challenge>:0:yes``)."""
    return int(challenge.buttons[0]["custom_id"].split(":")[1])


async def refusal(handle: InteractionHandle, timeout: float = 5.0) -> FakeMessage:
    """The bot's ephemeral answer to a refused click. A stale click may first be acknowledged as
    an update of its message (which the bot redraws): the answer is then the follow-up."""
    if await handle.ack(timeout) == DEFERRED_UPDATE:
        return await handle.followup(0, timeout)
    return await handle.reply(timeout)


def hand_version(*codes: str) -> int:
    """The version a hand's buttons carry: the CRC-32 of its card codes, in order."""
    return zlib.crc32(" ".join(codes).encode())


FLIPS = {"Flip 2&4": "F24", "Flip 3&6": "F36"}


def code_of(label: str) -> str:
    """A side card's code, from its label on a button (English)."""
    return FLIPS.get(label, label.replace(MINUS, "-"))


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"{MINUS}{-value}"


def masked(text: str) -> str:
    """Relative timestamps vary with the clock: ``<t:…:R>``."""
    return re.sub(r"<t:\d+:R>", "<t:…:R>", text)


@dataclass
class Table:
    fake: FakeDiscord
    harness: BotHarness
    users: dict[str, FakeUser]
    characters: dict[str, Character]
    board: FakeMessage | None = None
    challenge: FakeMessage | None = None
    challenge_id: int | None = None
    """The newest challenge's id (in the challenge service)."""
    log: list[str] = field(default_factory=list)

    @property
    def services(self):  # type: ignore[no-untyped-def]
        return self.harness.bot.services

    async def balance(self, who: str) -> int:
        return int(await self.services.purses.balance(self.characters[who].id, "cr"))

    def hand_dm(self, who: str) -> FakeMessage:
        dms = [m for m in self.fake.dms(self.users[who]) if m.embeds]
        assert dms, f"{who} has no hand DM"
        return dms[-1]

    def channel_texts(self) -> list[str]:
        return [masked(m.text) for m in self.fake.tavern.messages]

    async def open(self, *, wager: str = "250 cr", **options: object) -> FakeMessage:
        """Ahsoka challenges Bastila and Bob accepts: returns the board."""
        self.challenge = await self.send_challenge(wager=wager, **options)
        yes = next(b for b in self.challenge.buttons if b["custom_id"].endswith(":yes"))
        accept = await self.fake.click(self.users["B"], self.challenge, custom_id=yes["custom_id"])
        await settle(self.fake, self.harness, accept)
        # the board may come after a pause longer than settle's quiet (a picture to draw on a
        # loaded machine)
        await self.fake.wait_for(
            lambda: any(m.embeds for m in self.fake.tavern.messages), what="the board"
        )
        await settle(self.fake, self.harness)
        boards = [m for m in self.fake.tavern.messages if m.embeds]
        assert len(boards) == 1, self.channel_texts()
        self.board = boards[0]
        return self.board

    async def send_challenge(self, *, wager: str = "250 cr", **options: object) -> FakeMessage:
        handle = await self.fake.slash(
            self.users["A"], "pazaak challenge", opponent="Bastila", wager=wager, **options
        )
        message = await handle.reply()
        await settle(self.fake, self.harness, handle)
        if message.buttons:
            self.challenge_id = challenge_id(message)
        return message

    async def show_hand(self, who: str) -> FakeMessage:
        assert self.board is not None
        button = next(b for b in self.board.buttons if b["custom_id"].endswith(":hand"))
        handle = await self.fake.click(self.users[who], self.board, custom_id=button["custom_id"])
        shown = await handle.reply()
        await settle(self.fake, self.harness, handle)
        assert shown.ephemeral
        return shown

    async def move(self, step: Move, *, via: str = "dm") -> None:
        """One move. Cards are played from the hand DM (``via="dm"``) or from a fresh "Show my
        hand" message (``via="hand"``); End turn and Stand from the board, or with
        ``via="hand"`` from the hand message too."""
        who, what = step[0], step[1]
        user = self.users[who]
        assert self.board is not None
        if what in LABELS:
            where = await self.show_hand(who) if via == "hand" else self.board
            button = next(b for b in where.buttons if b["custom_id"].endswith(f":{what}"))
            handle = await self.fake.click(user, where, custom_id=button["custom_id"])
            await settle(self.fake, self.harness, handle)
            return
        index = step[2]  # type: ignore[misc]
        hand = await self.show_hand(who) if via == "hand" else self.hand_dm(who)
        button = next(b for b in hand.buttons if b["custom_id"].endswith(f":card:{index}"))
        handle = await self.fake.click(user, hand, custom_id=button["custom_id"])
        if len(step) == 4:
            choice = await handle.reply()
            await settle(self.fake, self.harness, handle)
            value = step[3]  # type: ignore[misc]
            handle = await self.fake.click(user, choice, signed(value))
        await settle(self.fake, self.harness, handle)

    async def play(self, moves: Sequence[Move], *, via: str = "dm") -> None:
        for step in moves:
            await self.move(step, via=via)


async def seat_two(
    fake: FakeDiscord,
    harness: BotHarness,
    *,
    credits: int = 1000,
    cards_a: Sequence[str] | None = None,
    cards_b: Sequence[str] | None = None,
    bob_dms: bool = True,
    traits: dict[str, dict[str, object]] | None = None,
) -> Table:
    """Alice plays Ahsoka, Bob plays Bastila; each gets ``credits``, the ``traits`` given for
    ``"A"`` or ``"B"`` (``luck``, ``gamble``, ``perception``) and, if given, exactly these ten
    side cards as collection and side deck (in this order)."""
    services = harness.bot.services
    alice, bob = fake.add_player("Alice"), fake.add_player("Bob", dms_open=bob_dms)
    users = {"A": alice, "B": bob}
    characters = {}
    for key, name, cards in (("A", "Ahsoka", cards_a), ("B", "Bastila", cards_b)):
        who = await services.characters.create(
            fake.guild.id,
            name,
            owner_id=users[key].id,
            **(traits or {}).get(key, {}),  # type: ignore[arg-type]
        )
        if credits:
            await services.purses.grant(who.id, "cr", credits, actor_id=fake.owner.id)
        if cards is not None:
            await services.characters.take_side_cards(who.id, who.side_cards)
            await services.characters.give_side_cards(who.id, cards)
            who = await services.characters.set_selection(who.id, cards, actor_id=users[key].id)
        characters[key] = who
    return Table(fake, harness, users, characters)


def moves_log(board: FakeMessage) -> list[str]:
    """The moves the board lists under the set's status (its bullet lines)."""
    description = board.embeds[0].get("description") or ""
    return [line[2:] for line in description.split("\n") if line.startswith("• ")]


def seats(board: FakeMessage) -> dict[str, str]:
    """Each seat's field on the board: ``{"Ahsoka · sets 0/3": "6 · [+2]\\nTotal: ..."}``."""
    return {field["name"]: field["value"] for field in board.embeds[0].get("fields") or []}
