"""The steps of a migration (:mod:`bot.storage.schema`): a statement both backends run, or one
for a single backend (:class:`Only`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True, slots=True)
class Only:
    """A migration step for one backend alone: where SQLite rebuilds a table to change its
    CHECKs, PostgreSQL alters them in place (and keeps the indexes the rebuild re-creates)."""

    dialect: Literal["sqlite", "postgres"]
    sql: str


Step = str | Only


def sqlite_only(*statements: str) -> tuple[Only, ...]:
    return tuple(Only("sqlite", sql) for sql in statements)


def replace_checks(table: str, *checks: str) -> tuple[Only, ...]:
    """PostgreSQL: drop every CHECK of ``table`` and add ``checks`` instead."""
    drop = (
        "DO $$ DECLARE c record; BEGIN FOR c IN SELECT conname FROM pg_constraint "
        f"WHERE conrelid = '{table}'::regclass AND contype = 'c' LOOP "
        f"EXECUTE format('ALTER TABLE {table} DROP CONSTRAINT %I', c.conname); END LOOP; END $$"
    )
    add = f"ALTER TABLE {table} " + ", ".join(f"ADD CHECK ({check})" for check in checks)
    return (Only("postgres", drop), Only("postgres", add))
