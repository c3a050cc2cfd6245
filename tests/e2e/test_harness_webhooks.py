"""Channel webhooks in the fake: the bot needs MANAGE_WEBHOOKS to list and create them, and an
NPC speaks through one under its own name and avatar; interaction follow-ups, which share the
webhook routes, work as before."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import discord
import pytest

from bot.app import SzulerniaBot
from tests.fakediscord import MANAGE_WEBHOOKS, BotHarness, FakeDiscord

HARNESS_COG = "tests.e2e.harness_cog"
HOOKS = "/channels/{channel_id}/webhooks"
EXECUTE = "POST /webhooks/{webhook_id}/{webhook_token}"
GREEDO = "https://example.com/npcs/greedo.png"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16


def tavern(fake: FakeDiscord, bot: SzulerniaBot) -> discord.TextChannel:
    channel = bot.get_channel(fake.tavern.id)
    assert isinstance(channel, discord.TextChannel)
    return channel


def may_manage(channel: discord.TextChannel) -> bool:
    return channel.permissions_for(channel.guild.me).manage_webhooks


async def granted(fake: FakeDiscord, bot: SzulerniaBot) -> discord.TextChannel:
    """The tavern, once the bot's cache knows that its role has MANAGE_WEBHOOKS."""
    channel = tavern(fake, bot)
    fake.grant_bot(MANAGE_WEBHOOKS)
    await fake.wait_for(lambda: may_manage(channel), what="MANAGE_WEBHOOKS in the bot's cache")
    return channel


class Listener(discord.Client):
    """A second client on the bot's token with the intents to hear messages and webhook changes,
    which the bot itself does not ask for."""

    def __init__(self) -> None:
        intents = discord.Intents.none()
        intents.guilds = intents.guild_messages = intents.webhooks = True
        super().__init__(intents=intents, guild_ready_timeout=0.05)
        self.heard: list[discord.Message] = []
        self.webhook_updates: list[int] = []

    async def on_message(self, message: discord.Message) -> None:
        self.heard.append(message)

    async def on_webhooks_update(self, channel: discord.abc.GuildChannel) -> None:
        self.webhook_updates.append(channel.id)


@contextlib.asynccontextmanager
async def listening(fake: FakeDiscord) -> AsyncIterator[Listener]:
    listener = Listener()
    await listener.login(fake.token)
    connection = asyncio.create_task(listener.connect(reconnect=False))
    try:
        await asyncio.wait_for(listener.wait_until_ready(), 5)
        yield listener
    finally:
        await listener.close()
        await connection


async def test_without_manage_webhooks_the_bot_may_neither_list_nor_create(
    fake: FakeDiscord, bot: SzulerniaBot
) -> None:
    channel = tavern(fake, bot)
    assert not may_manage(channel)  # a bot is not given it unless a test grants it

    with pytest.raises(discord.Forbidden) as creating:
        await channel.create_webhook(name="Tavern voices")
    with pytest.raises(discord.Forbidden) as listing:
        await channel.webhooks()

    assert creating.value.code == listing.value.code == 50013
    assert fake.webhooks() == []


async def test_with_manage_webhooks_the_bot_creates_and_lists_them(
    fake: FakeDiscord, bot: SzulerniaBot
) -> None:
    by_hand = fake.add_webhook("Announcements")  # made by the guild's owner in the settings
    channel = await granted(fake, bot)

    made = await channel.create_webhook(name="Tavern voices", avatar=PNG)

    first, hook = fake.webhooks()
    assert first is by_hand and made.id == hook.id and made.token == hook.token
    assert made.name == "Tavern voices" and made.channel_id == fake.tavern.id
    assert made.guild_id == fake.guild.id
    assert made.user is not None and made.user.id == fake.bot_user.id
    assert hook.application_id == fake.application_id and hook.creator is fake.bot_user
    assert hook.avatar is not None and made.avatar is not None and made.avatar.key == hook.avatar
    assert fake.requests(f"POST {HOOKS}")[0].body["avatar"].startswith("data:image/png;base64,")
    listed = {webhook.id: webhook for webhook in await channel.webhooks()}
    assert listed[hook.id].token == hook.token
    foreign = listed[by_hand.id]
    assert foreign.token is None  # a bot is shown only its own webhooks' tokens
    assert foreign.user is not None and foreign.user.id == fake.owner.id

    fake.withhold_bot(MANAGE_WEBHOOKS)
    await fake.wait_for(lambda: not may_manage(channel), what="the permission gone from the cache")
    with pytest.raises(discord.Forbidden):
        await channel.webhooks()


async def test_an_npc_speaks_through_the_webhook_under_its_own_name(
    fake: FakeDiscord, bot: SzulerniaBot
) -> None:
    alice, bob = fake.add_player("Alice"), fake.add_player("Bob")
    channel = await granted(fake, bot)
    made = await channel.create_webhook(name="Tavern voices")
    only_alice = discord.AllowedMentions(users=[discord.Object(alice.id)])

    async with listening(fake) as listener:
        sent = await made.send(
            f"{alice.mention}, {bob.mention}: I raise. @everyone, watch.",
            username="Greedo",
            avatar_url=GREEDO,
            allowed_mentions=only_alice,
            wait=True,
        )
        [heard] = await fake.wait_for(lambda: listener.heard, what="the line as MESSAGE_CREATE")

    [line] = fake.tavern.messages
    assert line.author_name == "Greedo" and line.author.bot and line.avatar_url == GREEDO
    assert line.webhook_id == made.id and line.application_id == fake.application_id
    assert line.mentions == [alice] and not line.mention_everyone  # as allowed_mentions says
    assert fake.webhooks()[0].messages == [line]
    assert sent.id == line.id and sent.webhook_id == made.id and sent.author.name == "Greedo"
    assert made.avatar is None and sent.author.avatar is not None  # avatar_url gave it one
    assert heard.id == line.id and heard.webhook_id == made.id and heard.author.name == "Greedo"
    assert [user.id for user in heard.mentions] == [alice.id]

    await made.send("Koona t'chuta.")  # without wait: Discord answers 204, no message
    assert fake.requests(EXECUTE)[-1].status == 204
    assert fake.tavern.messages[-1].author_name == "Tavern voices"  # the webhook's own name


async def test_the_webhook_edits_and_deletes_what_it_said(
    fake: FakeDiscord, bot: SzulerniaBot
) -> None:
    made = await (await granted(fake, bot)).create_webhook(name="Tavern voices")
    sent = await made.send("Maclunkey?", username="Greedo", wait=True)
    [line] = fake.tavern.messages

    await sent.edit(content="Maclunkey!")
    assert line.content == "Maclunkey!" and [v["content"] for v in line.edits] == ["Maclunkey?"]
    assert (await made.fetch_message(line.id)).content == "Maclunkey!"
    await sent.delete()

    assert line.deleted and fake.tavern.messages == []
    with pytest.raises(discord.NotFound) as gone:
        await made.fetch_message(line.id)
    assert gone.value.code == 10008


async def test_a_deleted_webhook_is_unknown_and_a_wrong_token_refused(
    fake: FakeDiscord, bot: SzulerniaBot
) -> None:
    made = await (await granted(fake, bot)).create_webhook(name="Tavern voices")
    forged = discord.Webhook.partial(made.id, "x" * 68, client=bot)
    again = discord.Webhook.from_url(made.url, client=bot)  # a stored URL, as a bot keeps it

    with pytest.raises(discord.HTTPException) as wrong:
        await forged.send("Let me in.", wait=True)
    await again.send("Back again.", username="Greedo", wait=True)
    fake.delete_webhook(fake.webhooks()[0])  # someone removed it in the channel's settings
    with pytest.raises(discord.NotFound) as gone:
        await made.send("Anyone there?", wait=True)

    assert wrong.value.status == 401 and wrong.value.code == 50027
    assert gone.value.code == 10015
    assert [m.content for m in fake.tavern.messages] == ["Back again."]
    assert fake.tavern.messages[0].webhook_id == made.id


async def test_the_bot_deletes_its_webhook(fake: FakeDiscord, bot: SzulerniaBot) -> None:
    channel = await granted(fake, bot)
    made = await channel.create_webhook(name="Tavern voices")
    assert (await bot.fetch_webhook(made.id)).token == made.token

    await made.delete()

    assert fake.webhooks() == []
    assert fake.requests("DELETE /webhooks/{webhook_id}")[0].status == 204


async def test_the_webhook_events_reach_only_a_bot_that_asks_for_them(
    fake: FakeDiscord, bot: SzulerniaBot
) -> None:
    channel = await granted(fake, bot)
    own_session = fake.gateway.session
    assert own_session is not None

    async with listening(fake) as listener:
        made = await channel.create_webhook(name="Tavern voices")
        await fake.wait_for(lambda: listener.webhook_updates, what="WEBHOOKS_UPDATE")

    assert listener.webhook_updates == [fake.tavern.id]
    assert "WEBHOOKS_UPDATE" not in [event["t"] for event in own_session.sent]  # GUILDS only
    assert made.channel_id == fake.tavern.id


async def test_names_and_avatars_discord_refuses(fake: FakeDiscord, bot: SzulerniaBot) -> None:
    channel = await granted(fake, bot)
    made = await channel.create_webhook(name="Tavern voices")

    with pytest.raises(discord.HTTPException) as clyde:
        await channel.create_webhook(name="Clyde's table")
    for username, avatar_url in (("Lord Discordia", GREEDO), ("G" * 81, GREEDO), ("G", "x.png")):
        with pytest.raises(discord.HTTPException) as refused:
            await made.send("Hm.", username=username, avatar_url=avatar_url, wait=True)
        assert refused.value.status == 400 and refused.value.code == 50035

    assert clyde.value.status == 400 and clyde.value.code == 50035
    fields = [v.field for v in fake.take_violations()]
    assert fields == ["name", "username", "username", "avatar_url"]
    assert fake.tavern.messages == [] and len(fake.webhooks()) == 1


async def test_at_most_fifteen_webhooks_in_a_channel(fake: FakeDiscord, bot: SzulerniaBot) -> None:
    channel = await granted(fake, bot)
    for n in range(15):
        await channel.create_webhook(name=f"Voice {n}")

    with pytest.raises(discord.HTTPException) as full:
        await channel.create_webhook(name="Voice 15")

    assert full.value.status == 400 and full.value.code == 30007
    assert len(fake.webhooks()) == 15


async def test_the_spec_checks_webhook_bodies(fake: FakeDiscord, bot: SzulerniaBot) -> None:
    if fake.spec is None:
        pytest.skip("Discord's OpenAPI spec is absent")
    channel = await granted(fake, bot)

    with pytest.raises(discord.HTTPException) as long_name:
        await channel.create_webhook(name="T" * 81)

    assert long_name.value.status == 400
    [violation] = fake.take_violations()
    assert (violation.source, violation.path, violation.field) == ("openapi", HOOKS, "name")


async def test_each_webhook_has_its_own_rate_limit(fake: FakeDiscord, bot: SzulerniaBot) -> None:
    channel = await granted(fake, bot)
    greedo = await channel.create_webhook(name="Greedo")
    bossk = await channel.create_webhook(name="Bossk")
    fake.enable_rate_limits(buckets={"webhook": (2, 1.0)}, advertise=False)

    await asyncio.gather(
        *(greedo.send(f"Greedo {n}", wait=True) for n in range(3)),
        *(bossk.send(f"Bossk {n}", wait=True) for n in range(2)),
    )

    stats = fake.rate_limit_stats()
    assert stats.by_bucket["webhook"] == 6 and stats.route_429_by_bucket["webhook"] == 1
    greedo_path = f"/webhooks/{greedo.id}/{greedo.token}"
    statuses = [r.status for r in fake.requests(EXECUTE) if r.path == greedo_path]
    assert statuses == [200, 200, 429, 200]  # its third line waited; Bossk's did not
    said = sorted(m.content for m in fake.tavern.messages)
    assert said == ["Bossk 0", "Bossk 1", "Greedo 0", "Greedo 1", "Greedo 2"]


@pytest.mark.extensions(HARNESS_COG)
async def test_interaction_follow_ups_still_work_beside_channel_webhooks(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    made = await (await granted(fake, harness.bot)).create_webhook(name="Tavern voices")
    since = fake.mark()

    handle = await fake.slash(fake.owner, "harness followups")
    first = await handle.reply()
    await fake.wait_for(lambda: first.content == "first (edited)", what="the edited original")
    await made.send("Still here.", wait=True)

    second, third = await handle.followup(0), await handle.followup(1)
    assert second.content == "second (edited)" and second.webhook_id == fake.application_id
    assert third.deleted and third.ephemeral
    line = fake.tavern.messages[-1]
    assert line.content == "Still here." and line.webhook_id == made.id
    routes = fake.request_stats(since).routes
    assert routes["interaction"][EXECUTE] == 2  # the follow-ups: the interaction's webhook
    assert routes["limited"][EXECUTE] == 1  # the channel webhook counts like any request
