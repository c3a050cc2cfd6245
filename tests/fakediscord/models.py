"""The people, places and messages of the fake Discord, and their API payloads."""

from __future__ import annotations

import datetime
import itertools
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tests.fakediscord.messages import FakeMessage
    from tests.fakediscord.state import FakeState
    from tests.fakediscord.threads import FakeThread

DISCORD_EPOCH_MS = 1_420_070_400_000
EPHEMERAL = 1 << 6
LOADING = 1 << 7

# Permission bits used by the builders (https://discord.com/developers/docs/topics/permissions).
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
MANAGE_WEBHOOKS = 1 << 29
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1
DEFAULT_PERMISSIONS = (
    (1 << 6)  # ADD_REACTIONS
    | (1 << 10)  # VIEW_CHANNEL
    | (1 << 11)  # SEND_MESSAGES
    | (1 << 14)  # EMBED_LINKS
    | (1 << 15)  # ATTACH_FILES
    | (1 << 16)  # READ_MESSAGE_HISTORY
    | (1 << 31)  # USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS  # Discord's @everyone has the thread permissions by default
    | CREATE_PRIVATE_THREADS
    | SEND_MESSAGES_IN_THREADS
)

TEXT, DM, PUBLIC_THREAD, PRIVATE_THREAD = 0, 1, 11, 12
ROLE_OVERWRITE, MEMBER_OVERWRITE = 0, 1


class Snowflakes:
    """Increasing snowflake ids whose timestamps are the current time, as Discord makes them."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)
        self._last = 0

    def __call__(self) -> int:
        now = int(time.time() * 1000) - DISCORD_EPOCH_MS
        value = (now << 22) | (next(self._counter) & 0x3FFFFF)
        self._last = max(self._last + 1, value)
        return self._last

    def on_shard(self, shard: int, count: int) -> int:
        """The next id whose shard is ``shard`` of ``count``: ``(id >> 22) % count``, a
        timestamp at most ``count - 1`` ms ahead of the next plain id's."""
        value = self()
        stamp = value >> 22
        stamp += (shard - stamp) % count
        self._last = max(value, (stamp << 22) | (value & 0x3FFFFF))
        return self._last


def iso(moment: datetime.datetime) -> str:
    return moment.isoformat()


def now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


@dataclass(eq=False)
class FakeUser:
    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    locale: str = "en-US"
    global_name: str | None = None

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.global_name or self.name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
        }

    def __repr__(self) -> str:
        return f"<FakeUser {self.name} {self.id}>"


@dataclass(eq=False)
class FakeRole:
    id: int
    guild_id: int
    name: str
    permissions: int = 0
    color: int = 0
    position: int = 0

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": self.color,
            "colors": {
                "primary_color": self.color,
                "secondary_color": None,
                "tertiary_color": None,
            },
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class FakeChannel:
    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    position: int = 0
    recipient: FakeUser | None = None
    history: list[FakeMessage] = field(default_factory=list)
    overwrites: dict[int, tuple[int, int, int]] = field(
        default_factory=dict
    )  # id: type, allow, deny

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def messages(self) -> list[FakeMessage]:
        """What everyone sees in the channel: not deleted, not ephemeral, oldest first."""
        return [m for m in self.history if not m.deleted and m.ephemeral_to is None]

    @property
    def permission_source(self) -> FakeChannel:
        """The channel whose overwrites apply here (a thread's are its parent's)."""
        return self

    @property
    def last_message(self) -> FakeMessage | None:
        visible = self.messages
        return visible[-1] if visible else None

    def payload(self) -> dict[str, Any]:
        last = self.history[-1].id if self.history else None
        last_id = None if last is None else str(last)
        if self.type == DM:
            recipients = [self.recipient.payload()] if self.recipient else []
            return {
                "id": str(self.id),
                "type": DM,
                "last_message_id": last_id,
                "recipients": recipients,
                "flags": 0,
            }
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [
                {"id": str(target), "type": kind, "allow": str(allow), "deny": str(deny)}
                for target, (kind, allow, deny) in self.overwrites.items()
            ],
            "nsfw": False,
            "topic": None,
            "last_message_id": last_id,
            "rate_limit_per_user": 0,
            "parent_id": None,
            "flags": 0,
        }

    def __repr__(self) -> str:
        return f"<FakeChannel #{self.name or 'dm'} {self.id}>"


@dataclass(eq=False)
class FakeMember:
    guild: FakeGuild
    user: FakeUser
    roles: list[FakeRole] = field(default_factory=list)
    nick: str | None = None
    joined_at: datetime.datetime = field(default_factory=now)

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def permissions(self) -> int:
        """Guild-level permissions: @everyone plus every role; owners and admins have all."""
        if self.guild.owner_id == self.user.id:
            return ALL_PERMISSIONS
        value = self.guild.everyone.permissions
        for role in self.roles:
            value |= role.permissions
        return ALL_PERMISSIONS if value & ADMINISTRATOR else value

    def permissions_in(self, channel: FakeChannel) -> int:
        """Guild permissions with the channel's overwrites applied, in Discord's order:
        @everyone's, then the member's roles' together, then the member's own."""
        value = self.permissions
        if value == ALL_PERMISSIONS:
            return value
        overwrites = channel.permission_source.overwrites
        role_ids = {role.id for role in self.roles}
        steps = [overwrites.get(self.guild.id)]
        allow = deny = 0
        for target, (kind, allowed, denied) in overwrites.items():
            if kind == ROLE_OVERWRITE and target in role_ids:
                allow, deny = allow | allowed, deny | denied
        steps += [(ROLE_OVERWRITE, allow, deny), overwrites.get(self.user.id)]
        for step in steps:
            if step is not None:
                value = (value & ~step[2]) | step[1]
        return value

    def payload(self, *, with_user: bool = True, with_permissions: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(role.id) for role in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": iso(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if with_permissions:
            data["permissions"] = str(self.permissions)
        return data


@dataclass(eq=False)
class FakeGuild:
    """A guild; its builders register what they create with the fake and tell a connected bot."""

    state: FakeState
    id: int
    name: str
    owner_id: int
    locale: str = "en-US"
    roles: dict[int, FakeRole] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    threads: dict[int, FakeThread] = field(default_factory=dict)

    @property
    def everyone(self) -> FakeRole:
        return self.roles[self.id]

    @property
    def text_channel(self) -> FakeChannel:
        """The first text channel (the default guild's "tavern")."""
        return next(c for c in self.channels.values() if c.type == TEXT)

    @property
    def owner(self) -> FakeUser:
        return self.members[self.owner_id].user

    def add_role(self, name: str, *, permissions: int = 0, color: int = 0) -> FakeRole:
        role = FakeRole(self.state.snowflake(), self.id, name, permissions, color, len(self.roles))
        self.roles[role.id] = role
        if self.id in self.state.guilds:
            self.state.emit("GUILD_ROLE_CREATE", {"guild_id": str(self.id), "role": role.payload()})
        return role

    def set_permissions(self, role: FakeRole, permissions: int) -> None:
        """Change what a role grants (a connected bot hears GUILD_ROLE_UPDATE)."""
        role.permissions = permissions
        if self.id in self.state.guilds:
            self.state.emit("GUILD_ROLE_UPDATE", {"guild_id": str(self.id), "role": role.payload()})

    def add_channel(self, name: str, *, type: int = TEXT) -> FakeChannel:
        channel = FakeChannel(self.state.snowflake(), type, name, self.id, len(self.channels))
        self.channels[channel.id] = channel
        self.state.channels[channel.id] = channel
        if self.id in self.state.guilds:
            self.state.emit("CHANNEL_CREATE", channel.payload())
        return channel

    def add_member(
        self,
        user: FakeUser | str,
        *,
        roles: list[FakeRole] | tuple[FakeRole, ...] = (),
        permissions: int = 0,
        nick: str | None = None,
    ) -> FakeMember:
        """Add a member; ``permissions`` is granted through a role of its own named after them."""
        if isinstance(user, str):
            user = self.state.add_user(user)
        member_roles = list(roles)
        if permissions:
            member_roles.append(self.add_role(f"{user.name} perms", permissions=permissions))
        member = FakeMember(self, user, member_roles, nick)
        self.members[user.id] = member
        return member

    def member(self, user: FakeUser | FakeMember) -> FakeMember:
        if isinstance(user, FakeMember):
            return user
        if user.id not in self.members:
            raise LookupError(f"{user!r} is not a member of guild {self.name!r}")
        return self.members[user.id]

    def unavailable_payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "unavailable": True}

    def payload(self) -> dict[str, Any]:
        """The GUILD_CREATE payload: channels, roles and members included."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": self.locale,
            "features": [],
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "application_id": None,
            "joined_at": iso(now()),
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "roles": [role.payload() for role in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "channels": [channel.payload() for channel in self.channels.values()],
            "threads": [t.payload() for t in self.threads.values() if not t.archived],
            "members": [member.payload() for member in self.members.values()],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def __repr__(self) -> str:
        return f"<FakeGuild {self.name} {self.id}>"
