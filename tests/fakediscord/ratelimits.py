"""Discord's REST rate limits, modelled for the fake. Off unless a test or a bench turns them on.

``fake.enable_rate_limits()`` (or ``FakeDiscord(rate_limits=RateLimits(...))``) checks every REST
request against two kinds of limit before the fake serves it:

- **the global limit**: ``global_per_second`` requests a second per bot (50 on Discord), counted in
  fixed windows of ``global_window`` seconds. The interaction endpoints are exempt: the callback
  (``POST /interactions/{id}/{token}/callback``) and the application's own webhook
  (``/webhooks/{application_id}/{token}...``: follow-ups and ``@original``), as on Discord;
- **per-route buckets** (:data:`DEFAULT_BUCKETS`), each a fixed window keyed by the route's major
  parameter (``channel_id``, or ``webhook_id`` + ``webhook_token``), the window starting at the
  bucket's first request, as Discord's do. Discord publishes few figures: those below are the ones
  people observe, each named so a test can change it (``buckets={"channel-messages": (5, 0.3)}``)
  or drop it (``buckets={"dm-open": None}``).

A refused request gets Discord's 429: the JSON body ``{"message", "retry_after", "global", "code"}``
and the headers ``Retry-After``, ``X-RateLimit-Limit / -Remaining / -Reset / -Reset-After /
-Bucket / -Scope`` (``X-RateLimit-Global: true`` and ``Scope: global`` on a global one) and
``Via`` (without it discord.py takes a 429 for a Cloudflare ban). An admitted request of a bucket
carries the bucket's real headers, which discord.py reads to wait *before* it runs out; with
``advertise=False`` those stay the fake's neutral placeholders, as for Discord's undisclosed
limits, and the client learns only from 429s. A refused request uses up no token.

:meth:`RateLimits.stats` counts what happened (:class:`RateLimitStats`).
"""

from __future__ import annotations

import hashlib
import math
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

Headers = dict[str, str]
Override = tuple[int, float] | None  # (limit, window seconds), or None to drop the bucket
_VIA = "1.1 google"  # discord.py ignores a 429 without ``Via`` as a Cloudflare ban
_PRUNE_AT = 4096  # bucket states kept before the expired ones are dropped


@dataclass(frozen=True)
class BucketRule:
    """One per-route limit: ``limit`` requests per ``window`` seconds per major parameter."""

    name: str
    routes: frozenset[str]  # "METHOD /template", as the fake's routes are written
    limit: int
    window: float
    major: tuple[str, ...] = ()  # path parameters that key the bucket; () is one per bot
    interaction: bool = False  # also limits the interaction endpoints (never the global limit)
    scope: str = "user"  # X-RateLimit-Scope of its 429: "user", or "shared" (a resource's limit)

    @cached_property
    def hash(self) -> str:
        """Its ``X-RateLimit-Bucket``: shared by every route of the rule, as on Discord."""
        return hashlib.md5(self.name.encode(), usedforsecurity=False).hexdigest()


_MESSAGE = "/channels/{channel_id}/messages/{message_id}"
_REACTIONS = _MESSAGE + "/reactions"
_WEBHOOK = "/webhooks/{webhook_id}/{webhook_token}"
DEFAULT_BUCKETS: tuple[BucketRule, ...] = (
    # Sends and edits in one channel share a bucket; people observe 5 per 5 s.
    BucketRule(
        "channel-messages",
        frozenset({"POST /channels/{channel_id}/messages", f"PATCH {_MESSAGE}"}),
        5,
        5.0,
        ("channel_id",),
    ),
    BucketRule("message-delete", frozenset({f"DELETE {_MESSAGE}"}), 5, 1.0, ("channel_id",)),
    # Reactions: one per 0.25 s per channel, adding and removing alike.
    BucketRule(
        "reactions",
        frozenset(
            {
                f"PUT {_REACTIONS}/{{emoji_name}}/@me",
                f"DELETE {_REACTIONS}/{{emoji_name}}/@me",
                f"DELETE {_REACTIONS}/{{emoji_name}}/{{user_id}}",
                f"DELETE {_REACTIONS}/{{emoji_name}}",
                f"DELETE {_REACTIONS}",
            }
        ),
        1,
        0.25,
        ("channel_id",),
    ),
    # Opening DMs: Discord publishes no figure (40003 "opening direct messages too fast"); a guess.
    BucketRule("dm-open", frozenset({"POST /users/@me/channels"}), 10, 1.0),
    # A webhook the bot made (an interaction's webhook is exempt): staff mention 5 per 2 s.
    BucketRule(
        "webhook",
        frozenset(
            {
                f"POST {_WEBHOOK}",
                f"PATCH {_WEBHOOK}/messages/{{message_id}}",
                f"DELETE {_WEBHOOK}/messages/{{message_id}}",
            }
        ),
        5,
        2.0,
        ("webhook_id", "webhook_token"),
    ),
)


@dataclass
class _Window:
    """A fixed window: ``limit`` requests until ``reset_at``, which the first request sets."""

    limit: int
    length: float
    used: int = 0
    reset_at: float = -math.inf

    def roll(self, now: float) -> None:
        if now >= self.reset_at:
            self.used, self.reset_at = 0, now + self.length

    def full(self) -> bool:
        return self.used >= self.limit

    def reset_after(self, now: float) -> float:
        """Seconds until the window resets, rounded up to the millisecond (never early)."""
        return max(0.001, math.ceil((self.reset_at - now) * 1000) / 1000)


@dataclass
class RateLimitStats:
    """What the model saw while it was on. ``fake.rate_limit_stats()`` returns a copy.

    - ``requests``: every request checked; ``exempt`` of them were interaction endpoints;
    - ``global_counted``: requests admitted against the global limit;
    - ``global_429`` / ``route_429``: 429s sent for the global limit / for a route bucket;
    - ``by_bucket``: requests per bucket name (admitted or refused);
      ``route_429_by_bucket``: the route 429s per bucket name;
    - ``peak_global_window``: the most requests admitted in one global window;
    - ``invalid``: answers of 401, 403 or 429 (not ``shared``) of any origin, the fake's faults
      included: Discord bans a bot for a while past 10,000 in 10 minutes.
    """

    requests: int = 0
    exempt: int = 0
    global_counted: int = 0
    global_429: int = 0
    route_429: int = 0
    peak_global_window: int = 0
    invalid: int = 0
    by_bucket: Counter[str] = field(default_factory=Counter)
    route_429_by_bucket: Counter[str] = field(default_factory=Counter)

    @property
    def total_429(self) -> int:
        return self.global_429 + self.route_429

    def copy(self) -> RateLimitStats:
        return replace(
            self,
            by_bucket=Counter(self.by_bucket),
            route_429_by_bucket=Counter(self.route_429_by_bucket),
        )

    def __sub__(self, earlier: RateLimitStats) -> RateLimitStats:
        """The counts since ``earlier`` (``peak_global_window`` stays the later peak)."""
        return RateLimitStats(
            requests=self.requests - earlier.requests,
            exempt=self.exempt - earlier.exempt,
            global_counted=self.global_counted - earlier.global_counted,
            global_429=self.global_429 - earlier.global_429,
            route_429=self.route_429 - earlier.route_429,
            peak_global_window=self.peak_global_window,
            invalid=self.invalid - earlier.invalid,
            by_bucket=self.by_bucket - earlier.by_bucket,
            route_429_by_bucket=self.route_429_by_bucket - earlier.route_429_by_bucket,
        )

    def as_dict(self) -> dict[str, Any]:
        """Plain values (for a bench's JSON), ``total_429`` included."""
        return {
            "requests": self.requests,
            "exempt": self.exempt,
            "global_counted": self.global_counted,
            "global_429": self.global_429,
            "route_429": self.route_429,
            "total_429": self.total_429,
            "peak_global_window": self.peak_global_window,
            "invalid": self.invalid,
            "by_bucket": dict(self.by_bucket),
            "route_429_by_bucket": dict(self.route_429_by_bucket),
        }


@dataclass
class Admission:
    """The verdict on one request: the headers of an admitted one (None: the placeholders), or
    the body and headers of its 429."""

    headers: Headers | None = None
    refusal: tuple[dict[str, Any], Headers] | None = None


def _rules(
    rules: Iterable[BucketRule], overrides: Mapping[str, Override] | None
) -> dict[str, BucketRule]:
    by_route: dict[str, BucketRule] = {}
    chosen = {rule.name: rule for rule in rules}
    for name, override in (overrides or {}).items():
        if name not in chosen:
            raise KeyError(f"no rate-limit bucket {name!r}; there are {sorted(chosen)}")
        if override is None:
            del chosen[name]
        else:
            chosen[name] = replace(chosen[name], limit=override[0], window=override[1])
    for rule in chosen.values():
        by_route.update(dict.fromkeys(rule.routes, rule))
    return by_route


class RateLimits:
    """The global limit and the per-route buckets (see the module docstring)."""

    def __init__(
        self,
        *,
        global_per_second: float = 50,
        global_window: float = 1.0,
        buckets: Mapping[str, Override] | None = None,
        rules: Iterable[BucketRule] = DEFAULT_BUCKETS,
        advertise: bool = True,
        clock: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        self.global_limit = max(1, round(global_per_second * global_window))
        self._global = _Window(self.global_limit, global_window)
        self._by_route = _rules(rules, buckets)
        self._buckets: dict[tuple[str, tuple[str, ...]], _Window] = {}
        self._prune_at = _PRUNE_AT
        self.advertise = advertise
        self._clock, self._wall = clock, wall_clock
        self._stats = RateLimitStats()

    def rule_for(self, method: str, template: str | None) -> BucketRule | None:
        return None if template is None else self._by_route.get(f"{method} {template}")

    def admit(
        self, method: str, template: str | None, params: Mapping[str, str], *, interaction: bool
    ) -> Admission:
        """Check one request (``params``: its path parameters) and count it if admitted."""
        now = self._clock()
        stats = self._stats
        stats.requests += 1
        stats.exempt += int(interaction)
        rule = self.rule_for(method, template)
        if rule is not None and interaction and not rule.interaction:
            rule = None
        window = None if rule is None else self._window(rule, params, now)
        if rule is not None and window is not None:
            stats.by_bucket[rule.name] += 1
            if window.full():
                stats.route_429 += 1
                stats.route_429_by_bucket[rule.name] += 1
                return Admission(refusal=self._route_refusal(rule, window, now))
        if not interaction:
            self._global.roll(now)
            if self._global.full():
                stats.global_429 += 1
                return Admission(refusal=self._global_refusal(now))
            self._global.used += 1
            stats.global_counted += 1
            stats.peak_global_window = max(stats.peak_global_window, self._global.used)
        if rule is None or window is None:
            return Admission()
        window.used += 1
        return Admission(headers=self._headers(rule, window, now) if self.advertise else None)

    def answered(self, status: int, scope: str | None) -> None:
        """Count an answer Discord counts as invalid (401, 403, a 429 not ``shared``)."""
        if status in (401, 403) or (status == 429 and scope != "shared"):
            self._stats.invalid += 1

    def stats(self) -> RateLimitStats:
        return self._stats.copy()

    # -- inside ------------------------------------------------------------------------------------
    def _window(self, rule: BucketRule, params: Mapping[str, str], now: float) -> _Window:
        key = (rule.name, tuple(params.get(name, "") for name in rule.major))
        window = self._buckets.get(key)
        if window is None:
            if len(self._buckets) >= self._prune_at:  # drop the expired, now and then
                self._buckets = {k: w for k, w in self._buckets.items() if w.reset_at > now}
                self._prune_at = max(_PRUNE_AT, 2 * len(self._buckets))
            window = self._buckets[key] = _Window(rule.limit, rule.window)
        window.roll(now)
        return window

    def _headers(self, rule: BucketRule, window: _Window, now: float) -> Headers:
        after = window.reset_after(now)
        return {
            "X-RateLimit-Limit": str(window.limit),
            "X-RateLimit-Remaining": str(max(0, window.limit - window.used)),
            "X-RateLimit-Reset": f"{self._wall() + after:.3f}",
            "X-RateLimit-Reset-After": f"{after:.3f}",
            "X-RateLimit-Bucket": rule.hash,
        }

    def _route_refusal(
        self, rule: BucketRule, window: _Window, now: float
    ) -> tuple[dict[str, Any], Headers]:
        after = window.reset_after(now)
        headers = self._headers(rule, window, now) | {
            "Retry-After": str(math.ceil(after)),
            "X-RateLimit-Scope": rule.scope,
            "Via": _VIA,
        }
        return _body(after, is_global=False), headers

    def _global_refusal(self, now: float) -> tuple[dict[str, Any], Headers]:
        after = self._global.reset_after(now)
        headers = {
            "Retry-After": str(math.ceil(after)),
            "X-RateLimit-Global": "true",
            "X-RateLimit-Scope": "global",
            "Via": _VIA,
        }
        return _body(after, is_global=True), headers


def _body(retry_after: float, *, is_global: bool) -> dict[str, Any]:
    return {
        "message": "You are being rate limited.",
        "retry_after": retry_after,
        "global": is_global,
        "code": 0,
    }
