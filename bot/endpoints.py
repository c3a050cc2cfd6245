"""Point discord.py at the configured REST and gateway endpoints (a proxy, or the test fake).

discord.py keeps these as class attributes, so they are process-wide. They are set in one place,
here, and :func:`use_endpoints` restores the previous values when the bot is done with them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route


class Endpoints(Protocol):
    """What :func:`use_endpoints` reads: :class:`bot.config.DiscordSettings` is one. A protocol,
    so a bare discord.py process (the load bench's echo bot) can point itself at the fake without
    importing the bot's settings (pydantic and its models: some 60 ms of its start)."""

    @property
    def api_base(self) -> str: ...

    @property
    def gateway_url(self) -> str: ...


@contextmanager
def use_endpoints(settings: Endpoints) -> Iterator[None]:
    saved_base, saved_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = settings.api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)
    try:
        yield
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = saved_base, saved_gateway
