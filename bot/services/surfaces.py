"""What the tables have published to Discord: the publisher's marks (``bot.storage.surfaces``).

The Discord layer's publisher reads the marks, brings each surface up to the table's version and
records what it did here, once per pass (:meth:`SurfaceService.record`). Not a game step: writing
a mark never changes a table's version.

The marks are kept in memory once read: this service writes them, except ``claimed_version``,
which a step made through a click may also set in its own transaction (see
``TableService.act``'s ``replies``); the table service tells this one (:meth:`claimed_by_step`).
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable

from bot.services.errors import UnknownTable
from bot.services.writes import Writes
from bot.storage import surfaces
from bot.storage.db import Database, Tx
from bot.storage.surfaces import HandMark, Marks

__all__ = ["HandMark", "Marks", "SurfaceService"]

KEPT = 20_000
"""Tables whose marks are kept at most (the least recently used dropped first)."""


class SurfaceService:
    def __init__(self, db: Database) -> None:
        self._db = db
        self._kept: OrderedDict[int, Marks] = OrderedDict()
        self._writes = Writes(KEPT)
        """A read that a write to its table overlapped is not kept."""

    async def marks(self, table_id: int) -> Marks:
        kept = self._kept.get(table_id)
        if kept is not None:
            self._kept.move_to_end(table_id)
            return kept
        since = self._writes.now()
        async with self._db.read() as tx:
            found = await surfaces.marks(tx, table_id)
        if found is None:
            raise UnknownTable(table=table_id)
        if self._writes.untouched(table_id, since):
            self._keep(found)
        return found

    async def record(
        self,
        table_id: int,
        *,
        board: tuple[int, int] | None = None,
        hands: Iterable[HandMark] = (),
        posted: int | None = None,
        claimed: int | None = None,
    ) -> None:
        """What one pass drew, in one transaction: the board (``(message id, version)``), the
        hands, the last version whose posts went out, the last one claimed for follow-ups."""
        hands = list(hands)
        if board is None and not hands and posted is None and claimed is None:
            return
        self._writes.wrote(table_id)
        try:
            async with self._db.transaction() as tx:
                if board is not None:
                    await surfaces.set_board(tx, table_id, *board)
                for mark in hands:
                    await surfaces.set_hand(tx, table_id, mark)
                if posted is not None:
                    await surfaces.set_posted(tx, table_id, posted)
                if claimed is not None:
                    await surfaces.set_claimed(tx, table_id, claimed)
        except BaseException:
            self._kept.pop(table_id, None)
            raise
        finally:  # a read begun while it committed may not have seen it: that one is not kept
            self._writes.wrote(table_id)
        kept = self._kept.get(table_id)
        if kept is not None:
            self._kept[table_id] = _moved(kept, board, hands, posted, claimed)

    async def drew_board(self, table_id: int, message_id: int, version: int) -> None:
        await self.record(table_id, board=(message_id, version))

    async def started_thread(self, table_id: int, thread_id: int) -> None:
        """The table's thread (0: none could be started, the table talks in its channel)."""
        self._writes.wrote(table_id)
        try:
            async with self._db.transaction() as tx:
                await surfaces.set_thread(tx, table_id, thread_id)
        finally:
            self._writes.wrote(table_id)
            self._kept.pop(table_id, None)  # read again: the first one set wins

    @staticmethod
    def choose_thread(threaded: bool, allowed: bool) -> Callable[[Tx, int], Awaitable[None]]:
        """The table's thread choice, written by the transaction that opens it (``claim``):
        ``allowed`` False when the bot may not start threads there (it talks in the channel)."""

        async def claim(tx: Tx, table_id: int) -> None:
            if threaded:
                await surfaces.set_threaded(tx, table_id, True, None if allowed else 0)

        return claim

    async def claimed(self, table_id: int, version: int) -> None:
        """The announcement of ``version`` is about to go out as a follow-up (no nonce)."""
        await self.record(table_id, claimed=version)

    def claimed_by_step(self, table_id: int, version: int) -> None:
        """A step's own transaction claimed its version (it is committed)."""
        self._writes.wrote(table_id)
        kept = self._kept.get(table_id)
        if kept is not None:
            self._kept[table_id] = _moved(kept, None, (), None, version)

    def forget(self, table_id: int) -> None:
        """Read the table's marks again when next asked (another process may write them)."""
        self._writes.wrote(table_id)
        self._kept.pop(table_id, None)

    async def behind(self, game: str | None = None) -> list[int]:
        """Tables whose board or posts lag their version (see ``surfaces.behind``)."""
        async with self._db.read() as tx:
            return await surfaces.behind(tx, game)

    def _keep(self, marks: Marks) -> None:
        self._kept[marks.table_id] = marks
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)


def _moved(
    marks: Marks,
    board: tuple[int, int] | None,
    hands: Iterable[HandMark],
    posted: int | None,
    claimed: int | None,
) -> Marks:
    """The marks after :meth:`SurfaceService.record`, as its statements move them."""
    changes: dict[str, object] = {"hands": {**marks.hands, **{h.player: h for h in hands}}}
    if board is not None:
        message_id, version = board
        same = marks.message_id == message_id
        changes["message_id"] = message_id
        changes["board_version"] = max(marks.board_version, version) if same else version
    if posted is not None:
        changes["posted_version"] = max(marks.posted_version, posted)
    if claimed is not None:
        changes["claimed_version"] = max(marks.claimed_version, claimed)
    return dataclasses.replace(marks, **changes)  # type: ignore[arg-type]
