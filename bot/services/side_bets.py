"""Side bets: a spectator backs a seat of a table from their own character's purse.

- A table takes side bets when its settings say so (``side_bets``), until its first decisive
  moment: Pegasus until Start, Pazaak until the first step after the match opened (the Accept).
- A bet is one transaction: the bet's row and the stake, the bettor's purse to the table's
  escrow account through the ledger (a guarded debit: a purse never goes below zero). It is
  placed against the table's version, so a Start committed meanwhile refuses it.
- Nobody who plays a seat of the table bets on it (their own characters or the NPCs they run);
  one bet per user and table.
- The table's end settles every open bet in the step that ends it (:func:`settle_side_bets`,
  called by ``write_step``), pari-mutuel (``bot.rules.side_bets``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.rules import pazaak, pegaz
from bot.rules import side_bets as pool
from bot.rules.common import DomainError
from bot.services.clock import Clock, wall_clock
from bot.services.errors import AmountNotPositive, PurseTooLow, UnknownCharacter, UnknownTable
from bot.services.outcomes import TableView
from bot.storage import characters, ledger, tables
from bot.storage import side_bets as rows
from bot.storage.db import Database, Tx
from bot.storage.errors import DebitRefused
from bot.storage.ledger import Movement, MovementKind
from bot.storage.side_bets import BetRow, BetStatus, BetTaken
from bot.storage.tables import Status

REASON = "side bet"
RETRIES = 3


class SideBetsOff(DomainError):
    code = "side_bets_off"


class SideBetsClosed(DomainError):
    """The table's first decisive moment has passed, or the table is over (``table``)."""

    code = "side_bets_closed"


class SideBetSeated(DomainError):
    """The user plays a seat of this table."""

    code = "side_bet_seated"


class SideBetOpener(DomainError):
    """The user runs this table (its opener, a Pazaak match's referee): they may rule on it."""

    code = "side_bet_opener"


class SideBetTwice(DomainError):
    code = "side_bet_twice"


class SideBetNoSeat(DomainError):
    code = "side_bet_no_seat"


class _Moved(Exception):
    """The table moved on between reading it and the bet's transaction."""


def enabled(state: Any) -> bool:
    return bool(getattr(getattr(state, "settings", None), "side_bets", False))


def seats_in(game: str, state: Any) -> list[int]:
    """Every player seated, in seat order."""
    if game == pegaz.GAME:
        return [s.player for s in state.seats]
    if game == pazaak.GAME:
        return [p.id for p in state.players]
    return []


def seats_of(view: TableView) -> list[int]:
    """The seats a bet may back: every player seated, in seat order."""
    return seats_in(view.game, view.state)


def betting_open(view: TableView) -> bool:
    """Whether the table takes side bets now (see the module docstring)."""
    if not enabled(view.state) or view.status in ("finished", "cancelled"):
        return False
    if view.game == pegaz.GAME:
        return bool(view.state.phase is pegaz.Phase.SEATING)
    if view.game == pazaak.GAME:
        return view.version == 1  # the Accept's step; any move after it closes the bets
    return False


def winner_of(game: str, state: Any, status: Status) -> int | None:
    """The one winner of an ended table, or None (cancelled, a split or rolled-over pot)."""
    if status != "finished":
        return None
    if game == pegaz.GAME:
        winners = tuple(state.winners)
        return winners[0] if len(winners) == 1 else None
    if game == pazaak.GAME:
        return None if state.winner is None else int(state.winner)
    return None


@dataclass(frozen=True, slots=True)
class Book:
    """A table's side bets as anyone may see them (bets are public; who placed one is not
    shown to other spectators)."""

    bets: tuple[BetRow, ...]

    def pools(self) -> dict[int, int]:
        """Seat -> the coins staked on it."""
        found: dict[int, int] = {}
        for bet in self.bets:
            found[bet.seat] = found.get(bet.seat, 0) + bet.amount
        return found

    @property
    def total(self) -> int:
        return sum(bet.amount for bet in self.bets)

    def mine(self, user_id: int) -> BetRow | None:
        return next((b for b in self.bets if b.user_id == user_id), None)

    @property
    def settled(self) -> bool:
        return bool(self.bets) and all(b.status != "open" for b in self.bets)

    @property
    def refunded(self) -> bool:
        return self.settled and all(b.status == "refunded" for b in self.bets)

    @property
    def winner(self) -> int | None:
        """The seat whose backers were paid, once settled so."""
        return next((b.seat for b in self.bets if b.status == "won"), None)


@dataclass(frozen=True, slots=True)
class Placed:
    bet_id: int
    table_id: int
    character_id: int
    seat: int
    amount: int
    currency: str


class Tables(Protocol):
    """What the bets read of the table service: a table as it stands now."""

    async def get(self, table_id: int) -> TableView: ...


class SideBetService:
    def __init__(self, db: Database, tables: Tables, *, clock: Clock = wall_clock) -> None:
        self._db = db
        self._tables = tables
        self._clock = clock

    async def book(self, table_id: int) -> Book:
        async with self._db.read() as tx:
            return Book(tuple(await rows.of_table(tx, table_id)))

    async def place(
        self,
        table_id: int,
        *,
        guild_id: int,
        user_id: int,
        character_id: int,
        seat: int,
        amount: int,
    ) -> Placed:
        """Stake ``amount`` of ``character_id``'s purse on ``seat`` (see the module docstring).
        Raises a :class:`DomainError` (nothing written) for every refusal."""
        if isinstance(amount, bool) or amount <= 0:
            raise AmountNotPositive(amount=amount)
        for attempt in range(RETRIES):
            view = await self._tables.get(table_id)
            if view.guild_id != guild_id:
                raise UnknownTable(table=table_id)
            _require_open(view, seat)
            try:
                return await self._write(view, user_id, character_id, seat, amount)
            except _Moved:
                if attempt == RETRIES - 1:
                    raise SideBetsClosed(table=table_id) from None
        raise AssertionError("unreachable")

    async def _write(
        self, view: TableView, user_id: int, character_id: int, seat: int, amount: int
    ) -> Placed:
        at = self._clock()
        table_id = view.table_id
        async with self._db.transaction() as tx:
            committed = await rows.table_version(tx, table_id)
            if committed is None or committed[0] != view.version:
                raise _Moved()
            if committed[1] == user_id:
                raise SideBetOpener(table=table_id)
            await _require_bettor(tx, view, user_id, character_id)
            escrow = await rows.escrow_account(tx, view.guild_id, table_id, view.currency)
            purse = await ledger.purse_account(tx, view.guild_id, view.currency, character_id)
            try:
                bet_id = await rows.insert(
                    tx,
                    table_id=table_id,
                    user_id=user_id,
                    character_id=character_id,
                    seat=seat,
                    amount=amount,
                    at=at,
                )
            except BetTaken:
                raise SideBetTwice(table=table_id) from None
            movement = Movement(at, user_id, "stake", REASON, view.currency, table_id)
            try:
                await ledger.move(tx, purse, escrow, amount, movement)
            except DebitRefused as exc:
                raise PurseTooLow(
                    character=character_id,
                    amount=amount,
                    balance=exc.balance,
                    currency=view.currency,
                ) from exc
        return Placed(bet_id, table_id, character_id, seat, amount, view.currency)


def _require_open(view: TableView, seat: int) -> None:
    if not enabled(view.state):
        raise SideBetsOff(table=view.table_id)
    if not betting_open(view):
        raise SideBetsClosed(table=view.table_id)
    if seat not in seats_of(view):
        raise SideBetNoSeat(table=view.table_id)


async def _require_bettor(tx: Tx, view: TableView, user_id: int, character_id: int) -> None:
    """The user plays no seat here, and the bettor's character is theirs and of this guild."""
    if user_id in await rows.owners(tx, seats_of(view)):
        raise SideBetSeated(table=view.table_id)
    row = await characters.get(tx, character_id)
    if row is None or row.guild_id != view.guild_id or row.owner_id != user_id:
        raise UnknownCharacter(character=character_id)


# --- the table's end ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Settled:
    winner: int | None
    refund: bool
    total: int


async def settle_side_bets(
    tx: Tx,
    *,
    table_id: int,
    game: str,
    currency: str,
    state: Any,
    status: Status,
    actor_id: int | None,
    at: int,
) -> Settled | None:
    """Pay out (or refund) every open bet of a table that this step ends, in its transaction:
    escrow to each bettor's purse through the ledger. A bet whose user took a seat at the table
    after placing it is refunded, outside the pool. None when the table had no open bet."""
    bets = [b for b in await rows.of_table(tx, table_id) if b.status == "open"]
    if not bets:
        return None
    winner = winner_of(game, state, status)
    players = await rows.owners(tx, seats_in(game, state))
    fair = [pool.Stake(b.id, b.seat, b.amount) for b in bets if b.user_id not in players]
    settlement = pool.settle(fair, winner)
    voided = {b.id: b.amount for b in bets if b.user_id in players}
    escrow = await rows.find_escrow(tx, table_id)
    if escrow is None:  # pragma: no cover - a bet's stake always opened it
        raise LookupError(f"table {table_id} has bets but no escrow")
    found = await tables.get(tx, table_id)
    if found is None:  # pragma: no cover - the step that ends it has just moved it
        raise LookupError(f"table {table_id} is gone")
    guild = found.guild_id
    purses = await ledger.purse_accounts(tx, guild, currency, {b.character_id for b in bets})
    for bet in bets:
        refund = settlement.refund or bet.id in voided
        paid = voided.get(bet.id) or settlement.paid[bet.id]
        status_of: BetStatus = "refunded" if refund else "won" if paid else "lost"
        if paid:
            kind: MovementKind = "refund" if refund else "payout"
            reason = f"{REASON} refund" if refund else REASON
            movement = Movement(at, actor_id, kind, reason, currency, table_id)
            await ledger.move(tx, escrow, purses[bet.character_id], paid, movement)
        await rows.close(tx, bet.id, status_of, paid)
    return Settled(winner, settlement.refund, settlement.total + sum(voided.values()))


def pools_text_order(book: Book, seats: Sequence[int]) -> list[tuple[int, int]]:
    """``(seat, staked)`` for every seat, in seat order (0 where nobody backed it)."""
    pools = book.pools()
    return [(seat, pools.get(seat, 0)) for seat in seats]
