"""A table message the bot can no longer reach: Discord answers a board edit with 403 (50001
Missing Access, 50013 Missing Permissions) or 404 (10008: the message was deleted). The move is
kept, the player hears the truth, a new table message is posted (the old one loses its buttons
where Discord still allows that edit), the game goes on from the new message, and the failure is
logged at WARNING with the table's id."""

from __future__ import annotations

import logging

import pytest

pytest.register_assert_rewrite("tests.e2e.crash_support", "tests.e2e.crash_games")

from tests.e2e import crash_games as games  # noqa: E402
from tests.e2e import crash_support as cs  # noqa: E402
from tests.e2e.pazaak_support import seat_two, settle  # noqa: E402
from tests.e2e.pegaz_kit import Tavern  # noqa: E402
from tests.fakediscord import BotHarness, FakeDiscord, FakeMessage  # noqa: E402

NOTHING_CHANGED = "Nothing was changed"
CASES = [
    pytest.param(403, 50001, id="403-missing-access"),
    pytest.param(403, 50013, id="403-missing-permissions"),
    pytest.param(404, 10008, id="404-deleted"),
]


def make_unreachable(fake: FakeDiscord, board: FakeMessage, status: int, code: int) -> None:
    """404: the message is deleted. 403: both edits of the move (through the click's token,
    then by REST) are refused; the edit that takes its buttons off later is allowed."""
    if status == 404:
        fake.state.delete_message(board)
    else:
        fake.fail_message(board.id, status=status, code=code, count=2)


def warned(caplog: pytest.LogCaptureFixture, table_id: int) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.levelno == logging.WARNING and f"table {table_id}" in r.getMessage()
    ]


def old_board_is_dead(fake: FakeDiscord, old: FakeMessage, prefix: str, status: int) -> None:
    if status == 404:
        assert old.deleted
    else:  # Discord allowed the strip
        assert cs.live_buttons(old, prefix, 1) == [] and fake.message(old.id).embeds


@pytest.mark.parametrize(("status", "code"), CASES)
async def test_pegaz_a_move_on_an_unreachable_table_message_posts_a_new_one(
    fake: FakeDiscord, harness: BotHarness, caplog: pytest.LogCaptureFixture, status: int, code: int
) -> None:
    caplog.set_level(logging.INFO, logger="cogs")
    tv = Tavern(fake, harness)
    ann, bob = await tv.player("Ann", luck=True), await tv.player("Bob")
    old = await tv.open()
    await tv.press(ann.user, old, "Join")
    await tv.press(bob.user, old, "Join")
    await tv.press(tv.gm, old, "Start")
    version = (await tv.services.tables.get(1)).version

    # Ann moves a card from her DM (a 404 board cannot be clicked); the board cannot be edited.
    make_unreachable(fake, old, status, code)
    done = await tv.pick(ann.user, tv.hand_dm(ann), ["1+1"], games.LUCK_ONE)
    await settle(fake, harness)

    assert (await tv.services.tables.get(1)).version == version + 1  # the move is kept
    assert done.content == "Done: one card moved." and NOTHING_CHANGED not in done.text
    assert all(NOTHING_CHANGED not in m.text for m in fake.ephemeral(ann.user) + fake.dms(ann.user))
    board = cs.board_of(fake, games.PEGAZ, 1)
    assert board.id != old.id and (await tv.services.surfaces.marks(1)).message_id == board.id
    assert "**Ann**'s turn" in board.embeds[0]["description"]
    old_board_is_dead(fake, old, games.PEGAZ, status)
    assert any(f"({status} {code})" in text for text in warned(caplog, 1)), caplog.text

    # The game goes on from the new table message, to the end.
    await tv.press(ann.user, board, "Fold")
    await tv.press(bob.user, cs.board_of(fake, games.PEGAZ, 1), "Keep it all")
    await settle(fake, harness)
    assert (await tv.services.tables.get(1)).status == "finished"
    assert cs.live_boards(fake, games.PEGAZ, 1) == []
    assert [m for m in tv.said() if "folds" in m or "keeps every coin" in m] == [
        tv.said()[-2],
        tv.said()[-1],
    ]
    await cs.books_balance(harness)


@pytest.mark.parametrize(("status", "code"), CASES)
async def test_pazaak_a_move_on_an_unreachable_board_posts_a_new_one(
    fake: FakeDiscord, harness: BotHarness, caplog: pytest.LogCaptureFixture, status: int, code: int
) -> None:
    caplog.set_level(logging.INFO, logger="cogs")
    table = await seat_two(fake, harness)
    old = await table.open(wager="250 cr")
    bob = table.users["B"]
    version = (await table.services.tables.get(1)).version

    # Bastila (on turn) ends her turn on the board; or, when it is deleted, plays a card from
    # her hand DM.
    make_unreachable(fake, old, status, code)
    if status == 404:
        hand = table.hand_dm("B")
        card = next(b for b in hand.buttons if ":card:" in b["custom_id"] and not b.get("disabled"))
        await settle(fake, harness, await fake.click(bob, hand, custom_id=card["custom_id"]))
    else:
        end = next(b for b in old.buttons if b["custom_id"].endswith(":end"))
        await settle(fake, harness, await fake.click(bob, old, custom_id=end["custom_id"]))

    assert (await table.services.tables.get(1)).version == version + 1  # the move is kept
    assert all(NOTHING_CHANGED not in m.text for m in fake.ephemeral(bob) + fake.dms(bob))
    board = cs.board_of(fake, games.PAZAAK, 1)
    assert board.id != old.id and (await table.services.surfaces.marks(1)).message_id == board.id
    on_turn = "A" if status != 404 else "B"
    assert board.content.startswith(table.users[on_turn].mention)
    old_board_is_dead(fake, old, games.PAZAAK, status)
    assert any(f"({status} {code})" in text for text in warned(caplog, 1)), caplog.text

    # The game goes on from the new board: the player on turn ends it there, Bastila forfeits.
    table.board = board
    await table.move((on_turn, "end"))
    assert (await table.services.tables.get(1)).version == version + 2
    asked = await fake.click(bob, board, "Forfeit")
    confirm = await asked.reply()
    await settle(fake, harness, asked)
    await settle(fake, harness, await fake.click(bob, confirm, "Yes, forfeit"))
    assert (await table.services.tables.get(1)).status == "finished"
    assert cs.live_boards(fake, games.PAZAAK, 1) == []
    assert [m for m in cs.announcements(fake) if "forfeits" in m] == [
        "**Bastila** forfeits. **Ahsoka** wins the match. Ahsoka takes the pot: 500 cr."
    ]
    assert (await table.balance("A"), await table.balance("B")) == (1250, 750)
    await cs.books_balance(harness)
