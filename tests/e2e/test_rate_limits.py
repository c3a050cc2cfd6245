"""Discord's rate limits in the fake (``fake.enable_rate_limits``) against the real discord.py.

Windows are short here (a bucket of 5 per 0.3 s or 0.5 s): each test waits about a second at most.
"""

from __future__ import annotations

import asyncio
import time

import aiohttp
import pytest

from tests.fakediscord import BotHarness, FakeDiscord

MESSAGES = "POST /channels/{channel_id}/messages"
SHORT = {"channel-messages": (5, 0.3)}
HARNESS_COG = "tests.e2e.harness_cog"


async def _send_in_turn(harness: BotHarness, channel_id: int, count: int) -> float:
    """Send ``count`` messages one after another; return the seconds it took."""
    channel = harness.bot.get_partial_messageable(channel_id)
    started = time.monotonic()
    for n in range(count):
        await channel.send(f"m{n}")
    return time.monotonic() - started


def _contents(fake: FakeDiscord, channel_id: int) -> list[str | None]:
    return [m.content for m in fake.channel(channel_id).messages]


async def test_off_by_default_a_burst_gets_no_429(fake: FakeDiscord, harness: BotHarness) -> None:
    await _send_in_turn(harness, fake.tavern.id, 12)

    assert [r.status for r in fake.requests(MESSAGES)] == [200] * 12
    assert fake.rate_limit_stats().requests == 0
    assert _contents(fake, fake.tavern.id) == [f"m{n}" for n in range(12)]


async def test_a_burst_past_the_bucket_gets_429s_and_is_delivered_in_order(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    # discord.py learns only from 429s; a window long enough for 5 sends on a loaded machine
    fake.enable_rate_limits(buckets={"channel-messages": (5, 0.5)}, advertise=False)

    elapsed = await _send_in_turn(harness, fake.tavern.id, 8)

    assert [r.status for r in fake.requests(MESSAGES)] == [200] * 5 + [429] + [200] * 3
    stats = fake.rate_limit_stats()
    assert stats.route_429 == 1 and stats.route_429_by_bucket == {"channel-messages": 1}
    assert stats.global_429 == 0 and stats.invalid == 1
    assert stats.by_bucket["channel-messages"] == 9  # the refused request counts as seen
    assert elapsed >= 0.49  # the 6th waited for the window (it began at the 1st) to reset
    assert _contents(fake, fake.tavern.id) == [f"m{n}" for n in range(8)]


@pytest.mark.parametrize("concurrent", [False, True], ids=["in-turn", "all-at-once"])
async def test_the_headers_make_discord_py_wait_before_a_429(
    fake: FakeDiscord, harness: BotHarness, concurrent: bool
) -> None:
    fake.enable_rate_limits(buckets=SHORT)
    if concurrent:
        channel = harness.bot.get_partial_messageable(fake.tavern.id)
        started = time.monotonic()
        await asyncio.gather(*(channel.send(f"m{n}") for n in range(12)))
        elapsed = time.monotonic() - started
    else:
        elapsed = await _send_in_turn(harness, fake.tavern.id, 12)

    assert [r.status for r in fake.requests(MESSAGES)] == [200] * 12  # not one 429
    stats = fake.rate_limit_stats()
    assert stats.total_429 == 0 and stats.by_bucket["channel-messages"] == 12
    assert elapsed >= 0.59  # 5 + 5 + 2: it slept twice, as the headers told it
    sent = _contents(fake, fake.tavern.id)
    expected = [f"m{n}" for n in range(12)]
    assert sent == expected or (concurrent and sorted(map(str, sent)) == sorted(expected))


@pytest.mark.extensions(HARNESS_COG)
async def test_interaction_responses_are_exempt_from_the_global_limit(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    fake.enable_rate_limits(10, global_window=0.3)  # 3 requests per 0.3 s, for the whole bot
    mark = fake.mark()

    for _ in range(3):  # callback, 2 follow-ups, edit, delete, GET and PATCH @original: 7 each
        handle = await fake.slash(fake.owner, "harness followups")
        first = await handle.reply()
        await fake.wait_for(lambda m=first: m.content == "first (edited)", what="the last edit")

    interaction = fake.request_stats(mark).interaction
    assert interaction == 21 and fake.request_stats(mark).limited == 0
    assert all(r.status != 429 for r in fake.requests()[mark:])
    stats = fake.rate_limit_stats()
    assert stats.exempt == interaction and stats.global_counted == 0 and stats.total_429 == 0

    channels = [fake.guild.add_channel(f"room-{n}") for n in range(4)]  # the limit is live
    await asyncio.gather(
        *(harness.bot.get_partial_messageable(c.id).send("hello") for c in channels)
    )
    assert fake.rate_limit_stats().global_429 >= 1
    assert all(_contents(fake, c.id) == ["hello"] for c in channels)


async def test_the_global_limit_trips_past_50_requests_a_second(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    channels = [fake.guild.add_channel(f"room-{n}") for n in range(60)]  # 60 per-route buckets
    fake.enable_rate_limits()  # Discord's figures: 50 a second
    started = time.monotonic()

    await asyncio.gather(
        *(harness.bot.get_partial_messageable(c.id).send(f"to {c.name}") for c in channels)
    )

    elapsed = time.monotonic() - started
    stats = fake.rate_limit_stats()
    assert stats.global_429 >= 10 and stats.route_429 == 0
    assert stats.peak_global_window == 50 and stats.global_counted == 60
    assert elapsed >= 0.5  # the refused ones waited for the next second
    assert all(_contents(fake, c.id) == [f"to {c.name}"] for c in channels)


async def test_a_429_has_the_body_and_headers_discord_sends(fake: FakeDiscord) -> None:
    fake.enable_rate_limits(2, buckets={"channel-messages": (1, 5.0)})
    url = f"{fake.api_base}/channels/{fake.tavern.id}/messages"
    auth = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession(headers=auth) as session:
        async with session.post(url, json={"content": "one"}) as ok:
            assert ok.status == 200
            assert ok.headers["X-RateLimit-Limit"] == "1"
            assert ok.headers["X-RateLimit-Remaining"] == "0"
            assert 4.9 < float(ok.headers["X-RateLimit-Reset-After"]) <= 5.0
            assert abs(float(ok.headers["X-RateLimit-Reset"]) - time.time() - 5.0) < 0.5
            bucket = ok.headers["X-RateLimit-Bucket"]
        async with session.post(url, json={"content": "two"}) as route:
            assert route.status == 429 and route.headers["Via"]
            body = await route.json()
            assert body["global"] is False and 4.9 < body["retry_after"] <= 5.0
            assert route.headers["X-RateLimit-Scope"] == "user"
            assert route.headers["X-RateLimit-Bucket"] == bucket
            assert route.headers["Retry-After"] == "5" and "X-RateLimit-Global" not in route.headers
        async with session.get(f"{fake.api_base}/users/@me") as _:
            pass  # the global limit's second request this second
        async with session.get(f"{fake.api_base}/users/@me") as over:
            assert over.status == 429 and over.headers["Via"]
            body = await over.json()
            assert body["global"] is True and 0 < body["retry_after"] <= 1.0
            assert over.headers["X-RateLimit-Global"] == "true"
            assert over.headers["X-RateLimit-Scope"] == "global"
    assert [m.content for m in fake.tavern.messages] == ["one"]  # a refused request did nothing
