"""FakeDiscord: the loopback server (gateway + REST on 127.0.0.1) and its test-facing API."""

# ruff: noqa: ASYNC109 (wait helpers take ``timeout=`` on purpose: it reads best in tests)

from __future__ import annotations

from collections.abc import Callable
from types import TracebackType
from typing import Any

from aiohttp import web

from tests.fakediscord.actions import Actions, Person, _user
from tests.fakediscord.api import API_PREFIX
from tests.fakediscord.crash import Credentials, Hold
from tests.fakediscord.faults import (
    ERROR_MESSAGES,
    Fault,
    Faults,
    MessageFault,
    RouteSpec,
    parse_route,
)
from tests.fakediscord.gateway import Gateway
from tests.fakediscord.messages import FakeMessage
from tests.fakediscord.models import DEFAULT_PERMISSIONS, FakeChannel, FakeGuild, FakeRole, FakeUser
from tests.fakediscord.openapi import SpecValidator, Violation, load_spec_validator
from tests.fakediscord.ratelimits import Override, RateLimits, RateLimitStats
from tests.fakediscord.rest import STATE, CoreRoutes, RestContext, make_middleware, not_implemented
from tests.fakediscord.rest_emojis import EmojiRoutes
from tests.fakediscord.rest_interactions import InteractionRoutes
from tests.fakediscord.rest_messages import MessageRoutes
from tests.fakediscord.rest_threads import ThreadRoutes
from tests.fakediscord.rest_webhooks import WebhookRoutes
from tests.fakediscord.state import FakeState, RequestRecord
from tests.fakediscord.stats import RequestStats

DEFAULT_TOKEN = "fake-bot-token.for-tests.only"
_AUTO: Any = object()


class FakeDiscord(Actions):
    """A Discord for one test: ``async with FakeDiscord() as fake:`` or ``await fake.start()``.

    Out of the box it has the bot's application and user, an owner, and one guild
    (``fake.guild``) with a text channel (``fake.tavern``).
    """

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        heartbeat_ms: int = 41_250,
        spec: SpecValidator | None = _AUTO,
        rate_limits: RateLimits | None = None,
    ) -> None:
        self.credentials = Credentials(token)
        self.state = FakeState()
        self.faults = Faults()
        self.holds: list[Hold] = []
        self.spec = load_spec_validator() if spec is _AUTO else spec
        self.port = 0
        self.gateway = Gateway(
            self.state,
            resume_url=lambda: self.url + "/resume",
            credentials=self.credentials,
            heartbeat_ms=heartbeat_ms,
        )
        self.ctx = RestContext(
            self.state,
            self.faults,
            self.spec,
            credentials=self.credentials,
            base_url=lambda: self.api_base,
            gateway_url=lambda: self.gateway_url,
        )
        self.ctx.rate_limits = rate_limits
        self._runner: web.AppRunner | None = None

    # -- lifecycle -------------------------------------------------------------------------------
    def _app(self) -> web.Application:
        app = web.Application(middlewares=[make_middleware(self.ctx)], client_max_size=64 << 20)
        app[STATE] = self.state
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/resume", self.gateway.handle)
        interactions = InteractionRoutes(self.ctx)  # before WebhookRoutes: ``@original`` first
        modules = (
            CoreRoutes(self.ctx),
            MessageRoutes(self.ctx),
            ThreadRoutes(self.ctx),
            EmojiRoutes(self.ctx),
            interactions,
            WebhookRoutes(self.ctx, interactions),
        )
        for module in modules:
            for method, path, handler in module.routes():
                app.router.add_route(method, API_PREFIX + path, handler)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", not_implemented)
        return app

    async def start(self) -> FakeDiscord:
        self._runner = web.AppRunner(
            self._app(), access_log=None, handle_signals=False, shutdown_timeout=0.5
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[attr-defined]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        return self

    async def close(self) -> None:
        self.credentials.closed.set()  # held and frozen requests end: their connections drop
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    @property
    def token(self) -> str:
        """The token a bot logs in with (a new one after :meth:`freeze`)."""
        return self.credentials.token

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """For ``settings.discord.api_base``."""
        return self.url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """For ``settings.discord.gateway_url``."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    # -- the world -------------------------------------------------------------------------------
    @property
    def bot_user(self) -> FakeUser:
        return self.state.bot_user

    @property
    def application_id(self) -> int:
        return self.state.application_id

    @property
    def guild(self) -> FakeGuild:
        return self.state.default_guild

    @property
    def tavern(self) -> FakeChannel:
        """The default guild's text channel."""
        return self.state.default_guild.text_channel

    @property
    def owner(self) -> FakeUser:
        return self.state.owner

    def add_user(self, name: str, *, dms_open: bool = True, locale: str = "en-US") -> FakeUser:
        """A Discord user who is in no guild yet."""
        return self.state.add_user(name, dms_open=dms_open, locale=locale)

    def add_player(
        self,
        name: str,
        *,
        permissions: int = 0,
        roles: tuple[FakeRole, ...] | list[FakeRole] = (),
        dms_open: bool = True,
        locale: str = "en-US",
        guild: FakeGuild | None = None,
    ) -> FakeUser:
        """A user who is a member of ``guild`` (the default guild): the usual test character."""
        user = self.state.add_user(name, dms_open=dms_open, locale=locale)
        (guild or self.guild).add_member(user, roles=roles, permissions=permissions)
        return user

    def add_guild(
        self,
        name: str,
        *,
        owner: FakeUser | None = None,
        channel: str = "tavern",
        locale: str = "en-US",
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        """A new guild (sent to a connected bot of its shard as GUILD_CREATE). ``shard``:
        ``(shard id, shard count)`` that its id falls on, ``(guild_id >> 22) % count``."""
        return self.state.add_guild(
            name,
            owner=owner,
            channel=channel,
            locale=locale,
            bot_permissions=DEFAULT_PERMISSIONS,
            shard=shard,
        )

    def message(self, message_id: int) -> FakeMessage:
        return self.state.messages[message_id]

    def commands(self, guild: FakeGuild | None = None) -> list[dict[str, Any]]:
        """The synced commands: global ones, or those of ``guild``."""
        if guild is None:
            return self.state.global_commands
        return self.state.guild_commands.get(guild.id, [])

    # -- what the bot sent -----------------------------------------------------------------------
    @property
    def violations(self) -> list[Violation]:
        return self.state.violations

    def take_violations(self) -> list[Violation]:
        """Return and forget the violations, for tests that provoke them on purpose."""
        taken = list(self.state.violations)
        self.state.violations.clear()
        return taken

    def problems(self) -> list[str]:
        """What fails a test at teardown: violations, unknown emojis in text (``emoji_warnings``),
        unimplemented routes, crashes of the fake."""
        found = [str(v) for v in self.state.violations] + self.state.emoji_warnings
        found += [f"the fake does not implement {route}" for route in self.state.unsupported]
        return found + [f"the fake crashed: {crash}" for crash in self.state.crashes]

    @property
    def unsupported(self) -> list[str]:
        """Routes the bot called that the fake does not implement."""
        return self.state.unsupported

    def requests(self, route: RouteSpec | None = None) -> list[RequestRecord]:
        """REST requests seen, optionally only those of ``"METHOD /template"``."""
        if route is None:
            return list(self.state.requests)
        method, _, template = route.rpartition(" ")
        return [
            r
            for r in self.state.requests
            if r.template == template and method.upper() in ("", "*", r.method)
        ]

    @property
    def deduplicated(self) -> list[RequestRecord]:
        """Message creates answered with an earlier message of the same nonce."""
        return [r for r in self.state.requests if r.deduplicated]

    def mark(self) -> int:
        """A point in the request log, for :meth:`request_stats` (``since=``)."""
        return len(self.state.requests)

    def request_stats(self, since: int = 0) -> RequestStats:
        """The REST requests since ``mark()``, counted by rate-limit class and by route."""
        return RequestStats.of(self.state.requests[since:], self.application_id)

    async def wait_for(
        self, predicate: Callable[[], Any], *, timeout: float = 5.0, what: str = "a condition"
    ) -> Any:
        """Wait until ``predicate()`` is truthy (checked on every change) and return it."""
        return await self.state.wait_for(predicate, timeout=timeout, what=what)

    # -- faults ----------------------------------------------------------------------------------
    def close_dms(self, person: Person) -> None:
        """The user's DMs are closed: opening the DM works, sending to it answers 403/50007."""
        _user(person).dms_open = False

    def rate_limit(
        self,
        route: RouteSpec,
        *,
        retry_after: float = 0.05,
        count: int = 1,
        is_global: bool = False,
    ) -> Fault:
        """The next ``count`` matching requests get a 429 with ``retry_after`` seconds."""
        return self.faults.add(route, "rate_limit", count, seconds=retry_after, is_global=is_global)

    def slow(self, route: RouteSpec, seconds: float, *, count: int = 1) -> Fault:
        """The next ``count`` matching requests are answered ``seconds`` late."""
        return self.faults.add(route, "slow", count, seconds=seconds)

    def fail(
        self, route: RouteSpec, *, status: int, code: int, message: str, count: int = 1
    ) -> Fault:
        """The next ``count`` matching requests get this Discord error (use 4xx)."""
        return self.faults.add(route, "error", count, status=status, code=code, message=message)

    def fail_message(
        self,
        message_id: int,
        *,
        status: int = 403,
        code: int = 50013,
        count: int = 1,
        methods: tuple[str, ...] = ("PATCH",),
        message: str | None = None,
    ) -> MessageFault:
        """The next ``count`` requests (of ``methods``) that reach this message fail.

        By the channel message route, the interaction webhook's (``@original`` too) or an
        interaction's UPDATE_MESSAGE answer on it (as a PATCH). The
        default is 403/50013 Missing Permissions; 403/50001 is Missing Access and 404/10008
        Unknown Message (the message looks deleted).
        """
        text = message if message is not None else ERROR_MESSAGES.get(code, f"error {code}")
        return self.faults.add_message(
            message_id, methods, count, status=status, code=code, message=text
        )

    def enable_rate_limits(
        self,
        global_per_second: float = 50,
        *,
        global_window: float = 1.0,
        buckets: dict[str, Override] | None = None,
        advertise: bool = True,
    ) -> RateLimits:
        """Discord's rate limits from now on (``ratelimits.py``): the global limit, interaction
        endpoints exempt, and the per-route buckets (``buckets={"channel-messages": (5, 0.3)}``
        changes one, ``None`` drops it). ``advertise=False`` hides the buckets' headers."""
        self.ctx.rate_limits = RateLimits(
            global_per_second=global_per_second,
            global_window=global_window,
            buckets=buckets,
            advertise=advertise,
        )
        return self.ctx.rate_limits

    def disable_rate_limits(self) -> None:
        self.ctx.rate_limits = None

    def rate_limit_stats(self) -> RateLimitStats:
        """What the rate limits counted (all zero while they are off): see ``RateLimitStats``."""
        limits = self.ctx.rate_limits
        return RateLimitStats() if limits is None else limits.stats()

    # -- crashes ---------------------------------------------------------------------------------
    def hold(self, route: RouteSpec, *, count: int = 1, applied: bool) -> Hold:
        """Catch the next ``count`` matching requests and never answer them (a crash point).

        With ``applied=True`` the fake does what the request asks (the message is created or
        edited, the events are sent) first. ``await hold.reached()`` waits for a caught request;
        ``hold.release()`` drops the connections, and :meth:`freeze` releases every hold.
        """
        method, template = parse_route(route)
        hold = Hold(method, template, count, "hold", applied=applied)
        self.faults.rules.append(hold)
        self.holds.append(hold)
        return hold

    def freeze(self) -> str:
        """The bot is killed: nothing it does reaches Discord any more. Returns the new token.

        Every REST request with the current token, and every answer to an interaction made so
        far, hangs until the fake closes; the gateway connections are cut, and an IDENTIFY or
        RESUME with the old token is never answered. Held requests are dropped. A new bot logs
        in with the new :attr:`token`.
        """
        self.credentials.freeze(self.state.interactions)
        for hold in self.holds:
            hold.release()
        self.gateway.freeze()
        return self.rotate_token()

    def rotate_token(self) -> str:
        """A new bot token (:attr:`token`); the old one gets 401 unless it was frozen."""
        return self.credentials.rotate()

    @property
    def recommended_shards(self) -> int:
        """How many shards GET /gateway/bot recommends (1), which a bot without a
        ``shard_count`` runs."""
        return self.ctx.recommended_shards

    @recommended_shards.setter
    def recommended_shards(self, count: int) -> None:
        if count < 1:
            raise ValueError("Discord recommends at least one shard")
        self.ctx.recommended_shards = count

    @property
    def ack_deadline(self) -> float:
        """Seconds the bot has to answer an interaction (3 on Discord)."""
        return self.ctx.ack_deadline

    @ack_deadline.setter
    def ack_deadline(self, seconds: float) -> None:
        self.ctx.ack_deadline = seconds

    async def drop_connection(self, *, code: int = 4000, abort: bool = False) -> None:
        """Cut the bot's gateway connection (close ``code``, or a dead TCP connection)."""
        await self.gateway.drop(code=code, abort=abort)
