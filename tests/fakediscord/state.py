"""Everything the fake Discord remembers, and waiting for it to change."""

# ruff: noqa: ASYNC109 (wait helpers take ``timeout=`` on purpose: it reads best in tests)

from __future__ import annotations

import asyncio
import copy
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tests.fakediscord.emojis import FakeEmoji
from tests.fakediscord.mentions import resolve
from tests.fakediscord.messages import FakeMessage
from tests.fakediscord.models import (
    DEFAULT_PERMISSIONS,
    DM,
    EPHEMERAL,
    FakeChannel,
    FakeGuild,
    FakeRole,
    FakeUser,
    Snowflakes,
)
from tests.fakediscord.openapi import Violation
from tests.fakediscord.webhooks import FakeWebhook

if TYPE_CHECKING:
    from tests.fakediscord.interactions import InteractionHandle

Emitter = Callable[[str, dict[str, Any]], None]
BOT_NAME = "Szulernia"
RECHECK_SECONDS = 0.05
NONCE_SECONDS = 300.0  # how long Discord remembers a message nonce for ``enforce_nonce``


@dataclass
class RequestRecord:
    """One REST request as the fake saw it (after faults, before the handler).

    ``held``: the answer was withheld (a hold, or a frozen bot's request); ``status`` stays 0.
    ``deduplicated``: a message create that returned an earlier message with the same nonce.
    """

    method: str
    path: str
    template: str | None
    body: Any
    status: int = 0
    files: list[str] = field(default_factory=list)
    held: bool = False
    deduplicated: bool = False


class WaitTimeout(AssertionError):
    """A wait helper gave up; the message says what it was waiting for and what it saw."""


class FakeState:
    def __init__(self) -> None:
        self.snowflake = Snowflakes()
        self.users: dict[int, FakeUser] = {}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.files: dict[int, bytes] = {}  # attachment id -> the uploaded bytes
        self.dm_channels: dict[int, FakeChannel] = {}
        self.webhooks: dict[int, FakeWebhook] = {}  # channel webhooks that were not deleted
        self.emojis: dict[int, FakeEmoji] = {}  # the application's emojis (emojis.py)
        self.emoji_warnings: list[str] = []  # unknown custom emojis in message text
        self.refuse_emoji_uploads = False
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.command_syncs: list[tuple[int | None, list[dict[str, Any]]]] = []
        self.interactions: dict[str, InteractionHandle] = {}
        self.violations: list[Violation] = []
        self.unsupported: list[str] = []
        self.crashes: list[str] = []  # exceptions inside the fake's own handlers
        self.requests: list[RequestRecord] = []
        self.nonces: dict[tuple[int, int, str], tuple[float, FakeMessage]] = {}
        self.nonce_seconds = NONCE_SECONDS
        self.emitter: Emitter | None = None
        self._waiters: set[asyncio.Future[None]] = set()
        self._command_ids: dict[tuple[int | None, int, str], int] = {}

        self.bot_user = FakeUser(self.snowflake(), BOT_NAME, bot=True)
        self.application_id = self.bot_user.id
        self.owner = self.add_user("Owner")
        self.default_guild = self.add_guild("The Drunken Griffin", owner=self.owner)

    # -- builders ----------------------------------------------------------------------------
    def add_user(self, name: str, *, dms_open: bool = True, locale: str = "en-US") -> FakeUser:
        user = FakeUser(self.snowflake(), name, dms_open=dms_open, locale=locale)
        self.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str,
        *,
        owner: FakeUser | None = None,
        channel: str = "tavern",
        locale: str = "en-US",
        bot_permissions: int = DEFAULT_PERMISSIONS,
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        """A guild with @everyone, one text channel, its owner and the bot as members
        (``shard``: ``(shard id, shard count)`` its id falls on)."""
        owner = owner or self.add_user(f"{name} owner")
        guild_id = self.snowflake() if shard is None else self.snowflake.on_shard(*shard)
        guild = FakeGuild(self, guild_id, name, owner.id, locale)
        guild.roles[guild.id] = FakeRole(guild.id, guild.id, "@everyone", DEFAULT_PERMISSIONS)
        guild.add_channel(channel)
        guild.add_member(owner)
        bot_role = guild.add_role(BOT_NAME, permissions=bot_permissions)
        guild.add_member(self.bot_user, roles=[bot_role])
        self.guilds[guild.id] = guild
        self.emit("GUILD_CREATE", guild.payload())
        return guild

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        if user.id not in self.dm_channels:
            channel = FakeChannel(self.snowflake(), DM, recipient=user)
            self.dm_channels[user.id] = channel
            self.channels[channel.id] = channel
        return self.dm_channels[user.id]

    # -- webhooks ----------------------------------------------------------------------------
    def add_webhook(
        self,
        channel: FakeChannel,
        name: str,
        *,
        creator: FakeUser,
        application_id: int | None,
        avatar: str | None = None,
    ) -> FakeWebhook:
        token = secrets.token_urlsafe(51)  # 68 characters, as Discord's
        hook = FakeWebhook(self.snowflake(), token, channel, name, creator, application_id, avatar)
        self.webhooks[hook.id] = hook
        self._webhooks_update(channel)
        return hook

    def delete_webhook(self, hook: FakeWebhook) -> None:
        del self.webhooks[hook.id]
        self._webhooks_update(hook.channel)

    def channel_webhooks(self, channel: FakeChannel) -> list[FakeWebhook]:
        return [hook for hook in self.webhooks.values() if hook.channel is channel]

    def _webhooks_update(self, channel: FakeChannel) -> None:
        self.emit(
            "WEBHOOKS_UPDATE", {"guild_id": str(channel.guild_id), "channel_id": str(channel.id)}
        )
        self.notify()

    # -- messages ----------------------------------------------------------------------------
    def create_message(
        self,
        channel: FakeChannel,
        body: dict[str, Any],
        *,
        author: FakeUser | None = None,
        ephemeral_to: FakeUser | None = None,
        **extra: Any,
    ) -> FakeMessage:
        message = FakeMessage(self.snowflake(), channel, author or self.bot_user, **extra)
        message.apply(body, edit=False)
        self._mention(message, body)
        if ephemeral_to is not None and message.ephemeral:
            message.ephemeral_to = ephemeral_to
        channel.history.append(message)
        self.messages[message.id] = message
        if message.nonce is not None:
            key = (channel.id, message.author.id, str(message.nonce))
            self.nonces[key] = (time.monotonic(), message)
        if message.ephemeral_to is None:
            self.emit_message("MESSAGE_CREATE", message)
        self.notify()
        return message

    def message_with_nonce(
        self, channel: FakeChannel, author: FakeUser, nonce: int | str
    ) -> FakeMessage | None:
        """The live message ``author`` created in ``channel`` with this nonce, recently."""
        found = self.nonces.get((channel.id, author.id, str(nonce)))
        if found is None or time.monotonic() - found[0] > self.nonce_seconds:
            return None
        return None if found[1].deleted else found[1]

    def edit_message(self, message: FakeMessage, body: dict[str, Any]) -> FakeMessage:
        message.apply(body, edit=True)
        if "content" in body or "allowed_mentions" in body:
            self._mention(message, body)
        if message.ephemeral_to is None:
            self.emit_message("MESSAGE_UPDATE", message)
        self.notify()
        return message

    def delete_message(self, message: FakeMessage) -> None:
        message.deleted = True
        if message.ephemeral_to is None:
            data = {"id": str(message.id), "channel_id": str(message.channel.id)}
            if message.channel.guild_id:
                data["guild_id"] = str(message.channel.guild_id)
            self.emit("MESSAGE_DELETE", data)
        self.notify()

    def _mention(self, message: FakeMessage, body: dict[str, Any]) -> None:
        """Who the message pings, by its content and the body's ``allowed_mentions``."""
        users = self.users | {self.bot_user.id: self.bot_user}
        reference = message.message_reference or {}
        replied = self.messages.get(int(reference.get("message_id") or 0))
        replied_to = None if replied is None else users.get(replied.author.id)
        found = resolve(
            message.content,
            body.get("allowed_mentions"),
            users=users,
            guild=self.guilds.get(message.channel.guild_id or 0),
            replied_to=None if replied_to is message.author else replied_to,
        )
        message.mentions, message.mention_roles = found.users, found.roles
        message.mention_everyone = found.everyone

    def emit_message(self, event: str, message: FakeMessage) -> None:
        data = message.payload()
        if message.channel.guild_id:
            data["guild_id"] = str(message.channel.guild_id)
        self.emit(event, data)

    def ephemeral(self, user: FakeUser, channel: FakeChannel | None = None) -> list[FakeMessage]:
        """Ephemeral messages only ``user`` sees (optionally in one channel), oldest first."""
        return [
            m
            for m in self.messages.values()
            if m.ephemeral_to is user and not m.deleted and channel in (None, m.channel)
        ]

    # -- commands ----------------------------------------------------------------------------
    def store_commands(self, guild_id: int | None, body: list[dict[str, Any]]) -> list[Any]:
        stored = []
        for command in body:
            kind = command.get("type") or 1
            key = (guild_id, kind, command["name"])
            if key not in self._command_ids:
                self._command_ids[key] = self.snowflake()
            item = copy.deepcopy(command)
            item.update(
                id=str(self._command_ids[key]),
                application_id=str(self.application_id),
                version=str(self.snowflake()),
                type=kind,
                description=command.get("description") or "",
                default_member_permissions=command.get("default_member_permissions"),
                nsfw=bool(command.get("nsfw")),
                contexts=command.get("contexts"),
                integration_types=command.get("integration_types") or [0],
            )
            if guild_id is not None:
                item["guild_id"] = str(guild_id)
            stored.append(item)
        if guild_id is None:
            self.global_commands = stored
        else:
            self.guild_commands[guild_id] = stored
        self.command_syncs.append((guild_id, copy.deepcopy(body)))
        self.notify()
        return stored

    def commands_for(self, guild: FakeGuild | None) -> list[dict[str, Any]]:
        """Commands a user sees: the guild's own first, then the global ones."""
        local = self.guild_commands.get(guild.id, []) if guild else []
        return [*local, *self.global_commands]

    # -- events and waiting ------------------------------------------------------------------
    def emit(self, event: str, data: dict[str, Any]) -> None:
        if self.emitter is not None:
            self.emitter(event, data)

    def record_violations(self, violations: list[Violation]) -> None:
        self.violations.extend(violations)
        self.notify()

    def notify(self) -> None:
        """Wake every waiter: something changed."""
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)
        self._waiters.clear()

    async def wait_for(
        self,
        predicate: Callable[[], Any],
        *,
        timeout: float = 5.0,
        what: str = "a condition",
        fail_on_violation: bool = True,
    ) -> Any:
        """Return the first truthy ``predicate()``, or fail after ``timeout`` seconds.

        The predicate is re-checked on every change in the fake, and every
        ``RECHECK_SECONDS`` for conditions on the bot's side (its cache, its database). A new
        OpenAPI/limit violation fails the wait at once, with the violation.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        seen_violations = len(self.violations)
        while True:
            result = predicate()
            if result:
                return result
            if fail_on_violation and len(self.violations) > seen_violations:
                new = "\n".join(map(str, self.violations[seen_violations:]))
                raise AssertionError(
                    f"while waiting for {what}, the bot sent an invalid request:\n{new}"
                )
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise WaitTimeout(
                    f"timed out after {timeout}s waiting for {what}\n{self.summary()}"
                )
            waiter: asyncio.Future[None] = loop.create_future()
            self._waiters.add(waiter)
            try:
                await asyncio.wait_for(waiter, min(remaining, RECHECK_SECONDS))
            except TimeoutError:
                pass
            finally:
                self._waiters.discard(waiter)

    def summary(self, last: int = 8) -> str:
        """The latest requests and messages, to explain a failed wait."""
        lines = ["recent requests:"]
        lines += [
            f"  {'held' if r.held else r.status} {r.method} {r.path}" for r in self.requests[-last:]
        ]
        lines.append("recent messages:")
        recent = sorted(self.messages.values(), key=lambda m: m.id)[-last:]
        lines += [f"  {m!r}" for m in recent]
        if self.violations:
            lines.append("violations:")
            lines += [f"  {v}" for v in self.violations]
        return "\n".join(lines)


__all__ = ["EPHEMERAL", "FakeState", "RequestRecord", "WaitTimeout"]
