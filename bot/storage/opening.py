"""Opening the database: the backend follows from what is given (see :mod:`bot.storage.db`)."""

from __future__ import annotations

from pathlib import Path

from bot.storage.db import Database
from bot.storage.dialect import is_postgres


async def open_database(target: Path | str, *, upgrade_to: int | None = None) -> Database:
    """Open (or create) the database and bring its schema up to ``upgrade_to`` (the latest by
    default). ``target``: a ``postgresql://`` URL, or the path of a SQLite file."""
    given = {} if upgrade_to is None else {"upgrade_to": upgrade_to}
    if is_postgres(target):
        from bot.storage.postgres import PostgresDatabase  # asyncpg only when it is used

        return await PostgresDatabase.connect(str(target), **given)
    from bot.storage.sqlite import SqliteDatabase

    return await SqliteDatabase.connect(Path(target), **given)
