"""Skills at the Pazaak table (option ``skills``), end to end through discord.py and the fake: a
Luck redraw on the board, a Gamble swap from the hand DM or from "Show my hand", the opponent's
detection test, and what each audience hears: the channel only a catch, the referee (the GM the
challenge names) every roll, the cheater what follows.

The harness's RNG is seeded, so Bastila starts every match; a Perception of 0 never notices a
swap and one of 100 always does, which makes each detection certain."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import crash_support as cs
from tests.e2e.pazaak_support import Table, moves_log, seat_two, settle
from tests.fakediscord import BotHarness, FakeDiscord, FakeMessage

SKILLS = "skills on (Luck, Gamble and Perception count; detection modifier 0;"


async def open_with_skills(table: Table, **options: Any) -> FakeMessage:
    """The match, with skills, refereed by the server's owner (a GM: Manage Server)."""
    return await table.open(skills=True, referee=table.fake.owner, **options)


def buttons(message: FakeMessage) -> list[str]:
    return [b["label"] for b in message.buttons]


async def bob_ends_turn(table: Table) -> None:
    await table.move(("B", "end"))


async def swap(table: Table, who: str, where: FakeMessage) -> tuple[FakeMessage, str]:
    """Swap the first card offered (from the hand DM or a "Show my hand" message): the answer
    the cheater gets, and the option chosen."""
    fake, user = table.fake, table.users[who]
    opened = await fake.click(user, where, "Swap a card (Gamble)…")
    menu = await opened.reply()
    await settle(fake, table.harness, opened)
    assert menu.ephemeral and "tests Perception" in menu.text
    option = menu.components[0]["components"][0]["options"][0]
    picked = await fake.select(user, menu, [option["value"]])
    await settle(fake, table.harness, picked)
    return menu, option["label"]


async def hand_codes(table: Table, who: str) -> tuple[str, ...]:
    """The hand the service holds for ``who`` (the one table of these tests)."""
    state = (await table.services.tables.get(1)).state
    return tuple(card.code for card in state.players[0 if who == "A" else 1].hand)


async def test_the_challenge_shows_skills_and_the_referee_before_anyone_accepts(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    challenge = await table.send_challenge(skills=True, referee=fake.owner, detection=-10)
    assert "skills on (Luck, Gamble and Perception count; detection modifier \N{MINUS SIGN}10;" in (
        challenge.content
    )
    assert challenge.content.endswith(f"Referee: {fake.owner.mention}.")
    refused = await fake.slash(
        table.users["A"], "pazaak challenge", opponent="Bastila", wager="10", skills=True
    )
    answer = await refused.reply()
    assert answer.ephemeral and "needs a GM to referee it" in answer.text


async def test_a_luck_redraw_is_offered_after_the_draw_and_told_in_the_channel(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness, traits={"A": {"luck": True}, "B": {"luck": True}})
    board = await open_with_skills(table)
    assert "Redraw (Luck)" in buttons(board)
    before = moves_log(board)

    handle = await fake.click(table.users["B"], board, "Redraw (Luck)")
    await settle(fake, harness, handle)

    lines = moves_log(board)
    assert lines[0].startswith("Bastila calls on luck and sends the ")
    assert lines[1].startswith("Bastila draws")
    assert lines != before and "Redraw (Luck)" not in buttons(board)  # once per match
    assert any(t.startswith("Bastila calls on luck") for t in table.channel_texts())
    await bob_ends_turn(table)
    assert "Redraw (Luck)" in buttons(board)  # Ahsoka's turn now, her own luck unused


async def test_an_unnoticed_swap_shows_nothing_in_the_channel_and_the_gm_has_the_roll(
    fake: FakeDiscord, harness: BotHarness, caplog: pytest.LogCaptureFixture
) -> None:
    table = await seat_two(fake, harness, traits={"A": {"gamble": True}, "B": {"perception": 0}})
    board = await open_with_skills(table)
    await bob_ends_turn(table)
    channel, log = table.channel_texts(), moves_log(board)
    hand = await hand_codes(table, "A")

    caplog.set_level(logging.INFO)
    menu, option = await swap(table, "A", table.hand_dm("A"))

    assert menu.text.startswith("You swapped ") and "Nobody said a word." in menu.text
    logged = " ".join(r.getMessage() for r in caplog.records if r.levelno >= logging.INFO)
    assert "swap" not in logged.lower() and option not in logged and "roll" not in logged
    assert table.channel_texts() == channel and moves_log(board) == log
    assert await hand_codes(table, "A") != hand and len(await hand_codes(table, "A")) == len(hand)
    notes = [m.text for m in fake.dms(fake.owner)]
    assert (
        len(notes) == 1
        and "**Ahsoka** swapped" in notes[0]
        and notes[0].endswith("against 0: not noticed.")
    )
    assert "Swap a card (Gamble)…" not in buttons(table.hand_dm("A"))  # once per match
    await table.move(("A", "end"))  # the match goes on


async def test_a_caught_swap_forfeits_the_match_and_pays_the_opponent(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness, traits={"A": {"gamble": True}, "B": {"perception": 100}})
    await open_with_skills(table)
    await bob_ends_turn(table)

    menu, _ = await swap(table, "A", table.hand_dm("A"))

    assert "**Bastila** caught you! You forfeit the match." in menu.text
    texts = table.channel_texts()
    assert "**Bastila** catches **Ahsoka** swapping a card!" in texts
    assert any("was caught cheating and forfeits. **Bastila** wins" in t for t in texts)
    assert (await table.balance("A"), await table.balance("B")) == (750, 1250)
    assert fake.dms(fake.owner)[-1].text.endswith("against 100: caught.")


async def test_the_gm_pardons_a_caught_swap_and_the_turn_goes_on(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness, traits={"A": {"gamble": True}, "B": {"perception": 100}})
    board = await open_with_skills(table, cheat_ruling="gm")
    await bob_ends_turn(table)
    hand = await hand_codes(table, "A")

    menu, _ = await swap(table, "A", table.hand_dm("A"))

    assert "The match waits for the GM's ruling" in menu.text
    assert buttons(board)[:3] == ["GM: pardon", "GM: cheater loses the set", "GM: cheater forfeits"]
    refused = await fake.click(table.users["B"], board, "GM: cheater forfeits")
    answer = await refused.reply()
    assert answer.ephemeral and (await table.balance("A"), await table.balance("B")) == (750, 750)

    await settle(fake, harness, await fake.click(fake.owner, board, "GM: pardon"))

    assert await hand_codes(table, "A") == hand  # the swap is undone
    assert "The GM pardons Ahsoka: the swap is undone, and the turn goes on." in moves_log(board)
    assert board.content.endswith("**Ahsoka** to play.") and "End turn" in buttons(board)
    await table.move(("A", "end"))


async def test_a_player_without_dms_swaps_through_show_my_hand(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(
        fake, harness, bob_dms=False, traits={"A": {"perception": 0}, "B": {"gamble": True}}
    )
    await open_with_skills(table)
    hand = await hand_codes(table, "B")

    menu, _ = await swap(table, "B", await table.show_hand("B"))

    assert menu.text.startswith("You swapped ") and await hand_codes(table, "B") != hand
    assert fake.dms(fake.owner)[-1].text.endswith("against 0: not noticed.")


async def test_a_caught_swap_awaiting_the_gm_survives_a_restart(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness, traits={"A": {"gamble": True}, "B": {"perception": 100}})
    board = await open_with_skills(table, cheat_ruling="gm")
    await bob_ends_turn(table)
    await swap(table, "A", table.hand_dm("A"))

    await harness.restart()
    await settle(fake, harness)

    assert "GM: cheater loses the set" in buttons(board)
    await settle(fake, harness, await fake.click(fake.owner, board, "GM: cheater loses the set"))
    texts = table.channel_texts()
    assert any("Ahsoka was caught cheating and loses the set" in t for t in texts)
    assert "End turn" in buttons(board) and len(fake.dms(fake.owner)) == 1


@pytest.mark.parametrize(("nth", "applied"), [(n, a) for n in range(4) for a in (False, True)])
async def test_an_unnoticed_swap_killed_after_its_commit_still_reaches_the_gm_alone(
    nth: int, applied: bool, tmp_path: Path
) -> None:
    """The bot dies at the ``nth`` request after the swap's step is saved (the roll is in it). The
    new bot tells the referee once, shows the channel nothing, and the match goes on."""
    async with cs.world(tmp_path / "swap.db") as (fake, harness):
        traits = {"A": {"gamble": True}, "B": {"perception": 0}}
        table = await seat_two(fake, harness, traits=traits)
        board = await open_with_skills(table)
        await bob_ends_turn(table)
        channel, log = table.channel_texts(), moves_log(board)
        read = cs.fingerprint(harness.settings.database.path)
        opened = await fake.click(table.users["A"], table.hand_dm("A"), "Swap a card (Gamble)…")
        menu = await opened.reply()
        await settle(fake, harness, opened)
        before = read()
        hold = cs.hold_nth(fake, nth, applied=applied)
        option = menu.components[0]["components"][0]["options"][0]
        await fake.select(table.users["A"], menu, [option["value"]])
        await hold.reached(timeout=5)
        assert read() != before  # the swap and its roll are saved
        await harness.crash_and_restart()
        await cs.settle(fake, harness)

        notes = [m.text for m in fake.dms(fake.owner)]
        assert len(notes) == 1 and notes[0].endswith("against 0: not noticed.")
        assert table.channel_texts() == channel and moves_log(board) == log
        await table.move(("A", "end"))
        assert moves_log(board)[0] == "Ahsoka ends the turn."
        await cs.books_balance(harness)
