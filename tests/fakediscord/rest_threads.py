"""Thread routes: start a thread from a message or without one, and edit (archive, lock) it.

The rules are in ``threads.py``. A new thread reaches the bot as THREAD_CREATE (with
``newly_created``), an edit as THREAD_UPDATE, as on Discord; the guild's active threads are in
its GUILD_CREATE, so a restarted bot knows them too. Messages are sent to a thread by the message
routes (``rest_messages.py``) with the thread's id as the channel.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from tests.fakediscord.api import DiscordError, body_of, json_response, snowflake_arg, unknown
from tests.fakediscord.models import (
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    TEXT,
    FakeChannel,
    FakeGuild,
)
from tests.fakediscord.rest import RestContext, RouteTable
from tests.fakediscord.threads import FakeThread, apply_edit, require

WRONG_CHANNEL = DiscordError(400, 50024, "Cannot execute action on this channel type")


def announce(guild: FakeGuild, event: str, thread: FakeThread, **extra: Any) -> None:
    guild.state.emit(event, thread.payload() | extra)
    guild.state.notify()


class ThreadRoutes:
    def __init__(self, ctx: RestContext) -> None:
        self.ctx = ctx
        self.state = ctx.state

    def routes(self) -> RouteTable:
        return [
            ("POST", "/channels/{channel_id}/messages/{message_id}/threads", self.from_message),
            ("POST", "/channels/{channel_id}/threads", self.without_message),
            ("PATCH", "/channels/{channel_id}", self.edit),
        ]

    def _parent(self, request: web.Request) -> tuple[FakeGuild, FakeChannel]:
        channel = self.state.channels.get(snowflake_arg(request, "channel_id"))
        if channel is None:
            raise unknown("Channel", 10003)
        guild = self.state.guilds.get(channel.guild_id or 0)
        if guild is None or channel.type != TEXT or isinstance(channel, FakeThread):
            raise WRONG_CHANNEL
        return guild, channel

    def _start(
        self,
        guild: FakeGuild,
        parent: FakeChannel,
        body: dict[str, Any],
        *,
        kind: int,
        thread_id: int | None = None,
    ) -> FakeThread:
        require(
            guild,
            parent,
            CREATE_PRIVATE_THREADS if kind == PRIVATE_THREAD else CREATE_PUBLIC_THREADS,
        )
        thread = FakeThread(
            thread_id or self.state.snowflake(),
            kind,
            str(body.get("name") or ""),
            guild.id,
            parent=parent,
            owner=self.state.bot_user,
            invitable=body.get("invitable") is not False,
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
            rate_limit_per_user=int(body.get("rate_limit_per_user") or 0),
            starter_message_id=thread_id,
        )
        guild.threads[thread.id] = thread
        self.state.channels[thread.id] = thread
        announce(guild, "THREAD_CREATE", thread, newly_created=True)
        return thread

    async def from_message(self, request: web.Request) -> web.Response:
        guild, parent = self._parent(request)
        message = self.state.messages.get(snowflake_arg(request, "message_id"))
        if message is None or message.deleted or message.channel is not parent:
            raise unknown("Message", 10008)
        if message.id in self.state.channels:
            raise DiscordError(400, 160004, "A thread has already been created for this message")
        thread = self._start(
            guild, parent, body_of(request) or {}, kind=PUBLIC_THREAD, thread_id=message.id
        )
        message.thread = thread
        self.state.emit_message("MESSAGE_UPDATE", message)
        return json_response(thread.payload())

    async def without_message(self, request: web.Request) -> web.Response:
        guild, parent = self._parent(request)
        body = body_of(request) or {}
        kind = int(body.get("type") or PRIVATE_THREAD)
        if kind not in (PUBLIC_THREAD, PRIVATE_THREAD):
            raise WRONG_CHANNEL  # announcement threads need an announcement channel
        return json_response(self._start(guild, parent, body, kind=kind).payload())

    async def edit(self, request: web.Request) -> web.Response:
        channel = self.state.channels.get(snowflake_arg(request, "channel_id"))
        if channel is None:
            raise unknown("Channel", 10003)
        if not isinstance(channel, FakeThread):
            self.state.unsupported.append(f"PATCH {request.path} (only threads can be edited)")
            raise DiscordError(404, 0, "404: Not Found (the fake edits threads only)")
        guild = self.state.guilds[channel.guild_id or 0]
        apply_edit(guild, channel, body_of(request) or {}, self.state.bot_user)
        announce(guild, "THREAD_UPDATE", channel)
        return json_response(channel.payload())
