"""Message catalogues (English and Polish) and the app_commands Translator.

``bot/i18n/<lang>/<area>.json`` hold every text the bot shows, keyed by a stable id, with
``str.format`` placeholders, in one file per area (core, characters, purse, gm, pegaz, pazaak...)
merged at load; a key may appear in only one area. Command names and descriptions are translated
for Polish Discord clients from the ``commands`` sections, keyed by the English text.

A missing text or placeholder is a bug the tests must catch but a player must never see as a
failed reply: under :data:`STRICT` (the tests) :func:`t` raises :class:`MissingText`; otherwise it
logs a warning once per gap and falls back.
"""

from __future__ import annotations

import json
import logging
import string
from functools import cache
from importlib import resources
from typing import Literal, cast

import discord
from discord import app_commands

Lang = Literal["en", "pl"]
LANGS: tuple[Lang, ...] = ("en", "pl")

log = logging.getLogger(__name__)

STRICT = False
"""Raise on a missing text or placeholder instead of falling back. ``tests/conftest.py`` turns it
on for every test; the bot never does."""

_WARNED: set[tuple[str, ...]] = set()
"""The gaps already logged (``("text", lang, key)`` or ``("value", key, placeholder)``): each
is logged once, not on every message that shows it."""


class MissingText(LookupError):
    """A key with no text in a language, or a placeholder its caller gave no value (strict only)."""


def _gap(gap: tuple[str, ...], problem: str) -> None:
    """Report a catalogue gap. ``problem`` names only keys, placeholders and languages, never a
    user's value, so the log line is safe to keep."""
    if STRICT:
        raise MissingText(problem)
    if gap not in _WARNED:
        _WARNED.add(gap)
        log.warning("i18n: %s", problem)


@cache
def _sections(lang: Lang, section: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    folder = resources.files(__package__).joinpath(lang)
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".json"):
            continue
        part = cast(dict[str, str], json.loads(entry.read_text("utf-8")).get(section, {}))
        clash = merged.keys() & part.keys()
        if clash and section == "messages":
            raise ValueError(f"{lang}/{entry.name} repeats keys: {sorted(clash)}")
        merged.update(part)
    return merged


def catalogue(lang: Lang) -> dict[str, str]:
    """All messages of one language (the ``commands`` sections excluded)."""
    return _sections(lang, "messages")


def command_strings(lang: Lang) -> dict[str, str]:
    """English command text -> this language's text (names, descriptions, choices)."""
    return _sections(lang, "commands")


def placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


def command_name(lang: Lang, path: str) -> str:
    """A slash command as ``lang``'s clients show it: ``command_name("pl", "/character create")``
    is ``"/postać utwórz"`` (each word through the ``commands`` sections, as the Translator)."""
    if lang == "en":
        return path
    strings = command_strings(lang)
    words = path.lstrip("/").split()
    return "/" + " ".join(strings.get("name:" + w) or strings.get(w) or w for w in words)


class _Params(dict[str, object]):
    """A message's values; a placeholder such as ``{/pegaz open}`` is that command's name in the
    message's language, so no text quotes an English command to a Polish server."""

    def __init__(self, params: dict[str, object], lang: Lang, key: str) -> None:
        super().__init__(params)
        self.lang: Lang = lang
        self.key = key

    def __missing__(self, name: str) -> str:
        if name.startswith("/"):
            return command_name(self.lang, name)
        problem = f"message {self.key!r} ({self.lang}) has no value for {{{name}}}"
        _gap(("value", self.key, name), problem)
        return "?"


def t(lang: Lang, key: str, /, **params: object) -> str:
    """The message ``key`` in ``lang``, filled in.

    Outside :data:`STRICT`, a text missing in ``lang`` falls back to English, then to the key, and
    a placeholder without a value shows as ``?``: a gap costs a word, never the whole reply.
    """
    text = catalogue(lang).get(key)
    if text is None:
        text = catalogue("en").get(key)
        where = lang if text is not None or lang == "en" else f"{lang} or en"
        _gap(("text", lang, key), f"no text for message {key!r} in {where}")
    if text is None:
        return key
    if "{" not in text and "}" not in text:  # most texts: nothing to fill in (41 a move)
        return text
    return text.format_map(_Params(params, lang, key))


def has(key: str) -> bool:
    return key in catalogue("en")


ELLIPSIS = "\u2026"
QUOTE_MAX = 40
"""The most characters of a user's own input that a message quotes back (a card code, a name, an
amount as typed): enough to recognise it, never enough to push a message past Discord's limits."""


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, the cut marked with an ellipsis."""
    if len(text) <= limit:
        return text
    if limit <= 0:
        return ""
    return text[: limit - 1] + ELLIPSIS


def quote(text: object, limit: int = QUOTE_MAX) -> str:
    """User input as a message may quote it back: on one line (any run of white space becomes
    one space) and clipped to ``limit`` characters. Use it wherever typed text is repeated."""
    return clip(" ".join(str(text).split()), limit)


_NAME_LOCATIONS = frozenset(
    {
        app_commands.TranslationContextLocation.command_name,
        app_commands.TranslationContextLocation.group_name,
        app_commands.TranslationContextLocation.parameter_name,
    }
)


def valid_name(text: str) -> bool:
    """Discord's rule for command and option names: 1-32 lowercase letters, digits, - or _."""
    return (
        0 < len(text) <= 32
        and text == text.lower()
        and all(char.isalnum() or char in "-_" for char in text)
    )


class Translator(app_commands.Translator):
    """Gives Polish Discord clients Polish command names, descriptions and choices.

    The same English word can be a name in one place and a choice in another (``gm``: the
    ``/gm`` group, and a Pegasus ruling). A key ``"name:<english>"`` is the translation used for
    command, group and option names, before the plain key; and a name translation that breaks
    Discord's naming rules is never sent (Discord would refuse the whole sync).
    """

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale is not discord.Locale.polish:
            return None
        strings = command_strings("pl")
        if context.location in _NAME_LOCATIONS:
            text = strings.get("name:" + string.message) or strings.get(string.message)
            return text if text is not None and valid_name(text) else None
        return strings.get(string.message)
