"""Channel, thread and DM messages: create, get, list, edit, delete; opening a DM channel.

Sending to a thread, or editing in one, follows the rules in ``threads.py``.

A create with ``nonce`` and ``enforce_nonce: true`` is idempotent, as on Discord: if the same
author created a message in the channel with that nonce within ``state.nonce_seconds`` (5
minutes), that message is returned and nothing new is created (the request's record says
``deduplicated``). Get, edit and delete of a deleted or unknown message answer 404/10008.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from tests.fakediscord.api import (
    DiscordError,
    UploadedFile,
    body_of,
    files_of,
    json_response,
    no_content,
    snowflake_arg,
    unknown,
)
from tests.fakediscord.messages import FakeMessage
from tests.fakediscord.models import DM, FakeChannel
from tests.fakediscord.rest import RECORD, RestContext, RouteTable
from tests.fakediscord.state import FakeState
from tests.fakediscord.threads import check_send

CANNOT_DM = DiscordError(403, 50007, "Cannot send messages to this user")


def attachments_from(
    state: FakeState, base_url: str, body: dict[str, Any], files: list[UploadedFile]
) -> list[dict[str, Any]]:
    """Attachment objects for uploaded files; the bytes stay in ``state.files`` by id."""
    described = {int(a.get("id", -1)): a for a in body.get("attachments") or [] if "id" in a}
    out = []
    for upload in files:
        attachment_id = state.snowflake()
        state.files[attachment_id] = upload.data
        meta = described.get(upload.index, {})
        out.append(
            {
                "id": str(attachment_id),
                "filename": meta.get("filename") or upload.filename,
                "description": meta.get("description"),
                "size": len(upload.data),
                "content_type": upload.content_type,
                "url": f"{base_url}/attachments/{attachment_id}/{upload.filename}",
                "proxy_url": f"{base_url}/attachments/{attachment_id}/{upload.filename}",
                "flags": 0,
            }
        )
    return out


def is_empty(body: dict[str, Any], files: list[UploadedFile]) -> bool:
    keys = ("content", "embeds", "components", "sticker_ids", "poll")
    return not files and not any(body.get(key) for key in keys)


def apply_attachments(
    state: FakeState, base_url: str, message: FakeMessage, body: dict[str, Any], files: list[Any]
) -> None:
    """On an edit, keep the attachments the body lists by id and add the new uploads."""
    if "attachments" in body or files:
        keep_ids = {str(a.get("id")) for a in body.get("attachments") or []}
        kept = [a for a in message.attachments if a["id"] in keep_ids]
        if "attachments" not in body:
            kept = list(message.attachments)
        message.attachments = kept + attachments_from(state, base_url, body, files)


class MessageRoutes:
    def __init__(self, ctx: RestContext) -> None:
        self.ctx = ctx
        self.state = ctx.state

    def routes(self) -> RouteTable:
        one = "/channels/{channel_id}/messages/{message_id}"
        return [
            ("POST", "/users/@me/channels", self.open_dm),
            ("POST", "/channels/{channel_id}/messages", self.create),
            ("GET", "/channels/{channel_id}/messages", self.history),
            ("GET", one, self.get),
            ("PATCH", one, self.edit),
            ("DELETE", one, self.delete),
        ]

    def _channel(self, request: web.Request) -> FakeChannel:
        channel = self.state.channels.get(snowflake_arg(request, "channel_id"))
        if channel is None:
            raise unknown("Channel", 10003)
        return channel

    def _message(self, request: web.Request) -> FakeMessage:
        channel = self._channel(request)
        message = self.state.messages.get(snowflake_arg(request, "message_id"))
        if message is None or message.deleted or message.channel is not channel:
            raise unknown("Message", 10008)
        if message.ephemeral_to is not None:
            raise unknown("Message", 10008)  # bots cannot fetch ephemeral messages by channel
        self.ctx.check_message_faults(request, message.id)
        return message

    async def open_dm(self, request: web.Request) -> web.Response:
        body = body_of(request) or {}
        user = self.state.users.get(int(body.get("recipient_id") or 0))
        if user is None or user.bot:
            raise DiscordError(400, 50033, "Invalid Recipients")
        return json_response(self.state.dm_channel(user).payload())

    async def create(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body, files = body_of(request) or {}, files_of(request)
        if channel.type == DM and channel.recipient is not None and not channel.recipient.dms_open:
            raise CANNOT_DM
        check_send(self.state.guilds.get(channel.guild_id or 0), channel)
        if is_empty(body, files):
            raise DiscordError(400, 50006, "Cannot send an empty message")
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce"):
            earlier = self.state.message_with_nonce(channel, self.state.bot_user, nonce)
            if earlier is not None:
                request[RECORD].deduplicated = True
                return json_response(earlier.payload())
        reference = body.get("message_reference")
        attachments = attachments_from(self.state, self.ctx.base_url(), body, files)
        message = self.state.create_message(
            channel,
            body,
            attachments=attachments,
            message_reference=reference,
            type=19 if reference else 0,
            nonce=nonce,
        )
        return json_response(message.payload())

    async def history(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        limit = min(int(request.query.get("limit", 50)), 100)
        messages = channel.messages
        if "before" in request.query:
            messages = [m for m in messages if m.id < int(request.query["before"])]
        if "after" in request.query:
            messages = [m for m in messages if m.id > int(request.query["after"])][:limit]
        newest_first = list(reversed(messages))[:limit]
        return json_response([m.payload() for m in newest_first])

    async def get(self, request: web.Request) -> web.Response:
        return json_response(self._message(request).payload())

    async def edit(self, request: web.Request) -> web.Response:
        message = self._message(request)
        if message.author is not self.state.bot_user:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        guild = self.state.guilds.get(message.channel.guild_id or 0)
        check_send(guild, message.channel, permissions=False)
        body = body_of(request) or {}
        apply_attachments(self.state, self.ctx.base_url(), message, body, files_of(request))
        self.state.edit_message(message, body)
        return json_response(message.payload())

    async def delete(self, request: web.Request) -> web.Response:
        self.state.delete_message(self._message(request))
        return no_content()
