"""Interaction callbacks (types 4-9) and the interaction webhook: follow-ups and ``@original``.

Discord's rules that the fake enforces (each answered with Discord's error):
- one callback per interaction (40060), within ``ack_deadline`` seconds (10062);
- the callback type must suit the interaction (8 only for autocomplete, 6/7 only for components
  or modals opened from a message, 9 not for autocomplete or a modal submit), recorded as a
  violation;
- follow-ups need an acknowledged interaction (10015); the first follow-up after a deferred
  message response fills in that response, as Discord documents.
"""

from __future__ import annotations

import asyncio
from typing import Any

from aiohttp import web

from tests.fakediscord.api import (
    DiscordError,
    body_of,
    files_of,
    invalid_form_body,
    json_response,
    no_content,
    unknown,
)
from tests.fakediscord.interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    COMPONENT,
    DEFERRED_MESSAGE,
    DEFERRED_UPDATE,
    MESSAGE,
    MODAL,
    MODAL_SUBMIT,
    UPDATE,
    InteractionHandle,
    legacy_interaction,
    metadata_for,
)
from tests.fakediscord.messages import FakeMessage
from tests.fakediscord.models import EPHEMERAL, LOADING
from tests.fakediscord.openapi import Violation
from tests.fakediscord.rest import RestContext, RouteTable
from tests.fakediscord.rest_messages import apply_attachments, attachments_from

ALLOWED = {
    APPLICATION_COMMAND: {MESSAGE, DEFERRED_MESSAGE, MODAL},
    COMPONENT: {MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE, MODAL},
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE},
}
CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
WEBHOOK = "/webhooks/{webhook_id}/{webhook_token}"


class InteractionRoutes:
    def __init__(self, ctx: RestContext) -> None:
        self.ctx = ctx
        self.state = ctx.state

    def routes(self) -> RouteTable:
        """The callback and ``@original``; the routes the interaction webhook shares with channel
        webhooks (a follow-up, a follow-up by id) are dispatched by ``rest_webhooks.py``."""
        original = WEBHOOK + "/messages/@original"
        return [
            ("POST", CALLBACK, self.callback),
            ("GET", original, self.get_message),
            ("PATCH", original, self.edit_message),
            ("DELETE", original, self.delete_message),
        ]

    # -- the callback -------------------------------------------------------------------------
    async def callback(self, request: web.Request) -> web.Response:
        handle = self.state.interactions.get(request.match_info["interaction_token"])
        if handle is None or str(handle.id) != request.match_info["interaction_id"]:
            raise unknown("interaction", 10062)
        if handle.acknowledged:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        if asyncio.get_running_loop().time() - handle.created > self.ctx.ack_deadline:
            raise unknown("interaction", 10062)  # too late: Discord has given up on it
        body = body_of(request) or {}
        kind, data = body.get("type"), body.get("data") or {}
        self._check_type(handle, kind)
        if kind == UPDATE and handle.source_message is not None:  # an edit of that message
            fault = self.ctx.faults.take_message("PATCH", handle.source_message.id)
            if fault is not None:  # refused: the interaction is still not acknowledged
                raise DiscordError(fault.status, fault.code, fault.message)
        handle.callback_type = kind
        if kind in (MESSAGE, DEFERRED_MESSAGE):
            flags = int(data.get("flags") or 0) | (LOADING if kind == DEFERRED_MESSAGE else 0)
            content = data if kind == MESSAGE else {}
            handle.original = self._send(handle, content, files_of(request), flags=flags)
        elif kind in (DEFERRED_UPDATE, UPDATE):
            handle.original = handle.source_message
            if handle.original is not None:
                handle.edits_at_ack = len(handle.original.history)
                if kind == UPDATE:
                    self._edit(handle.original, data, files_of(request))
        elif kind == AUTOCOMPLETE_RESULT:
            handle.choices = list(data.get("choices") or [])
        elif kind == MODAL:
            handle.modal = data
        self.state.notify()
        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return no_content()
        return json_response(self._callback_answer(handle))

    def _check_type(self, handle: InteractionHandle, kind: Any) -> None:
        allowed = set(ALLOWED.get(handle.type, set()))
        if handle.type == MODAL_SUBMIT and handle.source_message is None:
            allowed -= {DEFERRED_UPDATE, UPDATE}
        if kind not in allowed:
            message = f"callback type {kind} is not valid for interaction type {handle.type}"
            violation = Violation("POST", CALLBACK, "type", message, source="limit")
            self.state.record_violations([violation])
            raise invalid_form_body([violation])

    def _callback_answer(self, handle: InteractionHandle) -> dict[str, Any]:
        original = handle.original
        interaction: dict[str, Any] = {"id": str(handle.id), "type": handle.type}
        resource: dict[str, Any] = {"type": handle.callback_type}
        if original is not None and handle.callback_type in (MESSAGE, DEFERRED_MESSAGE, UPDATE):
            interaction |= {
                "response_message_id": str(original.id),
                "response_message_loading": original.loading,
                "response_message_ephemeral": original.ephemeral,
            }
            resource["message"] = original.payload()
        return {"interaction": interaction, "resource": resource}

    def _send(
        self, handle: InteractionHandle, body: dict[str, Any], files: list[Any], *, flags: int
    ) -> FakeMessage:
        is_reply = handle.type == APPLICATION_COMMAND
        attachments = attachments_from(self.state, self.ctx.base_url(), body, files)
        return self.state.create_message(
            handle.channel,
            body,
            ephemeral_to=handle.user if flags & EPHEMERAL else None,
            flags=flags,
            type=20 if is_reply else 0,
            attachments=attachments,
            interaction_metadata=metadata_for(handle),
            interaction=legacy_interaction(handle),
            application_id=self.state.application_id,
            webhook_id=self.state.application_id,
        )

    def _edit(self, message: FakeMessage, body: dict[str, Any], files: list[Any]) -> None:
        apply_attachments(self.state, self.ctx.base_url(), message, body, files)
        self.state.edit_message(message, body)

    # -- the webhook ---------------------------------------------------------------------------
    def _handle(self, request: web.Request) -> InteractionHandle:
        handle = self.state.interactions.get(request.match_info["webhook_token"])
        if handle is None or request.match_info["webhook_id"] != str(self.state.application_id):
            raise unknown("Webhook", 10015)
        if not handle.acknowledged:
            raise unknown("Webhook", 10015)  # no follow-ups before the interaction is answered
        return handle

    def _target(self, request: web.Request) -> tuple[InteractionHandle, FakeMessage]:
        handle = self._handle(request)
        if "message_id" not in request.match_info:
            message = handle.original
        else:
            wanted = int(request.match_info["message_id"])
            mine = [m for m in [handle.original, *handle.followups] if m is not None]
            message = next((m for m in mine if m.id == wanted), None)
        if message is None or message.deleted:
            raise unknown("Message", 10008)
        self.ctx.check_message_faults(request, message.id)
        return handle, message

    async def followup(self, request: web.Request) -> web.StreamResponse:
        handle = self._handle(request)
        body, files = body_of(request) or {}, files_of(request)
        original = handle.original
        if (
            handle.callback_type == DEFERRED_MESSAGE
            and original is not None
            and original.loading
            and not original.deleted  # deleted: a follow-up is a message of its own
        ):
            self._edit(original, body, files)  # the first follow-up fills the deferred response
            message = original
        else:
            flags = int(body.get("flags") or 0)
            message = self._send(handle, body, files, flags=flags)
            message.type = 0
        handle.followups.append(message)
        self.state.notify()
        if request.query.get("wait", "").lower() in ("1", "true"):
            return json_response(message.payload())
        return no_content()

    async def get_message(self, request: web.Request) -> web.Response:
        return json_response(self._target(request)[1].payload())

    async def edit_message(self, request: web.Request) -> web.Response:
        _, message = self._target(request)
        self._edit(message, body_of(request) or {}, files_of(request))
        return json_response(message.payload())

    async def delete_message(self, request: web.Request) -> web.Response:
        self.state.delete_message(self._target(request)[1])
        return no_content()
