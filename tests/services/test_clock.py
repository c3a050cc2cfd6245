"""The production sleeper: real time on the event loop, cut short by its wake event."""

from __future__ import annotations

import asyncio
import time

from bot.services.clock import wall_clock, wall_sleeper


async def test_the_wall_sleeper_sleeps_its_time() -> None:
    loop = asyncio.get_running_loop()
    began = loop.time()
    await wall_sleeper.sleep(0.05)
    await wall_sleeper.sleep(0.05, wake=asyncio.Event())  # never set: the whole time
    assert loop.time() - began >= 0.1


async def test_the_wall_sleeper_wakes_when_its_event_is_set() -> None:
    wake = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.call_later(0.01, wake.set)
    began = loop.time()
    await asyncio.wait_for(wall_sleeper.sleep(3600, wake=wake), timeout=5)
    assert loop.time() - began < 5


def test_the_wall_clock_is_unix_milliseconds() -> None:
    assert abs(wall_clock() - time.time() * 1000) < 1000
