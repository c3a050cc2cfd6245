"""A smoke test of ``bench/load.py``: one table for a second, the real bot, the echo bot and the
floor (echo acknowledging first).

It asserts only that the bench measures something (figures exist and are positive, every echo
click was answered); the figures themselves are printed by the bench, never asserted."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from bench.load import run_phase
from bench.load_child import BOT


def options(**changes: object) -> argparse.Namespace:
    values: dict[str, object] = dict(
        games=["pegaz"], seconds=1.0, warmup=0.5, grace=0.5, no_spec=True, rate_limits=False
    )
    return argparse.Namespace(**(values | changes))


async def test_one_table_for_a_second(tmp_path: Path) -> None:
    echo = await run_phase("echo", 1, options(), tmp_path)
    bot = await run_phase("bot", 1, options(), tmp_path)

    assert echo.failures == [] and echo.problems == []
    # Every click was answered: one ack per interaction (one more if the stop came between a
    # click and its answer: an unfinished wait counts as a sample), and each was a move.
    assert echo.moves > 0 and echo.interactions - echo.moves in (0, 1)
    assert len(echo.all_acks) - echo.interactions in (0, 1)
    assert bot.failures == [] and bot.problems == []
    assert bot.moves > 0 and bot.interactions >= bot.moves and bot.updates
    assert min(bot.all_acks) > 0 and min(bot.updates) > 0
    assert bot.cpu > 0 and bot.statements > 0 and bot.commits > 0
    assert bot.stats.interaction > 0
    # What the floor is given of the bot's traffic: its board, and rates an interaction.
    traffic = bot.traffic()
    assert traffic["embed"] and traffic["labels"]  # a table message the bot drew
    assert traffic["follow_ups"] > 0 and traffic["posts"] >= 0


async def test_the_floor_acknowledges_then_edits(tmp_path: Path) -> None:
    floor = await run_phase("floor", 1, options(), tmp_path)

    assert floor.failures == [] and floor.problems == []
    assert floor.moves > 0 and floor.interactions - floor.moves in (0, 1)
    routes = floor.stats.routes["interaction"]
    callbacks = sum(n for r, n in routes.items() if r.endswith("/callback"))
    edits = sum(n for r, n in routes.items() if r.endswith("/messages/@original"))
    # A deferral and an edit each (a click at an edge of the window may have one of them in it).
    assert callbacks >= floor.moves - 1 and edits >= floor.moves - 1
    assert abs(callbacks - edits) <= 1 and floor.stats.limited == 0


async def test_the_floor_says_what_the_bot_says(tmp_path: Path) -> None:
    board = {"embed": {"title": "A board", "description": "x" * 300}, "labels": ["Fold", "Pay"]}
    mix = {**board, "follow_ups": 0.5, "posts": 0.25}
    floor = await run_phase("floor", 1, options(seconds=2.0), tmp_path, mix=mix)

    assert floor.failures == [] and floor.problems == []
    moves = floor.moves
    assert moves >= 8
    follow_ups = floor.stats.routes["interaction"]["POST /webhooks/{webhook_id}/{webhook_token}"]
    posts = floor.stats.routes["limited"]["POST /channels/{channel_id}/messages"]
    # One follow-up every second click and a post every fourth (a click at an edge of the
    # window may count on one side of it only).
    assert abs(follow_ups - moves / 2) <= 2 and abs(posts - moves / 4) <= 2
    assert floor.stats.limited == posts


def test_echo_imports_none_of_the_bot() -> None:
    """Echo is a bare discord.py bot: its child process must not pay for the bot's settings
    (pydantic and its models, some 60 ms), or its time to READY flatters the bot's ratio."""
    script = (
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('load_bot', {str(BOT)!r})\n"
        "module = importlib.util.module_from_spec(spec)\n"
        "sys.modules['load_bot'] = module\n"
        "spec.loader.exec_module(module)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('bot', 'cogs', 'pydantic')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "['bot', 'bot.endpoints']"
