"""The report of ``bench/load.py``: one phase's figures (a bot, echo or the floor at one table
count) and the lines that compare them."""

from __future__ import annotations

import argparse
import contextlib
import gc
import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from bench.load_support import STUCK_SECONDS
from tests.fakediscord.stats import WEBHOOK, RequestStats


class Pauses:
    """The garbage collector's pauses in the bench's own process (the fake and the players):
    a long one delays every bot's answers alike, and is not the bot's."""

    def __init__(self) -> None:
        self.seen: list[tuple[float, float]] = []  # (when it began, seconds), loop clock
        self._began = 0.0
        gc.callbacks.append(self._timer)

    def _timer(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.monotonic()
        else:
            self.seen.append((self._began, time.monotonic() - self._began))

    def between(self, start: float, end: float) -> tuple[int, float]:
        """How many pauses over 50 ms began in the window, and the longest one's ms."""
        inside = [s for at, s in self.seen if start <= at < end]
        return sum(1 for s in inside if s > 0.05), max(inside, default=0.0) * 1000


PAUSES = Pauses()


@contextlib.contextmanager
def collector_held() -> Iterator[None]:
    """No garbage collection in the bench's own process while a phase runs: with the fake's
    records of every request, a full collection there paused 0.5 to 1.8 s, and every answer
    of the bot measured through it waited as long (``Pauses`` showed it). Collected after."""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()
        gc.collect()


def ratio(a: float, b: float) -> float:
    return a / b if b else float("nan")


def percentiles(values: list[float]) -> tuple[float, float, float]:
    if len(values) < 2:
        return (values[0],) * 3 if values else (float("nan"),) * 3
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return statistics.median(values), cuts[94], cuts[98]


@dataclass
class Phase:
    """One bot (or echo) at one table count: its samples in the window and its costs."""

    kind: str
    tables: int
    seconds: float = 0.0
    acks: dict[str, list[float]] = field(default_factory=dict)
    updates: list[float] = field(default_factory=list)
    update_by: dict[str, list[float]] = field(default_factory=dict)
    """The table updates by the handler of the move."""
    ack_split: list[tuple[float, float, float]] = field(default_factory=list)
    """Each acknowledgement's three legs (ms): sent until the bot parsed it from the gateway,
    until the bot started to answer it, until the fake saw the answer."""
    moves: int = 0
    interactions: int = 0
    cpu: float = 0.0
    loop_cpu: float = 0.0
    gc_cpu: float = 0.0
    gc_runs: int = 0
    dm_posts: int = 0
    fake_cpu: float = 0.0
    statements: int = 0
    control: int = 0
    commits: int = 0
    stats: RequestStats = field(default_factory=RequestStats)
    throttled: int = 0
    limits: str = ""
    stuck: int = 0
    pauses: tuple[int, float] = (0, 0.0)
    """The bench process's collector pauses over 50 ms in the window, and the longest (ms)."""
    failures: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    board: dict[str, Any] | None = None
    """A table message the bot drew (``bench.load.board_sample``), for the floor's edits."""

    def traffic(self) -> dict[str, Any]:
        """The floor's ``mix`` (``bench/load_bot.py``): this bot's board, and its follow-ups
        and rate-limited requests an interaction."""
        follow_ups = self.stats.routes["interaction"][f"POST {WEBHOOK}"]
        return {
            **(self.board or {}),
            "follow_ups": ratio(follow_ups, self.interactions),
            "posts": ratio(self.stats.limited, self.interactions),
        }

    @property
    def all_acks(self) -> list[float]:
        return [v for values in self.acks.values() for v in values]

    def per_move(self, value: float) -> float:
        return value / self.moves if self.moves else float("nan")


def ms(values: tuple[float, float, float]) -> str:
    return " / ".join(f"{v:,.1f}" for v in values)


def report(pairs: list[tuple[Phase, Phase, Phase]], args: argparse.Namespace) -> None:
    print(
        f"\n{'tables':>6}  {'what':<16} {'Szulernia p50 / p95 / p99 ms':>30}  "
        f"{'echo p50 / p95 / p99 ms':>26}  {'ratio p50 / p99':>15}"
    )
    for bot, echo, _ in pairs:
        for what, mine, theirs in (
            ("acknowledgement", bot.all_acks, echo.all_acks),
            ("table update", bot.updates, echo.updates),
        ):
            b, e = percentiles(mine), percentiles(theirs)
            print(
                f"{bot.tables:>6}  {what:<16} {ms(b):>30}  {ms(e):>26}  "
                f"{ratio(b[0], e[0]):>6.1f}x / {ratio(b[2], e[2]):.1f}x"
            )
    for bot, echo, floor in pairs:
        bot_rate, echo_rate = (
            ratio(bot.interactions, bot.seconds),
            ratio(echo.interactions, echo.seconds),
        )
        s = bot.stats
        print(
            f"\n{bot.tables} tables, {bot.seconds:.1f} s window: Szulernia {bot_rate:,.0f} "
            f"interactions/s ({ratio(bot.moves, bot.seconds):,.1f} moves/s, {bot.moves} moves); "
            f"echo {echo_rate:,.0f} interactions/s; ratio {ratio(bot_rate, echo_rate):.2f}"
        )
        floor_line(bot, echo, floor)
        split_line(bot, echo, floor)
        print(
            "  the bench's own process (the fake, the players): collector pauses over 50 ms in "
            + ", ".join(
                f"{p.kind}'s window {p.pauses[0]} (longest {p.pauses[1]:,.0f} ms)"
                for p in (bot, echo, floor)
            )
        )
        print(
            f"  per move: {bot.per_move(bot.statements):.1f} SQL statements (and "
            f"{bot.per_move(bot.control):.1f} BEGIN/COMMIT/ROLLBACK), "
            f"{bot.per_move(bot.commits):.2f} commits; REST {bot.per_move(s.interaction):.2f} "
            f"interaction responses + {bot.per_move(s.limited):.2f} rate-limited; "
            f"bot CPU {bot.per_move(bot.cpu * 1000):.2f} ms, of it "
            f"{bot.per_move(bot.loop_cpu * 1000):.2f} ms on the event loop's thread and "
            f"{bot.per_move(bot.gc_cpu * 1000):.2f} ms collecting garbage "
            f"({bot.gc_runs} runs; echo "
            f"{echo.per_move(echo.cpu * 1000):.2f} ms); fake + players "
            f"{bot.per_move(bot.fake_cpu * 1000):.2f} ms in the bench's process"
        )
        routes = ", ".join(
            f"{n / bot.moves:.2f} {r}" for r, n in s.routes["limited"].most_common(4)
        )
        if routes and bot.moves:
            print(f"  rate-limited routes per move: {routes}")
            dms = bot.dm_posts
            print(f"    of the channel messages, {dms / bot.moves:.2f} per move went to DMs")
        answers = ", ".join(
            f"{n / bot.moves:.2f} {r.split('/{webhook_token}')[-1] or 'POST follow-up'}"
            for r, n in s.routes["interaction"].most_common(5)
        )
        if answers and bot.moves:
            print(f"  interaction responses per move: {answers}")
        for what, by in (("ack", bot.acks), ("table update", bot.update_by)):
            slow = sorted(((percentiles(v)[2], k) for k, v in by.items() if v), reverse=True)
            print(f"  {what} p99 by handler: " + ", ".join(f"{k} {p:,.0f} ms" for p, k in slow))
        if args.rate_limits:
            print(
                f"  with rate limits: {ratio(bot.moves, bot.seconds):,.1f} moves/s sustained, "
                f"{bot.throttled} 429s from the fake in the window (echo: {echo.throttled}); "
                f"{bot.limits or 'the fake has no rate limits to turn on'}"
            )
        for phase in (bot, echo):
            if phase.stuck:
                print(
                    f"  {phase.kind}: {phase.stuck} of {phase.tables} tables waited over "
                    f"{STUCK_SECONDS:g} s for it at the end (each unfinished wait counted above as "
                    "a sample at its age)"
                )
            trouble = phase.failures + phase.problems
            if trouble:
                print(f"  {phase.kind}: {len(trouble)} problems, e.g. " + "; ".join(trouble[:3]))


def split_line(*phases: Phase) -> None:
    """Where an acknowledgement's time goes, per bot: the fake's gateway and the bot's read of
    it, the bot's own queue until it answers, the answer's request until the fake has it."""
    legs = ("to the parse", "to the answer", "to the fake")
    parts = []
    for phase in phases:
        if phase.ack_split:
            cut = [percentiles([leg[i] for leg in phase.ack_split]) for i in range(3)]
            told = ", ".join(
                f"{leg} {p[0]:,.0f} / {p[2]:,.0f}" for leg, p in zip(legs, cut, strict=True)
            )
            parts.append(f"{phase.kind} {told}")
    if parts:
        print(
            "  ack split, ms p50 / p99 (sent, parsed by the bot, answer begun, seen by the fake):"
        )
        for part in parts:
            print(f"    {part}")


def floor_line(bot: Phase, echo: Phase, floor: Phase) -> None:
    """The floor: echo in the shape the bot must take (acknowledge, then update through the
    token), with the bot's board and the rest of its traffic, and no game behind it; what it
    costs is beyond any bot of that shape that says what the bot says."""
    rates = [ratio(p.interactions, p.seconds) for p in (bot, echo, floor)]
    b, e, f = (percentiles(p.updates)[2] for p in (bot, echo, floor))
    mix = bot.traffic()
    each = floor.per_move(floor.cpu * 1000)  # the floor's move is one interaction
    clicks = ratio(bot.interactions, bot.moves)
    print(
        f"  floor (ack, then the update through the token, with the bot's board, "
        f"{mix['follow_ups']:.2f} follow-ups and {mix['posts']:.2f} rate-limited posts an "
        f"interaction; no game): {rates[2]:,.0f} interactions/s, "
        f"{ratio(rates[2], rates[1]):.2f}x echo's; CPU {each:.2f} ms an interaction, "
        f"{each * clicks:.2f} ms for a move of the bot's ({clicks:.2f} interactions); update p99 "
        f"{f:,.0f} ms, {ratio(f, e):.1f}x echo's. Szulernia against the floor: "
        f"{ratio(rates[0], rates[2]):.2f}x its interactions/s, {ratio(b, f):.1f}x its update p99"
    )
