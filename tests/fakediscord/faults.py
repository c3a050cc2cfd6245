"""Faults a test asks for: rate limits, slow answers, errors, on the next matching requests.

Route faults match a method and a path template; message faults match requests that reach one
message, by whichever route (a channel message route or the interaction webhook's). Holds (the
crash point) are in ``crash.py``; they are route faults too.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

RouteSpec = str  # "POST /channels/{channel_id}/messages", "* /users/@me/channels" or "/gateway"
ERROR_MESSAGES = {
    10003: "Unknown Channel",
    10008: "Unknown Message",
    50001: "Missing Access",
    50013: "Missing Permissions",
}


def parse_route(route: RouteSpec) -> tuple[str, str]:
    method, _, template = route.strip().rpartition(" ")
    return (method.upper() or "*"), template


@dataclass
class Fault:
    method: str
    template: str
    count: int
    kind: str  # "rate_limit", "slow" or "error"
    seconds: float = 0.0
    is_global: bool = False
    status: int = 0
    code: int = 0
    message: str = ""
    hits: int = 0

    def matches(self, method: str, template: str | None) -> bool:
        return self.method in ("*", method) and self.template == template

    def rate_limit_response(self) -> tuple[dict[str, Any], dict[str, str]]:
        """The body and headers of a 429 as Discord sends it (discord.py needs ``Via``)."""
        body = {
            "message": "You are being rate limited.",
            "retry_after": self.seconds,
            "global": self.is_global,
            "code": 0,
        }
        headers = {
            "Retry-After": str(max(1, math.ceil(self.seconds))),
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": f"{time.time() + self.seconds:.3f}",
            "X-RateLimit-Reset-After": f"{self.seconds:.3f}",
            "X-RateLimit-Bucket": "fakediscord-limited",
            "X-RateLimit-Scope": "global" if self.is_global else "user",
            "Via": "1.1 google",
        }
        if self.is_global:
            headers["X-RateLimit-Global"] = "true"
        return body, headers


@dataclass
class MessageFault:
    """Requests that reach one message fail with this Discord error, ``count`` times."""

    message_id: int
    methods: frozenset[str]
    count: int
    status: int
    code: int
    message: str
    hits: int = 0


class Faults:
    def __init__(self) -> None:
        self.rules: list[Fault] = []
        self.messages: list[MessageFault] = []

    def add(self, route: RouteSpec, kind: str, count: int, **details: Any) -> Fault:
        method, template = parse_route(route)
        fault = Fault(method, template, count, kind, **details)
        self.rules.append(fault)
        return fault

    def take(self, method: str, template: str | None) -> list[Fault]:
        """The faults that apply to this request, each used up once."""
        taken = []
        for fault in self.rules:
            if fault.count > 0 and fault.matches(method, template):
                fault.count -= 1
                fault.hits += 1
                taken.append(fault)
        self.rules = [fault for fault in self.rules if fault.count > 0]
        return taken

    def add_message(
        self, message_id: int, methods: tuple[str, ...], count: int, **error: Any
    ) -> MessageFault:
        """``error``: the ``status``, ``code`` and ``message`` of the answer."""
        wanted = frozenset(method.upper() for method in methods)
        fault = MessageFault(message_id, wanted, count, **error)
        self.messages.append(fault)
        return fault

    def take_message(self, method: str, message_id: int) -> MessageFault | None:
        """The first fault for this request about ``message_id``, used up once."""
        for fault in self.messages:
            if fault.count > 0 and fault.message_id == message_id and method in fault.methods:
                fault.count -= 1
                fault.hits += 1
                self.messages = [f for f in self.messages if f.count > 0]
                return fault
        return None
