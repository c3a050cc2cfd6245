"""REST coverage: channel messages, follow-ups, deferred updates, DMs in context, more guilds."""

from __future__ import annotations

import pytest

from bot.app import SzulerniaBot
from tests.fakediscord import BotHarness, FakeDiscord

HARNESS_COG = "tests.e2e.harness_cog"


@pytest.mark.extensions(HARNESS_COG)
async def test_channel_messages_are_sent_edited_deleted_and_fetched(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    reply = await (await fake.slash(fake.owner, "harness scratch")).reply()

    assert reply.content == "final 1"
    draft, shown = fake.channel(fake.tavern.id).messages
    assert shown is reply
    assert draft.content == "final" and [v["content"] for v in draft.edits] == ["draft"]
    attachment = draft.attachments[0]
    assert attachment["filename"] == "card.png"
    assert fake.state.files[int(attachment["id"])] == b"card"
    upload = fake.requests("POST /channels/{channel_id}/messages")[0]
    assert upload.files == ["card.png"] and upload.body["content"] == "draft"  # payload_json
    assert [m.content for m in fake.tavern.history if m.deleted] == ["oops"]


@pytest.mark.extensions(HARNESS_COG)
async def test_follow_ups_are_sent_edited_and_deleted(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    handle = await fake.slash(fake.owner, "harness followups")

    first = await handle.reply()
    await fake.wait_for(lambda: first.content == "first (edited)", what="the edited original")

    second = await handle.followup(0)
    third = await handle.followup(1)
    assert second.content == "second (edited)" and second.edits[0]["content"] == "second"
    assert third.deleted and third.ephemeral and third.ephemeral_to is fake.owner
    assert fake.tavern.messages == [first, second]
    assert len(fake.requests("GET /webhooks/{webhook_id}/{webhook_token}/messages/@original")) == 1


@pytest.mark.extensions(HARNESS_COG)
async def test_a_deferred_update_then_an_edit(fake: FakeDiscord, harness: BotHarness) -> None:
    alice = fake.add_player("Alice")
    menu = await (await fake.slash(alice, "harness menu")).reply()

    click = await fake.click(alice, menu, "Later")
    updated = await click.reply()

    assert click.callback_type == 6 and updated is menu
    assert menu.content == "Decided later." and menu.components == []


async def test_a_slash_command_in_a_dm(fake: FakeDiscord, harness: BotHarness) -> None:
    loner = fake.add_user("Loner")  # in no guild at all

    reply = await (await fake.slash(loner, "help", channel=fake.dm_channel(loner))).reply()

    assert "`/help`" in reply.embeds[0]["fields"][-1]["value"]
    assert reply.channel is fake.dm_channel(loner)
    assert reply.interaction_metadata is not None
    assert reply.interaction_metadata["authorizing_integration_owners"] == {"0": "0"}


async def test_more_guilds_arrive_live_and_at_ready(
    fake: FakeDiscord, harness: BotHarness, bot: SzulerniaBot
) -> None:
    second = fake.add_guild("The Prancing Pony")
    await fake.wait_for(lambda: bot.get_guild(second.id), what="the new guild in the bot's cache")
    guest = fake.add_player("Guest", guild=second)
    reply = await (await fake.slash(guest, "help", channel=second.text_channel)).reply()
    assert reply.channel is second.text_channel

    restarted = await harness.restart()

    assert {g.id for g in restarted.guilds} == {fake.guild.id, second.id}
    assert "help" in [c.name for c in await restarted.tree.fetch_commands()]


async def test_a_user_message_is_stored_but_not_sent_without_the_intent(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    alice = fake.add_player("Alice")

    said = await fake.say(alice, "hello, tavern")

    assert fake.tavern.messages == [said] and said.author is alice
    session = fake.gateway.session
    assert session is not None
    assert not [e for e in session.sent if e["t"] == "MESSAGE_CREATE"]  # no message intents
