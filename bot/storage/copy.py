"""Copying a SQLite database into an empty PostgreSQL one (``python -m bot migrate-db``).

A refusal is harmless: the source file is looked at and the target asked, on a plain
connection, whether it holds any row before anything is opened; then the source is opened
(which brings its schema up to date, as the bot does) and audited in one snapshot (an
unbalanced ledger is refused), and only then the target (which creates the schema). The tables
and columns are read off the SQLite file (``sqlite_master``, ``pragma_table_info``) and must be
the target's (``information_schema``), type for type.

The copy is ONE PostgreSQL transaction: the target's tables are locked and found empty again,
filled parents first in chunks by keyset (row id, or primary key), ids kept, the identity
sequences moved past them; any difference in the row counts or the ledger audit of the two
sides rolls it all back. Values go over as they are; one of another type (a float) is refused,
naming the table, column and row, never the value."""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Callable, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import asyncpg

from bot.storage import ledger
from bot.storage.db import Database, Row, Tx
from bot.storage.dialect import is_postgres, redact
from bot.storage.errors import DatabaseError, DatabaseUnreadable, StorageError
from bot.storage.opening import open_database
from bot.storage.postgres import CONNECT_SECONDS, PgTx

CHUNK = 1000  # rows read and written at a time
VERSION_TABLE = "schema_version"  # the target's PRAGMA user_version: made by the migrations
_TYPES = {"INTEGER": "bigint", "TEXT": "text", "BLOB": "bytea"}  # as the migrations map them
_PYTHON: dict[str, type] = {"bigint": int, "text": str, "bytea": bytes}
_WITHOUT_ROWID = re.compile(r"\)\s*WITHOUT\s+ROWID\s*$", re.IGNORECASE)
_LISTED = 10  # ids named at most in a message; the rest are counted

Say = Callable[[str], object]


class CopyRefused(StorageError):
    """The copy did not happen; nothing was written to the target (or it was rolled back)."""


@dataclass(frozen=True, slots=True)
class Table:
    """One table of the source, as the copy reads it."""

    name: str
    columns: tuple[str, ...]
    types: tuple[str, ...]  # each column's PostgreSQL type, from its declared SQLite type
    key: tuple[str, ...]  # what the keyset reads by: ("rowid",), or the primary key's columns
    parents: frozenset[str]  # the other tables its foreign keys name


@dataclass(frozen=True, slots=True)
class Books:
    """What both sides must agree on after the copy."""

    counts: dict[str, int]
    audit: ledger.Audit
    held: dict[str, int]  # coins per currency in every account but the mints


@dataclass(frozen=True, slots=True)
class Copied:
    """What a finished copy did: the source's schema version as found, and as copied."""

    found_version: int
    version: int
    books: Books


async def migrate_database(source: Path | str, url: str, *, say: Say, chunk: int = CHUNK) -> Copied:
    """Copy the SQLite file ``source`` into the empty PostgreSQL database at ``url``, saying what
    it does; or raise :class:`CopyRefused`: one line for the operator, never the password."""
    try:
        return await _migrate(source, url, say, chunk)
    except StorageError as exc:
        raise CopyRefused(scrub(str(exc), url)) from exc
    except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
        raise CopyRefused(scrub(f"PostgreSQL refused: {exc}", url)) from exc


async def _migrate(given: Path | str, url: str, say: Say, chunk: int) -> Copied:
    if is_postgres(str(given)):
        raise CopyRefused("--from takes a SQLite file; the PostgreSQL URL goes in --to")
    path = Path(given)
    found = _check_source(path)
    shown = _check_url(url)
    filled = await _precheck(url, shown)
    if filled:
        raise _not_empty(shown, filled)
    source = await open_database(path)
    try:
        version = await source.schema_version()
        upgraded = f", upgraded from {found} first (as the bot does)" if found < version else ""
        say(f"source: {path.name}, schema version {version}{upgraded}")
        async with source.read() as stx:
            tables = _ordered(await _source_tables(stx))
            before = await _books(stx, [table.name for table in tables])
            _check_balanced(path.name, before.audit)
            say(f"source ledger balanced: {_describe(before)}")
            target = await open_database(url)
            try:
                books = await _copy(stx, target, tables, before, say, chunk)
            finally:
                await target.close()
    finally:
        await source.close()
    say(f"copied {sum(books.counts.values()):,} rows into {shown} in one transaction")
    return Copied(found, version, books)


def _check_source(path: Path) -> int:
    """The file's schema version, read without writing; refuse a missing or unreadable file."""
    if not path.exists():
        raise CopyRefused(f"no SQLite file at {path}")
    if not path.is_file():
        raise CopyRefused(f"{path} is not a file")
    if not os.access(path, os.R_OK):
        raise CopyRefused(f"{path} cannot be read (permission denied)")
    try:
        with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as conn:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            if not version and conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                raise CopyRefused(f"{path} holds tables but no schema version: not the bot's file")
            return version
    except sqlite3.Error as exc:
        raise DatabaseUnreadable(path, str(exc)) from exc


def _check_url(url: str) -> str:
    """The URL as shown (no password); refuse one that is not a PostgreSQL URL."""
    if not is_postgres(url):
        raise CopyRefused("--to takes a PostgreSQL URL such as postgresql://user@host/szulernia")
    shown = redact(url)
    try:
        parts = urlsplit(url)
        _ = parts.port  # raises for a port that is not a number in range
    except ValueError as exc:
        raise CopyRefused(f"bad PostgreSQL URL {shown}: {exc}") from exc
    if not parts.path.strip("/"):
        raise CopyRefused(f"the URL {shown} names no database (postgresql://host/DATABASE)")
    return shown


async def _precheck(url: str, shown: str) -> list[str]:
    """The target's tables that hold rows, asked on a plain connection that writes nothing."""
    try:
        conn = await asyncpg.connect(url, timeout=CONNECT_SECONDS)
    except (TimeoutError, OSError, asyncpg.PostgresError) as exc:
        reason = "the server did not answer" if isinstance(exc, TimeoutError) else str(exc)
        raise DatabaseUnreadable(shown, reason or type(exc).__name__) from exc
    except (ValueError, ArithmeticError, asyncpg.InterfaceError) as exc:
        raise CopyRefused(f"bad PostgreSQL URL {shown}: {exc}") from exc
    try:
        return await _filled(PgTx(conn, None))
    finally:
        await conn.close()


async def _filled(tx: Tx) -> list[str]:
    """The tables of the current schema that hold a row (the version row aside)."""
    filled = []
    for (name,) in await tx.fetchall(
        "SELECT table_name FROM information_schema.tables "
        "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name"
    ):
        if name != VERSION_TABLE and await tx.fetchval(f"SELECT EXISTS (SELECT 1 FROM {_q(name)})"):
            filled.append(str(name))
    return filled


def _not_empty(shown: str, filled: Sequence[str]) -> CopyRefused:
    return CopyRefused(
        f"the target {shown} is not empty (rows in {', '.join(sorted(filled))}): "
        "copy only into a new, empty database; nothing was written"
    )


async def _source_tables(tx: Tx) -> list[Table]:
    """Every table of the SQLite file, its columns and keys read off the file itself."""
    tables = []
    for name, sql in await tx.fetchall(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' "
        "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"
    ):
        info = await tx.fetchall(
            "SELECT name, type, pk FROM pragma_table_info(?) ORDER BY cid", (name,)
        )
        types = {str(c): _TYPES.get(str(d).upper().split("(")[0].strip(), "") for c, d, _ in info}
        if unknown := [f"{name}.{column}" for column, kind in types.items() if not kind]:
            raise CopyRefused(f"{', '.join(unknown)}: a type other than {'/'.join(_TYPES)}")
        primary = [str(c) for c, _t, pk in sorted(info, key=lambda row: row[2]) if pk]
        parents = await tx.fetchall(
            'SELECT DISTINCT "table" FROM pragma_foreign_key_list(?)', (name,)
        )
        tables.append(
            Table(
                name=str(name),
                columns=tuple(types),
                types=tuple(types.values()),
                key=tuple(primary) if _WITHOUT_ROWID.search(str(sql)) else ("rowid",),
                parents=frozenset(str(p) for (p,) in parents) - {name},
            )
        )
    return tables


def _ordered(tables: list[Table]) -> list[Table]:
    """Parents before the tables whose foreign keys name them (then by name)."""
    left = {table.name: table for table in tables}
    done: list[Table] = []
    while left:
        ready = [t for t in left.values() if not (t.parents & left.keys())]
        if not ready:
            raise CopyRefused(f"the foreign keys of {', '.join(sorted(left))} form a cycle")
        done.extend(left.pop(table.name) for table in sorted(ready, key=lambda t: t.name))
    return done


async def _target_columns(tx: Tx) -> dict[str, dict[str, tuple[str, bool]]]:
    """``table -> column -> (data type, is an identity column)`` of the target's schema."""
    rows = await tx.fetchall(
        "SELECT c.table_name, c.column_name, c.data_type, c.is_identity "
        "FROM information_schema.columns c JOIN information_schema.tables t "
        "ON t.table_schema = c.table_schema AND t.table_name = c.table_name "
        "WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'"
    )
    found: dict[str, dict[str, tuple[str, bool]]] = {}
    for table, column, kind, identity in rows:
        found.setdefault(str(table), {})[str(column)] = (str(kind), identity == "YES")
    found.pop(VERSION_TABLE, None)
    return found


def _compare(tables: list[Table], target: dict[str, dict[str, tuple[str, bool]]]) -> None:
    """Refuse unless the target has the source's tables and columns, type for type."""
    problems = []
    if extra := sorted(target.keys() - {table.name for table in tables}):
        problems.append(f"the target has tables the source lacks: {', '.join(extra)}")
    for table in tables:
        theirs = target.get(table.name)
        if theirs is None:
            problems.append(f"the target has no table {table.name}")
            continue
        ours = dict(zip(table.columns, table.types, strict=True))
        if missing := [c for c in table.columns if c not in theirs]:
            problems.append(f"{table.name}: the target lacks {', '.join(missing)}")
        if extra := sorted(theirs.keys() - ours.keys()):
            problems.append(f"{table.name}: only the target has {', '.join(extra)}")
        for column, kind in ours.items():
            if column in theirs and theirs[column][0] != kind:
                problems.append(f"{table.name}.{column} is {theirs[column][0]}, not {kind}")
    if problems:
        raise CopyRefused("the schemas differ: " + "; ".join(problems) + "; nothing was written")


async def _copy(
    stx: Tx, target: Database, tables: list[Table], before: Books, say: Say, chunk: int
) -> Books:
    """The whole copy in one transaction of the target, checked before it commits."""
    shown = target.name
    try:
        async with target.transaction() as ttx:
            columns = await _target_columns(ttx)
            _compare(tables, columns)
            await ttx.execute(f"LOCK {', '.join(map(_q, columns))} IN EXCLUSIVE MODE")  # writers
            if filled := await _filled(ttx):
                raise _not_empty(shown, filled)
            say(f"target: {shown}, empty; copying {len(tables)} tables, parents first")
            for table in tables:
                copied = await _copy_table(stx, ttx, table, chunk)
                say(f"  {table.name}: {copied:,} {'row' if copied == 1 else 'rows'}")
            await _move_sequences(ttx, columns)
            after = await _books(ttx, list(before.counts))
            _check_equal(before, after)
    except (CopyRefused, DatabaseError):
        raise
    except (StorageError, asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
        raise CopyRefused(f"the copy into {shown} failed and was rolled back: {exc}") from exc
    say(f"verified before the commit, the same on both sides: {_describe(after)}")
    return after


async def _copy_table(stx: Tx, ttx: Tx, table: Table, chunk: int) -> int:
    """Copy one table by keyset, ``chunk`` rows at a time; return the rows copied."""
    rowid = table.key == ("rowid",)
    key = "rowid" if rowid else ", ".join(_q(c) for c in table.key)
    picked = ", ".join(_q(c) for c in table.columns)
    select = f"SELECT {key}, {picked} FROM {_q(table.name)}"
    insert = (
        f"INSERT INTO {_q(table.name)} ({picked}) VALUES ({', '.join('?' for _ in table.columns)})"
    )
    width = len(table.key)
    last: tuple[object, ...] = ()
    copied = 0
    while True:
        where = f" WHERE ({key}) > ({', '.join('?' * width)})" if last else ""
        batch = await stx.fetchall(f"{select}{where} ORDER BY {key} LIMIT ?", (*last, chunk))
        rows = [row[width:] for row in batch]
        for row in batch:
            _check_types(table, row[:width], row[width:])
        await ttx.executemany(insert, rows)
        copied += len(rows)
        if len(batch) < chunk:
            return copied
        last = tuple(batch[-1][:width])


def _check_types(table: Table, key: Row, row: Row) -> None:
    for column, kind, value in zip(table.columns, table.types, row, strict=True):
        if value is not None and type(value) is not _PYTHON[kind]:
            where = ", ".join(f"{c} = {v!r}" for c, v in zip(table.key, key, strict=True))
            raise CopyRefused(
                f"{table.name}.{column} holds a {type(value).__name__} where PostgreSQL needs "
                f"{kind} (in the row with {where}); nothing was written"
            )


async def _move_sequences(tx: Tx, columns: dict[str, dict[str, tuple[str, bool]]]) -> None:
    """Each identity column's sequence past the largest id copied, so new rows do not collide."""
    for table, found in sorted(columns.items()):
        for column, (_kind, identity) in sorted(found.items()):
            if identity:
                await tx.fetchval(
                    f"SELECT setval(pg_get_serial_sequence(?, ?), m) FROM "
                    f"(SELECT max({_q(column)}) AS m FROM {_q(table)}) s WHERE m IS NOT NULL",
                    (_q(table), column),
                )


async def _books(tx: Tx, names: Sequence[str]) -> Books:
    """The row counts of the tables ``names``, the ledger's audit and the coins held."""
    counts = {name: int(await tx.fetchval(f"SELECT count(*) FROM {_q(name)}")) for name in names}
    held = await tx.fetchall(
        "SELECT currency, SUM(balance) FROM accounts WHERE kind <> 'world' "
        "GROUP BY currency ORDER BY currency"
    )
    return Books(counts, await ledger.audit(tx), {str(c): int(s) for c, s in held})


def _check_balanced(name: str, audit: ledger.Audit) -> None:
    off = ", ".join(f"{s:,} {c}" for c, s in audit.balances_by_currency.items() if s)
    unbalanced, drifted = _ids(audit.unbalanced_movements), _ids(audit.drifted_accounts)
    checks = (
        (unbalanced, f"movements {unbalanced} do not have two entries summing to 0"),
        (drifted, f"accounts {drifted} hold a balance other than their entries' sum"),
        (audit.entries_total, f"the entries sum to {audit.entries_total:,}, not 0"),
        (off, f"the balances sum to {off}, not 0"),
    )
    if problems := [text for wrong, text in checks if wrong]:
        raise CopyRefused(
            f"the ledger of {name} does not balance, so it is not copied: " + "; ".join(problems)
        )


def _check_equal(before: Books, after: Books) -> None:
    """Refuse (rolling the copy back) unless the target's books are the source's."""
    if before.counts != after.counts:
        off = [n for n in before.counts if before.counts[n] != after.counts.get(n)]
        raise CopyRefused(f"row counts differ after the copy in {', '.join(off)}; rolled back")
    if before.audit != after.audit or before.held != after.held:
        raise CopyRefused(
            f"the ledger audit differs after the copy (source: {_describe(before)}; "
            f"target: {_describe(after)}); rolled back"
        )


def _describe(books: Books) -> str:
    audit = books.audit
    held = ", ".join(f"{s:,} {c}" for c, s in books.held.items() if s) or "none"
    return (
        f"{sum(books.counts.values()):,} rows in {len(books.counts)} tables; ledger: "
        f"{books.counts.get('ledger_entries', 0):,} entries summing to {audit.entries_total:,}, "
        f"{len(audit.unbalanced_movements)} unbalanced movements, "
        f"{len(audit.drifted_accounts)} drifted accounts; coins held outside the mints: {held}"
    )


def _ids(ids: Sequence[int]) -> str:
    shown = ", ".join(str(i) for i in ids[:_LISTED])
    return shown if len(ids) <= _LISTED else f"{shown} and {len(ids) - _LISTED} more"


def _q(name: str) -> str:
    """An identifier, quoted for both SQLite and PostgreSQL."""
    return '"' + name.replace('"', '""') + '"'


def scrub(text: str, url: str) -> str:
    """``text`` without the password of ``url`` (whatever shape the URL has)."""
    match = re.search(r"://[^:/@]*:([^@]*)@", url)
    return text.replace(match.group(1), "***") if match and match.group(1) else text
