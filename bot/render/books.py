"""The GM's books as shown: the evening's report embed, a void's notice, and the export's files.

The report's public copy (posted in the channel) never shows the cheats nobody caught: only the
GM's own (ephemeral) copy does.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import os
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Protocol

import discord

from bot.i18n import Lang, clip, quote, t
from bot.render.limits import CHOICE_NAME_MAX, CONTENT_MAX, content, fit
from bot.render.purse import REASON_MAX, amount
from bot.render.tables import game_name

REPORT_COLOUR = 0x6B4F2A
MINUS = "\u2212"
FIELD_BUDGET = 640
"""The most characters one section of the report shows: its eight fields then stay within an
embed's 6,000 all together, so a long evening never pushes the last sections out."""


class Pot(Protocol):
    @property
    def table_id(self) -> int: ...
    @property
    def game(self) -> str: ...
    @property
    def currency(self) -> str: ...
    @property
    def amount(self) -> int: ...


class PurseMove(Protocol):
    """One purse's side of a movement (``amount`` signed: into the purse is positive)."""

    @property
    def movement_id(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def currency(self) -> str: ...
    @property
    def amount(self) -> int: ...
    @property
    def reason(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def reversed_kind(self) -> str | None: ...


class Cheat(Protocol):
    @property
    def table_id(self) -> int: ...
    @property
    def cheater(self) -> str: ...
    @property
    def caught_by(self) -> tuple[str, ...]: ...


class Report(Protocol):
    @property
    def since(self) -> int: ...
    @property
    def until(self) -> int: ...
    @property
    def nets(self) -> tuple[tuple[str, str, int], ...]: ...
    @property
    def pots(self) -> Sequence[Pot]: ...
    @property
    def offerings(self) -> tuple[tuple[str, str, int], ...]: ...
    @property
    def gm_moves(self) -> Sequence[PurseMove]: ...
    @property
    def corrections(self) -> Sequence[PurseMove]: ...
    @property
    def voided_tables(self) -> tuple[int, ...]: ...
    @property
    def cheats(self) -> Sequence[Cheat]: ...
    @property
    def opened(self) -> int: ...
    @property
    def closed(self) -> Mapping[str, int]: ...


class Change(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def currency(self) -> str: ...
    @property
    def amount(self) -> int: ...
    @property
    def balance(self) -> int: ...


class Voided(Protocol):
    @property
    def table_id(self) -> int | None: ...
    @property
    def movement_id(self) -> int | None: ...
    @property
    def corrections(self) -> int: ...
    @property
    def changes(self) -> Sequence[Change]: ...


class ExportRow(Protocol):
    @property
    def movement_id(self) -> int: ...
    @property
    def at(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def reason(self) -> str: ...
    @property
    def currency(self) -> str: ...
    @property
    def amount(self) -> int: ...
    @property
    def table_id(self) -> int | None: ...
    @property
    def game(self) -> str | None: ...
    @property
    def reverses(self) -> int | None: ...
    @property
    def actor_id(self) -> int | None: ...
    @property
    def source_kind(self) -> str: ...
    @property
    def source_character(self) -> int | None: ...
    @property
    def source_name(self) -> str | None: ...
    @property
    def target_kind(self) -> str: ...
    @property
    def target_character(self) -> int | None: ...
    @property
    def target_name(self) -> str | None: ...


def signed(lang: Lang, units: int, currency: str) -> str:
    return ("+" if units >= 0 else MINUS) + amount(lang, abs(units), currency)


def _field(lang: Lang, lines: Sequence[str]) -> str:
    """Lines up to a section's budget; what does not fit is counted, never cut mid-line."""
    if not lines:
        return t(lang, "books.report.none")
    shown: list[str] = []
    used = 0
    for index, text in enumerate(lines):
        more = t(lang, "books.report.more", count=len(lines) - index)
        if used + len(text) + 1 + len(more) > FIELD_BUDGET and index < len(lines) - 1:
            shown.append(more)
            break
        shown.append(text)
        used += len(text) + 1
    return clip("\n".join(shown), FIELD_BUDGET)


def _name(name: str) -> str:
    return f"**{quote(name)}**"


def _move(lang: Lang, move: PurseMove) -> str:
    """A GM grant or take (with its reason), or one side of a movement a correction undid."""
    if move.kind == "correction":
        what = t(lang, f"books.report.undone.{move.reversed_kind}")
    else:
        what = t(lang, f"books.report.{move.kind}")
    text = f"{_name(move.name)} {signed(lang, move.amount, move.currency)} ({what})"
    if move.kind != "correction" and move.reason and move.reason != move.kind:
        text += ": " + quote(move.reason, REASON_MAX)
    return text


def _cheat(lang: Lang, cheat: Cheat) -> str:
    if not cheat.caught_by:
        return t(lang, "books.report.cheat_missed", name=_name(cheat.cheater), table=cheat.table_id)
    by = ", ".join(_name(n) for n in cheat.caught_by)
    return t(
        lang, "books.report.cheat_caught", name=_name(cheat.cheater), table=cheat.table_id, by=by
    )


def report(lang: Lang, books: Report, *, gm_copy: bool) -> discord.Embed:
    """The evening in one embed. ``gm_copy``: the GM's own copy, with the cheats missed."""
    embed = discord.Embed(
        title=t(lang, "books.report.title"),
        description=t(
            lang, "books.report.window", since=books.since // 1000, until=books.until // 1000
        ),
        colour=REPORT_COLOUR,
    )
    nets = [f"{_name(n)} {signed(lang, s, c)}" for n, c, s in books.nets]
    pots = [
        t(
            lang,
            "books.report.pot",
            table=p.table_id,
            game=game_name(lang, p.game),
            amount=amount(lang, p.amount, p.currency),
        )
        for p in books.pots
    ]
    offerings = [f"{_name(n)} {amount(lang, s, c)}" for n, c, s in books.offerings]
    fixes = [t(lang, "books.report.voided_table", table=n) for n in books.voided_tables]
    fixes += [_move(lang, m) for m in books.corrections]
    caught = [_cheat(lang, c) for c in books.cheats if c.caught_by]
    sections = [
        ("nets", nets),
        ("pots", pots),
        ("offerings", offerings),
        ("gm_moves", [_move(lang, m) for m in books.gm_moves]),
        ("corrections", fixes),
        ("caught", caught),
    ]
    if gm_copy:
        sections.append(("missed", [_cheat(lang, c) for c in books.cheats if not c.caught_by]))
    for key, lines in sections:
        embed.add_field(
            name=t(lang, f"books.report.{key}"), value=_field(lang, lines), inline=False
        )
    tables_line = t(
        lang,
        "books.report.tables_line",
        opened=books.opened,
        finished=books.closed.get("finished", 0),
        cancelled=books.closed.get("cancelled", 0),
    )
    embed.add_field(name=t(lang, "books.report.tables"), value=tables_line, inline=False)
    if gm_copy:
        embed.set_footer(text=t(lang, "books.report.gm_only"))
    return fit(embed)


def voided(lang: Lang, done: Voided) -> str:
    """The notice of a void: what was undone, and every purse it changed."""
    if done.table_id is not None:
        head = t(lang, "books.void.table", table=done.table_id, count=done.corrections)
    else:
        head = t(lang, "books.void.movement", movement=done.movement_id)
    changes = ", ".join(
        t(
            lang,
            "books.void.change",
            name=_name(c.name),
            amount=signed(lang, c.amount, c.currency),
            balance=signed(lang, c.balance, c.currency).lstrip("+"),
        )
        for c in done.changes
    )
    text = head if not changes else t(lang, "books.void.changes", head=head, changes=changes)
    return clip(text, CONTENT_MAX)


def exported(lang: Lang, rows: int, name: str | None) -> str:
    if name is None:
        return content(t(lang, "books.export.guild", count=rows))
    return content(t(lang, "books.export.character", count=rows, name=_name(name)))


def overdraft(lang: Lang, allowed: bool) -> str:
    return t(lang, "books.overdraft.on" if allowed else "books.overdraft.off")


def movement_choice(lang: Lang, row: ExportRow) -> str:
    """A grant, take or payment as ``/gm void movement`` offers it."""
    text = t(
        lang,
        f"books.choice.{row.kind}",
        movement=row.movement_id,
        amount=amount(lang, row.amount, row.currency),
        source=quote(_party(row.source_kind, row.source_name)),
        target=quote(_party(row.target_kind, row.target_name)),
    )
    if row.reason and row.reason != row.kind:
        text = t(lang, "purse.with_reason", text=text, reason=quote(row.reason))
    return clip(text, CHOICE_NAME_MAX)


def _party(kind: str, name: str | None) -> str:
    return (name or "?") if kind == "purse" else kind


def export_record(lang: Lang, row: ExportRow) -> dict[str, object]:
    """One movement as both files show it: the amount in the smallest unit, and as coins in
    ``lang`` beside it; time in UTC (ISO 8601)."""
    return {
        "movement": row.movement_id,
        "at": datetime.fromtimestamp(row.at / 1000, UTC).isoformat(timespec="seconds"),
        "kind": row.kind,
        "reason": row.reason,
        "game": row.game or "",
        "table": row.table_id,
        "currency": row.currency,
        "amount": row.amount,
        "amount_text": amount(lang, row.amount, row.currency),
        "from": _party(row.source_kind, row.source_name),
        "from_character": row.source_character,
        "to": _party(row.target_kind, row.target_name),
        "to_character": row.target_character,
        "reverses": row.reverses,
        "actor": row.actor_id,
    }


class ExportFiles:
    """The export's CSV and JSON attachments, written a chunk of rows at a time (by the books
    service) into temporary files, so no more than a chunk is ever in memory. Close it."""

    def __init__(self, lang: Lang) -> None:
        self.lang: Lang = lang
        self.csv = _scratch()
        self.json = _scratch()
        self.rows = 0
        self.packed: set[str] = set()
        """The files gzipped to fit Discord's upload limit (see :meth:`fit`)."""

    def write(self, rows: Sequence[ExportRow]) -> None:
        records = [export_record(self.lang, row) for row in rows]
        text = io.StringIO()
        writer = csv.writer(text, lineterminator="\n")
        if self.rows == 0 and records:
            writer.writerow(records[0].keys())
            self.json.write(b"[\n")
        writer.writerows(r.values() for r in records)
        self.csv.write(text.getvalue().encode("utf-8"))
        lines = ",\n".join(json.dumps(r, ensure_ascii=False) for r in records)
        self.json.write(((",\n" if self.rows else "") + lines).encode("utf-8"))
        self.rows += len(records)

    def finish(self) -> None:
        """End the JSON array and rewind both files for reading."""
        self.json.write(b"\n]\n" if self.rows else b"[]\n")
        for handle in (self.csv, self.json):
            handle.flush()
            handle.seek(0)

    def fit(self, limit: int) -> bool:
        """Gzip each file larger than ``limit`` bytes (the upload limit); False if one is still
        too large. Both are rewound."""
        fits = True
        for name in ("csv", "json"):
            handle: io.BufferedRandom = getattr(self, name)
            size = handle.seek(0, io.SEEK_END)
            handle.seek(0)
            if size > limit:
                packed = _scratch()
                with gzip.GzipFile(filename=f"ledger.{name}", mode="wb", fileobj=packed) as out:
                    shutil.copyfileobj(handle, out)
                handle.close()
                size = packed.tell()
                packed.seek(0)
                setattr(self, name, packed)
                self.packed.add(name)
            fits = fits and size <= limit
        return fits

    def filename(self, stem: str, name: str) -> str:
        return f"{stem}.{name}.gz" if name in self.packed else f"{stem}.{name}"

    def close(self) -> None:
        self.csv.close()
        self.json.close()


def _scratch() -> io.BufferedRandom:
    """A temporary file already unlinked: it goes away when closed, or with the process."""
    fd, path = tempfile.mkstemp(prefix="szulernia-export-")
    os.unlink(path)
    return open(fd, "w+b")  # its ExportFiles closes it
