"""A clean stop lets the clicks and dialogs in flight finish (and the publishing they start),
then closes: whatever discord.py names its tasks."""

from __future__ import annotations

import logging

import pytest

from tests.e2e.pazaak_support import seat_two
from tests.e2e.test_characters import say
from tests.fakediscord import MANAGE_GUILD, BotHarness, FakeDiscord

CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"


def calm(caplog: pytest.LogCaptureFixture) -> None:
    assert "waiting for 1 action(s) in flight" in caplog.messages
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


async def slow_answers(fake: FakeDiscord) -> int:
    fake.slow(CALLBACK, 0.3)
    return len(fake.requests(CALLBACK))


async def answering(fake: FakeDiscord, before: int) -> None:
    await fake.wait_for(lambda: len(fake.requests(CALLBACK)) > before, what="the slow answer")


async def test_a_page_click_in_flight_is_answered_before_the_bot_closes(
    fake: FakeDiscord, harness: BotHarness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    gm = fake.add_player("Gunther", permissions=MANAGE_GUILD)
    alice = fake.add_player("Alice")
    await say(fake, alice, "character create", name="Greta")
    for n in range(1, 12):
        await say(fake, gm, "purse give", character="Greta", amount=f"{n} p", reason=f"Gift {n}")
    first = await say(fake, alice, "purse history")
    before = await slow_answers(fake)

    await fake.click(alice, first, "Older")
    await answering(fake, before)
    await harness.stop()

    assert first.embeds[0]["footer"]["text"] == "Page 2, newest first"
    calm(caplog)


async def test_a_dialog_in_flight_is_answered_before_the_bot_closes(
    fake: FakeDiscord, harness: BotHarness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    table = await seat_two(fake, harness)
    alice = table.users["A"]
    opened = await fake.slash(alice, "pazaak deck")
    await opened.wait_modal()
    before = await slow_answers(fake)

    starter = [f"+{n}|{copy}" for n in range(1, 6) for copy in (1, 2)]
    saved = await fake.submit_modal(alice, opened, {"pz:deck:plus": starter})
    await answering(fake, before)
    await harness.stop()

    assert (await saved.reply()).text.startswith("Saved **Ahsoka**'s side deck")
    calm(caplog)


async def test_a_table_click_in_flight_is_answered_before_the_bot_closes(
    fake: FakeDiscord, harness: BotHarness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    table = await seat_two(fake, harness)
    board = await table.open()
    button = next(b for b in board.buttons if b["custom_id"].endswith(":hand"))
    before = await slow_answers(fake)

    handle = await fake.click(table.users["A"], board, custom_id=button["custom_id"])
    await answering(fake, before)
    await harness.stop()

    assert (await handle.reply()).ephemeral
    calm(caplog)


async def test_an_accepted_challenge_in_flight_draws_its_board_before_the_bot_closes(
    fake: FakeDiscord, harness: BotHarness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    table = await seat_two(fake, harness)
    challenge = await table.send_challenge()
    yes = next(b for b in challenge.buttons if b["custom_id"].endswith(":yes"))
    before = await slow_answers(fake)

    await fake.click(table.users["B"], challenge, custom_id=yes["custom_id"])
    await answering(fake, before)
    await harness.stop()

    assert [m for m in fake.tavern.messages if m.embeds], table.channel_texts()
    calm(caplog)
