"""Messages as the fake stores them: every version, who may see them, and their components."""

from __future__ import annotations

import copy
import datetime
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tests.fakediscord.models import EPHEMERAL, LOADING, FakeChannel, FakeUser, iso, now

BUTTON = 2
SELECT_TYPES = {3, 5, 6, 7, 8}
TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE = 10, 11, 12, 13
COMPONENTS_V2 = 1 << 15
HAS_THREAD = 1 << 5
ATTACHMENT_SCHEME = "attachment://"
EDITABLE = ("content", "embeds", "components", "flags", "attachments", "poll")


def walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component, depth first: rows, sections' accessories, containers, labels."""
    for component in components:
        yield component
        yield from walk_components(component.get("components") or [])
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                yield from walk_components([component[key]])


def _normalise_components(components: list[Any], counter: list[int]) -> list[dict[str, Any]]:
    """Echo components as Discord does: numbered with ``id`` in document order."""
    out = []
    for component in components:
        item = copy.deepcopy(component)
        counter[0] += 1
        item.setdefault("id", counter[0])
        if "components" in item:
            item["components"] = _normalise_components(item["components"], counter)
        for key in ("accessory", "component"):
            if isinstance(item.get(key), dict):
                item[key] = _normalise_components([item[key]], counter)[0]
        out.append(item)
    return out


def media_items(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every unfurled media item (``{"url": ...}``) of thumbnails, galleries and files."""
    for component in walk_components(components):
        kind = component.get("type")
        if kind == THUMBNAIL and isinstance(component.get("media"), dict):
            yield component["media"]
        elif kind == FILE and isinstance(component.get("file"), dict):
            yield component["file"]
        elif kind == MEDIA_GALLERY:
            for item in component.get("items") or []:
                if isinstance(item, dict) and isinstance(item.get("media"), dict):
                    yield item["media"]


def _resolve_media(components: list[dict[str, Any]], attachments: list[dict[str, Any]]) -> None:
    """Echo ``attachment://name`` as Discord does: the attachment's URL and id."""
    by_name = {a["filename"]: a for a in attachments}
    for media in media_items(components):
        url = str(media.get("url") or "")
        attachment = by_name.get(url.removeprefix(ATTACHMENT_SCHEME))
        if url.startswith(ATTACHMENT_SCHEME) and attachment is not None:
            media.update(
                url=attachment["url"],
                proxy_url=attachment["proxy_url"],
                content_type=attachment["content_type"],
                attachment_id=attachment["id"],
            )


def _normalise_embed(embed: dict[str, Any]) -> dict[str, Any]:
    item = copy.deepcopy(embed)
    item.setdefault("type", "rich")
    item.setdefault("content_scan_version", 0)
    return item


@dataclass(eq=False)
class FakeMessage:
    id: int
    channel: FakeChannel
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    attachments: list[dict[str, Any]] = field(default_factory=list)
    timestamp: datetime.datetime = field(default_factory=now)
    edited_timestamp: datetime.datetime | None = None
    ephemeral_to: FakeUser | None = None
    interaction_metadata: dict[str, Any] | None = None
    interaction: dict[str, Any] | None = None
    application_id: int | None = None
    webhook_id: int | None = None
    message_reference: dict[str, Any] | None = None
    poll: dict[str, Any] | None = None
    nonce: int | str | None = None
    avatar_url: str | None = None  # a webhook message's avatar override
    thread: Any = None  # the FakeThread this message started (threads.py)
    mentions: list[FakeUser] = field(default_factory=list)  # who it pings (mentions.py)
    mention_roles: list[int] = field(default_factory=list)
    mention_everyone: bool = False
    deleted: bool = False
    history: list[dict[str, Any]] = field(default_factory=list)

    # -- what a test reads --------------------------------------------------------------------
    @property
    def author_name(self) -> str:
        """The name it shows: a webhook message's is the name the webhook spoke with."""
        return self.author.name

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred response still "thinking"."""
        return bool(self.flags & LOADING)

    @property
    def edits(self) -> list[dict[str, Any]]:
        """Earlier versions, oldest first (each a dict of the editable fields)."""
        return list(self.history)

    @property
    def components_v2(self) -> bool:
        """Sent with IS_COMPONENTS_V2: a layout of containers, sections and text displays."""
        return bool(self.flags & COMPONENTS_V2)

    def texts(self) -> list[str]:
        """The content of every TextDisplay, in document order (nested ones included)."""
        found = walk_components(self.components)
        return [c.get("content") or "" for c in found if c.get("type") == TEXT_DISPLAY]

    def media(self) -> list[dict[str, Any]]:
        """Every media gallery item (``media``, ``description``, ``spoiler``), in order; an
        ``attachment://`` URL is shown resolved to its attachment, as Discord echoes it."""
        found = walk_components(self.components)
        galleries = [c for c in found if c.get("type") == MEDIA_GALLERY]
        return [item for gallery in galleries for item in gallery.get("items") or []]

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in walk_components(self.components) if c.get("type") == BUTTON]

    @property
    def button_labels(self) -> list[str]:
        return [b.get("label") or "" for b in self.buttons]

    @property
    def selects(self) -> list[dict[str, Any]]:
        return [c for c in walk_components(self.components) if c.get("type") in SELECT_TYPES]

    @property
    def text(self) -> str:
        """Content plus every embed's visible text, for loose assertions."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            parts += [f"{f.get('name')}: {f.get('value')}" for f in embed.get("fields") or []]
            parts.append((embed.get("footer") or {}).get("text") or "")
        for component in walk_components(self.components):
            if component.get("type") == 10:  # text display (components v2)
                parts.append(component.get("content") or "")
        return "\n".join(part for part in parts if part)

    def find_component(
        self, *, label: str | None = None, custom_id: str | None = None, kind: set[int]
    ) -> dict[str, Any]:
        for component in walk_components(self.components):
            if component.get("type") not in kind:
                continue
            if custom_id is not None and component.get("custom_id") == custom_id:
                return component
            if label is not None and label in (
                component.get("label"),
                component.get("placeholder"),
            ):
                return component
        wanted = f"label={label!r}" if label is not None else f"custom_id={custom_id!r}"
        raise LookupError(f"no component with {wanted} in message {self.id}: {self.components}")

    # -- what the fake does -------------------------------------------------------------------
    def apply(self, body: dict[str, Any], *, edit: bool) -> None:
        """Set the message from a create or edit body; an edit keeps the previous version."""
        if edit:
            self.history.append(self.snapshot())
            self.edited_timestamp = now()
        if "content" in body or not edit:
            self.content = body.get("content") or ""
        if "embeds" in body or not edit:
            self.embeds = [_normalise_embed(e) for e in body.get("embeds") or []]
        if "components" in body or not edit:
            self.components = _normalise_components(body.get("components") or [], [0])
        if not edit:
            self.flags |= int(body.get("flags") or 0)
        elif body.get("flags") is not None:
            # An edit cannot make a message ephemeral or public: keep that bit as it was.
            self.flags = (int(body["flags"]) & ~(LOADING | EPHEMERAL)) | (self.flags & EPHEMERAL)
        if "poll" in body:
            self.poll = body["poll"]
        _resolve_media(self.components, self.attachments)
        if edit:
            self.flags &= ~LOADING

    def snapshot(self) -> dict[str, Any]:
        return copy.deepcopy(
            {
                "content": self.content,
                "embeds": self.embeds,
                "components": self.components,
                "flags": self.flags,
                "attachments": self.attachments,
                "edited_timestamp": self.edited_timestamp,
            }
        )

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "type": self.type,
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.timestamp),
            "edited_timestamp": iso(self.edited_timestamp) if self.edited_timestamp else None,
            "tts": False,
            "mention_everyone": self.mention_everyone,
            "mentions": [user.payload() for user in self.mentions],
            "mention_roles": [str(role) for role in self.mention_roles],
            "attachments": copy.deepcopy(self.attachments),
            "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components),
            "pinned": False,
            "flags": self.flags | (HAS_THREAD if self.thread is not None else 0),
        }
        if self.thread is not None:
            data["thread"] = self.thread.payload()
        optional = {
            "interaction_metadata": self.interaction_metadata,
            "interaction": self.interaction,
            "message_reference": self.message_reference,
            "poll": self.poll,
        }
        data.update({key: copy.deepcopy(value) for key, value in optional.items() if value})
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.nonce is not None:
            data["nonce"] = self.nonce
        return data

    def __repr__(self) -> str:
        who = f" ephemeral to {self.ephemeral_to.name}" if self.ephemeral_to else ""
        return f"<FakeMessage {self.id} in {self.channel!r}{who}: {self.text[:60]!r}>"
