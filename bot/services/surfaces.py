"""What the tables have published to Discord: the publisher's marks (``bot.storage.surfaces``).

The Discord layer's publisher reads the marks, brings each surface up to the table's version and
records what it did here. Not a game step: writing a mark never changes a table's version."""

from __future__ import annotations

from bot.services.errors import UnknownTable
from bot.storage import surfaces
from bot.storage.db import Database
from bot.storage.surfaces import HandMark, Marks

__all__ = ["HandMark", "Marks", "SurfaceService"]


class SurfaceService:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def marks(self, table_id: int) -> Marks:
        async with self._db.read() as tx:
            found = await surfaces.marks(tx, table_id)
        if found is None:
            raise UnknownTable(table=table_id)
        return found

    async def drew_board(self, table_id: int, message_id: int, version: int) -> None:
        async with self._db.transaction() as tx:
            await surfaces.set_board(tx, table_id, message_id, version)

    async def posted(self, table_id: int, version: int) -> None:
        async with self._db.transaction() as tx:
            await surfaces.set_posted(tx, table_id, version)

    async def claimed(self, table_id: int, version: int) -> None:
        """The announcement of ``version`` is about to go out as a follow-up (no nonce)."""
        async with self._db.transaction() as tx:
            await surfaces.set_claimed(tx, table_id, version)

    async def drew_hand(self, table_id: int, mark: HandMark) -> None:
        async with self._db.transaction() as tx:
            await surfaces.set_hand(tx, table_id, mark)

    async def behind(self, game: str | None = None) -> list[int]:
        """Tables whose board or posts lag their version (see ``surfaces.behind``)."""
        async with self._db.read() as tx:
            return await surfaces.behind(tx, game)
