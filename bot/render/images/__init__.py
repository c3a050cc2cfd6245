"""Tables as PNG images, drawn with Pillow from shapes, colours and text (no art files).

Every function is pure: it takes the views the text renderers use (what its viewer may know)
and a language, and returns PNG bytes. :func:`render_async` draws off the event loop and keeps
the result in an :class:`ImageCache` by table, state version, viewer, language and kind. The
modules: ``draw`` (fonts, colours, text that fits), ``glyphs`` (each creature's colour and
glyph), ``pegaz`` and ``pazaak`` (the pictures), ``cache``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from bot.render.images.cache import CACHE_SIZE, ImageCache, ImageKey, Kind, render_async

if TYPE_CHECKING:
    from bot.render.images import pazaak, pegaz
    from bot.render.images.draw import Names, font_source

_LAZY = {"pazaak": "pazaak", "pegaz": "pegaz", "Names": "draw", "font_source": "draw"}
"""What needs Pillow, imported when first used (the first picture), not with the bot."""


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    found = importlib.import_module(f"{__name__}.{module}")
    return found if module == name else getattr(found, name)


__all__ = [
    "CACHE_SIZE",
    "ImageCache",
    "ImageKey",
    "Kind",
    "Names",
    "font_source",
    "pazaak",
    "pegaz",
    "render_async",
]
