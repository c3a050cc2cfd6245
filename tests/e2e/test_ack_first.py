"""Acknowledge first: the clicks that used to read the database before answering (Pay &
exchange…, Check…, Pazaak's End turn and Stand) answer before the bot touches it, while the table
is kept by the table service (its per-version cache), also after a restart; a cache left stale
by another process still refuses the click, changes nothing and heals the table. A GM's
``/table close`` answers before its write.

"Touches" is watched from the test, on the bot's own database object: every read or transaction
opened, and every SQL statement on its writer connection (a sqlite3 trace callback), each noted
with whether the watched click had been answered by then.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from bot.rules import pazaak, pegaz
from bot.services import TableService
from bot.storage.db import Database
from bot.storage.opening import open_database
from tests.e2e.pazaak_support import Table, seat_two, settle
from tests.e2e.pegaz_kit import Player, Tavern
from tests.fakediscord import BotHarness, FakeDiscord, FakeMessage, InteractionHandle

MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, MODAL = 4, 5, 6, 9


class DbWatch:
    """Notes every touch of the bot's database; ``early``: those made before ``handle`` (the
    click watched) was answered."""

    def __init__(self) -> None:
        self.handle: InteractionHandle | None = None
        self.early: list[str] = []
        self.touches = 0

    def note(self, what: str) -> None:
        self.touches += 1
        handle = self.handle
        if handle is not None and not handle.acknowledged:
            self.early.append(what)

    async def attach(self, db: Database) -> None:
        read, transaction = db.read, db.transaction

        @contextlib.asynccontextmanager
        async def watched_read() -> AsyncIterator[Any]:
            self.note("read")
            async with read() as tx:
                yield tx

        @contextlib.asynccontextmanager
        async def watched_transaction() -> AsyncIterator[Any]:
            self.note("transaction")
            async with transaction() as tx:
                yield tx

        db.read = watched_read  # type: ignore[method-assign]
        db.transaction = watched_transaction  # type: ignore[method-assign]
        db.trace(lambda sql: self.note(f"sql: {sql}"))

    async def click(
        self, fake: FakeDiscord, harness: BotHarness, user: Any, message: FakeMessage, **how: Any
    ) -> InteractionHandle:
        """Click (``label=`` or ``custom_id=``), watching what the bot touches before answering;
        wait until the bot is done."""
        self.early.clear()
        handle = self.handle = await fake.click(user, message, **how)
        await handle.ack()
        if handle.callback_type != MODAL:
            await settle(fake, harness, handle)
        return handle


async def watched(harness: BotHarness) -> DbWatch:
    watch = DbWatch()
    await watch.attach(harness.bot.db)
    return watch


# --- Pegasus --------------------------------------------------------------------------------


async def _to_exchange(
    fake: FakeDiscord, harness: BotHarness
) -> tuple[Tavern, FakeMessage, dict[int, Player]]:
    tv = Tavern(fake, harness)
    players = [await tv.player(name, coins=20 * 240) for name in ("Ann", "Bob", "Cid")]
    table = await tv.open()
    for p in players:
        await settle(fake, harness, await fake.click(p.user, table, "Join"))
    await settle(fake, harness, await fake.click(tv.gm, table, "Start"))
    return tv, table, {p.id: p for p in players}


async def test_pay_and_exchange_and_check_answer_before_any_read(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv, table, by_id = await _to_exchange(fake, harness)
    watch = await watched(harness)
    dialogs = checks = 0
    while dialogs < 6 or checks < 1:
        state: pegaz.PegazState = (await tv.services.tables.get(1)).state
        who = by_id[pegaz.whose_turn(state)]
        if state.phase is pegaz.Phase.EXCHANGE:
            dialog = await watch.click(fake, harness, who.user, table, label="Pay & exchange…")
            assert dialog.callback_type == MODAL  # the modal is the acknowledgement
            assert watch.early == [], watch.early
            preview = await (await fake.submit_modal(who.user, dialog, {"cards": "1"})).reply()
            pay = next(b for b in preview.button_labels if b.startswith("Pay"))
            await settle(fake, harness, await fake.click(who.user, preview, pay))
            dialogs += 1
            continue
        assert state.phase is pegaz.Phase.CHECKS
        menu = await watch.click(fake, harness, who.user, table, label="Check…")
        assert menu.callback_type == DEFERRED_UPDATE
        assert watch.early == [], watch.early
        picker = await menu.reply()
        assert picker.ephemeral and picker.selects  # built from the table as the click saw it
        checks += 1
    # A control: a command that reads before it answers, and the watch sees it.
    watch.handle = await fake.slash(by_id[min(by_id)].user, "pazaak collection")
    await settle(fake, harness, watch.handle)
    assert watch.early


async def test_a_gm_closing_a_table_answers_before_the_cancel_writes(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    """``/table close`` is a write (the cancel and every refund), which may wait for the writer:
    its deferral comes first, public as the closing is; a table already closed is refused
    before it, ephemerally, from the table kept in memory."""
    tv, _, _ = await _to_exchange(fake, harness)
    watch = await watched(harness)
    watch.handle = handle = await fake.slash(tv.gm, "table close", table=1)
    assert await handle.ack() == DEFERRED_MESSAGE
    await settle(fake, harness, handle)
    closed = await handle.reply()
    assert closed.content.startswith("The GM closed table #1") and not closed.ephemeral
    assert not any(w == "transaction" or w.startswith("sql: ") for w in watch.early), watch.early
    assert watch.touches > len(watch.early)  # the cancel wrote, after the answer
    assert (await tv.services.tables.get(1)).status == "cancelled"

    watch.early.clear()
    watch.handle = again = await fake.slash(tv.gm, "table close", table=1)
    refused = await again.reply()
    assert refused.content == "This table is closed." and refused.ephemeral
    assert again.callback_type == MESSAGE and "transaction" not in watch.early


# --- Pazaak ---------------------------------------------------------------------------------


def _button(board: FakeMessage, act: str) -> str:
    return str(next(b for b in board.buttons if b["custom_id"].endswith(f":{act}"))["custom_id"])


def _on_turn(table: Table, state: pazaak.PazaakState) -> Any:
    return next(table.users[k] for k, c in table.characters.items() if c.id == state.current_player)


async def _end_and_stand(table: Table, watch: DbWatch) -> None:
    fake, harness = table.fake, table.harness
    assert table.board is not None
    for act in ("end", "stand"):
        state: pazaak.PazaakState = (await table.services.tables.get(1)).state
        user = _on_turn(table, state)
        before, touched = (await table.services.tables.get(1)).version, watch.touches
        handle = await watch.click(
            fake, harness, user, table.board, custom_id=_button(table.board, act)
        )
        assert handle.callback_type == DEFERRED_UPDATE
        assert watch.early == [], (act, watch.early)
        assert (await table.services.tables.get(1)).version == before + 1  # the move was made
        assert watch.touches > touched  # its step: the watch would see a read before the answer


async def test_end_turn_and_stand_answer_before_any_read_also_after_a_restart(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    await table.open(wager="100 cr")
    watch = await watched(harness)
    await _end_and_stand(table, watch)

    await harness.restart()  # the cache is filled again from the database
    assert harness.bot.services.tables.peek(1) is not None
    watch = await watched(harness)
    await _end_and_stand(table, watch)


async def test_a_stale_cache_refuses_the_click_and_heals_the_table(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    """Another process moves the table behind the bot's back: the bot's cache still shows the
    old version, so the click is authorised from it, but its step is refused in the
    transaction; nothing is applied at the wrong version, the user hears why, and the board is
    redrawn at the table's real version."""
    table = await seat_two(fake, harness)
    board = await table.open(wager="100 cr")
    services = harness.bot.services
    cached = await services.tables.get(1)
    state: pazaak.PazaakState = cached.state
    player = state.current_player
    assert player is not None
    other_db = await open_database(harness.bot.db.path)
    try:
        other = TableService(other_db)
        owner = next(c.owner_id for c in table.characters.values() if c.id == player)
        moved = await other.act(
            1,
            pazaak.EndTurn(player),
            key="elsewhere",
            expected_version=cached.version,
            actor_id=owner,
            seat=player,
        )
    finally:
        await other_db.close()
    assert services.tables.peek(1) is not None  # the bot does not know yet
    assert services.tables.peek(1).table.version == cached.version  # type: ignore[union-attr]

    user = _on_turn(table, state)
    handle = await fake.click(user, board, custom_id=_button(board, "end"))
    await settle(fake, harness, handle)
    refused = next(m for m in handle.followups if m.ephemeral)
    assert "out of date" in refused.text.lower() or "already" in refused.text.lower(), refused.text
    assert (await services.tables.get(1)).version == moved.version  # nothing more was applied
    assert _button(board, "end").split(":")[2] == str(moved.version)  # healed: the real version
    assert harness.take_errors() == []
