"""Message catalogues (English and Polish) and the app_commands Translator.

``messages.json`` per language holds every text the bot shows, keyed by a stable id, with
``str.format`` placeholders. Command names and descriptions are translated for Polish Discord
clients from the ``commands`` section of the Polish catalogue, keyed by the English text.
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
def catalogue(lang: Lang) -> dict[str, str]:
    """All messages of one language (the ``commands`` section excluded)."""
    data = json.loads(resources.files(__package__).joinpath(f"{lang}.json").read_text("utf-8"))
    return cast(dict[str, str], data["messages"])


@cache
def command_strings(lang: Lang) -> dict[str, str]:
    """English command text -> this language's text (names, descriptions, choices)."""
    data = json.loads(resources.files(__package__).joinpath(f"{lang}.json").read_text("utf-8"))
    return cast(dict[str, str], data.get("commands", {}))


def placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


def t(lang: Lang, key: str, /, **params: object) -> str:
    """The message ``key`` in ``lang``, filled in. Falls back to English, then to the key."""
    text = catalogue(lang).get(key) or catalogue("en").get(key)
    if text is None:
        return key
    return text.format(**params)


def has(key: str) -> bool:
    return key in catalogue("en")


class Translator(app_commands.Translator):
    """Gives Polish Discord clients Polish command names, descriptions and choices."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale is not discord.Locale.polish:
            return None
        return command_strings("pl").get(string.message)
