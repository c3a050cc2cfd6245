"""Crash points: a request held without an answer, and a dead bot whose credentials hang.

- :class:`Hold` catches the next matching requests and withholds their answer, after applying
  them or not: the moment a bot process dies in the middle of a REST call.
- :class:`Credentials` knows the bot token a new bot logs in with, and what a killed bot held:
  its token and the interactions Discord delivered to it. The REST middleware and the gateway
  ask it which requests come from a dead bot; those hang until the fake closes.

Either way the answer never comes: when the wait ends the connection is aborted, so the client
sees a dropped connection (if it still listens) and the fake logs nothing.
"""

# ruff: noqa: ASYNC109 (wait helpers take ``timeout=`` on purpose: it reads best in tests)

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass, field

from aiohttp import web

from tests.fakediscord.faults import Fault
from tests.fakediscord.state import RequestRecord, WaitTimeout


async def withhold(request: web.Request, *events: asyncio.Event) -> web.StreamResponse:
    """Wait until one of ``events`` is set, then drop the connection without an answer."""
    waiters = [asyncio.ensure_future(event.wait()) for event in events]
    try:
        await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiter in waiters:
            waiter.cancel()
    if request.transport is not None:
        request.transport.abort()
    return web.Response(status=500)  # never delivered: aiohttp drops it with the connection


@dataclass(eq=False)
class Hold(Fault):
    """The next ``count`` matching requests are caught: applied (or not), never answered.

    ``caught`` holds their records in arrival order; :meth:`release` ends the hold (the caught
    requests' connections are dropped, and no further request is caught).
    """

    applied: bool = False
    caught: list[RequestRecord] = field(default_factory=list)
    released: asyncio.Event = field(default_factory=asyncio.Event)
    _arrived: asyncio.Event = field(default_factory=asyncio.Event)

    async def reached(self, timeout: float = 5.0) -> RequestRecord:
        """Wait until a request was caught; return the first one's record."""
        try:
            await asyncio.wait_for(self._arrived.wait(), timeout)
        except TimeoutError:
            raise WaitTimeout(
                f"timed out after {timeout}s waiting for a request to "
                f"{self.method} {self.template} to be held"
            ) from None
        return self.caught[0]

    def release(self) -> None:
        """End the hold: drop what it caught, catch nothing more."""
        self.count = 0
        self.released.set()

    def catch(self, record: RequestRecord) -> None:
        """This request is caught: its answer waits for :meth:`release` (or the fake's close)."""
        record.held = True
        self.caught.append(record)
        self._arrived.set()


class Credentials:
    """The current bot token, and the credentials of killed bots (see :meth:`freeze`)."""

    def __init__(self, token: str) -> None:
        self.token = token
        self.frozen_tokens: set[str] = set()
        self.frozen_interactions: set[str] = set()  # interaction tokens a killed bot received
        self.closed = asyncio.Event()  # set when the fake closes: frozen requests end then
        self._first = token
        self._rotations = 0

    def rotate(self) -> str:
        """A new current token; the old one is refused (401) unless frozen."""
        self._rotations += 1
        self.token = f"{self._first}.{self._rotations}"
        return self.token

    def freeze(self, interaction_tokens: Iterable[str]) -> None:
        """The current bot is dead: its token and the interactions it received hang from now on.

        Interaction callbacks and the interaction webhook carry no ``Authorization`` header; they
        are known by the interaction's token. Only the bot that got an interaction can answer it,
        so every interaction made so far belongs to the dead bot.
        """
        self.frozen_tokens.add(self.token)
        self.frozen_interactions.update(interaction_tokens)

    def is_frozen(self, token: str | None) -> bool:
        return token is not None and token.removeprefix("Bot ") in self.frozen_tokens

    def catches(self, request: web.Request) -> bool:
        """Whether this REST request comes from a killed bot."""
        if self.is_frozen(request.headers.get("Authorization")):
            return True
        info = request.match_info
        token = info.get("interaction_token") or info.get("webhook_token")
        return token is not None and token in self.frozen_interactions
