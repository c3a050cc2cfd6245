"""Checks of a message body that need what the fake remembers, beside the pure ``limits.py``.

- A custom emoji in a component (a button's ``emoji``, a select option's) must be one the bot
  can use, here its application's emojis: Discord refuses another with 400/50035. In text
  (content, embeds, text displays) Discord shows an unknown ``<:name:id>`` as plain text; the fake
  notes it in ``fake.emoji_warnings``, which fails the test unless taken.
- An ``attachment://name`` media URL (thumbnail, gallery item, file) must name a file uploaded
  with the message, or one it already has and keeps.
- An edit of a message sent with IS_COMPONENTS_V2 is checked as one (``target_message`` finds
  the edited message for ``limits.check_limits(..., was_v2=...)``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from tests.fakediscord.limits import CALLBACK_ROUTE, MESSAGE_ROUTES, Problem, walk_fields
from tests.fakediscord.messages import FakeMessage
from tests.fakediscord.state import FakeState

CUSTOM_EMOJI = re.compile(r"<a?:\w+:(\d+)>")
ATTACHMENT = "attachment://"
_EDITS = {
    "/channels/{channel_id}/messages/{message_id}",
    "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
}
_ORIGINAL = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
_UPDATE = 7


def _components(prefix: str) -> str:
    return f"{prefix}.components" if prefix else "components"


def message_body(method: str, template: str, body: Any) -> tuple[dict[str, Any], str] | None:
    """The message a request sends or edits, and the field prefix of its parts."""
    if not isinstance(body, dict):
        return None
    if (method, template) in MESSAGE_ROUTES:
        return body, ""
    if (method, template) == CALLBACK_ROUTE and body.get("type") in (4, _UPDATE):
        data = body.get("data")
        return (data, "data") if isinstance(data, dict) else None
    return None


def target_message(
    state: FakeState, method: str, template: str, params: Mapping[str, str], body: Any
) -> FakeMessage | None:
    """The message an edit (a PATCH, or an interaction's UPDATE_MESSAGE) changes."""
    if method == "PATCH" and template in _EDITS and params["message_id"].isdigit():
        return state.messages.get(int(params["message_id"]))
    if method == "PATCH" and template == _ORIGINAL:
        handle = state.interactions.get(params["webhook_token"])
        return None if handle is None else handle.original
    if (method, template) == CALLBACK_ROUTE and isinstance(body, dict):
        handle = state.interactions.get(params["interaction_token"])
        if handle is not None and body.get("type") == _UPDATE:
            return handle.source_message
    return None


def _texts(message: dict[str, Any]) -> Iterator[str]:
    yield str(message.get("content") or "")
    for embed in message.get("embeds") or []:
        if isinstance(embed, dict):
            yield str(embed.get("title") or "") + str(embed.get("description") or "")
            yield from (str(f.get("name")) + str(f.get("value")) for f in embed.get("fields") or [])
    for _, component in walk_fields(message.get("components") or [], ""):
        if component.get("type") == 10:
            yield str(component.get("content") or "")


def text_emoji_warnings(state: FakeState, message: dict[str, Any]) -> list[str]:
    """Custom emojis in the message's text that the bot cannot use (Discord shows them as text)."""
    return [
        match[0]
        for text in _texts(message)
        for match in CUSTOM_EMOJI.finditer(text)
        if int(match[1]) not in state.emojis
    ]


def component_emoji_problems(
    state: FakeState, message: dict[str, Any], prefix: str
) -> Iterator[Problem]:
    for field, component in walk_fields(message.get("components") or [], _components(prefix)):
        emojis = [(f"{field}.emoji", component.get("emoji"))]
        for index, option in enumerate(component.get("options") or []):
            emojis.append((f"{field}.options.{index}.emoji", option.get("emoji")))
        for where, emoji in emojis:
            emoji_id = emoji.get("id") if isinstance(emoji, dict) else None
            if emoji_id is not None and int(emoji_id) not in state.emojis:
                yield f"{where}.id", f"unknown custom emoji {emoji_id} (COMPONENT_INVALID_EMOJI)"


def _media_urls(components: list[Any], prefix: str) -> Iterator[tuple[str, str]]:
    for field, component in walk_fields(components, _components(prefix)):
        for key in ("media", "file"):
            if isinstance(component.get(key), dict):
                yield f"{field}.{key}.url", str(component[key].get("url") or "")
        for index, item in enumerate(component.get("items") or []):
            if isinstance(item, dict) and isinstance(item.get("media"), dict):
                yield f"{field}.items.{index}.media.url", str(item["media"].get("url") or "")


def attachment_problems(
    message: dict[str, Any], prefix: str, uploads: list[str], target: FakeMessage | None
) -> Iterator[Problem]:
    """``attachment://`` URLs that name neither an upload nor an attachment the message keeps."""
    listed = [a for a in message.get("attachments") or [] if isinstance(a, dict)]
    names = set(uploads) | {str(a["filename"]) for a in listed if a.get("filename")}
    if target is not None:
        kept_ids = {str(a.get("id")) for a in listed}
        keeps_all = "attachments" not in message
        names |= {a["filename"] for a in target.attachments if keeps_all or a["id"] in kept_ids}
    for field, url in _media_urls(message.get("components") or [], prefix):
        if url.startswith(ATTACHMENT) and url.removeprefix(ATTACHMENT) not in names:
            yield field, f"{url!r} names no file uploaded with the message ({sorted(names)})"
