"""Message catalogues (English and Polish) and the app_commands Translator.

``bot/i18n/<lang>/<area>.json`` hold every text the bot shows, keyed by a stable id, with
``str.format`` placeholders, in one file per area (core, characters, purse, gm, pegaz, pazaak...)
merged at load; a key may appear in only one area. Command names and descriptions are translated
for Polish Discord clients from the ``commands`` sections, keyed by the English text.
"""

from __future__ import annotations

import json
import string
from functools import cache
from importlib import resources
from typing import Literal, cast

import discord
from discord import app_commands

Lang = Literal["en", "pl"]
LANGS: tuple[Lang, ...] = ("en", "pl")


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

    def __init__(self, params: dict[str, object], lang: Lang) -> None:
        super().__init__(params)
        self.lang: Lang = lang

    def __missing__(self, key: str) -> str:
        return command_name(self.lang, key) if key.startswith("/") else "?"


def t(lang: Lang, key: str, /, **params: object) -> str:
    """The message ``key`` in ``lang``, filled in. Falls back to English, then to the key.

    A placeholder without a value shows as ``?`` rather than failing the whole reply.
    """
    text = catalogue(lang).get(key) or catalogue("en").get(key)
    if text is None:
        return key
    return text.format_map(_Params(params, lang))


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
