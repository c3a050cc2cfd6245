"""What a game's scene renders for the publisher: the drafts of a table's messages.

Pure values: a :class:`Frame` is everything a table should show now (its board, each version's
posts, each seat's hand message), built by the game's :class:`Scene` from the table's durable
state and its recent steps' events.
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import discord

from bot.services.outcomes import TableView


@dataclass(frozen=True, slots=True)
class Picture:
    """A rendered image a message shows in its embed (``bot.render.images``)."""

    filename: str
    data: bytes

    def file(self) -> discord.File:
        return discord.File(io.BytesIO(self.data), filename=self.filename)


def with_picture(embed: discord.Embed, picture: Picture | None) -> discord.Embed:
    """``embed`` showing ``picture`` as its image (the text stays as it is)."""
    if picture is not None:
        embed.set_image(url=f"attachment://{picture.filename}")
    return embed


@dataclass(frozen=True, slots=True)
class Draft:
    """One message's content; ``picture``: the image its embed shows, sent as its attachment."""

    content: str | None = None
    embed: discord.Embed | None = None
    view: discord.ui.View | None = None
    mentions: discord.AllowedMentions = field(default_factory=discord.AllowedMentions.none)
    picture: Picture | None = None

    def digest(self) -> str:
        shown = {
            "content": self.content,
            "embed": self.embed.to_dict() if self.embed else None,
            "components": self.view.to_components() if self.view else [],
            "picture": hashlib.sha256(self.picture.data).hexdigest() if self.picture else None,
        }
        return hashlib.sha256(json.dumps(shown, sort_keys=True).encode()).hexdigest()[:32]

    def edit(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "content": self.content,
            "embed": self.embed,
            "view": self.view,
            "allowed_mentions": self.mentions,
        }
        # Replaces the last picture shown; none takes it off (images turned off meanwhile).
        kwargs["attachments"] = [self.picture.file()] if self.picture is not None else []
        return kwargs

    def send(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"allowed_mentions": self.mentions}
        if self.content is not None:
            kwargs["content"] = self.content
        if self.embed is not None:
            kwargs["embed"] = self.embed
        if self.view is not None:
            kwargs["view"] = self.view
        if self.picture is not None:
            kwargs["file"] = self.picture.file()
        return kwargs


@dataclass(frozen=True, slots=True)
class Post:
    """A message posted once: in the table's channel, or by DM to ``to_user``."""

    draft: Draft
    to_user: int | None = None
    undelivered: str | None = None
    """For a DM: what the channel is told when it cannot be delivered (DMs closed)."""
    hand_of: int | None = None
    """For a DM that shows a seat's new hand: it becomes that seat's hand message, which later
    passes keep up to date (see :attr:`Hand.deliver`)."""


@dataclass(frozen=True, slots=True)
class Hand:
    """The message that shows one seat's hand, to the user who plays it."""

    user_id: int
    draft: Draft | Callable[[], Draft]
    """The message, or how to draw it (only when it must be sent or edited: see ``key``)."""
    undelivered: str
    """Said in the channel, once, when the DM cannot be sent."""
    deliver: bool = True
    """False: only keep the hand message a post delivered up to date (a game that sends a new
    DM for each deal, so that the player is notified of new cards)."""
    key: str | None = None
    """A digest of everything the drawn message depends on, cheaper than drawing it: the
    publisher compares it with what it last showed, and draws the message only when it moved.
    None: the digest of the drawn message."""

    def shown(self) -> Draft:
        return self.draft if isinstance(self.draft, Draft) else self.draft()

    def digest(self) -> str:
        return self.key if self.key is not None else self.shown().digest()


@dataclass(frozen=True, slots=True)
class Frame:
    """Everything a table should show now."""

    board: Draft
    posts: Mapping[int, Sequence[Post]]
    """Per version, in order: what that step announces (only versions not yet posted)."""
    hands: Mapping[int, Hand] = field(default_factory=dict)


class Scene(Protocol):
    """A game's look: the frame of a table, from its state and its recent steps' events."""

    async def frame(self, table: TableView, events: Mapping[int, Sequence[Any]]) -> Frame:
        """``events``: the events of each version after the posted mark, and of the newest."""
        ...
