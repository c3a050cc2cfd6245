"""Discord limits that the OpenAPI description does not encode, checked on every request body.

Each check names the field like the spec checks do (``components.0.components.5``) and is a
documented Discord rule:

- messages (channel, DM, webhook, interaction response): content <= 2000 characters (the spec
  allows 4000 on some routes, which bots cannot use); at most 10
  embeds; per embed title <= 256, description <= 4096, <= 25 fields, field name 1-256 and value
  1-1024, footer text <= 2048, author name <= 256; all embeds together <= 6000 characters;
  ``allowed_mentions`` does not both parse ``users`` (``roles``) and list them;
- webhooks: a webhook's name (on create) and the ``username`` a message is executed with contain
  neither "clyde" nor "discord", in any case; that ``username`` is 1-80 characters (the spec's
  union with a body without ``username`` lets any length through); ``avatar_url`` is an http(s)
  URL;
- Components V2 (the IS_COMPONENTS_V2 flag, which an edit cannot remove; an edit of such a
  message is checked as one): no ``content``, ``embeds``, ``poll`` or stickers; at most 40
  components in all, nested ones (a section's accessory too) included; at most 4000 characters
  across every TextDisplay; a media gallery holds 1-10 items; a File component names an upload
  (``attachment://``);
- legacy components (no IS_COMPONENTS_V2 flag): at most 5 action rows, only action rows at the top
  level, at most 5 buttons per row, a select menu alone in its row; every custom_id 1-100 characters
  and unique in the message; a button has a custom_id unless it is a link (url) or premium button;
  label <= 80; select: <= 25 options, placeholder <= 150, 0 <= min_values <= max_values <= 25;
- modals: title 1-45, custom_id <= 100, 1-5 top-level components; a select menu in a label,
  never in an action row;
- application emojis: name 2-32 characters of ``[A-Za-z0-9_]``; the image a ``data:`` URI of
  PNG, JPEG, GIF or WebP (its bytes must be what it says) of at most 256 KiB;
- autocomplete results: at most 25 choices, name 1-100;
- application commands (chat input; the checks are in ``limits_commands.py``): name matches
  ``^[-_\\p{L}\\p{N}]{1,32}$`` and is lowercase (Python's ``[-\\w]`` stands in for the Unicode
  classes), description 1-100; the same rules for every ``name_localizations`` /
  ``description_localizations`` value and for every option; at most 25 options and 25 choices;
  required options before optional ones; names unique per level and
  per command type in one bulk update.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Generator, Iterator
from typing import Any

from tests.fakediscord.limits_commands import check_command

Problem = tuple[str, str]  # (field, message)

COMPONENTS_V2 = 1 << 15
V2_MAX_COMPONENTS, V2_MAX_TEXT, GALLERY_MAX = 40, 4000, 10
_V2_EXCLUDES = ("content", "embeds", "poll", "sticker_ids")
_TEXT_DISPLAY, _GALLERY, _FILE = 10, 12, 13
EMOJI_NAME = re.compile(r"[A-Za-z0-9_]{2,32}")
EMOJI_IMAGE = re.compile(
    r"data:image/(?P<type>png|jpeg|gif|webp);base64,(?P<data>[A-Za-z0-9+/]*=*)"
)
EMOJI_MAX_BYTES, MAX_APPLICATION_EMOJIS = 256 * 1024, 2000
_MAGIC = {"png": (b"\x89PNG\r\n\x1a\n",), "jpeg": (b"\xff\xd8\xff",), "gif": (b"GIF87a", b"GIF89a")}
_ROW, _BUTTON, _TEXT_INPUT, _LABEL = 1, 2, 4, 18
_SELECTS = {3, 5, 6, 7, 8}
_LINK, _PREMIUM = 5, 6

MESSAGE_ROUTES = {
    ("POST", "/channels/{channel_id}/messages"),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
    ("POST", "/webhooks/{webhook_id}/{webhook_token}"),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
}
COMMAND_LIST_ROUTES = {
    ("PUT", "/applications/{application_id}/commands"),
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands"),
}
COMMAND_ROUTES = {
    ("POST", "/applications/{application_id}/commands"),
    ("POST", "/applications/{application_id}/guilds/{guild_id}/commands"),
    ("PATCH", "/applications/{application_id}/commands/{command_id}"),
    ("PATCH", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}"),
}
EMOJI_ROUTES = {
    ("POST", "/applications/{application_id}/emojis"),
    ("PATCH", "/applications/{application_id}/emojis/{emoji_id}"),
}
CALLBACK_ROUTE = ("POST", "/interactions/{interaction_id}/{interaction_token}/callback")
WEBHOOK_CREATE_ROUTE = ("POST", "/channels/{channel_id}/webhooks")
WEBHOOK_EXECUTE_ROUTE = ("POST", "/webhooks/{webhook_id}/{webhook_token}")
_FORBIDDEN_NAME = re.compile(r"clyde|discord", re.IGNORECASE)
_URL = re.compile(r"https?://[^\s/]+\S*")


def _join(prefix: str, *parts: object) -> str:
    return ".".join([p for p in (prefix, *map(str, parts)) if p])


def _too_long(value: Any, limit: int) -> bool:
    return isinstance(value, str) and len(value) > limit


def check_message(
    body: dict[str, Any], prefix: str = "", *, was_v2: bool = False
) -> Iterator[Problem]:
    """A message body's problems; ``was_v2``: it edits a message sent with IS_COMPONENTS_V2."""
    flags = body.get("flags")
    v2 = bool(int(flags or 0) & COMPONENTS_V2)
    if was_v2 and flags is not None and not v2:
        yield _join(prefix, "flags"), "the IS_COMPONENTS_V2 flag cannot be removed by an edit"
    content = body.get("content")
    if isinstance(content, str) and len(content) > 2000:
        yield _join(prefix, "content"), f"must be 2000 or fewer in length (got {len(content)})"
    embeds = body.get("embeds") or []
    if len(embeds) > 10:
        yield _join(prefix, "embeds"), f"at most 10 embeds (got {len(embeds)})"
    total = 0
    for index, embed in enumerate(embeds):
        if isinstance(embed, dict):
            total += yield from _check_embed(embed, _join(prefix, "embeds", index))
    if total > 6000:
        yield _join(prefix, "embeds"), f"embeds hold {total} characters in total; the limit is 6000"
    allowed = body.get("allowed_mentions")
    if isinstance(allowed, dict):
        for kind in ("users", "roles"):
            if kind in (allowed.get("parse") or []) and allowed.get(kind):
                where = _join(prefix, "allowed_mentions")
                yield where, f'parse:["{kind}"] and {kind}: [ids] are mutually exclusive'
    components = body.get("components") or []
    if v2 or was_v2:
        yield from _check_v2(body, components, prefix)
    else:
        yield from _check_legacy_rows(components, _join(prefix, "components"))
    seen: set[str] = set()
    for field, component in walk_fields(components, _join(prefix, "components")):
        yield from _check_component(component, field, seen)


def _check_embed(embed: dict[str, Any], field: str) -> Generator[Problem, None, int]:
    """The embed's problems; returns its size in characters, for the 6000 total."""
    limits = {"title": 256, "description": 4096}
    size = 0
    for key, limit in limits.items():
        value = embed.get(key) or ""
        size += len(value)
        if len(value) > limit:
            yield _join(field, key), f"must be {limit} or fewer in length (got {len(value)})"
    for key, sub, limit in (("footer", "text", 2048), ("author", "name", 256)):
        value = (embed.get(key) or {}).get(sub) or ""
        size += len(value)
        if len(value) > limit:
            yield _join(field, key, sub), f"must be {limit} or fewer in length (got {len(value)})"
    fields = embed.get("fields") or []
    if len(fields) > 25:
        yield _join(field, "fields"), f"at most 25 fields (got {len(fields)})"
    for index, item in enumerate(fields):
        for key, limit in (("name", 256), ("value", 1024)):
            value = item.get(key)
            where = _join(field, "fields", index, key)
            if not isinstance(value, str) or not value:
                yield where, "is required and must not be empty"
                continue
            size += len(value)
            if len(value) > limit:
                yield where, f"must be {limit} or fewer in length (got {len(value)})"
    return size


def walk_fields(components: list[Any], field: str) -> Iterator[tuple[str, dict[str, Any]]]:
    for index, component in enumerate(components):
        if not isinstance(component, dict):
            continue
        where = _join(field, index)
        yield where, component
        yield from walk_fields(component.get("components") or [], _join(where, "components"))
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                yield _join(where, key), component[key]


def _check_v2(body: dict[str, Any], components: list[Any], prefix: str) -> Iterator[Problem]:
    for key in _V2_EXCLUDES:
        if body.get(key):
            yield _join(prefix, key), "cannot be sent with the IS_COMPONENTS_V2 flag"
    found = list(walk_fields(components, _join(prefix, "components")))
    if len(found) > V2_MAX_COMPONENTS:
        yield (
            _join(prefix, "components"),
            f"at most {V2_MAX_COMPONENTS} components, nested ones included (got {len(found)})",
        )
    texts = [str(c.get("content") or "") for _, c in found if c.get("type") == _TEXT_DISPLAY]
    if sum(map(len, texts)) > V2_MAX_TEXT:
        yield (
            _join(prefix, "components"),
            f"text displays hold {sum(map(len, texts))} characters; the limit is {V2_MAX_TEXT}",
        )
    for field, component in found:
        items = component.get("items")
        if component.get("type") == _GALLERY and not 1 <= len(items or []) <= GALLERY_MAX:
            yield (
                _join(field, "items"),
                f"a media gallery holds 1-10 items (got {len(items or [])})",
            )
        url = str((component.get("file") or {}).get("url") or "")
        if component.get("type") == _FILE and not url.startswith("attachment://"):
            yield _join(field, "file", "url"), f"{url!r} must name an upload (attachment://...)"


def check_emoji(body: dict[str, Any], *, create: bool) -> Iterator[Problem]:
    """An application emoji's name and (on create) its image."""
    name = body.get("name")
    if (create or name is not None) and not EMOJI_NAME.fullmatch(str(name or "")):
        yield "name", f"{name!r} must be 2-32 characters of A-Z, a-z, 0-9 and _"
    if not create:
        return
    match = EMOJI_IMAGE.fullmatch(str(body.get("image") or ""))
    if match is None:
        yield "image", "must be a data URI (data:image/png|jpeg|gif|webp;base64,...)"
        return
    try:
        data = base64.b64decode(match["data"], validate=True)
    except binascii.Error:
        yield "image", "is not valid base64"
        return
    if len(data) > EMOJI_MAX_BYTES:
        yield "image", f"must be {EMOJI_MAX_BYTES // 1024} KiB or smaller (got {len(data)} bytes)"
    kind = match["type"]
    is_webp = data[:4] == b"RIFF" and data[8:12] == b"WEBP"
    if not (is_webp if kind == "webp" else data.startswith(_MAGIC[kind])):
        yield "image", f"the bytes are not a {kind} image"


def _check_legacy_rows(rows: list[Any], field: str) -> Iterator[Problem]:
    if len(rows) > 5:
        yield field, f"at most 5 action rows (got {len(rows)})"
    for index, row in enumerate(rows):
        where = _join(field, index)
        if not isinstance(row, dict) or row.get("type") != _ROW:
            yield (
                where,
                "top-level components must be action rows (type 1) without IS_COMPONENTS_V2",
            )
            continue
        children = row.get("components") or []
        types = [child.get("type") for child in children if isinstance(child, dict)]
        if len(children) > 5:
            yield _join(where, "components"), f"at most 5 buttons in a row (got {len(children)})"
        if any(t in _SELECTS for t in types) and len(children) > 1:
            yield _join(where, "components"), "a select menu must be alone in its action row"


def _check_component(component: dict[str, Any], field: str, seen: set[str]) -> Iterator[Problem]:
    kind = component.get("type")
    custom_id = component.get("custom_id")
    if isinstance(custom_id, str):
        if not 1 <= len(custom_id) <= 100:
            yield _join(field, "custom_id"), f"must be 1-100 in length (got {len(custom_id)})"
        if custom_id in seen:
            yield _join(field, "custom_id"), f"duplicate custom_id {custom_id!r} in one message"
        seen.add(custom_id)
    if kind == _BUTTON:
        style = component.get("style")
        if style not in (_LINK, _PREMIUM) and not custom_id:
            yield _join(field, "custom_id"), "a non-link button needs a custom_id"
        if style == _LINK and (custom_id or not component.get("url")):
            yield field, "a link button has a url and no custom_id"
        if _too_long(component.get("label"), 80):
            yield _join(field, "label"), "must be 80 or fewer in length"
    if kind in _SELECTS:
        options = component.get("options") or []
        if len(options) > 25:
            yield _join(field, "options"), f"at most 25 options (got {len(options)})"
        if _too_long(component.get("placeholder"), 150):
            yield _join(field, "placeholder"), "must be 150 or fewer in length"
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not 0 <= low <= high <= 25:
            yield field, f"need 0 <= min_values <= max_values <= 25 (got {low}, {high})"


def check_modal(data: dict[str, Any], prefix: str) -> Iterator[Problem]:
    title = data.get("title") or ""
    if not 1 <= len(title) <= 45:
        yield _join(prefix, "title"), f"must be 1-45 in length (got {len(title)})"
    components = data.get("components") or []
    if not 1 <= len(components) <= 5:
        yield _join(prefix, "components"), f"a modal has 1-5 components (got {len(components)})"
    seen: set[str] = set()
    custom_id = data.get("custom_id")
    if _too_long(custom_id, 100):
        yield _join(prefix, "custom_id"), "must be 100 or fewer in length"
    for field, component in walk_fields(components, _join(prefix, "components")):
        yield from _check_component(component, field, seen)
        if component.get("type") in (_TEXT_INPUT, _LABEL) and _too_long(component.get("label"), 45):
            yield _join(field, "label"), "must be 45 or fewer in length"
    for index, component in enumerate(components):
        if not isinstance(component, dict) or component.get("type") != _ROW:
            continue
        if any(c.get("type") in _SELECTS for c in component.get("components") or []):
            where = _join(prefix, "components", index)
            yield where, "a select menu in a modal goes in a label (type 18), not an action row"


def check_choices(data: dict[str, Any], prefix: str) -> Iterator[Problem]:
    choices = data.get("choices") or []
    if len(choices) > 25:
        yield _join(prefix, "choices"), f"at most 25 choices (got {len(choices)})"
    for index, choice in enumerate(choices):
        name = choice.get("name") or ""
        if not 1 <= len(name) <= 100:
            yield _join(prefix, "choices", index, "name"), "must be 1-100 in length"


def check_webhook_name(name: Any, field: str) -> Iterator[Problem]:
    if isinstance(name, str) and _FORBIDDEN_NAME.search(name):
        yield field, f'{name!r}: webhook names cannot contain "clyde" or "discord"'


def check_execute(body: dict[str, Any]) -> Iterator[Problem]:
    username = body.get("username")
    if isinstance(username, str) and not 1 <= len(username) <= 80:
        yield "username", f"must be 1-80 in length (got {len(username)})"
    yield from check_webhook_name(username, "username")
    avatar_url = body.get("avatar_url")
    if isinstance(avatar_url, str) and not _URL.fullmatch(avatar_url):
        yield "avatar_url", f"{avatar_url!r} is not a well formed URL"


def check_limits(method: str, template: str, body: Any, *, was_v2: bool = False) -> list[Problem]:
    """Every extra-limit problem for a JSON body sent to ``method template``; ``was_v2``: the
    body edits a message sent with IS_COMPONENTS_V2."""
    route = (method, template)
    problems: list[Problem] = []
    if not isinstance(body, dict | list):
        return problems
    if route in MESSAGE_ROUTES and isinstance(body, dict):
        problems += check_message(body, was_v2=was_v2)
        if route == WEBHOOK_EXECUTE_ROUTE:
            problems += check_execute(body)
    elif route == WEBHOOK_CREATE_ROUTE and isinstance(body, dict):
        problems += check_webhook_name(body.get("name"), "name")
    elif route == CALLBACK_ROUTE and isinstance(body, dict):
        data = body.get("data") or {}
        kind = body.get("type")
        if kind in (4, 5, 7):
            problems += check_message(data, "data", was_v2=was_v2 and kind == 7)
        elif kind == 8:
            problems += check_choices(data, "data")
        elif kind == 9:
            problems += check_modal(data, "data")
    elif route in EMOJI_ROUTES and isinstance(body, dict):
        problems += check_emoji(body, create=method == "POST")
    elif route in COMMAND_LIST_ROUTES and isinstance(body, list):
        seen: set[tuple[Any, Any]] = set()
        for index, command in enumerate(body):
            key = (command.get("type", 1), command.get("name"))
            if key in seen:
                problems.append((f"{index}.name", f"duplicate command name {key[1]!r}"))
            seen.add(key)
            problems += check_command(command, str(index))
    elif route in COMMAND_ROUTES and isinstance(body, dict):
        problems += check_command(body, "")
    return problems
