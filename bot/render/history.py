"""A closed table's hand history as pages of an embed, one copy per viewer.

Who may read what is decided here, once, from the rules' own ``audience(event)`` (both games name
the same three kinds, in their own words): a public event is everyone's; a private one
(``player`` in Pegasus, ``private`` in Pazaak) is its ``event.player``'s and the GM's; a GM-only
one (every detection roll, missed ones too) is the GM's alone. The games' history renders
(``bot.render.pegaz.history``, ``bot.render.pazaak.history``) ask :func:`may_see` before they
tell any event's content.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import discord

from bot.i18n import Lang, clip, t
from bot.render.limits import DESCRIPTION_MAX, fit

COLOUR = discord.Colour(0x6B4F2A)
PAGE_MAX = DESCRIPTION_MAX - 96
"""The characters of history one page holds (its embed's description, with room to spare)."""
PUBLIC_AUDIENCE = "public"
GM_AUDIENCE = "gm"


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who reads a history: the characters they played at the table, and whether a GM reads
    (the GM's copy has every hand, every detection roll and every secret swap)."""

    characters: frozenset[int] = field(default_factory=frozenset)
    gm: bool = False

    @property
    def copy(self) -> str:
        """Which copy this viewer reads: ``gm``, ``player`` (a seat's own cards) or ``public``."""
        return "gm" if self.gm else "player" if self.characters else "public"


def may_see(audience: str, player: int | None, viewer: Viewer) -> bool:
    """Whether ``viewer`` may read an event's content, given the rules' ``audience`` of it and
    its ``player`` (None: an event that names nobody)."""
    if audience == PUBLIC_AUDIENCE:
        return True
    if viewer.gm:
        return True
    return audience != GM_AUDIENCE and player is not None and player in viewer.characters


def paginate(lines: Sequence[str], limit: int = PAGE_MAX) -> list[str]:
    """The lines cut into pages of at most ``limit`` characters, a line (which may hold line
    breaks: a check shows both hands) never split between two pages. At least one page."""
    pages: list[str] = []
    current: list[str] = []
    size = 0
    for raw in lines:
        line = clip(raw, limit)
        extra = len(line) + (1 if current else 0)
        if current and size + extra > limit:
            pages.append("\n".join(current))
            current, size = [], 0
            extra = len(line)
        current.append(line)
        size += extra
    if current or not pages:
        pages.append("\n".join(current))
    return pages


def page_embed(
    lang: Lang, *, table_id: int, game: str, viewer: Viewer, text: str, page: int, pages: int
) -> discord.Embed:
    """One page of a history; ``game`` is the game's name in ``lang``."""
    embed = discord.Embed(
        title=t(lang, "history.title", table=table_id, game=game),
        description=text or t(lang, "history.empty"),
        colour=COLOUR,
    )
    copy = t(lang, f"history.copy.{viewer.copy}")
    embed.set_footer(text=t(lang, "history.footer", copy=copy, page=page + 1, pages=pages))
    return fit(embed)
