"""REST requests counted by Discord's rate-limit classes, for benchmarks.

- ``interaction``: the interaction callback and the interaction webhook (follow-ups, the
  original response), which Discord exempts from the global limit of 50 requests per second;
- ``setup``: what a bot does once when it starts (the gateway URL, who it is, the command sync);
- ``limited``: everything else, which counts against the global limit.

Every request the fake saw counts, whatever its answer: a 429, an error, a held request.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from tests.fakediscord.state import RequestRecord

INTERACTION, LIMITED, SETUP = "interaction", "limited", "setup"
CLASSES = (INTERACTION, LIMITED, SETUP)
CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
WEBHOOK = "/webhooks/{webhook_id}/{webhook_token}"
SETUP_ROUTES = {
    "GET /gateway",
    "GET /gateway/bot",
    "GET /users/@me",
    "GET /applications/@me",
    "GET /oauth2/applications/@me",
}
COMMANDS = ("/applications/{application_id}/commands", "/applications/{application_id}/guilds/")


def route_of(record: RequestRecord) -> str:
    """``"METHOD /template"`` (the raw path for a route the fake does not implement)."""
    return f"{record.method} {record.template or record.path}"


def classify(record: RequestRecord, application_id: int) -> str:
    template = record.template or ""
    if template == CALLBACK:
        return INTERACTION
    if template.startswith(WEBHOOK) and record.path.split("/")[2] == str(application_id):
        return INTERACTION  # only the application's own webhook is an interaction's
    if route_of(record) in SETUP_ROUTES:
        return SETUP
    is_commands = template.startswith(COMMANDS) and template.endswith("/commands")
    if record.method in ("GET", "PUT") and is_commands:
        return SETUP
    return LIMITED


@dataclass
class RequestStats:
    """Counts per class (``stats.limited``...) and per ``"METHOD /template"`` in each class."""

    routes: dict[str, Counter[str]] = field(default_factory=lambda: {c: Counter() for c in CLASSES})

    @classmethod
    def of(cls, records: Iterable[RequestRecord], application_id: int) -> RequestStats:
        stats = cls()
        for record in records:
            stats.routes[classify(record, application_id)][route_of(record)] += 1
        return stats

    @property
    def interaction(self) -> int:
        return self.routes[INTERACTION].total()

    @property
    def limited(self) -> int:
        return self.routes[LIMITED].total()

    @property
    def setup(self) -> int:
        return self.routes[SETUP].total()

    @property
    def total(self) -> int:
        return self.interaction + self.limited + self.setup

    @property
    def by_route(self) -> Counter[str]:
        """Every route's count, whatever its class."""
        merged: Counter[str] = Counter()
        for counts in self.routes.values():
            merged.update(counts)
        return merged

    def __str__(self) -> str:
        lines = []
        for kind in CLASSES:
            lines.append(f"{kind}: {self.routes[kind].total()}")
            lines += [f"  {n:6d} {route}" for route, n in self.routes[kind].most_common()]
        return "\n".join(lines)
