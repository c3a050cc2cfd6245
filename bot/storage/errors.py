"""Typed errors of the storage layer.

The services turn the domain ones (a refused debit, a taken name, a taken seat) into their own
user-facing errors. :class:`DatabaseError` and its subclasses are for the operator: they name the
file and say what is wrong, and are raised instead of a traceback from deep inside sqlite3.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal


class StorageError(Exception):
    """Base of everything this package raises on purpose."""


class DatabaseError(StorageError):
    """The database file cannot be used as it is. It is never replaced silently."""

    def __init__(self, path: Path | str, detail: str) -> None:
        self.path = path
        """The SQLite file, or the PostgreSQL server's URL without its password."""
        self.detail = detail
        super().__init__(self.describe())

    def describe(self) -> str:
        if isinstance(self.path, str):
            return f"the database {self.path} cannot be used: {self.detail}"
        return f"{self.path.name} cannot be used: {self.detail} (file: {self.path})"


class DatabaseUnreadable(DatabaseError):
    """Not a SQLite database, a directory, missing permissions, or a damaged file."""

    def describe(self) -> str:
        if isinstance(self.path, str):
            return f"the database {self.path} cannot be read: {self.detail}"
        return (
            f"{self.path.name} is not a readable SQLite database: {self.detail} (file: {self.path})"
        )


class SchemaTooNew(DatabaseError):
    """The file was written by a newer version of the bot; upgrading the bot is the fix."""

    def __init__(self, path: Path | str, found: int, known: int) -> None:
        self.found = found
        self.known = known
        super().__init__(path, f"schema version {found} is newer than this bot knows ({known})")


ConstraintKind = Literal["unique", "foreign_key", "not_null", "check"]


class ConstraintViolated(StorageError):
    """A statement broke one of the schema's constraints (on either backend). The repositories
    turn the ones they expect (a taken name, a taken seat) into their own errors."""

    def __init__(self, kind: ConstraintKind, detail: str) -> None:
        self.kind = kind
        self.detail = detail
        super().__init__(f"{kind} constraint: {detail}")


class DebitRefused(StorageError):
    """An account would have gone below zero. Nothing was written."""

    def __init__(self, account_id: int, amount: int, balance: int) -> None:
        self.account_id = account_id
        self.amount = amount
        self.balance = balance
        super().__init__(f"account {account_id}: cannot take {amount}, balance {balance}")


class NameTaken(StorageError):
    """Another living character of the guild already has this name (compared case-insensitively)."""

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(f"name taken: {name}")


class SeatTaken(StorageError):
    """The character already holds an exclusive seat (one match at a time) at another table."""

    def __init__(self, character_id: int, table_id: int | None) -> None:
        self.character_id = character_id
        self.table_id = table_id
        super().__init__(f"character {character_id} already seated at table {table_id}")


class VersionConflict(StorageError):
    """The table's version moved under us: the write was refused."""

    def __init__(self, table_id: int, expected: int) -> None:
        self.table_id = table_id
        self.expected = expected
        super().__init__(f"table {table_id} is no longer at version {expected}")


class UnknownCharacterRow(StorageError):
    """A row would name a character that does not exist (its foreign key refused it): a purse or
    a seat for a character id that was never created."""

    def __init__(self, character_id: int) -> None:
        super().__init__(f"no character {character_id}")
        self.character_id = character_id
