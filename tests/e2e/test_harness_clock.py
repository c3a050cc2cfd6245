"""The harness's fake clock (``tests/fakediscord/clock.py``): time stands still until the test
moves it, and moving it fires what falls due on the way, in order, at its own time. Then the
bot's loops on it: the challenge sweep (the turn timers and the publisher's retries have their
own tests in ``test_pazaak_end``, ``test_pegaz_robust`` and ``test_pazaak_faults``)."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.e2e.pazaak_support import seat_two, settle
from tests.fakediscord import BotHarness, FakeDiscord
from tests.fakediscord.clock import FakeClock

START = 1_000_000


async def test_time_stands_still_and_advance_wakes_each_sleeper_at_its_time() -> None:
    clock = FakeClock(start_ms=START)
    woke: list[tuple[str, int]] = []

    async def nap(name: str, seconds: float) -> None:
        await clock.sleep(seconds)
        woke.append((name, clock()))

    naps = [asyncio.create_task(nap(n, s)) for n, s in (("a", 2), ("b", 0.5), ("c", 5))]
    await asyncio.sleep(0.02)
    assert woke == [] and clock() == START and clock.pending() == [0.5, 2.0, 5.0]

    await clock.advance(2)
    assert woke == [("b", START + 500), ("a", START + 2000)] and clock() == START + 2000
    await clock.advance(2.999)
    assert len(woke) == 2
    await clock.advance(0.001)
    assert woke[-1] == ("c", START + 5000)
    await asyncio.gather(*naps)


async def test_a_wake_event_ends_a_sleep_without_moving_the_time() -> None:
    clock = FakeClock(start_ms=START)
    wake = asyncio.Event()
    nap = asyncio.create_task(clock.sleep(3600, wake=wake))
    await asyncio.sleep(0.01)
    assert not nap.done()
    wake.set()
    await asyncio.wait_for(nap, 1)
    assert clock() == START and clock.pending() == []
    await clock.sleep(3600, wake=wake)  # already set: no sleep at all


async def test_advance_refuses_to_move_past_a_loop_that_never_falls_asleep() -> None:
    clock = FakeClock(start_ms=START)
    stuck = asyncio.Event()

    async def loop() -> None:
        await clock.sleep(1)
        await stuck.wait()  # busy with something else, not asleep on the clock

    task = asyncio.create_task(loop())
    await asyncio.sleep(0)
    with pytest.raises(AssertionError, match="did not fall asleep"):
        await clock.advance(5, timeout=0.05)
    stuck.set()
    await task


@settings(max_examples=60, deadline=None)
@given(
    periods=st.lists(st.integers(50, 5_000), min_size=1, max_size=4),
    steps=st.lists(st.integers(0, 12_000), min_size=1, max_size=6),
)
def test_loops_wake_as_often_as_real_time_would_wake_them(
    periods: list[int], steps: list[int]
) -> None:
    """Loops that sleep ``period`` ms over and over, like the sweep: however the test moves the
    time, each has woken once per period passed, each time at its exact due time, and all in
    the order of those times."""

    async def scenario() -> None:
        clock = FakeClock(start_ms=START)
        woke: list[tuple[int, int]] = []  # (when, which loop)

        async def loop(which: int, period: int) -> None:
            while True:
                await clock.sleep(period / 1000)
                woke.append((clock(), which))

        loops = [asyncio.create_task(loop(i, p)) for i, p in enumerate(periods)]
        for step in steps:
            await clock.advance(step / 1000)
        for task in loops:
            task.cancel()
        await asyncio.gather(*loops, return_exceptions=True)

        passed = sum(steps)
        assert clock() == START + passed
        expected = sorted(
            (START + k * period, which)
            for which, period in enumerate(periods)
            for k in range(1, passed // period + 1)
        )
        assert sorted(woke) == expected
        assert [when for when, _ in woke] == sorted(when for when, _ in woke)

    asyncio.run(scenario())


# --- the bot on the clock ---------------------------------------------------------------------


async def test_the_sweep_expires_a_challenge_when_its_time_has_passed(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    challenge = await table.send_challenge()
    assert table.challenge_id is not None

    await harness.clock.advance(15 * 60)  # its last moment: still open
    await settle(fake, harness)
    assert (await harness.bot.services.challenges.get(table.challenge_id)).status == "pending"
    assert challenge.button_labels == ["Accept", "Decline"]

    await harness.clock.advance(30)  # the next sweep: expired, and its message says so
    await fake.wait_for(lambda: challenge.buttons == [], what="the expired challenge")
    await settle(fake, harness)
    assert challenge.content == "**Ahsoka**'s challenge to **Bastila** expired. No money moved."
    assert (await table.balance("A"), await table.balance("B")) == (1000, 1000)


async def test_the_clock_keeps_its_time_across_a_restart(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    before = harness.clock()
    await harness.clock.advance(90)
    await harness.restart()
    assert harness.clock() == harness.bot.clock() == before + 90_000


async def test_the_publisher_tries_again_after_2_then_10_more_seconds(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    board = await table.open(wager="250 cr")
    refused = fake.fail_message(board.id, status=400, code=50035, count=1000)
    await table.move(("B", "end"))  # saved; its board edit is refused
    tries = [refused.hits]

    for wait in (1.999, 0.001, 9.999, 0.001):
        await harness.clock.advance(wait)
        await settle(fake, harness)
        tries.append(refused.hits)
    assert tries[1] == tries[0] < tries[2] == tries[3] < tries[4], tries

    refused.count = 0  # Discord takes edits again: the next try, 30 s on, heals the board
    await harness.clock.advance(29.999)
    await settle(fake, harness)
    assert "Bastila ends the turn." not in (board.embeds[0].get("description") or "")
    await harness.clock.advance(0.001)
    await fake.wait_for(
        lambda: "Bastila ends the turn." in (board.embeds[0].get("description") or ""),
        what="the board, redrawn by the third try",
    )
