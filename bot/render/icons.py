"""The bot's own emojis in text: a Pegaz creature's, a Pazaak side card kind's.

The Discord layer uploads them once as application emojis (``cogs.kit.emojis``) and hands the
renders an :data:`Icons` map, name -> how a message writes it (``<:pg_dragon:123>``). A render
falls back to the Unicode emoji (or to nothing) for a name the map lacks: an upload Discord
refused, or no map at all. The emoji is decoration only: every card keeps its name in the text,
for screen readers.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

Icons = Mapping[str, str]
"""Application emoji name -> its mention in text."""

NO_ICONS: Icons = MappingProxyType({})
MENTION_MAX = 2 + 32 + 1 + 20 + 1
"""The longest ``<:name:id>``: a 32-letter name and a 20-digit id."""


def creature_emoji_name(creature_id: str) -> str:
    return f"pg_{creature_id}"[:32]


def card_emoji_name(kind: str) -> str:
    return f"pz_{kind}"[:32]


def creature_icon(icons: Icons, creature_id: str, fallback: str) -> str:
    """The creature's own emoji, else ``fallback`` (its Unicode emoji)."""
    return icons.get(creature_emoji_name(creature_id), fallback)


def card_icon(icons: Icons, kind: str) -> str:
    """The side card kind's emoji followed by a space, or nothing."""
    found = icons.get(card_emoji_name(kind))
    return f"{found} " if found else ""
