"""Interactions sent to the bot: their payloads, and a handle to wait for the bot's answer."""

# ruff: noqa: ASYNC109 (wait helpers take ``timeout=`` on purpose: it reads best in tests)

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass, field
from typing import Any

from tests.fakediscord.messages import FakeMessage
from tests.fakediscord.models import DM, FakeChannel, FakeGuild, FakeUser
from tests.fakediscord.state import FakeState

APPLICATION_COMMAND, COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE = 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9
GUILD_CONTEXT, BOT_DM_CONTEXT = 0, 1
ATTACHMENT_LIMIT = 10 * 1024 * 1024


@dataclass(eq=False)
class InteractionHandle:
    """One interaction a user made, and everything the bot answered to it.

    ``response`` is the original response message (for a component interaction answered with
    an update, the message that was updated); ``followups`` the follow-up messages; ``modal`` the
    modal the bot opened; ``choices`` the autocomplete choices.
    """

    state: FakeState
    id: int
    token: str
    type: int
    user: FakeUser
    guild: FakeGuild | None
    channel: FakeChannel
    payload: dict[str, Any]
    created: float
    name: str | None = None
    message: FakeMessage | None = None
    parent: InteractionHandle | None = None
    callback_type: int | None = None
    original: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    choices: list[dict[str, Any]] | None = None
    edits_at_ack: int = 0

    @property
    def acknowledged(self) -> bool:
        return self.callback_type is not None

    @property
    def deferred(self) -> bool:
        return self.callback_type in (DEFERRED_MESSAGE, DEFERRED_UPDATE)

    @property
    def response(self) -> FakeMessage | None:
        return self.original

    @property
    def source_message(self) -> FakeMessage | None:
        """The message whose component started this (or its modal's) interaction."""
        return self.message or (self.parent.source_message if self.parent else None)

    def _what(self, goal: str) -> str:
        return f"{goal} to {self.name or 'interaction'} {self.id} by {self.user.name}"

    async def ack(self, timeout: float = 5.0) -> int:
        """Wait for the bot's first response (any type) and return its callback type."""
        await self.state.wait_for(
            lambda: self.acknowledged, timeout=timeout, what=self._what("a response")
        )
        assert self.callback_type is not None
        return self.callback_type

    def _answered(self) -> FakeMessage | None:
        original, kind = self.original, self.callback_type
        if original is None or kind in (AUTOCOMPLETE_RESULT, MODAL, None):
            return None
        if kind in (MESSAGE, UPDATE):
            return original
        if kind == DEFERRED_MESSAGE:
            if original.deleted:  # the deferral was taken back: the answer follows up
                return next(iter(self.followups), None)
            return None if original.loading else original
        if len(original.history) > self.edits_at_ack:
            return original
        # An announcement the click made in the channel is not the answer to the clicker.
        return next((f for f in self.followups if f.ephemeral), None)

    async def reply(self, timeout: float = 5.0) -> FakeMessage:
        """Wait for the visible answer: the message sent or updated, the deferred one filled in.

        After a deferred update (type 6) it is the message once edited, or the first ephemeral
        follow-up; after a deferred message deleted unfilled, the first follow-up.
        """

        def ready() -> FakeMessage | None:
            if self.callback_type in (AUTOCOMPLETE_RESULT, MODAL):
                kind = "a modal" if self.callback_type == MODAL else "autocomplete choices"
                raise AssertionError(f"the bot answered {self._what('')} with {kind}")
            return self._answered()

        result: FakeMessage = await self.state.wait_for(
            ready, timeout=timeout, what=self._what("a reply")
        )
        return result

    async def wait_modal(self, timeout: float = 5.0) -> dict[str, Any]:
        await self.ack(timeout)
        if self.modal is None:
            raise AssertionError(f"expected a modal, got callback type {self.callback_type}")
        return self.modal

    async def followup(self, index: int = 0, timeout: float = 5.0) -> FakeMessage:
        """Wait for the ``index``-th follow-up message (0 is the first)."""
        result: FakeMessage = await self.state.wait_for(
            lambda: len(self.followups) > index and self.followups[index],
            timeout=timeout,
            what=self._what(f"follow-up #{index}"),
        )
        return result

    def __repr__(self) -> str:
        return f"<InteractionHandle {self.name or self.type} {self.id} by {self.user.name}>"


def interaction_channel_payload(channel: FakeChannel, permissions: int) -> dict[str, Any]:
    return channel.payload() | {"permissions": str(permissions)}


def resolved_member(guild: FakeGuild | None, user: FakeUser) -> dict[str, Any] | None:
    if guild is None or user.id not in guild.members:
        return None
    return guild.members[user.id].payload(with_user=False, with_permissions=True)


def new_interaction(
    state: FakeState,
    user: FakeUser,
    channel: FakeChannel,
    kind: int,
    data: dict[str, Any],
    *,
    name: str | None = None,
    message: FakeMessage | None = None,
    parent: InteractionHandle | None = None,
) -> InteractionHandle:
    """Build the INTERACTION_CREATE payload as Discord sends it and register its handle."""
    guild = state.guilds.get(channel.guild_id) if channel.guild_id else None
    interaction_id, token = state.snowflake(), "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48)
    payload: dict[str, Any] = {
        "id": str(interaction_id),
        "application_id": str(state.application_id),
        "type": kind,
        "data": data,
        "token": token,
        "version": 1,
        "locale": user.locale,
        "entitlements": [],
        "entitlement_sku_ids": [],
        "attachment_size_limit": ATTACHMENT_LIMIT,
        "channel_id": str(channel.id),
    }
    if guild is not None:
        member = guild.member(user)
        bot_member = guild.member(state.bot_user)
        payload |= {
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
            "guild_locale": guild.locale,
            "member": member.payload(with_permissions=True),
            "channel": interaction_channel_payload(channel, member.permissions),
            "app_permissions": str(bot_member.permissions_in(channel)),
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": GUILD_CONTEXT,
        }
    else:
        if channel.type != DM:
            raise ValueError(f"{channel!r} belongs to no known guild")
        payload |= {
            "user": user.payload(),
            "channel": interaction_channel_payload(channel, 0),
            "app_permissions": "0",
            "authorizing_integration_owners": {"0": "0"},
            "context": BOT_DM_CONTEXT,
        }
    if message is not None:
        payload["message"] = message.payload()
    loop_time = asyncio.get_running_loop().time()
    handle = InteractionHandle(
        state, interaction_id, token, kind, user, guild, channel, payload, loop_time, name
    )
    handle.message, handle.parent = message, parent
    state.interactions[token] = handle
    return handle


def metadata_for(handle: InteractionHandle) -> dict[str, Any]:
    """``interaction_metadata`` of a message sent in answer to ``handle``."""
    owners = handle.payload["authorizing_integration_owners"]
    data: dict[str, Any] = {
        "id": str(handle.id),
        "type": handle.type,
        "user": handle.user.payload(),
        "authorizing_integration_owners": owners,
    }
    if handle.type == APPLICATION_COMMAND:
        data |= {"name": handle.name, "command_type": 1}
    source = handle.source_message
    if handle.type == COMPONENT and source is not None:
        data["interacted_message_id"] = str(source.id)
    if handle.type == MODAL_SUBMIT and handle.parent is not None:
        data["triggering_interaction_metadata"] = metadata_for(handle.parent)
    return data


def legacy_interaction(handle: InteractionHandle) -> dict[str, Any]:
    """The deprecated ``interaction`` field, still sent by Discord for command responses."""
    data = {
        "id": str(handle.id),
        "type": handle.type,
        "name": handle.name or "",
        "user": handle.user.payload(),
    }
    if "member" in handle.payload:
        member = dict(handle.payload["member"])
        member.pop("user", None)
        member.pop("permissions", None)
        data["member"] = member
    return data
