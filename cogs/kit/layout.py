"""Components V2 messages (``discord.ui.LayoutView``) that keep Discord's limits by construction.

A V2 message holds no ``content`` or embeds: its text is in ``TextDisplay`` items, at most
4,000 characters across all of them, and it holds at most 40 components, nested ones included
(a container, a row and its buttons each count). :func:`layout` builds such a view and clips its
texts (the last first) to fit; discord.py refuses a 41st component as it is added. Like the
legacy views (:func:`cogs.kit.ids.view`), it holds no state: the cog's ``DynamicItem`` receives
its buttons and menus, which keep the kit's custom_ids, so they work after a restart.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import clip

COMPONENTS_MAX = 40
TEXT_MAX = 4000


def layout(*items: discord.ui.Item[Any]) -> discord.ui.LayoutView:
    """A V2 view of ``items`` (top-level: containers, texts, separators, rows) within the
    limits: see :func:`fit`."""
    found = discord.ui.LayoutView(timeout=None)
    for item in items:
        found.add_item(item)
    return fit(found)


def texts(view: discord.ui.LayoutView) -> list[discord.ui.TextDisplay[Any]]:
    """The view's text displays, in document order (nested ones included)."""
    return [item for item in view.walk_children() if isinstance(item, discord.ui.TextDisplay)]


def fit(view: discord.ui.LayoutView) -> discord.ui.LayoutView:
    """``view`` with its texts clipped, the last ones first, to :data:`TEXT_MAX` characters in
    all (each keeps at least one character), and at most :data:`COMPONENTS_MAX` components, or
    a ``ValueError``. Returns ``view``."""
    if view.total_children_count > COMPONENTS_MAX:
        raise ValueError(f"{view.total_children_count} components; at most {COMPONENTS_MAX}")
    for item in reversed(texts(view)):
        over = view.content_length() - TEXT_MAX
        if over <= 0:
            break
        item.content = clip(item.content, max(len(item.content) - over, 1))
    return view


def is_v2(message: discord.Message | None) -> bool:
    """Whether ``message`` was sent as Components V2 (an edit must keep it so: no content)."""
    return message is not None and message.flags.components_v2
