"""Time for the services: Unix milliseconds as an int, injectable for tests."""

from __future__ import annotations

import time
from collections.abc import Callable

Clock = Callable[[], int]
"""Milliseconds since the Unix epoch."""


def wall_clock() -> int:
    return time.time_ns() // 1_000_000
