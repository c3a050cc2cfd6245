"""Pazaak challenges: pending until answered, and accepted in ONE transaction with the table they
open (both wagers escrowed), so a crash can never leave held wagers behind a live challenge."""

from __future__ import annotations

from bot.services.clock import Clock, wall_clock
from bot.services.errors import ChallengeAnswered, ChallengeExpired, UnknownChallenge
from bot.services.npcs import NpcService
from bot.services.outcomes import TableOutcome
from bot.services.tables import Start, TableService
from bot.storage import challenges, npcs, surfaces
from bot.storage.challenges import ChallengeRow, ChallengeStatus
from bot.storage.db import Database, Tx

__all__ = ["ChallengeRow", "ChallengeService", "ChallengeStatus"]

GAME = "pazaak"


def table_key(challenge_id: int) -> str:
    """The idempotency key of the table a challenge opens."""
    return f"pazaak:challenge:{challenge_id}"


class ChallengeService:
    def __init__(
        self,
        db: Database,
        tables: TableService,
        *,
        clock: Clock = wall_clock,
        npcs: NpcService | None = None,
    ) -> None:
        self._db = db
        self._tables = tables
        self._clock = clock
        self._npcs = npcs

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        challenger: int,
        opponent: int,
        created_by: int,
        settings: str,
        seconds: int,
        referee: int | None = None,
        personality: str | None = None,
        house_edge: bool = False,
        thread: bool = False,
    ) -> ChallengeRow:
        """A pending challenge that expires after ``seconds``; nothing is held yet. ``referee``:
        the GM who referees a match with skills (the table it opens is theirs). ``personality``:
        the challenger is an NPC the bot plays, as this personality (``house_edge``: with every
        hand in view). ``thread``: the table talks in a thread of its own."""
        async with self._db.transaction() as tx:
            challenge_id = await challenges.insert(
                tx,
                guild_id=guild_id,
                channel_id=channel_id,
                challenger=challenger,
                opponent=opponent,
                created_by=created_by,
                settings=settings,
                expires_at=self._clock() + seconds * 1000,
                referee=referee,
                personality=personality,
                house_edge=house_edge and personality is not None,
                thread=thread,
            )
            return await self._get(tx, challenge_id)

    async def get(self, challenge_id: int) -> ChallengeRow:
        async with self._db.read() as tx:
            return await self._get(tx, challenge_id)

    async def set_message(self, challenge_id: int, message_id: int) -> None:
        async with self._db.transaction() as tx:
            await challenges.set_message(tx, challenge_id, message_id)

    async def accept(self, challenge_id: int, start: Start, *, actor_id: int) -> TableOutcome:
        """Open the match (escrowing both wagers) and mark the challenge accepted, together.

        Raises :class:`ChallengeAnswered` if it is not pending, :class:`ChallengeExpired` (and
        marks it so) if its time ran out; the table's own errors (a short purse, a player busy in
        another match) with nothing changed.
        """
        row = await self.get(challenge_id)
        if row.status != "pending":
            raise ChallengeAnswered(status=row.status)
        if self._clock() > row.expires_at:
            await self.expire_due()
            raise ChallengeExpired()

        async def claim(tx: Tx, table_id: int) -> None:
            if not await challenges.answer(tx, challenge_id, "accepted", self._clock(), table_id):
                raise ChallengeAnswered(status="answered")
            if row.personality is not None:  # the bot plays the challenger from the first step
                await npcs.put(
                    tx, table_id, row.challenger, row.personality, house_edge=row.house_edge
                )
            if row.thread:
                await surfaces.set_threaded(tx, table_id, True, None)

        outcome = await self._tables.create(
            GAME,
            start,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            actor_id=actor_id,
            opener=row.referee,
            key=table_key(challenge_id),
            claim=claim,
        )
        if self._npcs is not None and row.personality is not None:
            self._npcs.forget(outcome.table_id)
        return outcome

    async def answer(self, challenge_id: int, status: ChallengeStatus) -> ChallengeRow:
        """Decline or withdraw a pending challenge (an expired one becomes ``expired``)."""
        now = self._clock()
        async with self._db.transaction() as tx:
            row = await self._get(tx, challenge_id)
            if row.status != "pending":
                raise ChallengeAnswered(status=row.status)
            how: ChallengeStatus = "expired" if now > row.expires_at else status
            await challenges.answer(tx, challenge_id, how, now)
            return await self._get(tx, challenge_id)

    async def expire_due(self) -> list[int]:
        """Mark the pending challenges whose time ran out as expired; their ids.

        Of every guild, also those of other processes' shards: one guarded UPDATE, which any
        process may make (it only marks what is pending and past its time, and an Accept racing
        it loses in its own transaction); only the redraw, :meth:`undrawn`, is per shard."""
        async with self._db.transaction() as tx:
            return await challenges.expire(tx, self._clock())

    async def undrawn(self) -> list[ChallengeRow]:
        """Answered challenges whose message does not show the answer yet, of the guilds this
        process owns (``bot.shards``)."""
        async with self._db.read() as tx:
            rows = await challenges.undrawn(tx)
        owns = self._tables.ownership.owns
        return [row for row in rows if owns(row.guild_id)]

    async def drew(self, challenge_id: int) -> None:
        async with self._db.transaction() as tx:
            await challenges.set_drawn(tx, challenge_id)

    async def next_expiry(self) -> int | None:
        async with self._db.read() as tx:
            return await challenges.next_expiry(tx)

    @staticmethod
    async def _get(tx: Tx, challenge_id: int) -> ChallengeRow:
        row = await challenges.get(tx, challenge_id)
        if row is None:
            raise UnknownChallenge(challenge=challenge_id)
        return row
