"""Buttons, DMs, the closed-DM fallback, and buttons that survive a restart."""

from __future__ import annotations

import random

import pytest

from tests.e2e.harness_cog import CARDS
from tests.fakediscord import BotHarness, FakeDiscord

pytestmark = pytest.mark.extensions("tests.e2e.harness_cog")


def hand(seed: int, *, table: int) -> str:
    return f"Your hand at table {table}: {', '.join(random.Random(seed).sample(CARDS, 3))}"


async def test_a_button_click_gets_its_response_and_a_dm_arrives(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    alice = fake.add_player("Alice")
    table = await (await fake.slash(alice, "harness table")).reply()
    assert table.button_labels == ["Join", "Show my hand"]
    assert fake.tavern.messages == [table] and not table.ephemeral

    click = await fake.click(alice, table, label="Join")
    answer = await click.reply()

    assert answer.content == "You joined; your hand is in your DMs." and answer.ephemeral
    assert [m.content for m in fake.dms(alice)] == [hand(1234, table=1)]
    assert fake.ephemeral(alice) == [answer]


@pytest.mark.seed(7)
async def test_the_bot_deals_with_the_seeded_random(fake: FakeDiscord, harness: BotHarness) -> None:
    alice = fake.add_player("Alice")
    table = await (await fake.slash(alice, "harness table")).reply()
    await (await fake.click(alice, table, "Join")).reply()
    assert fake.dms(alice)[0].content == hand(7, table=1)


async def test_closed_dms_fall_back_to_show_my_hand(fake: FakeDiscord, harness: BotHarness) -> None:
    bob = fake.add_player("Bob")
    fake.close_dms(bob)
    table = await (await fake.slash(bob, "harness table")).reply()

    notice = await (await fake.click(bob, table, label="Join")).reply()

    assert fake.dms(bob) == []
    assert [r.status for r in fake.requests("POST /channels/{channel_id}/messages")] == [403]
    assert bob.mention in notice.content and "Show my hand" in notice.content
    assert not notice.ephemeral and fake.tavern.messages == [table, notice]

    hand_shown = await (await fake.click(bob, table, custom_id="hx:hand:1")).reply()
    assert hand_shown.content.startswith("Your hand at table 1:") and hand_shown.ephemeral
    assert fake.ephemeral(bob) == [hand_shown] and hand_shown not in fake.tavern.messages


async def test_a_button_still_works_after_a_restart(fake: FakeDiscord, harness: BotHarness) -> None:
    alice = fake.add_player("Alice")
    table = await (await fake.slash(alice, "harness table")).reply()
    database = harness.settings.database.path
    old_bot = harness.bot

    await harness.restart()

    assert harness.bot is not old_bot and harness.bot.is_ready()
    assert harness.settings.database.path == database
    assert fake.gateway.log.count("IDENTIFY") == 2
    answer = await (await fake.click(alice, table, label="Join")).reply()
    assert answer.ephemeral and len(fake.dms(alice)) == 1
