"""Limits of application commands that the OpenAPI description does not encode (see
``limits.py``, which applies them to the command routes)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

Problem = tuple[str, str]  # (field, message)

_NAME = re.compile(r"[-\w]{1,32}")
_SUBCOMMAND, _GROUP = 1, 2


def _join(prefix: str, *parts: object) -> str:
    return ".".join([p for p in (prefix, *map(str, parts)) if p])


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
