"""Crash points and idempotency: nonces, holds, a killed bot, request stats, broken messages."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from typing import Any

import aiohttp
import discord
import pytest

from bot.app import SzulerniaBot
from tests.fakediscord import BotHarness, FakeDiscord

MESSAGES = "POST /channels/{channel_id}/messages"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
HARNESS_COG = "tests.e2e.harness_cog"


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bot {token}"}


def spy_events(fake: FakeDiscord) -> list[str]:
    """Every gateway event the fake sends from now on, by name (whatever the intents)."""
    events: list[str] = []
    emit = fake.state.emitter
    assert emit is not None

    def spy(event: str, data: dict[str, Any]) -> None:
        events.append(event)
        emit(event, data)

    fake.state.emitter = spy
    return events


def tavern(bot: SzulerniaBot, fake: FakeDiscord) -> discord.TextChannel:
    channel = bot.get_channel(fake.tavern.id)
    assert isinstance(channel, discord.TextChannel)
    return channel


# -- enforce_nonce -----------------------------------------------------------------------------
async def test_a_send_with_a_nonce_is_created_once(fake: FakeDiscord, bot: SzulerniaBot) -> None:
    events = spy_events(fake)

    first = await tavern(bot, fake).send("Table 7 is open.", nonce="table-7")
    again = await tavern(bot, fake).send("Table 7 is open.", nonce="table-7")

    assert again.id == first.id and again.nonce == "table-7"
    assert [m.content for m in fake.tavern.messages] == ["Table 7 is open."]
    assert events.count("MESSAGE_CREATE") == 1
    posts = fake.requests(MESSAGES)
    assert [r.body["enforce_nonce"] for r in posts] == [True, True]  # discord.py always asks
    assert [r.deduplicated for r in posts] == [False, True] and fake.deduplicated == [posts[1]]


async def test_a_nonce_counts_per_channel_with_enforce_and_for_five_minutes(
    fake: FakeDiscord,
) -> None:
    alice = fake.add_player("Alice")
    dm = fake.dm_channel(alice)

    async def post(channel_id: int, **body: Any) -> str:
        url = f"{fake.api_base}/channels/{channel_id}/messages"
        async with http.post(url, json={"content": "hi"} | body, headers=auth(fake.token)) as r:
            assert r.status == 200
            return str((await r.json())["id"])

    async with aiohttp.ClientSession() as http:
        first = await post(fake.tavern.id, nonce="n1", enforce_nonce=True)
        assert await post(fake.tavern.id, nonce="n1", enforce_nonce=True) == first
        assert await post(fake.tavern.id, nonce="n1") != first  # not enforced: a new message
        assert await post(dm.id, nonce="n1", enforce_nonce=True) != first  # another channel
        fake.state.nonce_seconds = 0.0  # Discord forgets a nonce after 5 minutes
        latest = await post(fake.tavern.id, nonce="n2", enforce_nonce=True)
        assert await post(fake.tavern.id, nonce="n2", enforce_nonce=True) != latest
        fake.state.nonce_seconds = 300.0
        for message in fake.tavern.messages:
            message.deleted = True  # a deleted message is not returned
        assert await post(fake.tavern.id, nonce="n2", enforce_nonce=True) not in (first, latest)

    assert len(fake.deduplicated) == 1 and fake.violations == []


# -- holds -------------------------------------------------------------------------------------
async def test_a_hold_withholds_the_answer_and_applies_nothing(fake: FakeDiscord) -> None:
    hold = fake.hold(MESSAGES, applied=False)
    url = f"{fake.api_base}/channels/{fake.tavern.id}/messages"

    async with aiohttp.ClientSession() as http:
        sent = asyncio.create_task(
            http.post(url, json={"content": "lost"}, headers=auth(fake.token))
        )
        record = await hold.reached()
        assert record.body == {"content": "lost"} and record.held
        await asyncio.sleep(0.05)
        assert not sent.done() and fake.tavern.messages == []

        hold.release()
        with pytest.raises(aiohttp.ServerDisconnectedError):
            await sent  # the connection is dropped: no answer at all
        async with http.post(url, json={"content": "kept"}, headers=auth(fake.token)) as answer:
            assert answer.status == 200  # a hold catches ``count`` requests, then is over

    assert [m.content for m in fake.tavern.messages] == ["kept"]
    assert record.status == 0 and fake.problems() == []


async def test_an_applied_hold_sends_the_message_but_not_the_answer(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    events = spy_events(fake)
    hold = fake.hold(MESSAGES, applied=True)

    sending = asyncio.create_task(tavern(harness.bot, fake).send("Dealt."))
    await hold.reached()

    assert [m.content for m in fake.tavern.messages] == ["Dealt."]
    assert events == ["MESSAGE_CREATE"] and not sending.done()
    hold.release()
    with pytest.raises(aiohttp.ServerDisconnectedError):  # discord.py does not retry a POST
        await sending
    assert len(fake.requests(MESSAGES)) == 1


async def test_a_dropped_delete_is_retried_by_aiohttp(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    message = await tavern(harness.bot, fake).send("Doomed.")
    await tavern(harness.bot, fake).send("Keeps the connection warm.")
    hold = fake.hold("* /channels/{channel_id}/messages/{message_id}", applied=True)

    deleting = asyncio.create_task(message.delete())
    assert (await hold.reached()).method == "DELETE"
    hold.release()

    with pytest.raises(discord.NotFound) as raised:  # the retry finds the message gone
        await deleting
    assert raised.value.code == 10008
    deletes = fake.requests("DELETE /channels/{channel_id}/messages/{message_id}")
    assert [(r.held, r.status) for r in deletes] == [(True, 0), (False, 404)]


# -- freeze and crash_and_restart --------------------------------------------------------------
async def test_a_frozen_token_hangs_until_the_fake_closes() -> None:
    async with aiohttp.ClientSession() as http:
        async with FakeDiscord() as fake:
            me = f"{fake.api_base}/users/@me"
            dead = fake.token
            new = fake.freeze()
            assert fake.token == new != dead

            hung = asyncio.create_task(http.get(me, headers=auth(dead)))
            await fake.wait_for(lambda: fake.requests("GET /users/@me"), what="the request")
            async with http.get(me, headers=auth(new)) as answer:
                assert answer.status == 200
            fake.rotate_token()
            async with http.get(me, headers=auth(new)) as answer:
                assert answer.status == 401  # a rotated token that was not frozen is refused
            await asyncio.sleep(0.05)
            assert not hung.done()
        with pytest.raises(aiohttp.ClientConnectionError):  # aiohttp resent the GET once, and
            await hung  # found the fake closed: its connection was aborted, quietly
        assert fake.problems() == []
        assert [r.held for r in fake.requests("GET /users/@me")] == [True, False, False]


async def test_a_frozen_gateway_cuts_the_bot_and_never_answers_its_token(
    fake: FakeDiscord,
) -> None:
    identify = {"token": fake.token, "intents": 1, "properties": {}}
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(fake.gateway_url) as ws:
            assert (await ws.receive_json())["op"] == 10
            await ws.send_json({"op": 2, "d": identify})
            ready = await ws.receive_json()
            assert ready["t"] == "READY"
            fake.freeze()
            async for _ in ws:  # GUILD_CREATE was on its way; then the connection is cut
                pass
            assert ws.close_code is None or ws.close_code == 1006  # no close frame from the fake
        assert fake.gateway.session is None

        async with http.ws_connect(fake.gateway_url) as ws:
            assert (await ws.receive_json())["op"] == 10
            resume = {"token": identify["token"], "session_id": ready["d"]["session_id"], "seq": 1}
            await ws.send_json({"op": 6, "d": resume})
            await ws.send_json({"op": 1, "d": 1})
            with pytest.raises(asyncio.TimeoutError):
                await ws.receive(timeout=0.3)  # no RESUMED, no INVALID_SESSION, no heartbeat ACK
    assert fake.gateway.log[-2:] == ["frozen RESUME", "frozen HEARTBEAT"]


@pytest.mark.extensions(HARNESS_COG)
async def test_a_crash_at_a_rest_call_and_a_new_bot_on_the_same_database(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    old, alice = harness.bot, fake.add_player("Alice")
    old_db = old.db
    hold = fake.hold(MESSAGES, applied=True)
    handle = await fake.slash(alice, "harness post", text="half done")
    await hold.reached()

    new = await harness.crash_and_restart()

    assert new is harness.bot and new is not old and harness.settings.token == fake.token
    assert old.timers._task is None or old.timers._task.done()
    await asyncio.to_thread(old_db._writer.thread.join, 1.0)
    assert not old_db._writer.thread.is_alive()  # the writer's thread would keep pytest running
    with pytest.raises(sqlite3.ProgrammingError):  # closed: the dead bot can write nothing more
        old_db._writer.conn.execute("SELECT 1")
    assert await new.db.schema_version() > 0  # the new bot has the same file
    assert [m.content for m in fake.tavern.messages] == ["half done"]  # applied, once
    assert handle.deferred and handle.followups == []  # the dead bot never confirmed
    assert fake.gateway.log.count("IDENTIFY") == 2
    reply = await (await fake.slash(alice, "help")).reply()  # the new bot answers
    assert "`/help`" in reply.embeds[0]["fields"][-1]["value"]


async def test_what_the_killed_bot_still_sends_hangs(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    old_run, old_channel = harness.run, tavern(harness.bot, fake)
    await harness.crash_and_restart()

    ghost = old_run.create_task(old_channel.send("from beyond"), name="a dead bot's send")
    await fake.wait_for(lambda: fake.requests(MESSAGES), what="the dead bot's request")

    assert [(r.held, r.body["content"]) for r in fake.requests(MESSAGES)] == [(True, "from beyond")]
    assert fake.tavern.messages == [] and not ghost.done()  # cancelled at harness.close()


async def test_the_killed_bots_errors_are_ignored_and_the_new_bots_count(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    log = logging.getLogger("bot.crash-test")
    old_run = harness.run
    await harness.crash_and_restart()

    old_run.context.run(log.error, "the dead bot noticed its death")
    harness.run.context.run(log.error, "the new bot failed")

    assert [r.getMessage() for r in harness.take_errors()] == ["the new bot failed"]
    assert [r.getMessage() for r in harness.errors.ignored][-1] == "the dead bot noticed its death"


async def test_a_bot_can_crash_twice(fake: FakeDiscord, harness: BotHarness) -> None:
    await harness.crash_and_restart()
    hold = fake.hold(EDIT, applied=False)
    message = await tavern(harness.bot, fake).send("v1")
    editing = harness.run.create_task(message.edit(content="v2"), name="the bot's edit")
    await hold.reached()

    bot = await harness.crash_and_restart()

    assert editing.cancelled()  # killed while waiting: no error for the dead bot to handle
    assert fake.message(message.id).content == "v1"
    await tavern(bot, fake).send("third life")
    assert fake.gateway.log.count("IDENTIFY") == 3


# -- request statistics ------------------------------------------------------------------------
@pytest.mark.extensions(HARNESS_COG)
async def test_request_stats_by_rate_limit_class(fake: FakeDiscord, harness: BotHarness) -> None:
    startup = fake.request_stats()
    assert startup.routes["setup"]["PUT /applications/{application_id}/commands"] == 1
    assert startup.routes["setup"]["GET /users/@me"] == 1
    assert startup.interaction == 0

    mark = fake.mark()
    alice = fake.add_player("Alice")
    handle = await fake.slash(alice, "harness post", text="counted")
    await handle.reply()
    stats = fake.request_stats(since=mark)

    assert (stats.interaction, stats.limited, stats.setup) == (2, 1, 0)
    assert stats.by_route == {
        "POST /interactions/{interaction_id}/{interaction_token}/callback": 1,
        "POST /webhooks/{webhook_id}/{webhook_token}": 1,
        MESSAGES: 1,
    }
    assert "limited: 1" in str(stats)


# -- per-message faults and deleted messages ---------------------------------------------------
async def test_fail_message_breaks_edits_of_one_message_only(
    fake: FakeDiscord, bot: SzulerniaBot
) -> None:
    table = await tavern(bot, fake).send("table")
    other = await tavern(bot, fake).send("other")
    fault = fake.fail_message(table.id)
    fake.fail_message(other.id, status=404, code=10008, methods=("DELETE",))

    with pytest.raises(discord.Forbidden) as forbidden:
        await table.edit(content="table, later")
    await other.edit(content="other, later")
    with pytest.raises(discord.NotFound) as gone:
        await other.delete()
    await table.edit(content="table, at last")  # count=1: the next edit works

    assert forbidden.value.code == 50013 and forbidden.value.text == "Missing Permissions"
    assert gone.value.code == 10008 and fault.hits == 1
    assert fake.message(table.id).content == "table, at last"
    assert fake.message(other.id).content == "other, later" and not fake.message(other.id).deleted


async def test_fail_message_reaches_the_interaction_webhook(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    reply = await (await fake.slash(fake.owner, "help")).reply()
    handle = next(h for h in fake.state.interactions.values() if h.original is reply)
    fake.fail_message(reply.id, status=403, code=50001)
    url = f"{fake.api_base}/webhooks/{fake.application_id}/{handle.token}/messages/@original"

    async with aiohttp.ClientSession() as http, http.patch(url, json={"content": "x"}) as answer:
        assert answer.status == 403
        assert await answer.json() == {"code": 50001, "message": "Missing Access"}
    assert reply.content != "x"


async def test_a_deleted_message_is_unknown_to_edit_and_delete(
    fake: FakeDiscord, bot: SzulerniaBot
) -> None:
    message = await tavern(bot, fake).send("gone soon")
    await message.delete()

    with pytest.raises(discord.NotFound) as edit:
        await message.edit(content="too late")
    with pytest.raises(discord.NotFound) as delete:
        await message.delete()

    assert edit.value.code == delete.value.code == 10008
    assert fake.message(message.id).content == "gone soon"
