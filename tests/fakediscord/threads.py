"""Threads: a text channel's public and private threads, and Discord's rules for using them.

A thread is a channel of its own (messages are sent to its id) whose permissions are its parent's.
Discord's rules that the fake enforces, each answered with Discord's error:
- starting a public thread (from a message or not) needs CREATE_PUBLIC_THREADS, a private one
  CREATE_PRIVATE_THREADS (403/50013); threads start in guild text channels only (400/50024);
  a message starts at most one thread (400/160004), and that thread has the message's id;
- sending to a thread needs SEND_MESSAGES_IN_THREADS (403/50013); a locked thread also needs
  MANAGE_THREADS;
- an archived thread takes no message and no edit (400/50083 "Thread is archived") except one
  that unarchives it;
- editing a thread needs MANAGE_THREADS unless the bot started it; locking or unlocking one, or
  unarchiving a locked one, always needs MANAGE_THREADS.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from tests.fakediscord.api import DiscordError
from tests.fakediscord.models import (
    MANAGE_THREADS,
    PRIVATE_THREAD,
    SEND_MESSAGES_IN_THREADS,
    FakeChannel,
    FakeGuild,
    FakeUser,
    iso,
    now,
)

MISSING_PERMISSIONS = DiscordError(403, 50013, "Missing Permissions")
ARCHIVED = DiscordError(400, 50083, "Thread is archived")
ARCHIVE_MINUTES = (60, 1440, 4320, 10080)


@dataclass(eq=False)
class FakeThread(FakeChannel):
    """A thread; ``parent`` is the text channel it belongs to, ``owner`` who started it."""

    parent: FakeChannel | None = None
    owner: FakeUser | None = None
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    rate_limit_per_user: int = 0
    created_at: datetime = field(default_factory=now)
    archived_at: datetime | None = None
    starter_message_id: int | None = None  # a thread started from a message has its id

    @property
    def permission_source(self) -> FakeChannel:
        assert self.parent is not None
        return self.parent

    def payload(self) -> dict[str, Any]:
        assert self.parent is not None and self.owner is not None
        last = self.history[-1].id if self.history else None
        metadata: dict[str, Any] = {
            "archived": self.archived,
            "auto_archive_duration": self.auto_archive_duration,
            "archive_timestamp": iso(self.archived_at or self.created_at),
            "locked": self.locked,
            "create_timestamp": iso(self.created_at),
        }
        if self.type == PRIVATE_THREAD:
            metadata["invitable"] = self.invitable
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "parent_id": str(self.parent.id),
            "owner_id": str(self.owner.id),
            "name": self.name,
            "last_message_id": None if last is None else str(last),
            "message_count": len(self.messages),
            "total_message_sent": len(self.history),
            "member_count": 1,
            "rate_limit_per_user": self.rate_limit_per_user,
            "flags": 0,
            "thread_metadata": metadata,
        }

    def __repr__(self) -> str:
        return f"<FakeThread {self.name!r} {self.id} in {self.parent!r}>"


def bot_permissions(guild: FakeGuild, channel: FakeChannel) -> int:
    """What the bot may do in ``channel`` (a thread: in its parent)."""
    return guild.member(guild.state.bot_user).permissions_in(channel)


def require(guild: FakeGuild, channel: FakeChannel, permissions: int) -> None:
    """Raise 403/50013 unless the bot has every one of ``permissions`` in ``channel``."""
    if bot_permissions(guild, channel) & permissions != permissions:
        raise MISSING_PERMISSIONS


def check_send(guild: FakeGuild | None, channel: FakeChannel, *, permissions: bool = True) -> None:
    """Raise Discord's error if a message may not be sent to (or edited in) this thread.

    ``permissions=False`` checks only that the thread is open: for an edit of the bot's own
    message, or a webhook (which needs no permission of the bot's).
    """
    if not isinstance(channel, FakeThread) or guild is None:
        return
    if channel.archived:
        raise ARCHIVED
    if permissions:
        require(guild, channel, SEND_MESSAGES_IN_THREADS)
        if channel.locked:
            require(guild, channel, MANAGE_THREADS)


def apply_edit(guild: FakeGuild, thread: FakeThread, body: dict[str, Any], bot: FakeUser) -> None:
    """A ``PATCH /channels/{thread_id}`` by the bot: check it as Discord does, then apply it."""
    unarchives = body.get("archived") is False
    if thread.archived and not unarchives:
        raise ARCHIVED
    locking = body.get("locked") is not None and bool(body["locked"]) != thread.locked
    if locking or thread.owner is not bot or (unarchives and thread.locked):
        require(guild, thread, MANAGE_THREADS)
    if body.get("name") is not None:
        thread.name = str(body["name"])
    for key in ("locked", "invitable", "auto_archive_duration", "rate_limit_per_user"):
        if body.get(key) is not None:
            setattr(thread, key, type(getattr(thread, key))(body[key]))
    if body.get("archived") is not None and bool(body["archived"]) != thread.archived:
        thread.archived, thread.archived_at = bool(body["archived"]), now()
