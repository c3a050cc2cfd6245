"""SQLite storage: the connection wrapper, migrations, and one repository module per concern.

All SQL of the bot lives in this package. Repositories are plain async functions that take a
:class:`~bot.storage.db.Tx` from ``Database.transaction()`` (writes) or ``Database.read()``.
"""

from bot.storage.db import Database, Tx
from bot.storage.errors import DatabaseError, DatabaseUnreadable, SchemaTooNew, StorageError

__all__ = ["Database", "DatabaseError", "DatabaseUnreadable", "SchemaTooNew", "StorageError", "Tx"]
