"""A table's rendered images for its messages, where the server shows them (``/settings
images``): drawn off the event loop and kept by what they show (``bot.render.images``)."""

from __future__ import annotations

from collections.abc import Callable

from bot.i18n import Lang
from bot.render.images import ImageCache, ImageKey, Kind, render_async
from cogs.kit.frame import Picture


class Pictures:
    """One game scene's images: a cache of them, and the pictures its drafts carry."""

    def __init__(self) -> None:
        self.cache = ImageCache()

    async def draw(
        self,
        kind: Kind,
        key: tuple[int, int, int | None, Lang],
        draw: Callable[[], bytes],
    ) -> Picture:
        """``key``: (table, what it shows, a version or a digest of it; the viewer, None for
        everyone; the language)."""
        table, version, viewer, lang = key
        data = await render_async(self.cache, ImageKey(table, version, viewer, lang, kind), draw)
        return Picture(f"{kind}.png", data)
