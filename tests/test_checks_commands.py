"""Guild-only and GM commands are discord.py checks; a refused one answers as it always did.

A non-GM is refused a GM command with ``error.not_gm``, ephemerally, and nothing changes. A
command used in a DM is refused with ``error.guild_only`` (the fake sends a slash command from a
DM as a client that has not seen the sync would). The guild-only groups say so in their synced
payload; ``/pegaz`` and ``/pazaak`` stay offered in DMs for their odds and rules.
"""

from __future__ import annotations

from typing import Any

from discord import app_commands

from bot.i18n import t
from tests.e2e.test_characters import open_pegaz, say, snapshot
from tests.fakediscord import MANAGE_GUILD, BotHarness, FakeDiscord

NOT_GM = t("en", "error.not_gm")
NOT_MANAGER = t("en", "error.not_manager")
GUILD_ONLY = t("en", "error.guild_only")
GM_COMMANDS = {
    "purse give",
    "purse take",
    "settings language",
    "table close",
    "pegaz open",
    "pegaz seat",
    "pazaak grant",
    "pazaak take",
    "npc takeover",
    "npc handback",
    "gm report",
    "gm export",
    "gm void",
    "settings overdraft",
    "settings images",
    "settings threads",
}
GUILD_GROUPS = {"character", "purse", "gm", "settings", "table", "npc", "stats"}


def test_exactly_the_gm_commands_carry_a_check(harness: BotHarness) -> None:
    checked = {
        command.qualified_name
        for command in harness.bot.tree.walk_commands()
        if isinstance(command, app_commands.Command) and command.checks
    }
    assert checked == GM_COMMANDS | {"gm role"}


async def test_a_non_gm_is_refused_every_gm_command_as_before(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    gm = fake.add_player("Gunther", permissions=MANAGE_GUILD)
    alice = fake.add_player("Alice")
    keeper = fake.add_player("Kasia", roles=[fake.guild.add_role("GM")])  # a GM, not a manager
    bot = harness.bot
    await say(fake, alice, "character create", name="Greta")
    await say(fake, gm, "character create", name="Grimbold", npc=True)
    await say(fake, gm, "purse give", character="Greta", amount="1 GC", reason="Stake")
    table = await open_pegaz(bot, fake, gm, ["Greta"])
    before = await snapshot(bot, fake.guild.id, [gm, alice, keeper])
    said = len(fake.tavern.messages)

    attempts: list[tuple[str, dict[str, Any]]] = [
        ("purse give", {"character": "Greta", "amount": "1 s", "reason": "Tip"}),
        ("purse take", {"character": "Greta", "amount": "1 s", "reason": "Fine"}),
        ("settings language", {"language": "pl"}),
        ("table close", {"table": table}),
        ("pegaz open", {}),
        ("pegaz seat", {"npc": "Grimbold"}),
        ("pazaak grant", {"character": "Greta", "cards": "+3"}),
        ("pazaak take", {"character": "Greta", "cards": "+3"}),
        ("npc takeover", {"npc": "Grimbold"}),
        ("npc handback", {"npc": "Grimbold"}),
        ("gm report", {}),
        ("gm export", {}),
        ("gm void", {"table": table}),
        ("settings overdraft", {"state": "on"}),
        ("settings images", {"state": "on"}),
        ("settings threads", {"state": "on"}),
    ]
    assert {command for command, _ in attempts} == GM_COMMANDS
    for command, options in attempts:
        refused = await say(fake, alice, command, **options)
        assert (refused.content, refused.ephemeral) == (NOT_GM, True), command
    for who in (alice, keeper):  # the GM role is no Manage Server
        refused = await say(fake, who, "gm role")
        assert (refused.content, refused.ephemeral) == (NOT_MANAGER, True)

    assert await snapshot(bot, fake.guild.id, [gm, alice, keeper]) == before
    assert len(fake.tavern.messages) == said
    given = await say(fake, keeper, "purse give", character="Greta", amount="1 s", reason="Tip")
    assert given.content == "The GM gave 1 s to **Greta**: Tip"  # the check lets a GM by role


async def test_a_dm_is_refused_every_guild_only_command_as_before(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    gm = fake.add_player("Gunther", permissions=MANAGE_GUILD)
    alice = fake.add_player("Alice")
    await say(fake, alice, "character create", name="Greta")
    before = await snapshot(harness.bot, fake.guild.id, [gm, alice])

    in_dm: list[tuple[Any, str, dict[str, Any]]] = [
        (gm, "pegaz open", {}),  # a GM's command: in a DM the guild comes first
        (gm, "pegaz seat", {"npc": "Greta"}),
        (alice, "pegaz join", {}),
        (gm, "pazaak grant", {"character": "Greta", "cards": "+3"}),
        (gm, "pazaak take", {"character": "Greta", "cards": "+3"}),
        (alice, "pazaak challenge", {"opponent": "Greta", "wager": "10"}),
        (alice, "pazaak collection", {}),
        (alice, "pazaak deck", {}),
        (gm, "purse take", {"character": "Greta", "amount": "1 s", "reason": "x"}),
        (gm, "gm role", {}),
        (alice, "gm role", {}),  # no Manage Server either: still the guild first
        (alice, "character use", {"name": "Greta"}),
    ]
    for who, command, options in in_dm:
        refused = await say(fake, who, command, channel=fake.dm_channel(who), **options)
        assert (refused.content, refused.ephemeral) == (GUILD_ONLY, True), command

    odds = await say(fake, alice, "pegaz odds", hand="6 6 1", channel=fake.dm_channel(alice))
    assert odds.embeds[0]["title"] == "Three-Card Pegasus odds (d6, dice)"
    rules = await say(fake, alice, "pazaak rules", channel=fake.dm_channel(alice))
    assert rules.embeds
    assert await snapshot(harness.bot, fake.guild.id, [gm, alice]) == before
    assert fake.tavern.messages == []


async def test_the_guild_only_groups_are_declared_so_to_discord(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    synced = {command["name"]: command for command in fake.state.global_commands}
    guild_only = {name for name, command in synced.items() if command["contexts"] == [0]}
    assert guild_only == GUILD_GROUPS
    for name in ("pegaz", "pazaak", "help"):
        assert synced[name]["contexts"] is None  # every context the app is installed for
