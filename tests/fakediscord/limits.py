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
- legacy components (no IS_COMPONENTS_V2 flag): at most 5 action rows, only action rows at the top
  level, at most 5 buttons per row, a select menu alone in its row; every custom_id 1-100 characters
  and unique in the message; a button has a custom_id unless it is a link (url) or premium button;
  label <= 80; select: <= 25 options, placeholder <= 150, 0 <= min_values <= max_values <= 25;
- modals: title 1-45, custom_id <= 100, 1-5 top-level components;
- autocomplete results: at most 25 choices, name 1-100;
- application commands (chat input): name matches ``^[-_\\p{L}\\p{N}]{1,32}$`` and is lowercase
  (Python's ``[-\\w]`` stands in for the Unicode classes), description 1-100; the same rules for
  every ``name_localizations`` / ``description_localizations`` value and for every option; at most
  25 options and 25 choices; required options before optional ones; names unique per level and
  per command type in one bulk update.
"""

from __future__ import annotations

import re
from collections.abc import Generator, Iterator
from typing import Any

Problem = tuple[str, str]  # (field, message)

COMPONENTS_V2 = 1 << 15
_NAME = re.compile(r"[-\w]{1,32}")
_ROW, _BUTTON, _TEXT_INPUT, _LABEL = 1, 2, 4, 18
_SELECTS = {3, 5, 6, 7, 8}
_LINK, _PREMIUM = 5, 6
_SUBCOMMAND, _GROUP = 1, 2

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
CALLBACK_ROUTE = ("POST", "/interactions/{interaction_id}/{interaction_token}/callback")
WEBHOOK_CREATE_ROUTE = ("POST", "/channels/{channel_id}/webhooks")
WEBHOOK_EXECUTE_ROUTE = ("POST", "/webhooks/{webhook_id}/{webhook_token}")
_FORBIDDEN_NAME = re.compile(r"clyde|discord", re.IGNORECASE)
_URL = re.compile(r"https?://[^\s/]+\S*")


def _join(prefix: str, *parts: object) -> str:
    return ".".join([p for p in (prefix, *map(str, parts)) if p])


def _too_long(value: Any, limit: int) -> bool:
    return isinstance(value, str) and len(value) > limit


def check_message(body: dict[str, Any], prefix: str = "") -> Iterator[Problem]:
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
    if not int(body.get("flags") or 0) & COMPONENTS_V2:
        yield from _check_legacy_rows(components, _join(prefix, "components"))
    seen: set[str] = set()
    for field, component in _walk(components, _join(prefix, "components")):
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


def _walk(components: list[Any], field: str) -> Iterator[tuple[str, dict[str, Any]]]:
    for index, component in enumerate(components):
        if not isinstance(component, dict):
            continue
        where = _join(field, index)
        yield where, component
        yield from _walk(component.get("components") or [], _join(where, "components"))
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                yield _join(where, key), component[key]


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
    for field, component in _walk(components, _join(prefix, "components")):
        yield from _check_component(component, field, seen)
        if component.get("type") in (_TEXT_INPUT, _LABEL) and _too_long(component.get("label"), 45):
            yield _join(field, "label"), "must be 45 or fewer in length"


def check_choices(data: dict[str, Any], prefix: str) -> Iterator[Problem]:
    choices = data.get("choices") or []
    if len(choices) > 25:
        yield _join(prefix, "choices"), f"at most 25 choices (got {len(choices)})"
    for index, choice in enumerate(choices):
        name = choice.get("name") or ""
        if not 1 <= len(name) <= 100:
            yield _join(prefix, "choices", index, "name"), "must be 1-100 in length"


def _check_name(name: Any, field: str, lowercase: bool) -> Iterator[Problem]:
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        yield field, f"{name!r} does not match ^[-_\\p{{L}}\\p{{N}}]{{1,32}}$"
    elif lowercase and name != name.lower():
        yield field, f"{name!r} must be lowercase"


def _check_description(text: Any, field: str) -> Iterator[Problem]:
    if not isinstance(text, str) or not 1 <= len(text) <= 100:
        length = len(text) if isinstance(text, str) else 0
        yield field, f"must be 1-100 in length (got {length})"


def _check_named(item: dict[str, Any], field: str) -> Iterator[Problem]:
    """Name, description and their localisations for a chat-input command or an option."""
    yield from _check_name(item.get("name"), _join(field, "name"), lowercase=True)
    yield from _check_description(item.get("description"), _join(field, "description"))
    for locale, name in (item.get("name_localizations") or {}).items():
        yield from _check_name(name, _join(field, "name_localizations", locale), lowercase=True)
    for locale, text in (item.get("description_localizations") or {}).items():
        yield from _check_description(text, _join(field, "description_localizations", locale))


def _check_options(options: list[Any], field: str) -> Iterator[Problem]:
    if len(options) > 25:
        yield field, f"at most 25 options (got {len(options)})"
    names: set[str] = set()
    optional_seen = False
    for index, option in enumerate(options):
        where = _join(field, index)
        yield from _check_named(option, where)
        if option.get("name") in names:
            yield _join(where, "name"), f"duplicate option name {option.get('name')!r}"
        names.add(option.get("name"))
        if option.get("type") in (_SUBCOMMAND, _GROUP):
            yield from _check_options(option.get("options") or [], _join(where, "options"))
            continue
        if option.get("required"):
            if optional_seen:
                yield where, "required options must come before optional ones"
        else:
            optional_seen = True
        choices = option.get("choices") or []
        if len(choices) > 25:
            yield _join(where, "choices"), f"at most 25 choices (got {len(choices)})"


def check_command(command: dict[str, Any], field: str) -> Iterator[Problem]:
    if command.get("type", 1) in (1, None):
        yield from _check_named(command, field)
        yield from _check_options(command.get("options") or [], _join(field, "options"))


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


def check_limits(method: str, template: str, body: Any) -> list[Problem]:
    """Every extra-limit problem for a JSON body sent to ``method template``."""
    route = (method, template)
    problems: list[Problem] = []
    if not isinstance(body, dict | list):
        return problems
    if route in MESSAGE_ROUTES and isinstance(body, dict):
        problems += check_message(body)
        if route == WEBHOOK_EXECUTE_ROUTE:
            problems += check_execute(body)
    elif route == WEBHOOK_CREATE_ROUTE and isinstance(body, dict):
        problems += check_webhook_name(body.get("name"), "name")
    elif route == CALLBACK_ROUTE and isinstance(body, dict):
        data = body.get("data") or {}
        kind = body.get("type")
        if kind in (4, 5, 7):
            problems += check_message(data, "data")
        elif kind == 8:
            problems += check_choices(data, "data")
        elif kind == 9:
            problems += check_modal(data, "data")
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
