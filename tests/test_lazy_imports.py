"""The bot's start imports no module that only some later moment needs: the NPC deciders (the
Master's search), Pillow and the drawings, ICU. Checked in a fresh interpreter, so the test
session's own imports do not count."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = (
    "bot.ai.pazaak",
    "bot.ai.pazaak_master",
    "bot.ai.pegaz",
    "bot.ai.peeking",
    "PIL",
    "bot.render.images.draw",
    "bot.render.images.glyphs",
    "icu",
)

STARTUP = """
import importlib, json, sys
import bot.app, cogs
for name in bot.app.DEFAULT_EXTENSIONS:
    importlib.import_module(name)
print(json.dumps(sorted(sys.modules)))
"""

LATER = """
import json, sys
from bot.ai import players
from bot.render import images
from bot.services import names
images.pegaz, images.font_source
names.look_alike_keys("Bob")
players.choose  # the deciders come with the first decision, tried in the NPC tests
print(json.dumps(sorted(sys.modules)))
"""


def imported(code: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    return set(json.loads(done.stdout))


def test_the_bot_and_its_cogs_import_no_heavy_module() -> None:
    modules = imported(STARTUP)
    assert "bot.app" in modules and "cogs.pegaz" in modules  # the check sees what it checks
    assert [name for name in HEAVY if name in modules] == []


def test_the_lazy_modules_still_load_when_used() -> None:
    modules = imported(LATER)
    assert {"PIL", "bot.render.images.pegaz", "bot.render.images.draw", "icu"} <= modules
