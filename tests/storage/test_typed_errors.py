"""A row that names a missing character is refused with storage's own error, not sqlite3's."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.storage import ledger, tables
from bot.storage.errors import UnknownCharacterRow
from bot.storage.opening import open_database

GUILD = 5


async def test_a_purse_or_a_seat_for_a_missing_character_is_refused(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "szulernia.db")
    try:
        with pytest.raises(UnknownCharacterRow) as purse:
            async with db.transaction() as tx:
                await ledger.purse_accounts(tx, GUILD, "wh", [404])
        assert purse.value.character_id == 404
        with pytest.raises(UnknownCharacterRow) as seat:
            async with db.transaction() as tx:
                table_id = await tables.insert(
                    tx,
                    guild_id=GUILD,
                    channel_id=1,
                    game="pegaz",
                    currency="wh",
                    settings="{}",
                    created_by=1,
                    at=0,
                )
                await tables.add_seats(tx, table_id, [405], exclusive=True)
        assert seat.value.character_id == 405
        async with db.read() as tx:  # nothing of either was kept
            assert await tx.fetchval("SELECT count(*) FROM accounts") == 0
            assert await tx.fetchval("SELECT count(*) FROM tables") == 0
    finally:
        await db.close()
