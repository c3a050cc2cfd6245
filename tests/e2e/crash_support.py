"""Crash drills for whole games: crash the bot at a chosen REST call of a step, after the step's
commit, and check what the players are left with.

- :class:`RouteHold` holds the ``skip + 1``-th request of one route (a :class:`Hold` that lets
  the first ``skip`` ones through); :class:`Spy` watches every request without touching it, and
  notes whether the database had already moved when it arrived (the step was committed).
- :class:`Drill` runs a game's steps through :meth:`Drill.commit`: a step's committing
  interaction is sent there. Without a crash planned for the step, it is settled and its requests
  recorded (a *reference* run maps each step's post-commit requests); with one, the planned
  request is held (applied by Discord or not), the bot is killed and restarted on the same
  database, and the tables are checked: one live table message each, the ledger balanced.
- :func:`announcements`, :func:`dm_texts`: what the players saw, normalised (mentions by name,
  relative times masked), to compare a crashed run with a clean one.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.e2e.crash_views import (  # noqa: F401 (the drills read them through this module)
    announcements,
    board_of,
    dm_texts,
    duplicates,
    live_boards,
    live_buttons,
    normalise,
    posted_text,
    table_messages,
)
from tests.e2e.pazaak_support import settle
from tests.fakediscord import BotHarness, FakeDiscord, Hold, InteractionHandle
from tests.fakediscord.faults import Fault
from tests.fakediscord.state import RequestRecord
from tests.fakediscord.stats import route_of

CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"
FOLLOWUP = "POST /webhooks/{webhook_id}/{webhook_token}"


# --- faults ------------------------------------------------------------------------------------


@dataclass(eq=False)
class NthHold(Hold):
    """A hold of the ``skip + 1``-th request from now on, whatever its route, not counting
    interaction callbacks (the acknowledgement comes before a step's commit)."""

    skip: int = 0

    def matches(self, method: str, template: str | None) -> bool:
        if f"{method} {template}" == CALLBACK:
            return False
        if self.skip > 0:
            self.skip -= 1
            return False
        return True


def hold_nth(fake: FakeDiscord, nth: int, *, applied: bool) -> NthHold:
    """Hold the ``nth`` (0-based) request from now on (callbacks aside)."""
    hold = NthHold("*", "*", 1, "hold", applied=applied, skip=nth)
    fake.faults.rules.append(hold)
    fake.holds.append(hold)
    return hold


@dataclass(eq=False)
class Spy(Fault):
    """Never applies: notes, for each request, whether the database had moved since ``base``."""

    fingerprint: Callable[[], tuple[int, ...]] = lambda: ()
    base: tuple[int, ...] = ()
    seen: list[bool] = field(default_factory=list)

    def matches(self, method: str, template: str | None) -> bool:
        self.seen.append(self.fingerprint() != self.base)
        return False


def fingerprint(database: Path) -> Callable[[], tuple[int, ...]]:
    """A function that tells the database's committed game state apart (tables, money, seats,
    challenges), read with a connection of its own."""

    def read() -> tuple[int, ...]:
        with sqlite3.connect(database) as conn:
            row = conn.execute(
                "SELECT (SELECT count(*) FROM tables), (SELECT total(version) FROM tables),"
                " (SELECT count(*) FROM movements), (SELECT count(*) FROM challenges"
                "  WHERE status != 'pending')"
            ).fetchone()
        return tuple(int(v) for v in row)

    return read


# --- a drill -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Crash:
    """Crash at the step's ``nth`` request (callbacks aside); Discord applied it or not."""

    nth: int
    applied: bool

    def __str__(self) -> str:
        return f"#{self.nth} ({'applied' if self.applied else 'not applied'})"


@dataclass
class StepRecord:
    label: str
    requests: list[RequestRecord]
    committed: list[bool]
    """Per request: whether the step's commit had happened when it arrived."""

    @property
    def announces(self) -> bool:
        """Whether the step posted in a channel (a message or a follow-up)."""
        routes = {route_of(r) for r in self.requests}
        return bool(routes & {"POST /channels/{channel_id}/messages", FOLLOWUP})

    def crash_points(self) -> list[int]:
        """The indices (callbacks aside) of the requests made after the commit."""
        made = [
            after
            for record, after in zip(self.requests, self.committed, strict=True)
            if route_of(record) != CALLBACK
        ]
        return [n for n, after in enumerate(made) if after]


class RandomPlan(Mapping[str, Crash]):
    """Kill the bot in a step with probability ``chance``, at a random request of the first
    ``reach`` (callbacks aside), applied or not: seeded, so a failure can be replayed."""

    def __init__(self, rng: random.Random, *, chance: float, reach: int = 5) -> None:
        self.rng, self.chance, self.reach = rng, chance, reach

    def get(self, label: str, default: Crash | None = None) -> Crash | None:  # type: ignore[override]
        if self.rng.random() >= self.chance:
            return default
        return Crash(self.rng.randrange(self.reach), self.rng.random() < 0.5)

    def __getitem__(self, label: str) -> Crash:
        raise KeyError(label)

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


class Drill:
    """One game's steps, with the crashes planned for some of them (by step label)."""

    def __init__(
        self,
        fake: FakeDiscord,
        harness: BotHarness,
        *,
        prefix: str,
        plan: Mapping[str, Crash] | None = None,
        check: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.fake = fake
        self.harness = harness
        self.prefix = prefix
        self.plan: Mapping[str, Crash] = plan if plan is not None else {}
        self.check = check
        self.fingerprint = fingerprint(harness.settings.database.path)
        self.steps: dict[str, StepRecord] = {}
        self.crashed: list[tuple[str, Crash, str]] = []
        self.missed: list[tuple[str, Crash]] = []
        self.recoveries: list[float] = []
        """Seconds from each kill until the new bot had healed the tables and gone quiet."""
        self.labels_prefix = ""
        """Put before each label (several games in one run)."""
        self.seen: Seen | None = None
        self.labels: list[str] = []

    async def commit(
        self, label: str, send: Callable[[], Awaitable[InteractionHandle]]
    ) -> InteractionHandle | None:
        """Send a step's committing interaction; None if the bot was killed during it."""
        label = self.labels_prefix + label
        assert label not in self.labels, f"two steps are labelled {label!r}"
        self.labels.append(label)
        crash = self.plan.get(label)
        if crash is None:
            return await self._record(label, send)
        before = self.fingerprint()
        hold = hold_nth(self.fake, crash.nth, applied=crash.applied)
        handle = await send()
        done = asyncio.ensure_future(settle(self.fake, self.harness, handle))
        reached = asyncio.ensure_future(hold.reached(timeout=10))
        await asyncio.wait({done, reached}, return_when=asyncio.FIRST_COMPLETED)
        if not reached.done():  # fewer requests than in the reference run: no crash here
            reached.cancel()
            hold.release()
            self.fake.faults.rules.remove(hold)
            await done
            assert self.fingerprint() != before, f"{label}: the step was not taken"
            self.missed.append((label, crash))
            return handle
        done.cancel()
        record = reached.result()
        assert self.fingerprint() != before, f"{label}: {crash} came before the step's commit"
        self.crashed.append((label, crash, route_of(record)))
        began = time.perf_counter()
        await self.harness.crash_and_restart()
        await settle(self.fake, self.harness)
        if self.check is not None:
            await self.check()
        self.recoveries.append(time.perf_counter() - began)
        return None

    async def _record(
        self, label: str, send: Callable[[], Awaitable[InteractionHandle]]
    ) -> InteractionHandle:
        mark, before = self.fake.mark(), self.fingerprint()
        spy = Spy("*", "*", 10**9, "spy", fingerprint=self.fingerprint, base=self.fingerprint())
        self.fake.faults.rules.append(spy)
        try:
            handle = await send()
            await settle(self.fake, self.harness, handle)
        finally:
            self.fake.faults.rules.remove(spy)
        assert self.fingerprint() != before, f"{label}: the step was not taken"
        requests = self.fake.requests()[mark:]
        self.steps[label] = StepRecord(label, requests, spy.seen[: len(requests)])
        return handle

    def points(self) -> dict[str, list[int]]:
        """Every recorded step's crash points (for a reference run)."""
        return {label: step.crash_points() for label, step in self.steps.items()}


def plan_for(
    points: Mapping[str, list[int]], k: int | str, applied: bool, labels: Iterable[str] = ()
) -> dict[str, Crash]:
    """The ``k``-th crash point ("first", "last" or an index) of every step that has one (of
    ``labels`` only, if given)."""
    wanted = set(labels)
    plan = {}
    for label, found in points.items():
        if not found or (wanted and label not in wanted):
            continue
        n = 0 if k == "first" else len(found) - 1 if k == "last" else int(k)
        if n < len(found):
            plan[label] = Crash(found[n], applied)
    return plan


# --- a world of one's own ----------------------------------------------------------------------


@contextlib.asynccontextmanager
async def world(
    database: Path, *, seed: int = 1234
) -> AsyncIterator[tuple[FakeDiscord, BotHarness]]:
    """A FakeDiscord and a started bot, as the ``fake`` and ``harness`` fixtures make them (and
    failing the same way at the end), for a test that needs several in turn."""
    async with FakeDiscord() as fake:
        harness = BotHarness(fake, database=database, seed=seed)
        await harness.start()
        try:
            yield fake, harness
        finally:
            await harness.close()
        problems = fake.problems() + harness.problems()
    if problems:
        pytest.fail("the run had problems:\n" + "\n".join(problems))


def money(database: Path) -> dict[str, int]:
    """The balances of every kind of account (purses, pots, offerings, the world), summed."""
    with sqlite3.connect(database) as conn:
        rows = conn.execute("SELECT kind, total(balance) FROM accounts GROUP BY kind").fetchall()
    return {kind: int(total) for kind, total in rows}


def purses(database: Path) -> dict[str, int]:
    """Each character's purse, by name (every currency together)."""
    with sqlite3.connect(database) as conn:
        rows = conn.execute(
            "SELECT c.name, total(a.balance) FROM accounts a JOIN characters c"
            " ON c.id = a.character_id WHERE a.kind = 'purse' GROUP BY c.name"
        ).fetchall()
    return {name: int(total) for name, total in rows}


# --- checks ------------------------------------------------------------------------------------


def granted(database: Path) -> int:
    with sqlite3.connect(database) as conn:
        (total,) = conn.execute(
            "SELECT total(amount) FROM movements WHERE kind = 'grant'"
        ).fetchone()
    return int(total)


async def books_balance(harness: BotHarness) -> None:
    """The ledger's double entry holds, and purses + pots + offerings = what the GM granted."""
    audit = await harness.bot.services.purses.audit()
    assert audit.unbalanced_movements == () and audit.drifted_accounts == (), audit
    path = harness.settings.database.path
    found = money(path)
    held = found.get("purse", 0) + found.get("pot", 0) + found.get("offering", 0)
    assert held == granted(path), found


async def one_live_board(fake: FakeDiscord, harness: BotHarness, prefix: str) -> None:
    """Every live table of the channel has exactly one message with live buttons: the one its
    marks name."""
    services = harness.bot.services
    for table_id in await services.tables.live_in_channel(fake.guild.id, fake.tavern.id):
        board = board_of(fake, prefix, table_id)
        marks = await services.surfaces.marks(table_id)
        assert marks.message_id == board.id, f"table {table_id}: the marks name another message"


@dataclass
class Seen:
    """What a finished run left: to compare a crashed run with a clean one."""

    announcements: list[str]
    tables: list[str]
    dms: dict[str, list[str]]
    purses: dict[str, int]
    money: dict[str, int]

    @classmethod
    def of(cls, fake: FakeDiscord, harness: BotHarness) -> Seen:
        path = harness.settings.database.path
        return cls(
            announcements(fake), table_messages(fake), dm_texts(fake), purses(path), money(path)
        )

    def compare(self, reference: Seen) -> None:
        assert duplicates(self.announcements) == duplicates(reference.announcements)
        assert self.announcements == reference.announcements
        assert self.tables == reference.tables
        assert self.dms == reference.dms
        assert (self.purses, self.money) == (reference.purses, reference.money)
