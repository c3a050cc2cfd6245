"""The REST API: one middleware for auth, faults and validation, and the simple routes.

Message routes are in ``rest_messages.py`` and interaction routes in ``rest_interactions.py``.
Every route is written with the OpenAPI description's path template (``{channel_id}``...), so that
faults and validation name routes the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import time
import traceback
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from aiohttp import web

from tests.fakediscord.api import (
    API_PREFIX,
    BODY,
    DiscordError,
    body_of,
    invalid_form_body,
    json_response,
    read_body,
    snowflake_arg,
    unknown,
)
from tests.fakediscord.checks import (
    attachment_problems,
    component_emoji_problems,
    message_body,
    target_message,
    text_emoji_warnings,
)
from tests.fakediscord.crash import Credentials, Hold, withhold
from tests.fakediscord.faults import Faults
from tests.fakediscord.limits import check_limits
from tests.fakediscord.models import FakeGuild
from tests.fakediscord.openapi import SpecValidator, Violation
from tests.fakediscord.ratelimits import RateLimits
from tests.fakediscord.state import FakeState, RequestRecord
from tests.fakediscord.stats import INTERACTION, classify

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
RouteTable = list[tuple[str, str, Handler]]
STATE: web.AppKey[FakeState] = web.AppKey("fakediscord-state", FakeState)
RECORD: web.RequestKey[RequestRecord] = web.RequestKey("fakediscord-record", RequestRecord)
LIMIT_HEADERS: web.RequestKey[dict[str, str]] = web.RequestKey("fakediscord-limit-headers", dict)


class RestContext:
    """What every route module needs: the state, faults, the spec, the bot's credentials and how
    to reach the fake."""

    def __init__(
        self,
        state: FakeState,
        faults: Faults,
        spec: SpecValidator | None,
        *,
        credentials: Credentials,
        base_url: Callable[[], str],
        gateway_url: Callable[[], str],
    ) -> None:
        self.state, self.faults, self.spec = state, faults, spec
        self.credentials = credentials
        self.base_url, self.gateway_url = base_url, gateway_url
        self.ack_deadline = 3.0  # seconds Discord waits for an interaction's first response
        self.rate_limits: RateLimits | None = None  # Discord's rate limits, when turned on
        self.recommended_shards = 1  # what GET /gateway/bot answers

    def guild(self, request: web.Request) -> FakeGuild:
        guild = self.state.guilds.get(snowflake_arg(request, "guild_id"))
        if guild is None:
            raise unknown("Guild", 10004)
        return guild

    def check_message_faults(self, request: web.Request, message_id: int) -> None:
        """Raise the error of a ``fake.fail_message`` fault for this request, if one applies."""
        fault = self.faults.take_message(request.method, message_id)
        if fault is not None:
            raise DiscordError(fault.status, fault.code, fault.message)


def _ratelimit_headers(template: str | None) -> dict[str, str]:
    bucket = hashlib.sha1((template or "").encode()).hexdigest()[:16]
    return {
        "X-RateLimit-Limit": "50",
        "X-RateLimit-Remaining": "49",
        "X-RateLimit-Reset": f"{time.time() + 1:.3f}",
        "X-RateLimit-Reset-After": "1.000",
        "X-RateLimit-Bucket": bucket,
    }


def needs_bot_token(path: str) -> bool:
    """Interaction callbacks and a webhook's token routes (``/webhooks/{id}/{token}...``) need
    no ``Authorization``; ``/webhooks/{id}`` and everything else do."""
    parts = path.split("/")
    return not (parts[1] == "interactions" or (parts[1] == "webhooks" and len(parts) > 3))


def make_middleware(ctx: RestContext) -> Any:
    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        if not request.path.startswith(API_PREFIX + "/"):
            return await handler(request)
        path = request.path[len(API_PREFIX) :]
        canonical = request.match_info.route.resource.canonical  # type: ignore[union-attr]
        template = canonical[len(API_PREFIX) :] if "{tail" not in canonical else None
        record = RequestRecord(request.method, path, template, None)
        ctx.state.requests.append(record)
        request[RECORD] = record
        try:
            response = await _serve(ctx, request, handler, record)
        except DiscordError as error:
            response = error.response()
        except Exception as error:  # a bug in the fake: a 4xx (5xx are retried slowly), and fail
            ctx.state.crashes.append(f"{request.method} {path}: {traceback.format_exc()}")
            response = DiscordError(400, 0, f"fakediscord crashed: {error!r}").response()
        record.status = 0 if record.held else response.status
        if ctx.rate_limits is not None:
            ctx.rate_limits.answered(response.status, response.headers.get("X-RateLimit-Scope"))
        if response.status != 429:
            limit_headers = request.get(LIMIT_HEADERS) or _ratelimit_headers(template)
            for key, value in limit_headers.items():
                response.headers.setdefault(key, value)
        ctx.state.notify()
        return response

    return middleware


async def _serve(
    ctx: RestContext, request: web.Request, handler: Handler, record: RequestRecord
) -> web.StreamResponse:
    frozen = ctx.credentials.catches(request)
    authorised = request.headers.get("Authorization") == f"Bot {ctx.credentials.token}"
    if needs_bot_token(record.path) and not (frozen or authorised):
        raise DiscordError(401, 0, "401: Unauthorized")
    body = await read_body(request)
    request[BODY] = body
    record.body, record.files = body.json, [f.filename for f in body.files]
    if frozen:  # a killed bot's request: it hangs until the fake closes
        record.held = True
        ctx.state.notify()
        return await withhold(request, ctx.credentials.closed)
    if ctx.rate_limits is not None:
        interaction = classify(record, ctx.state.application_id) == INTERACTION
        params = request.match_info
        admission = ctx.rate_limits.admit(
            request.method, record.template, params, interaction=interaction
        )
        if admission.refusal is not None:
            payload, headers = admission.refusal
            return json_response(payload, status=429, headers=headers)
        if admission.headers is not None:
            request[LIMIT_HEADERS] = admission.headers
    hold: Hold | None = None
    for fault in ctx.faults.take(request.method, record.template):
        if isinstance(fault, Hold):
            hold = fault
        elif fault.kind == "slow":
            await asyncio.sleep(fault.seconds)
        elif fault.kind == "rate_limit":
            payload, headers = fault.rate_limit_response()
            return json_response(payload, status=429, headers=headers)
        elif fault.kind == "error":
            raise DiscordError(fault.status, fault.code, fault.message)
    violations = validate(
        ctx, request.method, record.path, record.template, body.json, request.match_info, record
    )
    if violations:
        ctx.state.record_violations(violations)
        if hold is None:
            raise invalid_form_body(violations)
    if hold is None:
        return await handler(request)
    if hold.applied and not violations:
        with contextlib.suppress(DiscordError):  # an error answer is withheld like any other
            await handler(request)
    hold.catch(record)
    ctx.state.notify()
    return await withhold(request, hold.released, ctx.credentials.closed)


def validate(
    ctx: RestContext,
    method: str,
    path: str,
    template: str | None,
    body: Any,
    params: Mapping[str, str],
    record: RequestRecord,
) -> list[Violation]:
    """The spec's verdict (when the spec is there), the extra limits from limits.py and the checks
    that need the fake's state (checks.py); text emoji warnings go to ``state.emoji_warnings``."""
    if body is None:
        return []
    violations = ctx.spec.validate(method, path, body) if ctx.spec is not None else []
    if template is None:
        return violations
    target = target_message(ctx.state, method, template, params, body)
    problems = check_limits(method, template, body, was_v2=bool(target and target.components_v2))
    sent = message_body(method, template, body)
    if sent is not None:
        message, prefix = sent
        problems += component_emoji_problems(ctx.state, message, prefix)
        problems += attachment_problems(message, prefix, record.files, target)
        for emoji in text_emoji_warnings(ctx.state, message):
            ctx.state.emoji_warnings.append(f"{method} {path}: {emoji} is no emoji the bot has")
    for field, message_text in problems:
        violations.append(Violation(method, template, field, message_text, source="limit"))
    return violations


class CoreRoutes:
    def __init__(self, ctx: RestContext) -> None:
        self.ctx = ctx
        self.state = ctx.state

    def routes(self) -> RouteTable:
        commands = "/applications/{application_id}/commands"
        guild_commands = "/applications/{application_id}/guilds/{guild_id}/commands"
        return [
            ("GET", "/users/@me", self.me),
            ("GET", "/users/{user_id}", self.user),
            ("GET", "/oauth2/applications/@me", self.application),
            ("GET", "/gateway", self.gateway),
            ("GET", "/gateway/bot", self.gateway_bot),
            ("GET", commands, self.get_commands),
            ("PUT", commands, self.put_commands),
            ("GET", guild_commands, self.get_commands),
            ("PUT", guild_commands, self.put_commands),
            ("GET", "/guilds/{guild_id}", self.get_guild),
            ("GET", "/guilds/{guild_id}/channels", self.guild_channels),
            ("GET", "/guilds/{guild_id}/roles", self.guild_roles),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self.guild_member),
            ("GET", "/channels/{channel_id}", self.get_channel),
        ]

    async def me(self, request: web.Request) -> web.Response:
        user = self.state.bot_user.payload()
        return json_response(user | {"verified": True, "mfa_enabled": False, "email": None})

    async def user(self, request: web.Request) -> web.Response:
        user = self.state.users.get(snowflake_arg(request, "user_id"))
        if user is None:
            raise unknown("User", 10013)
        return json_response(user.payload())

    async def application(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "id": str(self.state.application_id),
                "name": self.state.bot_user.name,
                "icon": None,
                "description": "Tavern games (fake Discord)",
                "summary": "",
                "type": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": 0,
                "owner": self.state.owner.payload(),
                "team": None,
                "bot": self.state.bot_user.payload(),
                "rpc_origins": [],
                "tags": [],
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "integration_types_config": {"0": {}},
            }
        )

    async def gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.ctx.gateway_url()})

    async def gateway_bot(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return json_response(
            {
                "url": self.ctx.gateway_url(),
                "shards": self.ctx.recommended_shards,
                "session_start_limit": limit,
            }
        )

    def _scope(self, request: web.Request) -> int | None:
        if snowflake_arg(request, "application_id") != self.state.application_id:
            raise unknown("Application", 10002)
        return self.ctx.guild(request).id if "guild_id" in request.match_info else None

    async def get_commands(self, request: web.Request) -> web.Response:
        guild_id = self._scope(request)
        if guild_id is None:
            return json_response(self.state.global_commands)
        return json_response(self.state.guild_commands.get(guild_id, []))

    async def put_commands(self, request: web.Request) -> web.Response:
        guild_id = self._scope(request)
        return json_response(self.state.store_commands(guild_id, body_of(request) or []))

    async def get_guild(self, request: web.Request) -> web.Response:
        payload = self.ctx.guild(request).payload()
        for key in ("channels", "members", "threads", "voice_states", "presences", "joined_at"):
            payload.pop(key, None)
        return json_response(payload)

    async def guild_channels(self, request: web.Request) -> web.Response:
        guild = self.ctx.guild(request)
        return json_response([channel.payload() for channel in guild.channels.values()])

    async def guild_roles(self, request: web.Request) -> web.Response:
        return json_response([role.payload() for role in self.ctx.guild(request).roles.values()])

    async def guild_member(self, request: web.Request) -> web.Response:
        guild = self.ctx.guild(request)
        member = guild.members.get(snowflake_arg(request, "user_id"))
        if member is None:
            raise unknown("Member", 10007)
        return json_response(member.payload())

    async def get_channel(self, request: web.Request) -> web.Response:
        channel = self.state.channels.get(snowflake_arg(request, "channel_id"))
        if channel is None:
            raise unknown("Channel", 10003)
        return json_response(channel.payload())


async def not_implemented(request: web.Request) -> web.Response:
    """Any route the fake does not know: a 404, and a note that fails the test at teardown."""
    state = request.app[STATE]
    state.unsupported.append(f"{request.method} {request.path[len(API_PREFIX) :]}")
    raise DiscordError(404, 0, "404: Not Found (the fake does not implement this route)")
