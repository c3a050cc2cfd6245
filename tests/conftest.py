"""Shared fixtures: a loopback Discord (``fake``) and the real bot running against it.

- ``fake``: a started :class:`FakeDiscord`. At teardown the test fails if the bot sent a request
  Discord would reject (``fake.violations``), called a route the fake does not implement, or
  made the fake itself crash.
- ``harness``: the real ``SzulerniaBot`` logged in, commands synced and READY; ``harness.bot``,
  ``await harness.restart()`` (same database), ``harness.take_errors()``. At teardown the test
  fails if the bot or discord.py logged an error that the test did not take.
- ``bot`` / ``running_bot``: ``harness.bot`` (after a restart, use ``harness.bot``).
- ``seed``: the seed of the bot's ``random.Random`` (1234; ``@pytest.mark.seed(7)`` to change).
- Every test runs with :data:`bot.i18n.STRICT` on: a message key or placeholder missing from the
  catalogues raises, where the bot would only log it.

Markers: ``@pytest.mark.extensions("tests.e2e.harness_cog")`` loads extra extensions after the
default ones; ``@pytest.mark.bot_settings(dev_guild=True)`` syncs commands to ``fake.guild``
(any other keyword goes to ``BotSettings``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot import i18n
from bot.app import DEFAULT_EXTENSIONS, SzulerniaBot
from tests import pg
from tests.fakediscord import BotHarness, FakeDiscord
from tests.fakediscord.openapi import SPEC_ENV, load_spec_validator, spec_location

DEFAULT_SEED = 1234


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "seed(n): seed of the bot's random.Random")
    config.addinivalue_line("markers", "extensions(*names): extra bot extensions to load")
    config.addinivalue_line("markers", "bot_settings(**kw): BotSettings for the bot under test")


def _spec_status() -> tuple[bool, str]:
    location = spec_location()
    if load_spec_validator() is None:
        return False, (
            f"fakediscord: Discord's OpenAPI spec is absent ({location}; set {SPEC_ENV}): "
            "request bodies are checked only against the fake's extra limits"
        )
    return True, f"fakediscord: request bodies are validated against {location}"


def pytest_report_header(config: pytest.Config) -> list[str]:
    server = f"PostgreSQL tests run against {pg.ENV}" if pg.URL else pg.SKIPPED
    return [_spec_status()[1], server]


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """With ``-q`` (the project default) pytest hides the header: say it here, once, if absent."""
    found, status = _spec_status()
    if not found and config.get_verbosity() < 0:
        terminalreporter.write_line(status)
    if pg.URL is None:
        terminalreporter.write_line(pg.SKIPPED)


@pytest.fixture(scope="session", autouse=True)
def strict_i18n() -> Iterator[None]:
    """A gap in the catalogues fails the test that shows it instead of reaching a player."""
    i18n.STRICT = True
    yield
    i18n.STRICT = False


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as server:
        yield server
        problems = server.problems()
    if problems:
        pytest.fail("fakediscord found problems:\n" + "\n".join(problems))


@pytest.fixture
def seed(request: pytest.FixtureRequest) -> int:
    marker = request.node.get_closest_marker("seed")
    return int(marker.args[0]) if marker else DEFAULT_SEED


@pytest.fixture
async def harness(
    fake: FakeDiscord, tmp_path: Path, seed: int, request: pytest.FixtureRequest
) -> AsyncIterator[BotHarness]:
    extensions = list(DEFAULT_EXTENSIONS)
    for marker in request.node.iter_markers("extensions"):
        extensions += [name for name in marker.args if name not in extensions]
    settings_marker = request.node.get_closest_marker("bot_settings")
    bot_settings = dict(settings_marker.kwargs) if settings_marker else {}
    if bot_settings.pop("dev_guild", False):
        bot_settings["dev_guild_id"] = fake.guild.id
    runner = BotHarness(
        fake,
        database=tmp_path / "szulernia.db",
        seed=seed,
        extensions=extensions,
        bot_settings=bot_settings,
    )
    await runner.start()
    try:
        yield runner
    finally:
        await runner.close()
    problems = runner.problems()
    if problems:
        pytest.fail("the bot logged errors:\n" + "\n".join(problems))


@pytest.fixture
def bot(harness: BotHarness) -> SzulerniaBot:
    return harness.bot


@pytest.fixture
def running_bot(harness: BotHarness) -> SzulerniaBot:
    return harness.bot
