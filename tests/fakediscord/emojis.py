"""The application's own emojis (``Client.create_application_emoji``), as the fake keeps them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.fakediscord.models import FakeUser


@dataclass(eq=False)
class FakeEmoji:
    id: int
    name: str
    image: bytes  # the decoded upload
    content_type: str  # "image/png"...
    user: FakeUser  # who uploaded it: the bot

    @property
    def animated(self) -> bool:
        return self.content_type == "image/gif"

    @property
    def mention(self) -> str:
        """How a message shows it: ``<:name:id>`` (``<a:name:id>`` when animated)."""
        return f"<{'a' if self.animated else ''}:{self.name}:{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "roles": [],
            "user": self.user.payload(),
            "require_colons": True,
            "managed": False,
            "animated": self.animated,
            "available": True,
        }

    def __repr__(self) -> str:
        return f"<FakeEmoji {self.mention}>"
