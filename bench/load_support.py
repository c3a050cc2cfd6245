"""The players of ``bench/load.py``: one closed loop per table, and exact timings.

Timings are taken inside the fake, at the moment it changes: :class:`Probes` wraps the fake's
``notify`` (called right after every response, message create or edit), so a latency is not
delayed by the driver's own scheduling. A table's players make their next move as soon as the
previous move's table update arrived; what they do is read off the table message, as a person
would (whose turn it is, which buttons there are), never from the bot's database.
"""

# ruff: noqa: ASYNC109 (``timeout=`` reads best here too)

from __future__ import annotations

import asyncio
import contextvars
import re
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser, InteractionHandle
from tests.fakediscord.messages import walk_components

TIMEOUT = 30.0
STUCK_SECONDS = 5.0
BOLD = re.compile(r"\*\*(.+?)\*\*")
MENTION = re.compile(r"<@(\d+)>")
TOTAL = re.compile(r"Total: \*\*(-?\d+)\*\*")
Ack = tuple[float, float, int]  # (sent, ms, the interaction's id, or 0: never answered)


class Probes:
    """``await probes.until(channel, predicate)`` returns (the fake's time when the predicate
    came true, its value). It is checked whenever something changes in that channel: a message
    created or edited there, or an interaction from there answered, so a wait costs nothing
    while other tables move."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.loop = asyncio.get_running_loop()
        self.pending: dict[int, list[tuple[Callable[[], Any], Future]]] = defaultdict(list)
        state = fake.state
        create, edit = state.create_message, state.edit_message

        def created(channel: FakeChannel, body: dict[str, Any], **kwargs: Any) -> FakeMessage:
            message = create(channel, body, **kwargs)
            self.fire(channel.id)
            return message

        def edited(message: FakeMessage, body: dict[str, Any]) -> FakeMessage:
            edit(message, body)
            self.fire(message.channel.id)
            return message

        state.create_message, state.edit_message = created, edited  # type: ignore[method-assign]

    def watch(self, handle: InteractionHandle) -> None:
        """Fire the handle's channel when the bot answers it (its callback type is set)."""
        handle.__class__ = _Watched
        handle.probes = self  # type: ignore[attr-defined]

    def fire(self, channel: int) -> None:
        waiting = self.pending.get(channel)
        if not waiting:
            return
        now, keep = self.loop.time(), []
        for predicate, future in waiting:
            if future.done():
                continue
            try:
                value = predicate()
            except Exception as exc:
                future.set_exception(exc)
                continue
            if value:
                future.set_result((now, value))
            else:
                keep.append((predicate, future))
        self.pending[channel] = keep

    async def until(
        self, channel: FakeChannel, predicate: Callable[[], Any], timeout: float = TIMEOUT
    ) -> tuple[float, Any]:
        value = predicate()
        if value:
            return self.loop.time(), value
        future: Future = self.loop.create_future()
        self.pending[channel.id].append((predicate, future))
        return await asyncio.wait_for(future, timeout)


Future = asyncio.Future[tuple[float, Any]]


class _Watched(InteractionHandle):
    """An interaction handle that tells the probes when its callback type is set."""

    @property
    def callback_type(self) -> int | None:
        return self.__dict__.get("callback_type")

    @callback_type.setter
    def callback_type(self, value: int | None) -> None:
        self.__dict__["callback_type"] = value
        self.probes.fire(self.channel.id)  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Wait:
    kind: str  # "ack", "update", "reply", "message"
    what: str
    since: float


@dataclass
class Record:
    """Samples as (start time, milliseconds); the window is applied when reporting."""

    acks: dict[str, list[Ack]] = field(default_factory=partial(defaultdict, list))
    updates: list[tuple[float, float, str]] = field(default_factory=list)  # and the handler
    moves: list[float] = field(default_factory=list)
    interactions: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


def version(message: FakeMessage) -> int | None:
    """The newest version a table message's components were drawn at (None: it has none)."""
    best = None
    for component in walk_components(message.components):
        parts = str(component.get("custom_id") or "").split(":")
        if len(parts) >= 4 and parts[2].isdigit() and int(parts[2]) > 0:
            best = max(best or 0, int(parts[2]))
    return best


def acts(message: FakeMessage) -> dict[str, dict[str, Any]]:
    """The message's buttons by act (the fourth part of their custom_id)."""
    out = {}
    for button in message.buttons:
        parts = str(button.get("custom_id") or "").split(":")
        if len(parts) >= 4 and not button.get("disabled"):
            out[parts[3]] = button
    return out


class Driver:
    """What every table's loop shares: the fake, the probes and the samples."""

    def __init__(self, fake: FakeDiscord, record: Record) -> None:
        self.fake, self.record = fake, record
        self.probes = Probes(fake)
        self.loop = asyncio.get_running_loop()
        self.stopping = False
        self.number: contextvars.ContextVar[int] = contextvars.ContextVar("table", default=0)
        self.waits: dict[int, Wait] = {}  # table -> what its players wait for, since when
        self.began: dict[int, float] = {}  # table -> when its latest interaction was sent

    async def wait(
        self, wait: Wait, channel: FakeChannel, predicate: Callable[[], Any]
    ) -> tuple[float, Any]:
        table = self.number.get()
        self.waits[table] = wait
        try:
            return await self.probes.until(channel, predicate)
        finally:
            if self.waits.get(table) is wait:
                del self.waits[table]

    def unfinished(self, start: float) -> list[Wait]:
        """Stop: what the players still wait for. An acknowledgement or a table update still
        awaited is counted as a sample at its age, so a stalled bot is not measured only by
        the moves that got through (a wait begun before the window counts from its start)."""
        now, waits = self.loop.time(), list(self.waits.values())
        self.waits.clear()
        for wait in waits:
            age = (now - wait.since) * 1000
            if wait.kind == "ack":
                self.record.acks[wait.what].append((max(wait.since, start), age, 0))
            elif wait.kind == "update":
                self.record.updates.append((max(wait.since, start), age, wait.what))
        return [w for w in waits if now - w.since > STUCK_SECONDS]

    async def interact(
        self, handler: str, send: Callable[[], Awaitable[InteractionHandle]]
    ) -> InteractionHandle:
        began = self.loop.time()
        handle = await send()
        self.probes.watch(handle)
        at, _ = await self.wait(
            Wait("ack", handler, began), handle.channel, lambda: handle.callback_type is not None
        )
        self.record.acks[handler].append((began, (at - began) * 1000, handle.id))
        self.record.interactions.append(began)
        self.began[self.number.get()] = began
        return handle

    async def move(
        self, table: FakeMessage, handler: str, send: Callable[[], Awaitable[InteractionHandle]]
    ) -> InteractionHandle:
        """The interaction that makes a move, and the wait for the table message to show it."""
        before, edits = version(table), len(table.history)
        handle = await self.interact(handler, send)
        await self.updated(table, before, edits, handler)
        return handle

    async def updated(self, table: FakeMessage, before: int | None, edits: int, what: str) -> None:
        """Wait until ``table`` shows a newer version than ``before`` (or no version: the game
        is over), and count a move made by the latest interaction."""
        began = self.began[self.number.get()]

        def shown() -> bool:
            if len(table.history) == edits:
                return False
            now = version(table)
            return now is None or before is None or now > before

        at, _ = await self.wait(Wait("update", what, began), table.channel, shown)
        self.record.updates.append((began, (at - began) * 1000, what))
        self.record.moves.append(began)

    async def newest(
        self, channel: FakeChannel, test: Callable[[FakeMessage], bool]
    ) -> FakeMessage:
        def found() -> FakeMessage | None:
            return next((m for m in reversed(channel.history) if not m.deleted and test(m)), None)

        _, message = await self.wait(
            Wait("message", "a new message", self.loop.time()), channel, found
        )
        return message  # type: ignore[no-any-return]

    async def reply(
        self, handle: InteractionHandle, predicate: Callable[[], Any] | None = None
    ) -> Any:
        """The bot's visible answer to an interaction (as ``handle.reply()``, without polling),
        or the first truthy ``predicate()``."""
        wait = Wait(
            "reply", str(handle.payload["data"].get("custom_id", handle.name)), handle.created
        )
        _, message = await self.wait(wait, handle.channel, predicate or handle._answered)
        return message

    async def forever(self, name: str, loop: Callable[[], Awaitable[None]]) -> None:
        """Run one table's loop until the bench stops, noting (and surviving) what went wrong."""
        self.number.set(int(name.split()[-1]))
        while not self.stopping:
            try:
                await loop()
            except (TimeoutError, AssertionError, LookupError, ValueError) as exc:
                self.record.failures.append(f"{name}: {type(exc).__name__}: {str(exc)[:160]}")
                await asyncio.sleep(0.5)


async def echo_table(driver: Driver, channel: FakeChannel, user: FakeUser, number: int) -> None:
    """One echo "table": a message with one button; every click is a move."""
    body = {
        "content": "Echo 1",
        "components": [
            {
                "type": 1,
                "components": [
                    {"type": 2, "style": 2, "label": "Tap", "custom_id": f"ec:{number}:1:tap"}
                ],
            }
        ],
    }
    table = driver.fake.state.create_message(channel, body)
    table.application_id = driver.fake.application_id

    async def loop() -> None:
        while not driver.stopping:
            button = acts(table)["tap"]["custom_id"]
            await driver.move(
                table, "echo", partial(driver.fake.click, user, table, custom_id=button)
            )

    await driver.forever(f"echo {number}", loop)


@dataclass
class Seat:
    user: FakeUser
    name: str


async def pegaz_table(
    driver: Driver, channel: FakeChannel, gm: FakeUser, seats: list[Seat], number: int
) -> None:
    """Three-Card Pegasus: the GM opens, everyone joins, the GM starts; on turn a player pays
    for one exchange while exchanges are allowed, then checks the first it may; the winner
    keeps the pot. Then the GM opens the next game in the same channel."""
    fake, by_name = driver.fake, {s.name: s for s in seats}

    async def game() -> None:
        old = {m.id for m in channel.history}
        await driver.interact("/pegaz open", lambda: fake.slash(gm, "pegaz open", channel=channel))
        table = await driver.newest(channel, lambda m: m.id not in old and "join" in acts(m))
        for seat in seats:
            join = acts(table)["join"]["custom_id"]
            await driver.move(table, "join", partial(fake.click, seat.user, table, custom_id=join))
        start = acts(table)["start"]["custom_id"]
        await driver.move(table, "start", lambda: fake.click(gm, table, custom_id=start))
        while not driver.stopping:
            buttons = acts(table)
            if not buttons or not ({"xchg", "check", "keep"} & set(buttons)):
                return
            description = str(table.embeds[0].get("description") or "")
            named = BOLD.search(description.splitlines()[0])
            if named is None or named[1] not in by_name:
                raise LookupError(f"no seat named on the table: {description[:80]!r}")
            who = by_name[named[1]].user
            if "keep" in buttons:
                keep = buttons["keep"]["custom_id"]
                await driver.move(table, "keep", partial(fake.click, who, table, custom_id=keep))
            elif "xchg" in buttons and "check" not in buttons:
                await exchange(table, who, buttons["xchg"]["custom_id"])
            else:
                await check(table, who, buttons["check"]["custom_id"])

    async def exchange(table: FakeMessage, who: FakeUser, custom_id: str) -> None:
        dialog = await driver.interact("xchg", lambda: fake.click(who, table, custom_id=custom_id))
        before, edits, seen = version(table), len(table.history), len(table.channel.history)

        def outcome() -> FakeMessage | None:
            """The table moved on (the dialog paid), or a preview with a Pay button came."""
            if len(table.history) != edits and (version(table) or before or 0) > (before or 0):
                return table
            for message in table.channel.history[seen:]:
                if message.ephemeral_to is who and any(
                    str(b.get("label", "")).startswith("Pay") for b in message.buttons
                ):
                    return message
            return None

        picked = {"cards": ["1"]}  # the first card, from the menu (a dice table: always there)
        sent = await driver.interact(
            "xchg dialog", lambda: fake.submit_modal(who, dialog, picked, timeout=TIMEOUT)
        )
        answer = await driver.reply(sent, outcome)
        if answer is table:  # the dialog paid at once: it made the move
            await driver.updated(table, before, edits, "xchg dialog")
            return
        pay = next(b for b in answer.buttons if str(b.get("label", "")).startswith("Pay"))
        await driver.move(table, "pay", lambda: fake.click(who, answer, custom_id=pay["custom_id"]))

    async def check(table: FakeMessage, who: FakeUser, custom_id: str) -> None:
        opened = await driver.interact("check", lambda: fake.click(who, table, custom_id=custom_id))
        menu = await driver.reply(opened)
        option = menu.selects[0]["options"][0]["value"]
        await driver.move(table, "check menu", lambda: fake.select(who, menu, [option]))

    await driver.forever(f"pegaz {number}", game)


async def pazaak_table(
    driver: Driver, channel: FakeChannel, first: Seat, second: Seat, number: int
) -> None:
    """Pazaak: the first challenges the second for 10 cr, who accepts; on turn a player stands
    at 17 or more and ends the turn below it. Then the next match, in the same channel."""
    fake = driver.fake
    users = {first.user.id: first, second.user.id: second}

    async def match() -> None:
        old = {m.id for m in channel.history}
        asked = await driver.interact(
            "/pazaak challenge",
            lambda: fake.slash(
                first.user, "pazaak challenge", channel=channel, opponent=second.name, wager="10 cr"
            ),
        )
        challenge = await driver.reply(asked)
        yes = next(b["custom_id"] for b in challenge.buttons if b["custom_id"].endswith(":yes"))
        await driver.interact("accept", lambda: fake.click(second.user, challenge, custom_id=yes))
        board = await driver.newest(channel, lambda m: m.id not in old and "end" in acts(m))
        while not driver.stopping:
            buttons = acts(board)
            if "end" not in buttons and "stand" not in buttons:
                return
            mentioned = MENTION.search(board.content) or MENTION.search(board.text)
            if mentioned is None or int(mentioned[1]) not in users:
                raise LookupError(f"nobody on turn on the board: {board.text[:80]!r}")
            seat = users[int(mentioned[1])]
            total = 0
            for item in board.embeds[0].get("fields") or []:
                found = TOTAL.search(str(item.get("value")))
                if str(item.get("name", "")).startswith(seat.name) and found:
                    total = int(found[1])
            act = "stand" if total >= 17 and "stand" in buttons else "end"
            custom_id = buttons[act]["custom_id"]
            await driver.move(
                board,
                act,
                partial(fake.click, seat.user, board, custom_id=custom_id),
            )

    await driver.forever(f"pazaak {number}", match)
