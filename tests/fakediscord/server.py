"""FakeDiscord: the loopback server (gateway + REST on 127.0.0.1) and its test-facing API."""

# ruff: noqa: ASYNC109 (wait helpers take ``timeout=`` on purpose: it reads best in tests)

from __future__ import annotations

from collections.abc import Callable
from types import TracebackType
from typing import Any

from aiohttp import web

from tests.fakediscord.actions import Actions, Person, _user
from tests.fakediscord.api import API_PREFIX
from tests.fakediscord.faults import Fault, Faults, RouteSpec
from tests.fakediscord.gateway import Gateway
from tests.fakediscord.messages import FakeMessage
from tests.fakediscord.models import DEFAULT_PERMISSIONS, FakeChannel, FakeGuild, FakeRole, FakeUser
from tests.fakediscord.openapi import SpecValidator, Violation, load_spec_validator
from tests.fakediscord.rest import STATE, CoreRoutes, RestContext, make_middleware, not_implemented
from tests.fakediscord.rest_interactions import InteractionRoutes
from tests.fakediscord.rest_messages import MessageRoutes
from tests.fakediscord.state import FakeState, RequestRecord

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
    ) -> None:
        self.token = token
        self.state = FakeState()
        self.faults = Faults()
        self.spec = load_spec_validator() if spec is _AUTO else spec
        self.port = 0
        self.gateway = Gateway(
            self.state,
            resume_url=lambda: self.url + "/resume",
            token=token,
            heartbeat_ms=heartbeat_ms,
        )
        self.ctx = RestContext(
            self.state,
            self.faults,
            self.spec,
            token=token,
            base_url=lambda: self.api_base,
            gateway_url=lambda: self.gateway_url,
        )
        self._runner: web.AppRunner | None = None

    # -- lifecycle -------------------------------------------------------------------------------
    def _app(self) -> web.Application:
        app = web.Application(middlewares=[make_middleware(self.ctx)], client_max_size=64 << 20)
        app[STATE] = self.state
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/resume", self.gateway.handle)
        modules = (CoreRoutes(self.ctx), MessageRoutes(self.ctx), InteractionRoutes(self.ctx))
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
    ) -> FakeGuild:
        """A new guild (sent to a connected bot as GUILD_CREATE)."""
        return self.state.add_guild(
            name, owner=owner, channel=channel, locale=locale, bot_permissions=DEFAULT_PERMISSIONS
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
        """What fails a test at teardown: violations, unimplemented routes, crashes of the fake."""
        found = [str(v) for v in self.state.violations]
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
