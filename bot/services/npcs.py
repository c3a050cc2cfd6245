"""Which seats the bot plays: computer-played NPCs, their personalities, and the GM's takeover.

Kept in memory once read (every live table's seats in one query, the first time), and written
through here, so the NPC players' loop asks without SQL. A table's seats are read again only
after :meth:`forget` (a write made elsewhere, e.g. a challenge that opened a table with one).
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.services.errors import ServiceError
from bot.storage import npcs
from bot.storage.db import Database
from bot.storage.npcs import NpcSeat

__all__ = ["NotAComputerSeat", "NpcSeat", "NpcService"]


class NotAComputerSeat(ServiceError):
    """The character holds no seat the bot plays at that table (``character``, ``table``)."""

    code = "not_a_computer_seat"


class NpcService:
    def __init__(self, db: Database) -> None:
        self._db = db
        self._seats: dict[int, dict[int, NpcSeat]] = {}
        self._loaded = False
        self._stale: set[int] = set()
        """Tables forgotten since the load: read again when asked."""

    async def load(self) -> None:
        """Every live table's computer seats, in one read (at start, before the loop runs)."""
        async with self._db.read() as tx:
            rows = await npcs.live(tx)
        found: dict[int, dict[int, NpcSeat]] = {}
        for seat in rows:
            found.setdefault(seat.table_id, {})[seat.player] = seat
        self._seats = found | self._seats  # a table written meanwhile keeps what was written
        self._loaded = True

    def tables(self) -> list[int]:
        """The tables with computer seats, as far as this service knows them."""
        return [table_id for table_id, seats in self._seats.items() if seats]

    async def seats(self, table_id: int) -> Mapping[int, NpcSeat]:
        """The table's computer seats by character id (taken-over ones included)."""
        known = self._seats.get(table_id)
        if known is not None:
            return known
        if self._loaded and table_id not in self._stale:
            return {}  # none at the load, and none written here since
        async with self._db.read() as tx:
            rows = await npcs.of_table(tx, table_id)
        found = {seat.player: seat for seat in rows}
        self._seats[table_id] = found
        self._stale.discard(table_id)
        return found

    async def seat(
        self, table_id: int, player: int, personality: str, *, house_edge: bool = False
    ) -> NpcSeat:
        """The bot plays ``player``'s seat at the table from now on, as ``personality``
        (``house_edge``: with every hand in view, see ``bot.ai.peeking``)."""
        async with self._db.transaction() as tx:
            await npcs.put(tx, table_id, player, personality, house_edge=house_edge)
        self.forget(table_id)
        return (await self.seats(table_id))[player]

    async def set_computer(self, table_id: int, player: int, computer: bool) -> NpcSeat:
        """The GM takes the seat over (``computer`` False) or hands it back to the bot."""
        async with self._db.transaction() as tx:
            if not await npcs.set_computer(tx, table_id, player, computer):
                raise NotAComputerSeat(character=player, table=table_id)
        self.forget(table_id)
        return (await self.seats(table_id))[player]

    def forget(self, table_id: int) -> None:
        """Read the table's seats again when next asked (they were written elsewhere)."""
        self._seats.pop(table_id, None)
        self._stale.add(table_id)
