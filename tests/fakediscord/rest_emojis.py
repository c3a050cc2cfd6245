"""Application emoji routes: list, create, fetch, rename and delete the bot's own emojis.

Discord's rules that the fake enforces: the name (2-32 of ``[A-Za-z0-9_]``) and the image (a
``data:`` URI of PNG, JPEG, GIF or WebP, at most 256 KiB) are checked as limits (``limits.py``);
a name already taken is a 400/50035 naming ``name``, and the 2001st emoji a 400/30008. With
``fake.refuse_emoji_uploads`` every upload gets 403/50013, for the bot's fallback to Unicode.
"""

from __future__ import annotations

import base64

from aiohttp import web

from tests.fakediscord.api import (
    DiscordError,
    body_of,
    json_response,
    no_content,
    snowflake_arg,
    unknown,
)
from tests.fakediscord.emojis import FakeEmoji
from tests.fakediscord.limits import EMOJI_IMAGE, MAX_APPLICATION_EMOJIS
from tests.fakediscord.rest import RestContext, RouteTable

EMOJIS = "/applications/{application_id}/emojis"


def _name_taken() -> DiscordError:
    error = {"code": "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "message": "Name already taken"}
    return DiscordError(400, 50035, "Invalid Form Body", {"name": {"_errors": [error]}})


class EmojiRoutes:
    def __init__(self, ctx: RestContext) -> None:
        self.ctx = ctx
        self.state = ctx.state

    def routes(self) -> RouteTable:
        one = EMOJIS + "/{emoji_id}"
        return [
            ("GET", EMOJIS, self.list),
            ("POST", EMOJIS, self.create),
            ("GET", one, self.get),
            ("PATCH", one, self.edit),
            ("DELETE", one, self.delete),
        ]

    def _application(self, request: web.Request) -> None:
        if snowflake_arg(request, "application_id") != self.state.application_id:
            raise unknown("Application", 10002)

    def _emoji(self, request: web.Request) -> FakeEmoji:
        self._application(request)
        emoji = self.state.emojis.get(snowflake_arg(request, "emoji_id"))
        if emoji is None:
            raise unknown("Emoji", 10014)
        return emoji

    def _check_name(self, name: str, emoji: FakeEmoji | None = None) -> None:
        if any(e.name == name and e is not emoji for e in self.state.emojis.values()):
            raise _name_taken()

    async def list(self, request: web.Request) -> web.Response:
        self._application(request)
        return json_response({"items": [e.payload() for e in self.state.emojis.values()]})

    async def create(self, request: web.Request) -> web.Response:
        self._application(request)
        if self.state.refuse_emoji_uploads:
            raise DiscordError(403, 50013, "Missing Permissions")
        body = body_of(request) or {}
        name, match = str(body.get("name") or ""), EMOJI_IMAGE.fullmatch(str(body.get("image")))
        assert match is not None  # the limits refused any other image before this handler
        self._check_name(name)
        if len(self.state.emojis) >= MAX_APPLICATION_EMOJIS:
            raise DiscordError(400, 30008, "Maximum number of emojis reached (2000)")
        image = base64.b64decode(match["data"])
        emoji = FakeEmoji(
            self.state.snowflake(), name, image, f"image/{match['type']}", self.state.bot_user
        )
        self.state.emojis[emoji.id] = emoji
        self.state.notify()
        return json_response(emoji.payload())

    async def get(self, request: web.Request) -> web.Response:
        return json_response(self._emoji(request).payload())

    async def edit(self, request: web.Request) -> web.Response:
        emoji = self._emoji(request)
        name = (body_of(request) or {}).get("name")
        if name is not None:
            self._check_name(str(name), emoji)
            emoji.name = str(name)
        self.state.notify()
        return json_response(emoji.payload())

    async def delete(self, request: web.Request) -> web.Response:
        del self.state.emojis[self._emoji(request).id]
        self.state.notify()
        return no_content()
