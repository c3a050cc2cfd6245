"""What people do in Discord, as test helpers: slash commands, clicks, selects, modals, typing,
and what admins do: the bot's permissions (in the guild or one channel), webhooks made or deleted
by hand, threads archived by a moderator; and reading what the bot made: threads, emojis."""

# ruff: noqa: ASYNC109 (wait helpers take ``timeout=`` on purpose: it reads best in tests)

from __future__ import annotations

from typing import Any

from tests.fakediscord.emojis import FakeEmoji
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
from tests.fakediscord.models import (
    DM,
    MEMBER_OVERWRITE,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeUser,
    now,
)
from tests.fakediscord.payloads import (
    button_data,
    command_data,
    find_command,
    find_item,
    modal_data,
    select_data,
)
from tests.fakediscord.state import FakeState
from tests.fakediscord.threads import FakeThread
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
        guild_id = handle.payload.get("guild_id")
        if not self.gateway.covering(int(guild_id) if guild_id else None):
            where = f"the shard of guild {guild_id}" if guild_id else "shard 0 (DMs)"
            raise RuntimeError(f"no bot is connected to the fake gateway for {where}")
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
        return self._submit(person, opened_by, modal_data(modal, values))

    async def submit_raw_modal(
        self,
        person: Person,
        opened_by: InteractionHandle,
        data: dict[str, Any],
        *,
        timeout: float = 5.0,
    ) -> InteractionHandle:
        """Submit the modal the bot opened in answer to ``opened_by`` with ``data`` verbatim,
        unchecked: what no Discord client sends (picks outside a menu's options, a field the
        modal lacks, the fields of an older version of the modal)."""
        await opened_by.wait_modal(timeout)
        return self._submit(person, opened_by, data)

    def _submit(
        self, person: Person, opened_by: InteractionHandle, data: dict[str, Any]
    ) -> InteractionHandle:
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

    def deny_bot(self, permissions: int, *, channel: FakeChannel | int | None = None) -> None:
        """Deny the bot ``permissions`` in one channel (and its threads) by a member overwrite,
        as an admin does in the channel's settings; ``deny_bot(0)`` lifts it. E.g.
        ``CREATE_PUBLIC_THREADS`` or ``SEND_MESSAGES_IN_THREADS``: the bot then gets 403/50013."""
        where = self._where(channel).permission_source
        bot_id = self.state.bot_user.id
        where.overwrites.pop(bot_id, None)
        if permissions:
            where.overwrites[bot_id] = (MEMBER_OVERWRITE, 0, permissions)
        self.state.emit("CHANNEL_UPDATE", where.payload())
        self.state.notify()

    def archive_thread(self, thread: FakeThread, *, locked: bool = False) -> None:
        """A moderator archives (and perhaps locks) the thread; the bot hears THREAD_UPDATE."""
        thread.archived, thread.locked, thread.archived_at = True, thread.locked or locked, now()
        self.state.emit("THREAD_UPDATE", thread.payload())
        self.state.notify()

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

    def threads(self, channel: FakeChannel | int | None = None) -> list[FakeThread]:
        """The threads started in the channel (the default guild's text channel), oldest first,
        archived ones included: each has ``messages``, ``archived``, ``locked``, ``name``."""
        where = self._where(channel)
        found = [c for c in self.state.channels.values() if isinstance(c, FakeThread)]
        return [thread for thread in found if thread.parent is where]

    def emojis(self) -> list[FakeEmoji]:
        """The application's emojis, oldest first (``name``, ``image`` bytes, ``mention``)."""
        return list(self.state.emojis.values())

    @property
    def refuse_emoji_uploads(self) -> bool:
        """While true, every application emoji upload gets 403/50013 Missing Permissions."""
        return self.state.refuse_emoji_uploads

    @refuse_emoji_uploads.setter
    def refuse_emoji_uploads(self, refuse: bool) -> None:
        self.state.refuse_emoji_uploads = refuse

    @property
    def emoji_warnings(self) -> list[str]:
        """Custom emojis the bot wrote in text (``<:name:id>``) that it cannot use: Discord
        shows them as plain text. Each fails the test at teardown unless taken."""
        return self.state.emoji_warnings

    def take_emoji_warnings(self) -> list[str]:
        taken = list(self.state.emoji_warnings)
        self.state.emoji_warnings.clear()
        return taken

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
