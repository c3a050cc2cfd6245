"""Opening the database: the backend follows from what is given (see :mod:`bot.storage.db`)."""

from __future__ import annotations

from pathlib import Path

from bot.storage.db import Database
from bot.storage.dialect import is_postgres


async def open_database(
    target: Path | str, *, upgrade_to: int | None = None, check_later: bool = False
) -> Database:
    """Open (or create) the database and bring its schema up to ``upgrade_to`` (the latest by
    default). ``target``: a ``postgresql://`` URL, or the path of a SQLite file.

    A SQLite file's integrity check reads the whole file (about 0.1 s for 10,000 open tables).
    ``check_later``: return while it runs, on a thread of its own, when no migration is due
    (a migration waits for it); the caller awaits :meth:`Database.checked` before it trusts the
    data (the bot: before it connects to Discord)."""
    given = {} if upgrade_to is None else {"upgrade_to": upgrade_to}
    if is_postgres(target):
        from bot.storage.postgres import PostgresDatabase  # asyncpg only when it is used

        return await PostgresDatabase.connect(str(target), **given)
    from bot.storage.sqlite import SqliteDatabase

    return await SqliteDatabase.connect(Path(target), check_later=check_later, **given)
