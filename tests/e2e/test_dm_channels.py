"""Hand DMs: one DM channel opened per player, however many players the bot DMs."""

from __future__ import annotations

from cogs.replies import send_dm
from tests.fakediscord import BotHarness, FakeDiscord

OPEN_DM = "POST /users/@me/channels"


async def test_a_dm_channel_is_opened_once_per_player_past_discordpys_cache(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    players = [fake.add_user(f"Player {n}") for n in range(140)]  # discord.py keeps only 128

    for _ in range(2):
        for player in players:
            assert await send_dm(harness.bot, player.id, f"Hello, {player.name}") is not None

    assert len(fake.requests(OPEN_DM)) == len(players)
    for player in players:
        texts = [m.content for m in fake.state.dm_channel(player).messages]
        assert texts == [f"Hello, {player.name}"] * 2


async def test_a_dm_channel_that_is_gone_is_opened_again(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    player = fake.add_user("Wanda")
    await send_dm(harness.bot, player.id, "first")
    gone = fake.state.dm_channels.pop(player.id)
    del fake.state.channels[gone.id]

    assert await send_dm(harness.bot, player.id, "second") is not None

    assert len(fake.requests(OPEN_DM)) == 2
    assert [m.content for m in fake.state.dm_channel(player).messages] == ["second"]
