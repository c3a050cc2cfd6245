"""Shared pieces of the REST side: JSON answers, Discord's error shape, request bodies."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from aiohttp import BodyPartReader, web

from tests.fakediscord.openapi import Violation

API_PREFIX = "/api/v10"


def json_response(
    data: Any, *, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """JSON with ``Content-Type: application/json`` exactly, as discord.py compares it."""
    all_headers = {"Content-Type": "application/json"} | (headers or {})
    return web.Response(body=json.dumps(data).encode(), status=status, headers=all_headers)


def no_content() -> web.Response:
    return web.Response(status=204)


class DiscordError(Exception):
    """An error answer in Discord's shape: ``{"code": ..., "message": ...}`` (plus ``errors``)."""

    def __init__(
        self, status: int, code: int, message: str, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def response(self) -> web.Response:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.errors is not None:
            body["errors"] = self.errors
        return json_response(body, status=self.status)


def unknown(what: str, code: int) -> DiscordError:
    return DiscordError(404, code, f"Unknown {what}")


def invalid_form_body(violations: list[Violation]) -> DiscordError:
    """A 400 naming every bad field in Discord's nested ``errors`` form."""
    errors: dict[str, Any] = {}
    for violation in violations:
        node = errors
        for part in filter(None, violation.field.split(".")):
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append(
            {"code": violation.code, "message": violation.message}
        )
    return DiscordError(400, 50035, "Invalid Form Body", errors)


@dataclass
class UploadedFile:
    index: int
    filename: str
    content_type: str
    data: bytes


@dataclass
class Body:
    """A request body: the JSON (or multipart ``payload_json``) and any uploaded files."""

    json: Any = None
    files: list[UploadedFile] = field(default_factory=list)


BODY: web.RequestKey[Body] = web.RequestKey("fakediscord-body", Body)


async def read_body(request: web.Request) -> Body:
    if not request.can_read_body:
        return Body()
    if request.content_type == "multipart/form-data":
        body = Body()
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, BodyPartReader):
                continue
            name = part.name or ""
            data = bytes(await part.read())
            if name == "payload_json":
                body.json = json.loads(data)
            elif name.startswith("files["):
                index = int(name[len("files[") : -1])
                content_type = part.headers.get("Content-Type", "application/octet-stream")
                body.files.append(UploadedFile(index, part.filename or name, content_type, data))
        return body
    text = await request.text()
    if not text:
        return Body()
    try:
        return Body(json.loads(text))
    except json.JSONDecodeError as exc:
        raise DiscordError(400, 50109, "The request body contains invalid JSON.") from exc


def body_of(request: web.Request) -> Any:
    return request[BODY].json


def files_of(request: web.Request) -> list[UploadedFile]:
    return request[BODY].files


def snowflake_arg(request: web.Request, name: str) -> int:
    try:
        return int(request.match_info[name])
    except ValueError as exc:
        raise DiscordError(
            400, 50035, "Invalid Form Body", {name: {"_errors": [{"code": "NUMBER_TYPE_COERCE"}]}}
        ) from exc
