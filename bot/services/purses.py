"""Purses: balances, GM grants and takes, payments between characters, history.

Every movement is one ledger movement (see ``bot.storage.ledger``) written in its own
transaction. A GM grant comes from the guild's "world" account and a take goes back to it, so the
books always balance; the world account is the only one that may go below zero.
"""

from __future__ import annotations

from bot.rules.money import CURRENCIES
from bot.services.clock import Clock, wall_clock
from bot.services.errors import (
    AmountNotPositive,
    NotOwner,
    PurseTooLow,
    SamePurse,
    UnknownCharacter,
    UnknownCurrency,
)
from bot.services.outcomes import HistoryPage, Receipt, purse_line_of
from bot.storage import characters, ledger
from bot.storage.characters import CharacterRow
from bot.storage.db import Database, Tx
from bot.storage.errors import DebitRefused
from bot.storage.ledger import Audit, Movement, MovementKind

MAX_PAGE = 100


class PurseService:
    def __init__(self, db: Database, *, clock: Clock = wall_clock) -> None:
        self._db = db
        self._clock = clock

    async def balance(self, character_id: int, currency: str) -> int:
        _check_currency(currency)
        async with self._db.read() as tx:
            who = await _character(tx, character_id)
            account = await ledger.find_purse(tx, who.id, currency)
            return 0 if account is None else await ledger.balance(tx, account)

    async def balances(self, character_id: int) -> dict[str, int]:
        """Every currency's balance (0 where the purse was never used)."""
        return {code: await self.balance(character_id, code) for code in CURRENCIES}

    async def grant(
        self, character_id: int, currency: str, amount: int, *, actor_id: int, reason: str = ""
    ) -> Receipt:
        """A GM gives coins from nowhere (the world account)."""
        return await self._move(None, character_id, currency, amount, actor_id, "grant", reason)

    async def take(
        self, character_id: int, currency: str, amount: int, *, actor_id: int, reason: str = ""
    ) -> Receipt:
        """A GM takes coins out of the game (into the world account); never below zero."""
        return await self._move(character_id, None, currency, amount, actor_id, "take", reason)

    async def pay(
        self,
        source_id: int,
        target_id: int,
        currency: str,
        amount: int,
        *,
        actor_id: int,
        as_gm: bool = False,
        reason: str = "",
    ) -> Receipt:
        """One character pays another. Only the payer's owner (or a GM) may do it."""
        if source_id == target_id:
            raise SamePurse(character=source_id)
        return await self._move(
            source_id, target_id, currency, amount, actor_id, "transfer", reason, as_gm=as_gm
        )

    async def history(
        self, character_id: int, currency: str, *, before: int | None = None, limit: int = 10
    ) -> HistoryPage:
        """The purse's movements, newest first, ``limit`` (1..100) per page; keyset by entry id."""
        _check_currency(currency)
        limit = max(1, min(MAX_PAGE, limit))
        async with self._db.read() as tx:
            who = await _character(tx, character_id)
            account = await ledger.find_purse(tx, who.id, currency)
            if account is None:
                return HistoryPage((), None)
            lines = await ledger.history(tx, account, before=before, limit=limit + 1)
        more = len(lines) > limit
        page = tuple(purse_line_of(line) for line in lines[:limit])
        return HistoryPage(page, page[-1].entry_id if more else None)

    async def audit(self) -> Audit:
        """Whole-ledger consistency figures (see ``bot.storage.ledger.audit``)."""
        async with self._db.read() as tx:
            return await ledger.audit(tx)

    async def _move(
        self,
        source: int | None,
        target: int | None,
        currency: str,
        amount: int,
        actor_id: int,
        kind: MovementKind,
        reason: str,
        *,
        as_gm: bool = True,
    ) -> Receipt:
        """Move between purses (ids) and the world (None).

        Offerings to Ranald are not made here: a game step moves them with its event.
        """
        _check_currency(currency)
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise AmountNotPositive(amount=amount)
        movement = Movement(self._clock(), actor_id, kind, reason or kind, currency)
        async with self._db.transaction() as tx:
            payer = None if source is None else await _character(tx, source)
            payee = None if target is None else await _character(tx, target)
            guild = (payer or payee or _never()).guild_id
            if payer is not None and payee is not None and payee.guild_id != payer.guild_id:
                raise UnknownCharacter(character=payee.id)
            if payer is not None and not as_gm and payer.owner_id != actor_id:
                raise NotOwner(character=payer.id, user=actor_id)
            src = await _account(tx, guild, currency, payer)
            dst = await _account(tx, guild, currency, payee)
            try:
                movement_id = await ledger.move(tx, src, dst, amount, movement)
            except DebitRefused as exc:
                raise PurseTooLow(
                    character=source, amount=amount, balance=exc.balance, currency=currency
                ) from exc
            after = await ledger.balances(tx, [src, dst])
        held = {}
        if payer is not None:
            held[payer.id] = after[src]
        if payee is not None:
            held[payee.id] = after[dst]
        return Receipt(movement_id, currency, amount, held)


async def _character(tx: Tx, character_id: int) -> CharacterRow:
    found = await characters.get(tx, character_id)
    if found is None:
        raise UnknownCharacter(character=character_id)
    return found


async def _account(tx: Tx, guild: int, currency: str, who: CharacterRow | None) -> int:
    """The character's purse, or the guild's world account for None."""
    if who is not None:
        return await ledger.purse_account(tx, guild, currency, who.id)
    return await ledger.guild_account(tx, guild, "world", currency)


def _check_currency(currency: str) -> None:
    if currency not in CURRENCIES:
        raise UnknownCurrency(currency=currency, known=sorted(CURRENCIES))


def _never() -> CharacterRow:
    raise AssertionError("a movement needs at least one purse")
