"""Writing one table step in the caller's transaction, and reading one back.

A step is what one action (or the creation, or a cancel) did: its events, the ledger movements
read off them with ``transfers(event)``, any refund of the pot by the ledger, the seats, the
status, the turn deadline, the new version and the idempotency key. Either all of it is committed
or, the transaction being rolled back, none of it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from bot.rules.common import OFFERING, POT, Account, GameRules, RulesError, Transfer
from bot.services import side_bets, stat_results
from bot.services.errors import (
    AlreadyInMatch,
    PurseTooLow,
    TableClosed,
    UnknownCharacter,
    UnknownTable,
)
from bot.services.games import GameSpec
from bot.services.outcomes import TableOutcome
from bot.services.snapshots import StateCodec
from bot.storage import ledger, tables
from bot.storage.db import Tx
from bot.storage.errors import DebitRefused, SeatTaken, UnknownCharacterRow
from bot.storage.ledger import Leg, Movement, MovementKind
from bot.storage.tables import Snapshot, Status

CLOSED: frozenset[Status] = frozenset({"finished", "cancelled"})


@dataclass(frozen=True, slots=True)
class Live:
    """A table as the service holds it between actions (see ``TableService._cache``)."""

    id: int
    guild_id: int
    channel_id: int
    game: str
    currency: str
    status: Status
    version: int
    next_seq: int
    pot: int
    seats: frozenset[int]
    state: Any
    deadline: int | None
    opener: int = 0
    """The user who opened the table (``actor_id`` of its creation)."""


def decode(rules: GameRules[Any, Any, Any], blobs: Sequence[bytes]) -> list[Any]:
    """Events from stored rows (one ``dump_events([event])`` each), parsed in one call where the
    rows are JSON arrays, which they are for every game here."""
    events: list[Any] = []
    for blob in joined(blobs):
        events.extend(rules.load_events(blob))
    return events


def joined(blobs: Sequence[bytes]) -> tuple[bytes, ...]:
    """Stored event rows as one JSON array where they all are arrays (one parse, one object
    kept), else as they are: :func:`decode` reads either the same."""
    if len(blobs) > 1 and all(b[:1] == b"[" and b[-1:] == b"]" and len(b) > 2 for b in blobs):
        return (b"[" + b",".join(b[1:-1] for b in blobs) + b"]",)
    return tuple(blobs)


def _kind(transfer: Transfer) -> MovementKind:
    source, target = transfer.source, transfer.target
    if target == OFFERING:
        return "offering"
    if source == POT and isinstance(target, int):
        return "refund" if "refund" in transfer.reason else "payout"
    if target == POT:
        return "stake"
    return "transfer"


async def write_step(
    tx: Tx,
    spec: GameSpec,
    before: Live,
    state: Any,
    events: Sequence[Any],
    *,
    key: str,
    actor_id: int | None,
    at: int,
    cancel: bool = False,
    timed_out: bool = False,
    codec: StateCodec | None = None,
) -> tuple[Live, tuple[Transfer, ...]]:
    """Persist one step from ``before`` to ``state``; return the new :class:`Live` and the
    transfers done. Raises ``PurseTooLow``, ``AlreadyInMatch``, ``UnknownCharacter``.

    ``cancel``: the table ends as cancelled, and the stakes still in the pot go back; but a
    game whose cancel the rules settled as finished (the pot already paid) ends finished.
    ``timed_out``: the step is the turn timer's, so the deadline starts afresh.
    ``codec``: to write the new state's snapshot (see ``bot.services.snapshots``).
    """
    rules = spec.rules
    version = before.version + 1
    status: Status = spec.status(state)
    if cancel and status != "finished":  # a game already paid out (Pegaz's offering) stays won
        status = "cancelled"
    seats = frozenset() if status in CLOSED else frozenset(spec.seated(state))
    deadline = None if status in CLOSED else _deadline(spec, before, state, at, timed_out)
    # First: a table that is not at ``before.version`` (another process moved it, so the
    # caller's cache is stale) is refused here, before anything is written after it.
    await tables.advance(
        tx, before.id, expected=before.version, status=status, at=at, next_timeout_at=deadline
    )
    await tables.append_events(
        tx, before.id, before.next_seq, version, [rules.dump_events([e]) for e in events]
    )
    planned = [(before.next_seq + i, t) for i, e in enumerate(events) for t in rules.transfers(e)]
    accounts = await _accounts(tx, before, [t for _, t in planned])
    done: list[Transfer] = []
    for seq, transfer in planned:
        movement = Movement(
            at, actor_id, _kind(transfer), transfer.reason, before.currency, before.id, version, seq
        )
        await _move(tx, accounts, transfer, movement)
        done.append(transfer)
    if status == "cancelled":
        done += await refund_pot(tx, before, version=version, actor_id=actor_id, at=at)
    if status in CLOSED and side_bets.enabled(state):  # paid (or refunded) with the last step
        await side_bets.settle_side_bets(
            tx,
            table_id=before.id,
            game=spec.game,
            currency=before.currency,
            state=state,
            status=status,
            actor_id=actor_id,
            at=at,
        )
    await _update_seats(tx, spec, before, seats)
    await tables.put_action_key(tx, key, before.id, version)
    next_seq = before.next_seq + len(events)
    if status == "finished" and spec.game in stat_results.GAMES:
        await _record_stats(tx, spec, before, at)
    if status in CLOSED:
        await tables.drop_snapshot(tx, before.id)
    elif codec is not None:
        snapshot = Snapshot(before.id, version, next_seq, codec.format, codec.dump(state))
        await tables.put_snapshot(tx, snapshot)
    after = replace(
        before,
        status=status,
        version=version,
        next_seq=next_seq,
        seats=seats,
        state=state,
        deadline=deadline,
    )
    return after, tuple(done)


async def _record_stats(tx: Tx, spec: GameSpec, live: Live, at: int) -> None:
    """Add the table that this step finished to the stats, from its own events and movements
    (the ones written just now included), so the projection commits or rolls back with it."""
    events = decode(spec.rules, await tables.events(tx, live.id))
    finished = stat_results.Finished(live.id, live.guild_id, live.game, live.currency, at)
    await stat_results.record_table(tx, finished, events)


def _deadline(spec: GameSpec, before: Live, state: Any, at: int, timed_out: bool) -> int | None:
    """When the turn timer fires next. It keeps running while the same players are awaited in the
    same turn (one of two players choosing in secret does not give the other more time); a new
    ``Timer.turn`` restarts it."""
    timer = spec.timer(state)
    if timer is None:
        return None
    if not timed_out and before.deadline is not None and before.state is not None:
        previous = spec.timer(before.state)
        if previous == timer:  # the same actions, turn and seconds
            return before.deadline
    return at + timer.seconds * 1000


async def _accounts(tx: Tx, live: Live, transfers: Sequence[Transfer]) -> dict[Account, int]:
    found: dict[Account, int] = {POT: live.pot}
    characters = {a for t in transfers for a in (t.source, t.target) if isinstance(a, int)}
    try:
        purses = await ledger.purse_accounts(tx, live.guild_id, live.currency, characters)
    except UnknownCharacterRow as exc:  # a purse for a character that does not exist
        raise UnknownCharacter(characters=sorted(characters)) from exc
    for character, account in purses.items():
        found[character] = account
    if any(OFFERING in (t.source, t.target) for t in transfers):
        found[OFFERING] = await ledger.guild_account(tx, live.guild_id, "offering", live.currency)
    return found


async def _move(
    tx: Tx, accounts: dict[Account, int], transfer: Transfer, movement: Movement
) -> None:
    try:
        await ledger.move(
            tx, accounts[transfer.source], accounts[transfer.target], transfer.amount, movement
        )
    except DebitRefused as exc:
        if not isinstance(transfer.source, int):
            raise
        raise PurseTooLow(
            character=transfer.source,
            amount=transfer.amount,
            balance=exc.balance,
            currency=movement.currency,
        ) from exc


async def refund_pot(
    tx: Tx, live: Live, *, version: int, actor_id: int | None, at: int
) -> list[Transfer]:
    """Give every purse back what it put into the pot and has not taken out, exactly.

    Only while the pot still holds all of that (no payout yet). Money carried into the pot from
    elsewhere (a rolled-over pot) is nobody's stake, and stays.
    """
    left = await ledger.balance(tx, live.pot)
    payers = await ledger.contributions(tx, live.pot)
    owed = sum(net for _, _, net in payers)
    if owed <= 0 or left < owed:
        return []
    refunds: list[Transfer] = []
    for account, character, net in payers:
        movement = Movement(at, actor_id, "refund", "refund", live.currency, live.id, version)
        await ledger.move(tx, live.pot, account, net, movement)
        refunds.append(Transfer(POT, character, net, "refund"))
    return refunds


async def _update_seats(tx: Tx, spec: GameSpec, before: Live, seats: frozenset[int]) -> None:
    gone = before.seats - seats
    if gone:
        await tables.remove_seats(tx, before.id, gone)
    new = seats - before.seats
    if not new:
        return
    try:
        await tables.add_seats(tx, before.id, new, spec.exclusive_seats)
    except SeatTaken as exc:
        raise AlreadyInMatch(character=exc.character_id, table=exc.table_id) from exc
    except UnknownCharacterRow as exc:
        raise UnknownCharacter(characters=sorted(new)) from exc


def _account(leg: Leg) -> Account:
    if leg.kind == "purse" and leg.character_id is not None:
        return leg.character_id
    return OFFERING if leg.kind == "offering" else POT


async def step_transfers(tx: Tx, table_id: int, version: int) -> tuple[Transfer, ...]:
    """The transfers one committed step did, read back from the ledger."""
    rows = await ledger.table_movements(tx, table_id, version)
    return tuple(
        Transfer(_account(s), _account(t), amount, reason) for s, t, amount, reason in rows
    )


Mode = Literal["act", "cancel", "timeout"]


async def seat_purses(tx: Tx, spec: GameSpec, live: Live) -> dict[int, int]:
    """The seated characters' purses in the table's currency, as the ledger holds them now."""
    accounts = await ledger.purse_accounts(
        tx, live.guild_id, spec.currency, spec.seated(live.state)
    )
    held = await ledger.balances(tx, accounts.values())
    return {character: held[account] for character, account in accounts.items()}


def rules_step(
    spec: GameSpec,
    state: Any,
    mode: Mode,
    action: Any,
    rng: random.Random,
    purses: Mapping[int, int] | None = None,
) -> tuple[Any, list[Any]]:
    """Apply the rules: one action, or the cancel action, or every timeout action.

    With ``purses`` (see :func:`seat_purses`), the game's ``sync`` action comes first, so the
    rules decide with the purses as they are. A player's action that breaks the rules raises. A
    timeout action or a cancel the rules refuse is skipped (the timer's player acted meanwhile;
    the ledger refunds a cancel).
    """
    synced: list[Any] = []
    sync = None if spec.sync is None or purses is None else spec.sync(state, purses)
    if sync is not None:
        state, synced = spec.rules.apply(state, sync, rng)
    if mode == "act":
        actions = [action]
    elif mode == "cancel":
        actions = [a for a in (spec.cancel(state),) if a is not None]
    else:
        timer = spec.timer(state)
        actions = [] if timer is None else list(timer.actions)
    events: list[Any] = []
    for one in actions:
        try:
            state, new = spec.rules.apply(state, one, rng)
        except RulesError as exc:
            if mode == "act":
                if exc.code == "insufficient_funds":  # the rules know no currency; the table does
                    exc.params.setdefault("currency", spec.currency)
                raise
            continue
        events += new
    return state, synced + events


async def carry_pot(
    tx: Tx,
    source: int,
    table_id: int,
    pot: int,
    guild_id: int,
    spec: GameSpec,
    actor_id: int,
    at: int,
) -> None:
    """Move what a closed table's pot still holds (a rolled-over pot) into a new table's pot."""
    row = await tables.get(tx, source)
    if row is None or row.guild_id != guild_id or row.currency != spec.currency:
        raise UnknownTable(table=source)
    if row.status not in CLOSED:
        raise TableClosed(table=source, status=row.status)
    old = await ledger.pot_account(tx, source)
    amount = await ledger.balance(tx, old)
    if amount > 0:
        reason = f"carried from table {source}"
        await ledger.move(
            tx,
            old,
            pot,
            amount,
            Movement(at, actor_id, "transfer", reason, spec.currency, table_id),
        )


def outcome_of(
    live: Live, events: list[Any], moved: tuple[Any, ...], *, repeated: bool = False
) -> TableOutcome:
    return TableOutcome(
        live.id,
        live.version,
        live.status,
        live.game,
        live.state,
        tuple(events),
        moved,
        live.deadline,
        repeated,
    )
