"""READY does not wait for the restore: a click that comes before its table is kept is taken (the
table is read then), and the restore that finishes later keeps the step's newer state, not its
own older read of the table."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.services.table_loads import Loader
from tests.e2e.pazaak_support import seat_two, settle
from tests.fakediscord import BotHarness, FakeDiscord


def _end(board: Any) -> str:
    return str(next(b for b in board.buttons if b["custom_id"].endswith(":end"))["custom_id"])


async def test_a_click_before_the_restore_is_taken_and_the_restore_keeps_its_step(
    fake: FakeDiscord, harness: BotHarness, monkeypatch: Any
) -> None:
    table = await seat_two(fake, harness)
    board = await table.open(wager="100 cr")
    before = (await table.services.tables.get(1)).version
    await harness.stop()

    read = asyncio.Event()  # the restore has read every table (as it was then)
    go_on = asyncio.Event()  # ... and may keep them
    load_live = Loader.load_live

    async def slow_load_live(self: Loader, *args: Any, **kwargs: Any) -> Any:
        found = await load_live(self, *args, **kwargs)
        read.set()
        await go_on.wait()
        return found

    monkeypatch.setattr(Loader, "load_live", slow_load_live)
    bot = await harness.start(wait_restore=False)
    await asyncio.wait_for(read.wait(), 5)
    assert bot.services.tables.peek(1) is None  # not kept yet

    state = (await bot.services.tables.get(1)).state
    user = next(table.users[k] for k, c in table.characters.items() if c.id == state.current_player)
    handle = await fake.click(user, board, custom_id=_end(board))
    await settle(fake, harness, handle)
    assert _end(board).split(":")[2] == str(before + 1)  # taken, and drawn

    go_on.set()
    await bot.restored()
    kept = bot.services.tables.peek(1)
    assert kept is not None and kept.table.version == before + 1  # not the restore's older read
    assert harness.take_errors() == []
