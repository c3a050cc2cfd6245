"""Drawn images kept by what they show, and drawing off the event loop.

A table's picture is a pure function of its state version, the viewer and the language, so a
redraw of the same version (a second surface, a stale click, a restart's reconciliation) is a
cache hit. Concurrent requests for one key share one drawing.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Literal

from bot.i18n import Lang

Kind = Literal["pegaz_hand", "pegaz_check", "pegaz_table", "pazaak_board", "pazaak_hand"]

CACHE_SIZE = 256
"""Images kept: at most ~100 KiB each, so the cache stays under ~25 MiB."""


@dataclass(frozen=True, slots=True)
class ImageKey:
    """What one image shows: a table at a state version, for a viewer (None: everyone)."""

    table: int
    version: int
    viewer: int | None
    lang: Lang
    kind: Kind


class ImageCache:
    """A bounded LRU of PNG bytes by :class:`ImageKey`. Used from the event loop only (the
    drawing runs in a thread; the cache is read and filled around it)."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        if size < 1:
            raise ValueError("a cache holds at least one image")
        self.size = size
        self._images: OrderedDict[ImageKey, bytes] = OrderedDict()
        self.drawing: dict[ImageKey, asyncio.Task[bytes]] = {}
        """Images being drawn now, by key (:func:`render_async`)."""

    def __len__(self) -> int:
        return len(self._images)

    def get(self, key: ImageKey) -> bytes | None:
        image = self._images.get(key)
        if image is not None:
            self._images.move_to_end(key)
        return image

    def put(self, key: ImageKey, image: bytes) -> None:
        self._images[key] = image
        self._images.move_to_end(key)
        while len(self._images) > self.size:
            self._images.popitem(last=False)

    def drawn(self, key: ImageKey, task: asyncio.Task[bytes]) -> None:
        """A drawing is done: keep its image (a failure is left to the callers who await it)."""
        del self.drawing[key]
        if not task.cancelled() and task.exception() is None:
            self.put(key, task.result())


async def render_async(cache: ImageCache, key: ImageKey, draw: Callable[[], bytes]) -> bytes:
    """The image for ``key``: from ``cache``, else drawn by ``draw`` in a worker thread
    (:func:`asyncio.to_thread`) and kept. A key already being drawn is awaited, not drawn
    twice; a caller cancelled meanwhile does not cancel the drawing the others wait for."""
    image = cache.get(key)
    if image is not None:
        return image
    task = cache.drawing.get(key)
    if task is None:
        task = asyncio.create_task(asyncio.to_thread(draw))
        cache.drawing[key] = task
        task.add_done_callback(partial(cache.drawn, key))
    return await asyncio.shield(task)
