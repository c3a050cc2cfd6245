"""GM tools end to end: ``/gm role``, ``/table list`` and ``/table close`` (with refunds)."""

from __future__ import annotations

from bot.services.outcomes import TableOutcome
from tests.e2e.test_characters import open_pegaz, say, snapshot
from tests.fakediscord import MANAGE_GUILD, BotHarness, FakeDiscord


async def test_the_gm_role_can_be_set_and_cleared(fake: FakeDiscord, harness: BotHarness) -> None:
    owner = fake.add_player("Ola", permissions=MANAGE_GUILD)
    keepers = fake.guild.add_role("Keepers")
    named_gm = fake.guild.add_role("GM")  # the default by name (settings.bot.gm_role)
    keeper = fake.add_player("Kasia", roles=[keepers])
    old_gm = fake.add_player("Olek", roles=[named_gm])
    alice = fake.add_player("Alice")
    await say(fake, alice, "character create", name="Greta")

    given = await say(fake, old_gm, "purse give", character="Greta", amount="1 s", reason="Tip")
    assert given.content == "The GM gave 1 s to **Greta**: Tip"
    refused = await say(fake, keeper, "purse give", character="Greta", amount="1 s", reason="Tip")
    assert refused.content == "Only a GM can do that."

    set_role = await say(fake, owner, "gm role", role=keepers)
    assert set_role.content == (
        f"Members with <@&{keepers.id}> are GMs now (and so is anyone with Manage Server)."
    )
    assert set_role.ephemeral
    assert await harness.bot.services.guilds.gm_role(fake.guild.id) == keepers.id
    given = await say(fake, keeper, "purse give", character="Greta", amount="2 s", reason="Tip")
    assert given.content == "The GM gave 2 s to **Greta**: Tip"
    refused = await say(fake, old_gm, "purse give", character="Greta", amount="1 s", reason="Tip")
    assert refused.content == "Only a GM can do that."

    cleared = await say(fake, owner, "gm role")
    assert cleared.content == (
        'No GM role is set: members with a role named "GM" are GMs '
        "(and so is anyone with Manage Server)."
    )
    assert await harness.bot.services.guilds.gm_role(fake.guild.id) is None
    refused = await say(fake, keeper, "purse give", character="Greta", amount="1 s", reason="Tip")
    assert refused.content == "Only a GM can do that."
    greta = await harness.bot.services.characters.by_name(fake.guild.id, "Greta")
    assert await harness.bot.services.purses.balances(greta.id) == {"wh": 36, "cr": 0}


async def test_tables_are_listed_and_a_gm_closes_one_with_every_stake_back(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    gm = fake.add_player("Gunther", permissions=MANAGE_GUILD)
    alice = fake.add_player("Alice")
    bob = fake.add_player("Bob")
    bot = harness.bot
    services = bot.services
    empty = await say(fake, alice, "table list")
    assert empty.content == "There are no open tables on this server." and empty.ephemeral
    await say(fake, alice, "character create", name="Greta")
    await say(fake, bob, "character create", name="Hans")
    for name in ("Greta", "Hans"):
        await say(fake, gm, "purse give", character=name, amount="1 GC", reason="Stake money")
    first = await open_pegaz(bot, fake, gm, ["Greta", "Hans"])
    second = await open_pegaz(bot, fake, gm, ["Greta"])
    greta = await services.characters.by_name(fake.guild.id, "Greta")
    hans = await services.characters.by_name(fake.guild.id, "Hans")
    assert await services.purses.balances(greta.id) == {"wh": 240 - 24, "cr": 0}
    outcomes: list[TableOutcome] = []

    async def heard(outcome: TableOutcome) -> None:
        outcomes.append(outcome)

    bot.add_listener(heard, "on_table_outcome")

    listed = await say(fake, alice, "table list")
    assert listed.content == (
        "Open tables (2):\n"
        f"- #{first} Three-Card Pegasus in <#{fake.tavern.id}>: waiting for players, 2 seated\n"
        f"- #{second} Three-Card Pegasus in <#{fake.tavern.id}>: waiting for players, 1 seated"
    )
    choices = await fake.autocomplete(gm, "table close", "table", "")
    assert choices == [
        {"name": f"#{first} Three-Card Pegasus in #tavern (2 seated)", "value": first},
        {"name": f"#{second} Three-Card Pegasus in #tavern (1 seated)", "value": second},
    ]
    assert [
        c["value"] for c in await fake.autocomplete(gm, "table close", "table", str(second))
    ] == [second]

    before = await snapshot(bot, fake.guild.id, [gm, alice, bob])
    refused = await say(fake, alice, "table close", table=first)
    assert refused.content == "Only a GM can do that." and refused.ephemeral
    assert await snapshot(bot, fake.guild.id, [gm, alice, bob]) == before

    closed = await say(fake, gm, "table close", table=first)
    assert closed.content == (
        f"The GM closed table #{first} (Three-Card Pegasus). "
        "Stakes given back: **Greta** 1 s, **Hans** 1 s."
    )
    assert not closed.ephemeral and fake.tavern.messages[-1] is closed
    assert await services.purses.balances(greta.id) == {"wh": 240 - 12, "cr": 0}
    assert await services.purses.balances(hans.id) == {"wh": 240, "cr": 0}
    assert (await services.tables.get(first)).status == "cancelled"
    assert await services.tables.pot_balance(first) == 0
    await fake.wait_for(lambda: outcomes, what="on_table_outcome")
    assert [(o.table_id, o.status) for o in outcomes] == [(first, "cancelled")]
    audit = await services.purses.audit()
    assert audit.unbalanced_movements == () and audit.drifted_accounts == ()

    again = await say(fake, gm, "table close", table=first)
    assert again.content == "This table is closed." and again.ephemeral
    listed = await say(fake, alice, "table list")
    assert listed.content.startswith("Open tables (1):\n") and f"#{first} " not in listed.content

    history = await services.purses.history(hans.id, "wh", limit=3)
    assert [(line.kind, line.amount) for line in history.lines] == [
        ("refund", 12),
        ("stake", -12),
        ("grant", 240),
    ]


async def test_a_table_of_another_server_is_not_ours(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    gm = fake.add_player("Gunther", permissions=MANAGE_GUILD)
    other = fake.add_guild("The Prancing Pony", owner=gm)
    await fake.wait_for(lambda: harness.bot.get_guild(other.id), what="the second guild")
    mine = await open_pegaz(harness.bot, fake, gm, [])
    refused = await say(fake, gm, "table close", table=mine, channel=other.text_channel)
    assert refused.content == "I don't know that table."
    listed = await say(fake, gm, "table list", channel=other.text_channel)
    assert listed.content == "There are no open tables on this server."
    assert (await harness.bot.services.tables.get(mine)).status == "open"
