"""Game tables: create, act, cancel, time out and restore, generically for any game module.

One action:
1. takes the table's asyncio lock (one action at a time per table; other tables run freely);
2. in ONE database transaction: looks up the idempotency key (a repeat returns the first
   outcome and applies nothing), loads the table (from the live cache, else from its snapshot or
   by replaying its events), refuses a stale ``expected_version`` (:class:`StaleAction`),
   applies the rules action (a ``RulesError`` propagates and nothing is written), and writes the
   events, the ledger rows from ``transfers(event)``, the seats, the turn deadline, the state
   snapshot, the new version and the key;
3. updates the cache only after the commit (drops the table from it on any other failure), and
   returns a :class:`TableOutcome` for the Discord layer to render.

Open tables are kept in memory by ``restore`` (beside the bot's first clicks) from the state
snapshot each step writes (``bot.services.snapshots``), which is some 3x faster than replaying.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from bot.rules.common import NotSeated, RulesError
from bot.services.clock import Clock, wall_clock
from bot.services.errors import PotMismatch, StaleAction, TableClosed
from bot.services.games import GameSpec, default_games
from bot.services.outcomes import TableOutcome, TableView
from bot.services.surfaces import SurfaceService
from bot.services.table_deadlines import Deadlines
from bot.services.table_loads import Dormant, Loader
from bot.services.table_owners import TableOwners
from bot.services.table_reads import TableReads, view_of
from bot.services.table_rosters import Rosters, members_of, read
from bot.services.table_steps import (
    CLOSED,
    Live,
    Mode,
    carry_pot,
    outcome_of,
    rules_step,
    seat_purses,
    write_step,
)
from bot.shards import Ownership
from bot.storage import characters, ledger, tables
from bot.storage import surfaces as surface_rows
from bot.storage.db import Database, Tx
from bot.storage.errors import VersionConflict

Start = Callable[[random.Random], tuple[Any, list[Any]]]
"""Begins a game: e.g. ``lambda rng: pazaak.new_match(settings, a, sel_a, b, sel_b, rng)``."""


class TableService(TableOwners, TableReads):
    def __init__(
        self,
        db: Database,
        *,
        games: Mapping[str, GameSpec] | None = None,
        rng_factory: Callable[[], random.Random] = random.SystemRandom,
        clock: Clock = wall_clock,
        surfaces: SurfaceService | None = None,
        ownership: Ownership | None = None,
    ) -> None:
        self._db = db
        self._init_owners(ownership)  # which guilds' tables are this process's (bot.shards)
        self._surfaces = surfaces
        self._loader = Loader(default_games() if games is None else games)
        self._rng_factory = rng_factory
        self._clock = clock
        self._locks: dict[int, asyncio.Lock] = {}
        self._cache: dict[int, Live | Dormant] = {}
        self._remembered = 0
        """How many steps have been put in the cache: a read from before one is not cached."""
        self._rosters = Rosters()
        self._deadlines = Deadlines()
        self._stepping: list[set[int]] = []
        """The tables stepped during each restore in flight (see :meth:`restore`)."""
        self._recent: dict[int, tuple[int, tuple[Any, ...]]] = {}
        """Per table, its newest step's version and events (the publisher's next pass)."""
        self._watchers: list[Callable[[TableView], None]] = []

    def watch(self, watcher: Callable[[TableView], None]) -> None:
        """Call ``watcher`` with the table after every step saved (by anyone: a click, a timer,
        an NPC), at once and without awaiting: it must only note the table, not act on it."""
        self._watchers.append(watcher)

    # --- the actions ----------------------------------------------------------------------------

    async def create(
        self,
        game: str,
        start: Start,
        *,
        guild_id: int,
        channel_id: int,
        actor_id: int,
        key: int | str,
        carry_from: int | None = None,
        claim: Callable[[Tx, int], Awaitable[None]] | None = None,
        opener: int | None = None,
    ) -> TableOutcome:
        """Open a table and write the game's first events (antes, escrow) as version 1.

        ``opener``: the user whose table it is (who may rule on it, and hears its GM's notes),
        if not ``actor_id``: a Pazaak match's referee.

        ``claim(tx, table_id)``: runs in the same transaction (e.g. marks the challenge that opens
        the table as accepted); an error from it changes nothing.

        ``carry_from``: a closed table whose pot (a rolled-over pot) moves into the new one; the
        new state's pot must then match it (:class:`PotMismatch` otherwise).
        """
        spec = self._spec(game)
        at = self._clock()
        async with self._db.transaction() as tx:
            repeat = await self._repeat(tx, str(key))
            if repeat is not None:
                return repeat
            state, events = start(self._rng_factory())
            table_id = await tables.insert(
                tx,
                guild_id=guild_id,
                channel_id=channel_id,
                game=spec.game,
                currency=spec.currency,
                settings=spec.settings_json(state),
                created_by=actor_id if opener is None else opener,
                at=at,
            )
            pot = await ledger.create_pot(tx, guild_id, table_id, spec.currency)
            if claim is not None:
                await claim(tx, table_id)
            if carry_from is not None:
                await carry_pot(tx, carry_from, table_id, pot, guild_id, spec, actor_id, at)
            empty = Live(
                id=table_id,
                guild_id=guild_id,
                channel_id=channel_id,
                game=spec.game,
                currency=spec.currency,
                status="open",
                version=0,
                next_seq=0,
                pot=pot,
                seats=frozenset(),
                state=None,
                deadline=None,
                opener=actor_id if opener is None else opener,
            )
            after, moved = await write_step(
                tx,
                spec,
                empty,
                state,
                events,
                key=str(key),
                actor_id=actor_id,
                at=at,
                codec=self._loader.codec(spec.game),
            )
            held = await ledger.balance(tx, pot)
            if held != spec.pot(state):
                raise PotMismatch(expected=spec.pot(state), found=held)
            roster = await read(tx, after.seats)
        self._remember(after, events)
        if after.status not in CLOSED:
            self._rosters.put(table_id, after.version, after.seats, roster)
        return outcome_of(after, events, moved)

    async def act(
        self,
        table_id: int,
        action: Any,
        *,
        key: int | str,
        expected_version: int | None,
        actor_id: int | None,
        seat: int | None = None,
        replies: bool = False,
    ) -> TableOutcome:
        """Apply one rules action to the table. See the module docstring for the guarantees.

        ``seat``: the character the action is made for; refused (:class:`NotSeated`) unless the
        actor plays it (its owner: an NPC's GM). ``replies``: the step's announcements may go
        out as replies to the click that made it (follow-ups, which carry no nonce): the step's
        own transaction claims its version for them (see ``bot.services.surfaces``)."""
        return await self._step(
            table_id, str(key), expected_version, actor_id, "act", action, seat, replies
        )

    async def act_on_latest(
        self,
        table_id: int,
        make: Callable[[TableView], Any],
        *,
        key: int | str,
        actor_id: int | None,
        seat: int | None = None,
        retries: int = 3,
    ) -> TableOutcome:
        """Apply ``make(table)`` at the table's version now; if another step got in between, look
        again (``make`` may refuse the new state by raising), at most ``retries`` times."""
        for attempt in range(retries):
            view = await self.get(table_id)
            try:
                return await self.act(
                    table_id,
                    make(view),
                    key=key,
                    expected_version=view.version,
                    actor_id=actor_id,
                    seat=seat,
                )
            except StaleAction:
                if attempt == retries - 1:
                    raise
        raise AssertionError("unreachable")

    async def synced(self, table_id: int) -> Any:
        """The table's state as the next step would see it: with the seats' purses synced."""
        live = await self._live(table_id)
        spec = self._spec(live.game)
        if live.status in CLOSED or spec.sync is None:
            return live.state
        async with self._db.read() as tx:
            purses = await seat_purses(tx, spec, live)
        sync = spec.sync(live.state, purses)
        if sync is None:
            return live.state
        state, _ = spec.rules.apply(live.state, sync, random.Random(0))
        return state

    async def cancel(
        self,
        table_id: int,
        *,
        key: int | str,
        actor_id: int | None,
        expected_version: int | None = None,
    ) -> TableOutcome:
        """Cancel a live table: the rules' cancel action if the game has one, then every stake
        still in the pot goes back to whoever paid it, exactly."""
        return await self._step(table_id, str(key), expected_version, actor_id, "cancel", None)

    async def fire_timeout(self, table_id: int, version: int) -> TableOutcome | None:
        """The turn timer ran out: apply the game's timeout actions if the table still waits at
        ``version``. None if someone acted in time, the table closed, or it already fired."""
        key = f"timeout:{table_id}:{version}"
        try:
            done = await self._step(table_id, key, version, None, "timeout", None)
        except (StaleAction, TableClosed):
            return None
        return None if done.repeated else done

    # --- reading --------------------------------------------------------------------------------

    async def get(self, table_id: int) -> TableView:
        return view_of(await self._live(table_id))

    async def restore(self, *, snapshots: bool = True) -> list[TableView]:
        """Every open table, kept (:meth:`keep_open`) and read as it is now (states decoded)."""
        return [view_of(await self._live(t)) for t in await self.keep_open(snapshots=snapshots)]

    async def keep_open(self, *, snapshots: bool = True) -> list[int]:
        """Keep every open table (their ids): from its snapshot, or (``snapshots=False``, none
        usable) its events, decoded when first used (``table_loads``). The bot runs it after
        READY, beside the first clicks: a table a step moved meanwhile keeps that step's."""
        stepped: set[int] = set()
        self._stepping.append(stepped)
        try:
            async with self._db.read() as tx:
                found = await self._loader.load_live(tx, snapshots=snapshots, keep=self._note)
                rosters = members_of(await characters.seated_live(tx))
        finally:
            self._stepping.remove(stepped)
        for entry in found:
            live = entry.live
            if live.id in stepped:
                continue
            self._cache.setdefault(live.id, entry)  # one read meanwhile (a redraw) is as new
            self._rosters.put(live.id, live.version, live.seats, rosters.get(live.id, {}))
        if not self._deadlines.loaded:  # else they are the steps' since they were loaded
            lives = [entry.live for entry in found]
            timed = [(x.id, x.version, x.deadline) for x in lives if x.deadline is not None]
            self._deadlines.load(timed)
        return [entry.live.id for entry in found]

    # --- inside -------------------------------------------------------------------------------

    def _spec(self, game: str) -> GameSpec:
        return self._loader.spec(game)

    def _lock(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    def _remember(self, live: Live, events: Sequence[Any]) -> None:
        self._remembered += 1
        for stepped in self._stepping:
            stepped.add(live.id)
        self._keep_events(live.id, live.version, events)
        self._keep_live(live)
        if self._watchers:
            table = view_of(live)
            for watcher in self._watchers:
                watcher(table)

    async def _step(
        self,
        table_id: int,
        key: str,
        expected_version: int | None,
        actor_id: int | None,
        mode: Mode,
        action: Any,
        seat: int | None = None,
        replies: bool = False,
    ) -> TableOutcome:
        async with self._lock(table_id):
            try:
                async with self._db.transaction() as tx:
                    repeat = await self._repeat(tx, key)
                    if repeat is not None:
                        return repeat
                    if seat is not None and await characters.owner_of(tx, seat) != actor_id:
                        raise NotSeated(player=actor_id)
                    before = self._kept(table_id)
                    if before is None:
                        before = await self._loader.load(tx, table_id, lock=True)
                        # the lock may have waited for another process's step with this key
                        repeat = await self._repeat(tx, key) if tx.dialect != "sqlite" else None
                        if repeat is not None:
                            return repeat
                    if expected_version is not None and expected_version != before.version:
                        raise StaleAction(
                            table=table_id, expected=expected_version, current=before.version
                        )
                    if before.status in CLOSED:
                        raise TableClosed(table=table_id, status=before.status)
                    spec = self._spec(before.game)
                    purses = await seat_purses(tx, spec, before) if spec.sync else None
                    state, events = rules_step(
                        spec, before.state, mode, action, self._rng_factory(), purses
                    )
                    after, moved = await write_step(
                        tx,
                        spec,
                        before,
                        state,
                        events,
                        key=key,
                        actor_id=actor_id,
                        at=self._clock(),
                        cancel=mode == "cancel",
                        timed_out=mode == "timeout",
                        codec=self._loader.codec(spec.game),
                    )
                    if replies:
                        await surface_rows.set_claimed(tx, table_id, after.version)
                    roster = None
                    if after.status not in CLOSED:
                        roster = await self._rosters.after_step(
                            tx, table_id, before.version, after.seats
                        )
            except (RulesError, StaleAction, TableClosed):
                raise
            except VersionConflict as exc:  # another process wrote this table first
                return await self._overtaken(table_id, key, exc)
            except BaseException:
                self._cache.pop(table_id, None)
                self._rosters.forget(table_id)
                raise
            self._remember(after, events)
            if replies and self._surfaces is not None:
                self._surfaces.claimed_by_step(table_id, after.version)
            if roster is not None:
                self._rosters.put(table_id, after.version, after.seats, roster)
            else:
                self._rosters.forget(table_id)
            return outcome_of(after, events, moved)

    async def _live(self, table_id: int) -> Live:
        cached = self._kept(table_id)
        if cached is not None:
            return cached
        remembered = self._remembered
        async with self._db.read() as tx:
            live = await self._loader.load(tx, table_id)
        # Reads run beside the writer: a step committed meanwhile may have moved or closed this
        # table after the read's snapshot, so only a read that no step overtook is cached.
        if self._mine(live) and live.status not in CLOSED and self._remembered == remembered:
            self._cache.setdefault(table_id, live)
        if table_id in self._outdated:
            self._adopt(live)
        return live
