"""Channel webhooks as the fake stores them, and the users their messages are written by."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tests.fakediscord.models import FakeChannel, FakeUser

if TYPE_CHECKING:
    from tests.fakediscord.messages import FakeMessage

INCOMING = 1  # the webhook type of a channel webhook ("Incoming")


def image_hash(data: str | None) -> str | None:
    """An avatar hash for image data or an avatar URL, as Discord stores a hash, not the image."""
    return None if data is None else hashlib.md5(data.encode(), usedforsecurity=False).hexdigest()


@dataclass(eq=False)
class WebhookAuthor(FakeUser):
    """The author of a webhook's message: the webhook's id, under the name it spoke with."""

    avatar: str | None = None

    def payload(self) -> dict[str, Any]:
        return super().payload() | {
            "discriminator": "0000",
            "global_name": None,
            "avatar": self.avatar,
        }


@dataclass(eq=False)
class FakeWebhook:
    """A channel webhook. ``application_id`` is the application that made it (None: a person
    made it by hand); only that application is shown its token in a listing."""

    id: int
    token: str
    channel: FakeChannel
    name: str
    creator: FakeUser
    application_id: int | None = None
    avatar: str | None = None  # an avatar hash

    @property
    def messages(self) -> list[FakeMessage]:
        """What it said in its channel and is still there, oldest first."""
        return [m for m in self.channel.messages if m.webhook_id == self.id]

    def author(self, username: str | None, avatar_url: str | None) -> WebhookAuthor:
        """Who a message executed with these overrides is written by."""
        avatar = image_hash(avatar_url) if avatar_url else self.avatar
        return WebhookAuthor(self.id, username or self.name, bot=True, avatar=avatar)

    def payload(self, *, token: bool, user: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "type": INCOMING,
            "id": str(self.id),
            "name": self.name,
            "avatar": self.avatar,
            "channel_id": str(self.channel.id),
            "guild_id": str(self.channel.guild_id),
            "application_id": None if self.application_id is None else str(self.application_id),
        }
        if user:
            data["user"] = self.creator.payload()
        if token:
            data["token"] = self.token
        return data

    def __repr__(self) -> str:
        return f"<FakeWebhook {self.name!r} {self.id} in {self.channel!r}>"
