"""The harness itself: the real bot logs in to the fake, syncs, and answers interactions."""

from __future__ import annotations

from pathlib import Path

import pytest
from discord.ext import commands

from bot.app import SzulerniaBot
from tests.fakediscord import MANAGE_GUILD, BotHarness, FakeDiscord

HARNESS_COG = "tests.e2e.harness_cog"


async def test_bot_logs_in_and_syncs_commands_that_pass_validation(
    fake: FakeDiscord, harness: BotHarness, bot: SzulerniaBot
) -> None:
    assert bot.is_ready()
    assert bot.user is not None and bot.user.id == fake.bot_user.id
    assert bot.application_id == fake.application_id
    assert [guild.id for guild in bot.guilds] == [fake.guild.id]
    assert bot.get_channel(fake.tavern.id) is not None

    syncs = fake.requests("PUT /applications/{application_id}/commands")
    assert [r.status for r in syncs] == [200]
    assert "help" in [c["name"] for c in fake.commands()]
    if fake.spec is not None:  # the same body, checked again here to show it was checked
        assert fake.spec.validate("PUT", syncs[0].path, syncs[0].body) == []
    assert fake.violations == []

    assert fake.gateway.log[:2] == ["HEARTBEAT", "IDENTIFY"]
    assert "compress=zlib-stream" in fake.gateway.urls[0]  # discord.py decompressed our frames
    # no wait for a guild that never comes: a bound against a hang, not a speed test (startup's
    # speed is bench/load.py's to measure; a loaded 2-core machine took 1.1 s here)
    assert harness.startup_seconds[0] < 10.0


async def test_slash_help_answers_ephemerally(fake: FakeDiscord, harness: BotHarness) -> None:
    alice = fake.add_player("Alice")

    handle = await fake.slash(alice, "help")
    reply = await handle.reply()

    assert "`/help`" in reply.embeds[0]["fields"][-1]["value"]
    assert reply.ephemeral and fake.ephemeral(alice) == [reply]
    assert reply.interaction_metadata is not None
    assert reply.interaction_metadata["user"]["id"] == str(alice.id)
    assert fake.tavern.messages == []  # nobody else sees it


@pytest.mark.bot_settings(dev_guild=True)
async def test_dev_guild_sync_goes_to_the_guild(fake: FakeDiscord, harness: BotHarness) -> None:
    assert fake.commands() == []
    assert "help" in [c["name"] for c in fake.commands(fake.guild)]
    reply = await (await fake.slash(fake.owner, "help")).reply()
    assert "`/help`" in reply.embeds[0]["fields"][-1]["value"]


@pytest.mark.extensions(HARNESS_COG)
async def test_options_of_every_type_arrive_typed(fake: FakeDiscord, harness: BotHarness) -> None:
    gm = fake.add_player("Gunther", permissions=MANAGE_GUILD)
    alice = fake.add_player("Alice")
    role = fake.guild.add_role("Regulars")

    handle = await fake.slash(
        alice,
        "harness options",
        text="hi",
        count=3,
        ratio=0.5,
        flag=True,
        who=gm,
        where=fake.tavern,
        role=role,
        mood="angry",
    )

    reply = await handle.reply()
    assert reply.content == "hi|3|0.5|True|Gunther:True|tavern|Regulars|angry"


@pytest.mark.extensions(HARNESS_COG)
async def test_the_helpers_refuse_what_a_discord_client_would(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    alice = fake.add_player("Alice")
    with pytest.raises(ValueError, match="outside"):
        await fake.slash(
            alice,
            "harness options",
            text="x",
            count=11,
            ratio=1,
            flag=False,
            who=alice,
            where=fake.tavern,
            role=fake.guild.everyone,
        )
    with pytest.raises(ValueError, match="not one of the choices"):
        await fake.slash(
            alice,
            "harness options",
            text="x",
            count=1,
            ratio=1,
            flag=False,
            who=alice,
            where=fake.tavern,
            role=fake.guild.everyone,
            mood="sad",
        )
    with pytest.raises(ValueError, match="required"):
        await fake.slash(alice, "harness post")
    with pytest.raises(LookupError, match="no synced slash command"):
        await fake.slash(alice, "roulette spin")


@pytest.mark.extensions(HARNESS_COG)
async def test_subcommand_group(fake: FakeDiscord, harness: BotHarness) -> None:
    reply = await (await fake.slash(fake.owner, "harness deep echo", word="owl")).reply()
    assert reply.content == "deep owl" and not reply.ephemeral
    assert fake.tavern.messages == [reply]


@pytest.mark.extensions(HARNESS_COG)
async def test_autocomplete_returns_the_choices(fake: FakeDiscord, harness: BotHarness) -> None:
    choices = await fake.autocomplete(fake.owner, "harness pick", "name", "Gr")
    assert [c["name"] for c in choices] == ["Grimbold", "Greta", "Gruber"]


@pytest.mark.extensions(HARNESS_COG)
async def test_select_menu_updates_its_message(fake: FakeDiscord, harness: BotHarness) -> None:
    alice = fake.add_player("Alice")
    menu = await (await fake.slash(alice, "harness menu")).reply()

    handle = await fake.select(alice, menu, ["red", "blue"], placeholder="Pick colours")
    updated = await handle.reply()

    assert updated is menu
    assert menu.content == "Picked: red, blue" and menu.components == []
    assert [version["content"] for version in menu.edits] == ["Choose:"]


@pytest.mark.extensions(HARNESS_COG)
async def test_modal_submit(fake: FakeDiscord, harness: BotHarness) -> None:
    alice = fake.add_player("Alice")
    opened = await fake.slash(alice, "harness form")
    modal = await opened.wait_modal()
    assert modal["title"] == "Place a wager"

    submitted = await fake.submit_modal(alice, opened, {"Amount": "5 s"})

    reply = await submitted.reply()
    assert reply.content == "Wager 5 s (no note)" and reply.ephemeral


@pytest.mark.extensions(HARNESS_COG)
async def test_member_permissions_reach_the_bot(fake: FakeDiscord, harness: BotHarness) -> None:
    player = fake.add_player("Player")
    gm = fake.add_player("Gamemaster", permissions=MANAGE_GUILD)

    assert (await (await fake.slash(player, "harness gm")).reply()).content == "GM: False"
    assert (await (await fake.slash(gm, "harness gm")).reply()).content == "GM: True"
    assert (await (await fake.slash(fake.owner, "harness gm")).reply()).content == "GM: True"


async def test_request_guild_members_gets_a_chunk(
    fake: FakeDiscord, harness: BotHarness, bot: SzulerniaBot
) -> None:
    alice = fake.add_player("Alice")
    fake.add_player("Bob")
    guild = bot.get_guild(fake.guild.id)
    assert guild is not None

    members = await guild.query_members(query="Al")

    assert [m.id for m in members] == [alice.id]
    assert "REQUEST_GUILD_MEMBERS" in fake.gateway.log


async def test_a_bot_that_cannot_start_says_why(fake: FakeDiscord, tmp_path: Path) -> None:
    runner = BotHarness(fake, database=tmp_path / "szulernia.db", extensions=["tests.e2e.nothing"])
    with pytest.raises(commands.ExtensionNotFound):
        await runner.start()
    await runner.close()
    assert runner.problems() == []
