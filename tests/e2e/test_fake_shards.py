"""The fake Discord speaks for several shards: an IDENTIFY with ``shard: [id, count]`` gets only
that shard's guilds and events (DMs are shard 0's), one without gets everything, an impossible
shard is refused as Discord refuses it, and GET /gateway/bot recommends the count the test sets,
which a bot without a configured count then runs."""

# ruff: noqa: ASYNC109 (``timeout=`` reads best in tests)

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.fakediscord import BotHarness, FakeDiscord
from tests.fakediscord.gateway import INVALID_SHARD, shard_of

INTENTS = 1 | 1 << 12  # guilds and direct messages


class RawSession:
    """A bare gateway client: IDENTIFY, then read what the fake dispatches."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws

    @classmethod
    async def identify(
        cls, http: aiohttp.ClientSession, fake: FakeDiscord, shard: Any = None
    ) -> RawSession:
        ws = await http.ws_connect(fake.gateway_url)
        hello = await ws.receive_json(timeout=5)
        assert hello["op"] == 10
        data: dict[str, Any] = {"token": fake.token, "intents": INTENTS, "properties": {}}
        if shard is not None:
            data["shard"] = shard
        await ws.send_str(json.dumps({"op": 2, "d": data}))
        return cls(ws)

    async def events(self, until: str | None = None, timeout: float = 0.3) -> list[dict[str, Any]]:
        """What arrives: up to the event named ``until``, or until ``timeout`` s of quiet."""
        found: list[dict[str, Any]] = []
        while True:
            try:
                message = await self.ws.receive(timeout=timeout)
            except TimeoutError:
                return found
            if message.type is not aiohttp.WSMsgType.TEXT:
                return found
            payload = json.loads(message.data)
            found.append(payload)
            if until is not None and payload.get("t") == until:
                return found


def guild_ids(events: list[dict[str, Any]]) -> list[int]:
    return [int(e["d"]["id"]) for e in events if e.get("t") == "GUILD_CREATE"]


async def test_a_sharded_identify_gets_its_shards_guilds_and_dms_go_to_shard_0(
    fake: FakeDiscord,
) -> None:
    inns = [fake.add_guild(f"Inn {shard}", shard=(shard, 2)) for shard in (0, 1, 1)]
    everyone = list(fake.state.guilds)
    async with aiohttp.ClientSession() as http:
        shard0 = await RawSession.identify(http, fake, [0, 2])
        shard1 = await RawSession.identify(http, fake, [1, 2])
        whole = await RawSession.identify(http, fake)
        seen0, seen1, seen_all = await shard0.events(), await shard1.events(), await whole.events()
        ready0 = next(e["d"] for e in seen0 if e.get("t") == "READY")
        assert ready0["shard"] == [0, 2]
        assert [int(g["id"]) for g in ready0["guilds"]] == guild_ids(seen0)
        assert guild_ids(seen0) == [g for g in everyone if shard_of(g, 2) == 0]
        assert guild_ids(seen1) == [g for g in everyone if shard_of(g, 2) == 1]
        assert inns[0].id in guild_ids(seen0) and inns[1].id in guild_ids(seen1)
        assert guild_ids(seen_all) == everyone  # no shard: every guild, as before

        later = fake.add_guild("Late Inn", shard=(1, 2))
        assert guild_ids(await shard1.events("GUILD_CREATE")) == [later.id]
        assert guild_ids(await whole.events("GUILD_CREATE")) == [later.id]
        assert await shard0.events() == []

        user = fake.add_player("Ann", guild=inns[1])
        fake.raw_interaction(
            user, {"custom_id": "x", "component_type": 2}, kind=3, channel=inns[1].text_channel
        )
        assert [e["t"] for e in await shard1.events("INTERACTION_CREATE")] == ["INTERACTION_CREATE"]
        assert await shard0.events() == []

        fake.raw_interaction(
            user, {"custom_id": "y", "component_type": 2}, kind=3, channel=fake.dm_channel(user)
        )
        in_dm = await shard0.events("INTERACTION_CREATE")
        assert [e["d"].get("guild_id") for e in in_dm if e["t"] == "INTERACTION_CREATE"] == [None]
        assert await shard1.events() == []
        for session in (shard0, shard1, whole):
            await session.ws.close()


@pytest.mark.parametrize("shard", [[2, 2], [-1, 2], [0, 0], [0], "0,2", [0, True]])
async def test_an_impossible_shard_is_refused_with_4010(fake: FakeDiscord, shard: Any) -> None:
    async with aiohttp.ClientSession() as http:
        session = await RawSession.identify(http, fake, shard)
        assert await session.events() == []
        assert session.ws.close_code == INVALID_SHARD
    assert all(s.shard is None or s.shard[0] < s.shard[1] for s in fake.gateway.sessions)


async def test_no_interaction_is_sent_where_no_bot_speaks_for_its_shard(
    fake: FakeDiscord,
) -> None:
    inn = fake.add_guild("Inn", shard=(1, 2))
    user = fake.add_player("Ann", guild=inn)
    async with aiohttp.ClientSession() as http:
        shard0 = await RawSession.identify(http, fake, [0, 2])
        await shard0.events()
        with pytest.raises(RuntimeError, match="for the shard of guild"):
            fake.raw_interaction(
                user, {"custom_id": "x", "component_type": 2}, kind=3, channel=inn.text_channel
            )
        fake.raw_interaction(
            user, {"custom_id": "y", "component_type": 2}, kind=3, channel=fake.dm_channel(user)
        )
        await shard0.ws.close()


async def test_a_bot_without_a_shard_count_runs_what_discord_recommends(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    fake.recommended_shards = 3
    inns = [fake.add_guild(f"Inn {shard}", shard=(shard, 3)) for shard in range(3)]
    harness = BotHarness(fake, database=tmp_path / "szulernia.db", identify_spacing=0.0)
    try:
        bot = await harness.start()
        assert len(fake.requests("GET /gateway/bot")) == 1
        assert sorted(bot.shards) == [0, 1, 2] and bot.shard_count == 3
        assert sorted(s.shard for s in fake.gateway.sessions if s.shard) == [
            (0, 3),
            (1, 3),
            (2, 3),
        ]
        assert {g.id for g in inns} <= {g.id for g in bot.guilds}
        assert len(bot.guilds) == len(fake.state.guilds)
        assert bot.ownership.everything  # one process with every shard owns every table
    finally:
        await harness.close()
    assert harness.problems() == []
    with pytest.raises(ValueError, match="at least one shard"):
        fake.recommended_shards = 0
