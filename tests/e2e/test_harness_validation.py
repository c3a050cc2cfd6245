"""The validator can fail: bodies Discord would reject are answered 400 and recorded."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from discord.http import Route

from bot.app import SzulerniaBot
from tests.fakediscord import BotHarness, FakeDiscord
from tests.fakediscord.limits import check_limits
from tests.fakediscord.openapi import SPEC_ENV, load_spec_validator, spec_location

HARNESS_COG = "tests.e2e.harness_cog"
MESSAGES = "/channels/{channel_id}/messages"
COMMANDS = "/applications/{application_id}/commands"


def button(custom_id: str) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": custom_id[:20], "custom_id": custom_id}


async def _expect_rejection(fake: FakeDiscord, harness: BotHarness, field: str) -> None:
    """The bot's own request was refused: a violation naming ``field`` and a logged 400."""
    await fake.wait_for(lambda: fake.violations, what="a violation")
    error = await harness.wait_for_error()
    violations = fake.take_violations()
    assert field in {v.field for v in violations}, violations
    assert error.exc_info is not None
    cause = error.exc_info[1]
    original = getattr(cause, "original", cause)  # the bot's tree logs the unwrapped error
    assert isinstance(original, discord.HTTPException) and original.status == 400
    assert original.code == 50035 and field in str(original)


@pytest.mark.extensions(HARNESS_COG)
async def test_a_custom_id_over_100_characters_is_rejected(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    handle = await fake.slash(fake.owner, "harness bad", kind="custom_id")
    await _expect_rejection(fake, harness, "data.components.0.components.0.custom_id")
    assert not handle.acknowledged and fake.tavern.messages == []


@pytest.mark.extensions(HARNESS_COG)
async def test_an_embed_field_over_its_limit_is_rejected(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    await fake.slash(fake.owner, "harness bad", kind="embed_field")
    await _expect_rejection(fake, harness, "data.embeds.0.fields.0.value")


async def test_a_sixth_button_in_a_row_is_rejected(fake: FakeDiscord, bot: SzulerniaBot) -> None:
    row = {"type": 1, "components": [button(f"b{i}") for i in range(6)]}
    route = Route("POST", MESSAGES, channel_id=fake.tavern.id)

    with pytest.raises(discord.HTTPException) as raised:
        await bot.http.request(route, json={"content": "six", "components": [row]})

    assert raised.value.status == 400 and "components.0.components" in str(raised.value)
    assert any("components.0.components" in problem for problem in fake.problems())  # would fail
    assert "components.0.components" in {v.field for v in fake.take_violations()}
    assert fake.problems() == []
    assert fake.tavern.messages == []


async def test_a_command_named_in_capitals_is_rejected(
    fake: FakeDiscord, bot: SzulerniaBot
) -> None:
    assert bot.application_id is not None
    command = {"name": "Pegaz", "description": "Three-card Pegasus", "type": 1}
    synced = [c["name"] for c in fake.commands()]

    with pytest.raises(discord.HTTPException) as raised:
        await bot.http.bulk_upsert_global_commands(bot.application_id, payload=[command])

    assert raised.value.status == 400
    violations = fake.take_violations()
    assert [(v.field, v.source) for v in violations] == [("0.name", "limit")]
    assert "lowercase" in violations[0].message
    assert [c["name"] for c in fake.commands()] == synced  # the bad sync changed nothing


async def test_without_the_spec_the_extra_limits_still_apply() -> None:
    row = {"type": 1, "components": [button("x" * 101)]}
    async with FakeDiscord(spec=None) as fake, aiohttp.ClientSession() as session:
        url = f"{fake.api_base}/channels/{fake.tavern.id}/messages"
        headers = {"Authorization": f"Bot {fake.token}"}
        async with session.post(url, json={"components": [row]}, headers=headers) as response:
            assert response.status == 400
            assert response.headers["Content-Type"] == "application/json"
            answer = await response.json()
        assert answer["code"] == 50035
        assert "custom_id" in answer["errors"]["components"]["0"]["components"]["0"]
        assert [v.field for v in fake.take_violations()] == ["components.0.components.0.custom_id"]


def test_the_spec_is_found_beside_the_project_or_by_env(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv(SPEC_ENV, raising=False)
    default = spec_location()
    assert default.parts[-3:] == ("shared", "discord-api-spec", "openapi.json")
    monkeypatch.setenv(SPEC_ENV, str(tmp_path / "elsewhere.json"))
    assert spec_location() == tmp_path / "elsewhere.json"


@pytest.mark.skipif(load_spec_validator() is None, reason="Discord's OpenAPI spec is absent")
@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"content": "x" * 4001}, "content"),  # the spec allows 4000; limits.py says 2000
        ({"embeds": [{"fields": [{"name": "n" * 257, "value": "v"}]}]}, "embeds.0.fields.0.name"),
        (
            {"components": [{"type": 1, "components": [{"type": 2, "style": 1}] * 6}]},
            "components.0.components",
        ),
        ({"allowed_mentions": {"users": ["not a snowflake"]}}, "allowed_mentions.users.0"),
    ],
)
def test_the_spec_names_the_bad_field(body: dict[str, Any], field: str) -> None:
    spec = load_spec_validator()
    assert spec is not None
    assert field in {v.field for v in spec.validate("POST", "/channels/1/messages", body)}


@pytest.mark.parametrize(
    ("template", "body", "field"),
    [
        (MESSAGES, {"components": [{"type": 1, "components": [button("a")]}] * 6}, "components"),
        (
            MESSAGES,
            {"components": [{"type": 1, "components": [button(f"b{i}") for i in range(6)]}]},
            "components.0.components",
        ),
        (
            MESSAGES,
            {"components": [{"type": 1, "components": [button("y" * 101)]}]},
            "components.0.components.0.custom_id",
        ),
        (
            MESSAGES,
            {"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]},
            "embeds",
        ),
        (MESSAGES, {"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]}, "embeds.0.fields"),
        (
            MESSAGES,
            {"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]},
            "embeds.0.fields.0.value",
        ),
        (MESSAGES, {"content": "c" * 2001}, "content"),
        (COMMANDS, [{"name": "Pegaz", "description": "d"}], "0.name"),
        (COMMANDS, [{"name": "pegaz", "description": ""}], "0.description"),
        (
            COMMANDS,
            [{"name": "pegaz", "description": "d", "name_localizations": {"pl": "Pegaz"}}],
            "0.name_localizations.pl",
        ),
        (
            COMMANDS,
            [
                {
                    "name": "pegaz",
                    "description": "d",
                    "options": [{"type": 3, "name": "Stake", "description": "s"}],
                }
            ],
            "0.options.0.name",
        ),
    ],
)
def test_the_extra_limits_name_the_bad_field(template: str, body: Any, field: str) -> None:
    method = "PUT" if template == COMMANDS else "POST"
    assert field in {f for f, _ in check_limits(method, template, body)}
