"""Channel webhooks: list and create them, fetch and delete one, execute one, and get, edit or
delete what it sent.

The interaction webhook (``/webhooks/{application_id}/{interaction_token}...``) has the same
routes; Discord tells them apart by the id, and so does the fake: the application's id goes to
``rest_interactions.py`` (follow-ups), any other to a channel webhook.

Discord's rules that the fake enforces (each answered with Discord's error):
- listing or creating a channel's webhooks, and fetching or deleting one by id, need the bot's
  MANAGE_WEBHOOKS (403/50013; a DM has none: 400/50003); at most 15 webhooks per channel
  (30007) and 1,000 per guild (30058);
- a webhook's token is shown only to the application that created it: a webhook a person made
  is listed without one;
- executing needs the webhook's token, not the bot's: an unknown or deleted webhook is
  404/10015 Unknown Webhook, a wrong token 401/50027;
- the message is written by the webhook (its id; its name or ``username``; its avatar or
  ``avatar_url``), carries ``webhook_id`` (and ``application_id`` when an application owns the
  webhook), pings by ``allowed_mentions`` and reaches the bot as MESSAGE_CREATE; ``wait=true``
  answers it, otherwise 204. A webhook no application owns drops ``components`` unless
  ``with_components=true``; channel webhooks cannot send ephemeral messages;
- creating or deleting a webhook fires WEBHOOKS_UPDATE.

- ``thread_id`` posts in a thread of the webhook's channel (404/10003 for another; an archived
  thread answers 400/50083).
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from tests.fakediscord.api import (
    DiscordError,
    body_of,
    files_of,
    json_response,
    no_content,
    snowflake_arg,
    unknown,
)
from tests.fakediscord.messages import FakeMessage
from tests.fakediscord.models import EPHEMERAL, MANAGE_WEBHOOKS, FakeChannel
from tests.fakediscord.rest import Handler, RestContext, RouteTable
from tests.fakediscord.rest_interactions import WEBHOOK, InteractionRoutes
from tests.fakediscord.rest_messages import apply_attachments, attachments_from, is_empty
from tests.fakediscord.threads import FakeThread, check_send
from tests.fakediscord.webhooks import FakeWebhook, image_hash

CHANNEL_WEBHOOKS = "/channels/{channel_id}/webhooks"
PER_CHANNEL, PER_GUILD = 15, 1000


def _flag(value: str | None) -> bool:
    return (value or "").lower() in ("1", "true")


class WebhookRoutes:
    def __init__(self, ctx: RestContext, interactions: InteractionRoutes) -> None:
        self.ctx = ctx
        self.state = ctx.state
        self.interactions = interactions

    def routes(self) -> RouteTable:
        one = "/webhooks/{webhook_id}"
        message = WEBHOOK + "/messages/{message_id}"  # after ``@original`` (rest_interactions)
        followups = self.interactions
        return [
            ("GET", CHANNEL_WEBHOOKS, self.list_channel),
            ("POST", CHANNEL_WEBHOOKS, self.create),
            ("GET", one, self.get),
            ("DELETE", one, self.delete),
            ("GET", WEBHOOK, self.get_with_token),
            ("DELETE", WEBHOOK, self.delete_with_token),
            ("POST", WEBHOOK, self._by_id(self.execute, followups.followup)),
            ("GET", message, self._by_id(self.get_message, followups.get_message)),
            ("PATCH", message, self._by_id(self.edit_message, followups.edit_message)),
            ("DELETE", message, self._by_id(self.delete_message, followups.delete_message)),
        ]

    def _by_id(self, channel_webhook: Handler, interaction_webhook: Handler) -> Handler:
        """One route for both kinds: the application's own id is the interaction webhook's."""

        async def handler(request: web.Request) -> web.StreamResponse:
            if request.match_info["webhook_id"] == str(self.state.application_id):
                return await interaction_webhook(request)
            return await channel_webhook(request)

        return handler

    # -- managing them (the bot's token and MANAGE_WEBHOOKS) --------------------------------------
    def _managed(self, channel: FakeChannel) -> None:
        """Raise Discord's error unless the bot may manage ``channel``'s webhooks."""
        guild = self.state.guilds.get(channel.guild_id or 0)
        if guild is None:
            raise DiscordError(400, 50003, "Cannot execute action on a DM channel")
        if not guild.member(self.state.bot_user).permissions & MANAGE_WEBHOOKS:
            raise DiscordError(403, 50013, "Missing Permissions")

    def _channel(self, request: web.Request) -> FakeChannel:
        channel = self.state.channels.get(snowflake_arg(request, "channel_id"))
        if channel is None:
            raise unknown("Channel", 10003)
        self._managed(channel)
        return channel

    def _shown(self, hook: FakeWebhook) -> dict[str, Any]:
        """The webhook as the bot is shown it: with its token only if the bot made it."""
        return hook.payload(token=hook.application_id == self.state.application_id)

    async def list_channel(self, request: web.Request) -> web.Response:
        hooks = self.state.channel_webhooks(self._channel(request))
        return json_response([self._shown(hook) for hook in hooks])

    async def create(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body = body_of(request) or {}
        if len(self.state.channel_webhooks(channel)) >= PER_CHANNEL:
            raise DiscordError(400, 30007, "Maximum number of webhooks reached (15)")
        guild_id = channel.guild_id
        if sum(h.channel.guild_id == guild_id for h in self.state.webhooks.values()) >= PER_GUILD:
            raise DiscordError(400, 30058, "Maximum number of webhooks per guild reached (1000)")
        hook = self.state.add_webhook(
            channel,
            str(body.get("name") or ""),
            creator=self.state.bot_user,
            application_id=self.state.application_id,
            avatar=image_hash(body.get("avatar")),
        )
        return json_response(self._shown(hook))

    def _hook(self, request: web.Request) -> FakeWebhook:
        hook = self.state.webhooks.get(snowflake_arg(request, "webhook_id"))
        if hook is None:
            raise unknown("Webhook", 10015)
        token = request.match_info.get("webhook_token")
        if token is not None and token != hook.token:
            raise DiscordError(401, 50027, "Invalid Webhook Token")
        return hook

    async def get(self, request: web.Request) -> web.Response:
        hook = self._hook(request)
        self._managed(hook.channel)
        return json_response(self._shown(hook))

    async def delete(self, request: web.Request) -> web.Response:
        hook = self._hook(request)
        self._managed(hook.channel)
        self.state.delete_webhook(hook)
        return no_content()

    # -- using one (its token) --------------------------------------------------------------------
    async def get_with_token(self, request: web.Request) -> web.Response:
        return json_response(self._hook(request).payload(token=True, user=False))

    async def delete_with_token(self, request: web.Request) -> web.Response:
        self.state.delete_webhook(self._hook(request))
        return no_content()

    async def execute(self, request: web.Request) -> web.Response:
        hook = self._hook(request)
        where = self._thread(hook, request.query.get("thread_id"))
        body, files = dict(body_of(request) or {}), files_of(request)
        if hook.application_id is None and not _flag(request.query.get("with_components")):
            body.pop("components", None)
        if is_empty(body, files):
            raise DiscordError(400, 50006, "Cannot send an empty message")
        body["flags"] = int(body.get("flags") or 0) & ~EPHEMERAL
        username, avatar_url = body.get("username"), body.get("avatar_url")
        message = self.state.create_message(
            where,
            body,
            author=hook.author(username, avatar_url),
            attachments=attachments_from(self.state, self.ctx.base_url(), body, files),
            webhook_id=hook.id,
            application_id=hook.application_id,
            avatar_url=avatar_url,
        )
        if _flag(request.query.get("wait")):
            return json_response(message.payload())
        return no_content()

    def _thread(self, hook: FakeWebhook, thread_id: str | None) -> FakeChannel:
        """Where an execute posts: the webhook's channel, or a thread of it."""
        if thread_id is None:
            return hook.channel
        thread = self.state.channels.get(int(thread_id)) if thread_id.isdigit() else None
        if not isinstance(thread, FakeThread) or thread.parent is not hook.channel:
            raise unknown("Channel", 10003)
        check_send(self.state.guilds.get(thread.guild_id or 0), thread, permissions=False)
        return thread

    def _message(self, request: web.Request) -> FakeMessage:
        hook = self._hook(request)
        message = self.state.messages.get(snowflake_arg(request, "message_id"))
        if message is None or message.deleted or message.webhook_id != hook.id:
            raise unknown("Message", 10008)
        self.ctx.check_message_faults(request, message.id)
        return message

    async def get_message(self, request: web.Request) -> web.Response:
        return json_response(self._message(request).payload())

    async def edit_message(self, request: web.Request) -> web.Response:
        message = self._message(request)
        body, files = body_of(request) or {}, files_of(request)
        apply_attachments(self.state, self.ctx.base_url(), message, body, files)
        self.state.edit_message(message, body)
        return json_response(message.payload())

    async def delete_message(self, request: web.Request) -> web.Response:
        self.state.delete_message(self._message(request))
        return no_content()
