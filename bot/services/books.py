"""The GM's books: one evening's report, the ledger export, and corrections (voids).

A void never deletes: every movement is undone by a compensating one (``bot.storage.corrections``)
in one transaction with the table's ``voided_at`` and the stats of the characters it touched.
It is refused when a purse would end below zero, unless the server allows it
(``/settings overdraft on``) and the GM asks for it; a pot or an offering never goes below zero.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from bot.rules import pazaak, pegaz
from bot.services.clock import Clock, wall_clock
from bot.services.errors import ServiceError, UnknownTable
from bot.services.games import GameSpec, default_games
from bot.services.table_steps import decode
from bot.storage import books, corrections, tables
from bot.storage.books import ExportRow, Pot, PurseMove
from bot.storage.corrections import End
from bot.storage.db import Database, Tx
from bot.storage.stats import refresh_characters

DAY_MS = 24 * 3600 * 1000
AGAIN_MS = 30 * 60 * 1000
"""A report asked again this soon after the last one covers the same evening (the GM reads it
alone first, then posts it for the table)."""
POTS_SHOWN = 5
CHUNK = 1000
VOIDABLE = ("grant", "take", "transfer")


class VoidRefused(ServiceError):
    """Why a void cannot be done, by ``code``: ``void_table_live`` (the game still runs),
    ``void_table_cancelled`` (its stakes went back already), ``void_twice``, ``void_pot_carried``
    (the rolled-over pot moved on to table ``into``: undoing it would empty that pot),
    ``void_movement_table`` (a game's movement: void its table), ``void_movement_kind`` (a
    correction), ``void_movement_twice``, ``void_unknown_movement``, ``void_overdraft_off``."""

    code = "void_refused"

    def __init__(self, code: str, **params: object) -> None:
        self.code = code
        super().__init__(**params)


class VoidShortfall(ServiceError):
    """A purse (``name``) holds ``balance`` and the void would take ``amount`` from it. The code
    says whether the server would let it go below zero with ``overdraft``."""

    code = "void_short"

    def __init__(self, allowed: bool, **params: object) -> None:
        self.code = "void_short_allowed" if allowed else "void_short"
        super().__init__(**params)


class SinceInvalid(ServiceError):
    code = "report_since_invalid"


@dataclass(frozen=True, slots=True)
class Change:
    """What a void did to one purse: ``amount`` signed, ``balance`` after it."""

    name: str
    currency: str
    amount: int
    balance: int


@dataclass(frozen=True, slots=True)
class Voided:
    table_id: int | None
    movement_id: int | None
    corrections: int
    changes: tuple[Change, ...]


@dataclass(frozen=True, slots=True)
class Cheat:
    table_id: int
    cheater: str
    caught_by: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Report:
    """One evening of a guild, ``since <= at < until`` (Unix ms). ``cheats`` includes the missed
    ones (no ``caught_by``): only the GM's own copy may show those."""

    since: int
    until: int
    nets: tuple[tuple[str, str, int], ...]
    """``(name, currency, net)`` at the tables, best first."""
    pots: tuple[Pot, ...]
    offerings: tuple[tuple[str, str, int], ...]
    gm_moves: tuple[PurseMove, ...]
    corrections: tuple[PurseMove, ...]
    voided_tables: tuple[int, ...]
    cheats: tuple[Cheat, ...]
    opened: int
    closed: Mapping[str, int] = field(default_factory=dict)


class Sink(Protocol):
    """Where the export goes: the render's files (``bot.render.books.ExportFiles``)."""

    def write(self, rows: Sequence[ExportRow]) -> None: ...
    def finish(self) -> None: ...


def parse_since(text: str, now: int) -> int:
    """``since`` as typed: a span back from now (``3h``, ``90m``, ``1d 2h``), or a UTC date and
    time (``2026-12-01 18:00``, ``2026-12-01``)."""
    cleaned = text.strip().lower()
    spans = re.fullmatch(r"(?:\s*\d{1,5}\s*[dhm])+", cleaned)
    if spans:
        size = {"d": DAY_MS, "h": 3600 * 1000, "m": 60 * 1000}
        back = sum(int(n) * size[u] for n, u in re.findall(r"(\d+)\s*([dhm])", cleaned))
        return now - back
    try:
        when = datetime.fromisoformat(cleaned.upper().replace("T", " "))
    except ValueError as exc:
        raise SinceInvalid(text=text) from exc
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return int(when.timestamp() * 1000)


class BooksService:
    def __init__(
        self,
        db: Database,
        *,
        clock: Clock = wall_clock,
        games: Mapping[str, GameSpec] | None = None,
    ) -> None:
        self._db = db
        self._clock = clock
        self._games = dict(default_games() if games is None else games)

    async def overdraft(self, guild_id: int) -> bool:
        async with self._db.read() as tx:
            return await books.overdraft(tx, guild_id)

    async def set_overdraft(self, guild_id: int, allowed: bool) -> None:
        async with self._db.transaction() as tx:
            await books.set_overdraft(tx, guild_id, allowed)

    # --- corrections ----------------------------------------------------------------------------

    async def void_table(
        self, table_id: int, *, guild_id: int, actor_id: int, overdraft: bool = False
    ) -> Voided:
        """Undo every movement of a finished table, newest first, and mark it voided."""
        at = self._clock()
        async with self._db.transaction() as tx:
            row = await tables.get(tx, table_id)
            if row is None or row.guild_id != guild_id:
                raise UnknownTable(table=table_id)
            if row.status in ("open", "running"):
                raise VoidRefused("void_table_live", table=table_id)
            if row.status != "finished":
                raise VoidRefused("void_table_cancelled", table=table_id)
            if await corrections.voided_at(tx, table_id) is not None:
                raise VoidRefused("void_twice", table=table_id)
            into = await corrections.carried_into(tx, table_id)
            if into is not None:
                raise VoidRefused("void_pot_carried", table=table_id, into=into)
            allowed = await _allowed(tx, guild_id, overdraft)
            originals = await corrections.table_movements(tx, table_id)
            ends = await corrections.ends(tx, originals)
            await _refuse_short(tx, guild_id, ends, allowed, row.currency)
            reason = f"void of table {table_id}"
            for original in reversed(originals):  # a purse may dip on the way, never at the end
                await corrections.reverse(
                    tx, original, at=at, actor_id=actor_id, reason=reason, overdraft=True
                )
            for end in ends:
                if end.kind == "purse":
                    await corrections.restore_floor(tx, end.account, end.floor)
            await corrections.mark_voided(tx, table_id, at)
            await refresh_characters(tx, [e.character_id for e in ends if e.character_id])
            changes = await _changes(tx, ends, row.currency)
        return Voided(table_id, None, len(originals), changes)

    async def void_movement(
        self, movement_id: int, *, guild_id: int, actor_id: int, overdraft: bool = False
    ) -> Voided:
        """Undo one GM grant or take, or one payment between characters."""
        at = self._clock()
        async with self._db.transaction() as tx:
            original = await corrections.movement(tx, movement_id)
            if original is None or original.guild_id != guild_id:
                raise VoidRefused("void_unknown_movement", movement=movement_id)
            if original.table_id is not None:
                code = "void_movement_table"
                raise VoidRefused(code, movement=movement_id, table=original.table_id)
            if original.kind not in VOIDABLE:
                raise VoidRefused("void_movement_kind", movement=movement_id)
            if await corrections.reversal_of(tx, movement_id) is not None:
                raise VoidRefused("void_movement_twice", movement=movement_id)
            allowed = await _allowed(tx, guild_id, overdraft)
            ends = await corrections.ends(tx, [original])
            await _refuse_short(tx, guild_id, ends, allowed, original.currency)
            reason = f"void of movement {movement_id}"
            await corrections.reverse(
                tx, original, at=at, actor_id=actor_id, reason=reason, overdraft=allowed
            )
            changes = await _changes(tx, ends, original.currency)
        return Voided(None, movement_id, 1, changes)

    async def voidable(self, guild_id: int, limit: int = 25) -> list[ExportRow]:
        """The latest grants, takes and payments a GM may still undo (for autocomplete)."""
        async with self._db.read() as tx:
            return await books.voidable(tx, guild_id, limit)

    # --- the report -----------------------------------------------------------------------------

    async def report(self, guild_id: int, *, since: int | str | None = None) -> Report:
        """The evening from ``since`` (Unix ms, or as typed: see :func:`parse_since`; default:
        from the end of the last report, or the last report's own start if it was asked just
        now, or the last day) until now."""
        now = self._clock()
        until = now + 1  # what happened this very millisecond is in, and in no later report
        if isinstance(since, str):
            since = parse_since(since, now)
        async with self._db.transaction() as tx:
            if since is None:
                last = await books.last_report(tx, guild_id)
                if last is None:
                    since = now - DAY_MS
                else:
                    since = last[0] if until - last[1] < AGAIN_MS else last[1]
            await books.set_last_report(tx, guild_id, since, until)
        async with self._db.read() as tx:
            nets = await books.nets(tx, guild_id, since, until)
            pots = await books.biggest_pots(tx, guild_id, since, until, POTS_SHOWN)
            offerings = await books.purse_moves(tx, guild_id, since, until, ("offering",))
            gm_moves = await books.purse_moves(tx, guild_id, since, until, ("grant", "take"))
            fixes = await books.purse_moves(tx, guild_id, since, until, ("correction",))
            opened = await books.tables_opened(tx, guild_id, since, until)
            closed = await books.tables_closed(tx, guild_id, since, until)
            cheats = await self._cheats(tx, guild_id, since, until)
        given: dict[tuple[str, str], int] = {}
        undone = [m for m in fixes if m.reversed_kind == "offering"]  # a voided table's
        for move in (*offerings, *undone):
            key = (move.name, move.currency)
            given[key] = given.get(key, 0) - move.amount
        return Report(
            since=since,
            until=until,
            nets=tuple(sorted(((n, c, s) for _, n, c, s in nets if s), key=lambda x: -x[2])),
            pots=tuple(pots),
            offerings=tuple((n, c, s) for (n, c), s in sorted(given.items()) if s),
            gm_moves=tuple(gm_moves),
            corrections=tuple(m for m in fixes if m.table_id is None),
            voided_tables=tuple(sorted({m.table_id for m in fixes if m.table_id is not None})),
            cheats=cheats,
            opened=opened,
            closed=closed,
        )

    async def _cheats(self, tx: Tx, guild_id: int, since: int, until: int) -> tuple[Cheat, ...]:
        """Every cheat of the evening's tables, with who caught it (nobody: missed)."""
        found: list[list[Any]] = []  # [table, cheater id, caught by ids]
        for table_id, game, data in await books.cheat_events(tx, guild_id, since, until):
            spec = self._games.get(game)
            for event in [] if spec is None else decode(spec.rules, [data]):
                if isinstance(event, pegaz.Detection | pazaak.Swapped):
                    cheater = event.cheater if isinstance(event, pegaz.Detection) else event.player
                    found.append([table_id, cheater, ()])
                elif isinstance(event, pegaz.Caught | pazaak.Caught):
                    by = event.caught_by if isinstance(event, pegaz.Caught) else (event.by,)
                    for cheat in reversed(found):
                        if cheat[0] == table_id and cheat[1] == event.cheater and not cheat[2]:
                            cheat[2] = by
                            break
        ids = [c[1] for c in found] + [who for c in found for who in c[2]]
        named = await books.names(tx, ids)
        return tuple(
            Cheat(t, named.get(c, "?"), tuple(named.get(w, "?") for w in by)) for t, c, by in found
        )

    # --- the export -----------------------------------------------------------------------------

    async def export(self, guild_id: int, sink: Sink, *, character_id: int | None = None) -> int:
        """Stream the guild's ledger (or one character's) into ``sink`` from one snapshot, a
        chunk of rows at a time (memory holds one chunk, never the ledger); return the rows."""
        rows = 0
        async with self._db.read() as tx:
            if character_id is None:
                after = 0
                while chunk := await books.guild_chunk(tx, guild_id, after, CHUNK):
                    await asyncio.to_thread(sink.write, chunk)
                    rows, after = rows + len(chunk), chunk[-1].movement_id
            else:
                for account in await books.purse_ids(tx, character_id):
                    after = 0
                    while keyed := await books.account_chunk(tx, account, after, CHUNK):
                        await asyncio.to_thread(sink.write, [row for _, row in keyed])
                        rows, after = rows + len(keyed), keyed[-1][0]
        await asyncio.to_thread(sink.finish)
        return rows


async def _allowed(tx: Tx, guild_id: int, asked: bool) -> bool:
    """Whether this void may leave a purse below zero: asked for, and allowed on the server."""
    if asked and not await books.overdraft(tx, guild_id):
        raise VoidRefused("void_overdraft_off")
    return asked


async def _refuse_short(
    tx: Tx, guild_id: int, ends: Sequence[End], allowed: bool, currency: str
) -> None:
    """Refuse when an account would end below zero: a purse unless ``allowed``, a pot or an
    offering never (the world, the GM's mint, may)."""
    for end in ends:
        if end.balance + end.change >= 0 or end.kind == "world":
            continue
        if end.kind == "purse" and allowed:
            continue
        named = await books.names(tx, [end.character_id or 0])
        purse = end.kind == "purse"
        raise VoidShortfall(
            allowed=purse and await books.overdraft(tx, guild_id),
            name=named.get(end.character_id or 0, "?"),
            balance=end.balance,
            amount=-end.change,
            currency=currency,
        )


async def _changes(tx: Tx, ends: Sequence[End], currency: str) -> tuple[Change, ...]:
    """What the void did to each purse, by name."""
    purses = [e for e in ends if e.kind == "purse" and e.change]
    named = await books.names(tx, [e.character_id or 0 for e in purses])
    changes = [
        Change(named.get(e.character_id or 0, "?"), currency, e.change, e.balance + e.change)
        for e in purses
    ]
    return tuple(sorted(changes, key=lambda change: change.name))
