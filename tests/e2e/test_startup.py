"""Startup and shutdown: restarts keep everything, command syncs are spared, a rejected token and
SIGINT/SIGTERM end ``python -m bot`` the way they should."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sqlite3
from pathlib import Path

import pytest

from bot.__main__ import _run
from bot.app import COMMANDS_HASH_KEY
from bot.config import DatabaseSettings, DiscordSettings, Settings
from tests.e2e.test_characters import open_pegaz, say, snapshot
from tests.fakediscord import MANAGE_GUILD, BotHarness, FakeDiscord
from tests.storage.damage import damage_beyond_the_schema

GLOBAL_SYNC = "PUT /applications/{application_id}/commands"
GUILD_SYNC = "PUT /applications/{application_id}/guilds/{guild_id}/commands"
CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"


async def test_a_restart_keeps_characters_purses_tables_and_settings(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    owner = fake.add_player("Ola", permissions=MANAGE_GUILD)
    keepers = fake.guild.add_role("Keepers")
    gm = fake.add_player("Gunther", roles=[keepers])
    alice = fake.add_player("Alice")
    bob = fake.add_player("Bob")
    await say(fake, owner, "gm role", role=keepers)
    await say(fake, alice, "character create", name="Greta", luck=True, perception=35)
    await say(fake, alice, "character create", name="Ulrika")
    await say(fake, alice, "character use", name="Ulrika")
    await say(fake, gm, "character create", name="Hans", user=bob)
    await say(fake, gm, "purse give", character="Ulrika", amount="1 GC 2 s", reason="Loot")
    await say(fake, gm, "purse give", character="Hans", amount="75 cr", reason="Loot")
    await say(fake, gm, "purse give", character="Hans", amount="2 s", reason="Loot")
    await say(fake, gm, "purse give", character="Greta", amount="3 s", reason="Loot")
    table = await open_pegaz(harness.bot, fake, gm, ["Greta", "Hans"])
    await say(fake, gm, "settings language", language="pl")
    users = [owner, gm, alice, bob]
    before = await snapshot(harness.bot, fake.guild.id, users)

    await harness.restart()
    await harness.restart()

    assert await snapshot(harness.bot, fake.guild.id, users) == before
    purse = await say(fake, alice, "purse show")
    assert (
        purse.content == "Sakiewka postaci **Ulrika**:\nMonety (Warhammer): 1 zk 2 s\nKredyty: 0 cr"
    )
    listed = await say(fake, bob, "table list")
    assert listed.content == (
        "Otwarte stoły (1):\n"
        f"- nr {table}: Trzykartowy Pegaz na <#{fake.tavern.id}>, czeka na graczy, graczy: 2"
    )
    given = await say(fake, gm, "purse give", character="Hans", amount="5 cr", reason="Tip")
    assert given.content == "MG daje 5 cr postaci **Hans**: Tip"  # still a GM by the role
    closed = await say(fake, gm, "table close", table=table)
    assert closed.content.endswith("Zwrócone stawki: **Greta** 1 s, **Hans** 1 s.")
    greta = await harness.bot.services.characters.by_name(fake.guild.id, "Greta")
    assert await harness.bot.services.purses.balances(greta.id) == {"wh": 36, "cr": 0}


async def test_commands_are_synced_globally_only_when_they_change(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    assert len(fake.requests(GLOBAL_SYNC)) == 1
    names = {command["name"] for command in fake.commands()}
    assert {"character", "purse", "gm", "settings", "table", "help"} <= names
    digest = await harness.bot.services.guilds.meta(COMMANDS_HASH_KEY)
    assert digest is not None and len(digest) == 64

    await harness.restart()
    await harness.restart()
    assert len(fake.requests(GLOBAL_SYNC)) == 1  # unchanged: Discord's rate limit is spared

    harness.extensions = (*harness.extensions, "tests.e2e.harness_cog")
    await harness.restart()
    assert len(fake.requests(GLOBAL_SYNC)) == 2
    assert "harness" in {command["name"] for command in fake.commands()}
    assert await harness.bot.services.guilds.meta(COMMANDS_HASH_KEY) != digest
    await harness.restart()
    assert len(fake.requests(GLOBAL_SYNC)) == 2
    assert fake.requests(GUILD_SYNC) == []


@pytest.mark.bot_settings(dev_guild=True)
async def test_a_development_guild_is_synced_at_every_start(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    await harness.restart()
    assert [r.status for r in fake.requests(GUILD_SYNC)] == [200, 200]
    assert fake.requests(GLOBAL_SYNC) == [] and fake.commands() == []
    assert {"character", "purse"} <= {c["name"] for c in fake.commands(fake.guild)}
    made = await say(fake, fake.owner, "character create", name="Greta")
    assert made.content == "Created **Greta** (Perception 0)."


def _closed_cleanly(path: Path) -> list[tuple[int, ...]]:
    """The purse balances in a database that was closed (no WAL left) and is intact."""
    assert not Path(f"{path}-wal").exists()  # the last connection was closed, not dropped
    db = sqlite3.connect(path)
    try:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        query = "SELECT balance FROM accounts WHERE kind = 'purse' AND currency = 'wh'"
        return db.execute(query).fetchall()
    finally:
        db.close()


def _settings(fake: FakeDiscord, tmp_path: Path) -> Settings:
    return Settings(
        database=DatabaseSettings(path=tmp_path / "szulernia.db"),
        discord=DiscordSettings(api_base=fake.api_base, gateway_url=fake.gateway_url),
        token=fake.token,
    )


async def test_a_rejected_token_is_one_clear_line_and_a_failure(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    wrong = "not-the-bot-token.at-all"

    code = await _run(_settings(fake, tmp_path), wrong)

    assert code == 1
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [r.getMessage() for r in errors] == [
        "Discord rejected the token (401). Check DISCORD_TOKEN."
    ]
    assert wrong not in caplog.text and fake.token not in caplog.text
    assert [r.status for r in fake.requests("GET /users/@me")] == [401]
    assert not (tmp_path / "szulernia.db").exists()  # it never got as far as the database


async def test_an_unusable_database_is_one_clear_line_and_a_failure(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = _settings(fake, tmp_path)
    folder = tmp_path / "a-folder.db"
    folder.mkdir()
    settings = settings.model_copy(update={"database": DatabaseSettings(path=folder)})

    assert await _run(settings, fake.token) == 1

    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [
        f"a-folder.db is not a readable SQLite database: it is a directory (file: {folder})"
    ]
    assert fake.requests(GLOBAL_SYNC) == [] and not fake.gateway.connected


async def test_a_damaged_database_is_one_clear_line_and_no_connection(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The integrity check runs beside the cogs' imports; its verdict still comes before
    anything reaches Discord."""
    settings = _settings(fake, tmp_path)
    await damage_beyond_the_schema(tmp_path / "szulernia.db")

    assert await _run(settings, fake.token) == 1

    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and errors[0].startswith("szulernia.db is not a readable SQLite")
    assert fake.requests(GLOBAL_SYNC) == [] and not fake.gateway.connected


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_a_signal_lets_the_action_in_flight_finish_then_closes_the_database(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture, signum: signal.Signals
) -> None:
    caplog.set_level(logging.INFO)
    settings = _settings(fake, tmp_path)
    gm = fake.add_player("Gunther", permissions=MANAGE_GUILD)
    running = asyncio.create_task(_run(settings, fake.token))
    await fake.wait_for(lambda: fake.commands() and fake.gateway.connected, what="the bot")
    await say(fake, gm, "character create", name="Hans", npc=True)
    fake.slow(CALLBACK, 0.3)

    handle = await fake.slash(gm, "purse give", character="Hans", amount="2 GC", reason="Wages")
    await fake.wait_for(lambda: len(fake.requests(CALLBACK)) == 2, what="the slow answer")
    os.kill(os.getpid(), signum)

    assert await asyncio.wait_for(running, 10) == 0
    reply = await handle.reply()
    assert reply.content == "The GM gave 2 GC to **Hans**: Wages"
    assert "database closed" in caplog.messages and "stopped cleanly" in caplog.messages
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert _closed_cleanly(settings.database.path) == [(480,)]
    assert signal.getsignal(signum) in (signal.SIG_DFL, signal.default_int_handler)
