"""Faults on request: a dropped gateway connection, rate limits, slow answers, the 3 s deadline."""

from __future__ import annotations

import aiohttp
import discord
import pytest

from tests.fakediscord import BotHarness, FakeDiscord

MESSAGES = "POST /channels/{channel_id}/messages"
CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"


@pytest.mark.parametrize("abort", [False, True], ids=["close-4000", "dead-tcp"])
async def test_a_dropped_connection_resumes_and_replays(
    fake: FakeDiscord, harness: BotHarness, abort: bool
) -> None:
    alice = fake.add_player("Alice")
    await fake.drop_connection(abort=abort)
    assert not fake.gateway.connected

    handle = await fake.slash(alice, "help")  # sent while the bot is away: replayed on RESUME

    reply = await handle.reply()
    assert "`/help`" in reply.embeds[0]["fields"][-1]["value"]
    assert fake.gateway.log.count("RESUME") == 1 and fake.gateway.log.count("IDENTIFY") == 1
    assert fake.gateway.urls[-1].startswith("/resume?")  # READY's resume_gateway_url
    after = await (await fake.slash(alice, "help")).reply()  # and the next command still works
    assert after is not reply


async def test_resuming_an_unknown_session_is_refused(fake: FakeDiscord) -> None:
    # discord.py waits 5 s before it identifies again, so this speaks the protocol by hand.
    async with aiohttp.ClientSession() as session, session.ws_connect(fake.gateway_url) as ws:
        hello = await ws.receive_json()
        assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
        resume = {"session_id": "nope", "seq": 3, "token": fake.token}
        await ws.send_json({"op": 6, "d": resume})
        assert await ws.receive_json() == {"op": 9, "d": False, "s": None, "t": None}


@pytest.mark.extensions("tests.e2e.harness_cog")
async def test_a_429_is_honoured_and_the_request_retried(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    alice = fake.add_player("Alice")
    limit = fake.rate_limit(MESSAGES, retry_after=0.2)

    reply = await (await fake.slash(alice, "harness post", text="hello")).reply()

    assert reply.content == "Posted."
    assert limit.hits == 1
    posts = fake.requests(MESSAGES)
    assert [r.status for r in posts] == [429, 200]
    assert [m.content for m in fake.tavern.messages] == ["hello"]


async def test_a_global_429_on_the_interaction_callback(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    fake.rate_limit(CALLBACK, retry_after=0.1, is_global=True)

    reply = await (await fake.slash(fake.owner, "help")).reply()

    assert "`/help`" in reply.embeds[0]["fields"][-1]["value"]
    assert [r.status for r in fake.requests(CALLBACK)] == [429, 200]


@pytest.mark.extensions("tests.e2e.harness_cog")
async def test_a_slow_answer_is_survived_by_deferring(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    fake.ack_deadline = 0.5
    fake.slow(MESSAGES, 0.8)
    alice = fake.add_player("Alice")

    handle = await fake.slash(alice, "harness post", text="slowly")
    assert await handle.ack() == 5  # deferred at once
    reply = await handle.reply()

    assert reply.content == "Posted." and reply.ephemeral and handle.deferred
    assert [m.content for m in fake.tavern.messages] == ["slowly"]


@pytest.mark.extensions("tests.e2e.harness_cog")
async def test_answering_after_the_deadline_fails_like_discord(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    fake.ack_deadline = 0.3
    fake.slow(MESSAGES, 0.5)

    handle = await fake.slash(fake.owner, "harness nodefer", text="late")

    error = await harness.wait_for_error()
    assert error.exc_info is not None
    cause = error.exc_info[1]
    cause = getattr(cause, "original", cause)  # the bot's tree logs the unwrapped error
    assert isinstance(cause, discord.NotFound) and cause.code == 10062
    assert not handle.acknowledged
