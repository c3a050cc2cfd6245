"""What people do in Discord, as test helpers: slash commands, clicks, selects, modals, typing,
and what admins do: the bot's permissions, webhooks made or deleted by hand."""

# ruff: noqa: ASYNC109 (wait helpers take ``timeout=`` on purpose: it reads best in tests)

from __future__ import annotations

from typing import Any

from tests.fakediscord.gateway import Gateway
from tests.fakediscord.interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    COMPONENT,
    MODAL_SUBMIT,
    InteractionHandle,
    new_interaction,
)
from tests.fakediscord.messages import BUTTON, SELECT_TYPES, FakeMessage
from tests.fakediscord.models import DM, FakeChannel, FakeGuild, FakeMember, FakeUser
from tests.fakediscord.payloads import (
    button_data,
    command_data,
    find_command,
    find_item,
    modal_data,
    select_data,
)
from tests.fakediscord.state import FakeState
from tests.fakediscord.webhooks import FakeWebhook

Person = FakeUser | FakeMember


def _user(person: Person) -> FakeUser:
    return person.user if isinstance(person, FakeMember) else person


class Actions:
    """Mixed into :class:`FakeDiscord`; every action sends one gateway event to the bot."""

    state: FakeState
    gateway: Gateway

    def _where(self, channel: FakeChannel | int | None) -> FakeChannel:
        if channel is None:
            return self.state.default_guild.text_channel
        if isinstance(channel, int):
            return self.state.channels[channel]
        return channel

    def _send(self, handle: InteractionHandle) -> InteractionHandle:
        if self.gateway.session is None:
            raise RuntimeError("no bot is connected to the fake gateway")
        self.state.emit("INTERACTION_CREATE", handle.payload)
        return handle

    async def slash(
        self,
        person: Person,
        command: str,
        *,
        channel: FakeChannel | int | None = None,
        options: dict[str, Any] | None = None,
        **values: Any,
    ) -> InteractionHandle:
        """``/command`` with typed options (``options=`` for names that are not identifiers).

        ``command`` is the full name, e.g. ``"pegaz open"`` or ``"gm purse give"``.
        """
        user, where = _user(person), self._where(channel)
        guild = self.state.guilds.get(where.guild_id) if where.guild_id else None
        data = command_data(
            self.state.commands_for(guild), command, values | (options or {}), guild
        )
        handle = new_interaction(self.state, user, where, APPLICATION_COMMAND, data, name=command)
        return self._send(handle)

    async def raw_slash(
        self,
        person: Person,
        command: str,
        options: list[Any],
        *,
        resolved: dict[str, Any] | None = None,
        channel: FakeChannel | int | None = None,
        kind: int = APPLICATION_COMMAND,
    ) -> InteractionHandle:
        """``/command`` with ``options`` sent exactly as given, unchecked: the malformed
        payloads no Discord client sends (wrong types, missing or unknown options, values out of
        range or too long, ids that are no snowflakes). Only the command path must exist."""
        where = self._where(channel)
        guild = self.state.guilds.get(where.guild_id) if where.guild_id else None
        root, subs, _ = find_command(self.state.commands_for(guild), command)
        chain, node = [], root
        for sub in subs:
            node = next(o for o in node["options"] if o["name"] == sub)
            chain.append((sub, node["type"]))
        for sub, sub_kind in reversed(chain):
            options = [{"name": sub, "type": sub_kind, "options": options}]
        data: dict[str, Any] = {"id": root["id"], "name": root["name"], "type": 1}
        data |= {"options": options, "resolved": resolved} if resolved else {"options": options}
        if root.get("guild_id"):
            data["guild_id"] = root["guild_id"]
        return self.raw_interaction(person, data, channel=channel, kind=kind, name=command)

    def raw_interaction(
        self,
        person: Person,
        data: Any,
        *,
        channel: FakeChannel | int | None = None,
        kind: int = APPLICATION_COMMAND,
        name: str | None = None,
    ) -> InteractionHandle:
        """An INTERACTION_CREATE whose ``data`` is ``data`` verbatim, whatever it holds."""
        handle = new_interaction(self.state, _user(person), self._where(channel), kind, data)
        handle.name = name
        return self._send(handle)

    async def autocomplete(
        self,
        person: Person,
        command: str,
        option: str,
        typed: str,
        *,
        channel: FakeChannel | int | None = None,
        timeout: float = 5.0,
        **values: Any,
    ) -> list[dict[str, Any]]:
        """Type ``typed`` into ``option`` of ``/command`` and return the bot's choices."""
        user, where = _user(person), self._where(channel)
        guild = self.state.guilds.get(where.guild_id) if where.guild_id else None
        commands = self.state.commands_for(guild)
        data = command_data(commands, command, {**values, option: typed}, guild, focused=option)
        handle = new_interaction(self.state, user, where, AUTOCOMPLETE, data, name=command)
        self._send(handle)
        await handle.ack(timeout)
        if handle.choices is None:
            raise AssertionError(f"autocomplete for /{command} {option} got no choices")
        return handle.choices

    async def click(
        self,
        person: Person,
        message: FakeMessage,
        label: str | None = None,
        *,
        custom_id: str | None = None,
    ) -> InteractionHandle:
        """Click the button with this label (or custom_id) on ``message``."""
        if label is None and custom_id is None:
            raise TypeError("click needs a label or a custom_id")
        button = find_item(message, {BUTTON}, label=label, custom_id=custom_id)
        return self._component(_user(person), message, button_data(button))

    async def select(
        self,
        person: Person,
        message: FakeMessage,
        values: list[Any],
        *,
        placeholder: str | None = None,
        custom_id: str | None = None,
    ) -> InteractionHandle:
        """Pick ``values`` in a select menu (string values; users/roles/channels for the others)."""
        select = find_item(message, SELECT_TYPES, placeholder=placeholder, custom_id=custom_id)
        guild = self.state.guilds.get(message.channel.guild_id or 0)
        return self._component(_user(person), message, select_data(select, values, guild))

    def _component(
        self, user: FakeUser, message: FakeMessage, data: dict[str, Any]
    ) -> InteractionHandle:
        if message.deleted:
            raise ValueError(f"{message!r} was deleted")
        if message.ephemeral_to is not None and message.ephemeral_to is not user:
            raise ValueError(f"{message!r} is ephemeral to someone else")
        handle = new_interaction(
            self.state, user, message.channel, COMPONENT, data, message=message
        )
        return self._send(handle)

    async def submit_modal(
        self,
        person: Person,
        opened_by: InteractionHandle,
        values: dict[str, Any],
        *,
        timeout: float = 5.0,
    ) -> InteractionHandle:
        """Fill in and submit the modal the bot opened in answer to ``opened_by``.

        ``values`` maps each field's custom_id or label to its text (or select values).
        """
        modal = await opened_by.wait_modal(timeout)
        data = modal_data(modal, values)
        handle = new_interaction(
            self.state,
            _user(person),
            opened_by.channel,
            MODAL_SUBMIT,
            data,
            message=opened_by.message,
            parent=opened_by,
        )
        return self._send(handle)

    async def say(
        self, person: Person, content: str, *, channel: FakeChannel | int | None = None
    ) -> FakeMessage:
        """A user writes a plain message (the bot gets it if its intents ask for messages)."""
        where = self._where(channel)
        return self.state.create_message(where, {"content": content}, author=_user(person))

    # -- what admins do --------------------------------------------------------------------------
    def grant_bot(self, permissions: int, *, guild: FakeGuild | None = None) -> None:
        """Give the bot's own role ``permissions`` (``MANAGE_WEBHOOKS``...) in ``guild``."""
        where = guild or self.state.default_guild
        role = where.member(self.state.bot_user).roles[0]  # the role the bot joined with
        where.set_permissions(role, role.permissions | permissions)

    def withhold_bot(self, permissions: int, *, guild: FakeGuild | None = None) -> None:
        """Take ``permissions`` from the bot's own role in ``guild``."""
        where = guild or self.state.default_guild
        role = where.member(self.state.bot_user).roles[0]
        where.set_permissions(role, role.permissions & ~permissions)

    def add_webhook(
        self, name: str, *, channel: FakeChannel | int | None = None, by: Person | None = None
    ) -> FakeWebhook:
        """A webhook a person (the guild's owner) made in the channel's settings: no application
        owns it, so the bot sees it listed without its token."""
        where = self._where(channel)
        if where.guild_id is None:
            raise ValueError(f"{where!r} is a DM: webhooks live in guild channels")
        creator = _user(by) if by is not None else self.state.guilds[where.guild_id].owner
        return self.state.add_webhook(where, name, creator=creator, application_id=None)

    def delete_webhook(self, hook: FakeWebhook) -> None:
        """Someone deletes the webhook: executing it answers 404/10015 from now on."""
        self.state.delete_webhook(hook)

    # -- reading what the bot did ----------------------------------------------------------------
    def webhooks(self, channel: FakeChannel | int | None = None) -> list[FakeWebhook]:
        """The channel's webhooks (the default guild's text channel's), oldest first."""
        return self.state.channel_webhooks(self._where(channel))

    def channel(self, channel: FakeChannel | int) -> FakeChannel:
        return self.state.channels[channel if isinstance(channel, int) else channel.id]

    def dm_channel(self, person: Person) -> FakeChannel:
        return self.state.dm_channel(_user(person))

    def dms(self, person: Person) -> list[FakeMessage]:
        """Messages the bot sent to this user by DM, oldest first."""
        channel = self.state.dm_channels.get(_user(person).id)
        return [] if channel is None else [m for m in channel.messages if m.channel.type == DM]

    def ephemeral(self, person: Person, channel: FakeChannel | None = None) -> list[FakeMessage]:
        """Ephemeral messages only this user sees, oldest first."""
        return self.state.ephemeral(_user(person), channel)
