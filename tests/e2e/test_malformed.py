"""Malformed slash-command payloads, the kind no Discord client sends: each gets a clear
ephemeral refusal naming the option, at most a WARNING in the log, and changes nothing.

The payloads go through ``fake.raw_slash`` (options sent verbatim, unchecked); a test fails at
teardown if the bot logged an error, and ``reply()`` fails if the bot never answered.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.i18n import t
from bot.rules.pegaz.state import MAX_DETECTION_MODIFIER, MAX_EXCHANGES
from cogs.pegaz.inputs import HAND_TEXT_MAX
from cogs.purse import REASON_MAX
from tests.e2e.test_characters import say, snapshot
from tests.fakediscord import MANAGE_GUILD, BotHarness, FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.interactions import AUTOCOMPLETE
from tests.fakediscord.payloads import BOOLEAN, INTEGER, ROLE, STRING, USER

OUTDATED = t("en", "error.command_outdated")


def opt(name: str, kind: int, value: Any, **extra: Any) -> dict[str, Any]:
    return {"name": name, "type": kind, "value": value, **extra}


async def refusal(fake: FakeDiscord, who: FakeUser, command: str, *options: Any, **kw: Any) -> str:
    """Send ``/command`` with these raw options; return the ephemeral answer's text."""
    handle = await fake.raw_slash(who, command, list(options), **kw)
    reply: FakeMessage = await handle.reply()
    assert reply.ephemeral, reply
    assert reply.content is not None
    return reply.content


async def party(fake: FakeDiscord) -> tuple[FakeUser, FakeUser]:
    gm = fake.add_player("Gunther", permissions=MANAGE_GUILD)
    alice = fake.add_player("Alice")
    bob = fake.add_player("Bob")
    await say(fake, alice, "character create", name="Greta")
    await say(fake, bob, "character create", name="Hans")
    await say(fake, gm, "purse give", character="Greta", amount="1 GC", reason="Start")
    return gm, alice


async def test_a_huge_hand_for_the_odds_is_refused_not_a_crash(
    fake: FakeDiscord, harness: BotHarness, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 11 item 4: 6,000 digits once made int() raise ValueError: "Something went wrong"."""
    alice = fake.add_player("Alice")
    with caplog.at_level(logging.WARNING):
        text = await refusal(fake, alice, "pegaz odds", opt("hand", STRING, "6" * 6000))
    assert text == t("en", "error.option_length", option="hand", min=1, max=HAND_TEXT_MAX)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert any(r.levelno == logging.WARNING and "pegaz" in r.getMessage() for r in caplog.records)
    # within the length, a long number is still only an unreadable hand (never int()-ed whole)
    text = await refusal(fake, alice, "pegaz odds", opt("hand", STRING, "9" * HAND_TEXT_MAX))
    assert text.startswith("I can't read") and "three cards of a d6" in text
    ok = await (await fake.slash(alice, "pegaz odds", hand="6 6 1")).reply()
    assert ok.embeds, ok


async def test_a_huge_reason_is_refused_before_any_coin_moves(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    """Issue 11 item 6: a 10,000-character reason paid, then left the payer without an answer."""
    gm, alice = await party(fake)
    before = await snapshot(harness.bot, fake.guild.id, [gm, alice])
    text = await refusal(
        fake,
        alice,
        "purse pay",
        opt("to", STRING, "Hans"),
        opt("amount", STRING, "1 s"),
        opt("reason", STRING, "x" * 10_000),
    )
    assert text == t("en", "error.option_length", option="reason", min=1, max=REASON_MAX)
    assert await snapshot(harness.bot, fake.guild.id, [gm, alice]) == before


async def test_out_of_range_and_wrongly_typed_numbers_open_no_table(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    """Issue 11 items 8 and 9: ``exchanges`` of 101 or 10^30 opened a table; a string where a
    number belongs, or a choice that isn't one, crashed."""
    gm, alice = await party(fake)
    before = await snapshot(harness.bot, fake.guild.id, [gm, alice])
    for value in (101, 10**30, -1):
        text = await refusal(fake, gm, "pegaz open", opt("exchanges", INTEGER, value))
        assert text == t(
            "en", "error.option_range", option="exchanges", min=0, max=MAX_EXCHANGES
        ), value
    for value in ("lots", 2.5, True, None):
        text = await refusal(fake, gm, "pegaz open", opt("exchanges", INTEGER, value))
        assert text == t("en", "error.option_type", option="exchanges"), value
    text = await refusal(fake, gm, "pegaz open", opt("detection", INTEGER, 10**6))
    most = MAX_DETECTION_MODIFIER
    assert text == t("en", "error.option_range", option="detection", min=-most, max=most)
    text = await refusal(fake, gm, "pegaz open", opt("die", INTEGER, 7))
    assert text == t("en", "error.option_choice", option="die")
    text = await refusal(fake, gm, "pegaz open", opt("wild", BOOLEAN, "yes"))
    assert text == t("en", "error.option_type", option="wild")
    text = await refusal(fake, gm, "pegaz open", opt("exchanges", STRING, "5"))
    assert text == t("en", "error.option_type", option="exchanges")
    text = await refusal(
        fake,
        alice,
        "character create",
        opt("name", STRING, "Kurt"),
        opt("perception", INTEGER, 101),
    )
    assert text == t("en", "error.option_range", option="perception", min=0, max=100)
    text = await refusal(fake, gm, "table close", opt("table", INTEGER, 2**63))
    assert text.startswith("The option `table` must be between 1 and ")
    assert await snapshot(harness.bot, fake.guild.id, [gm, alice]) == before


async def test_missing_unknown_and_repeated_options_are_refused(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    gm, alice = await party(fake)
    before = await snapshot(harness.bot, fake.guild.id, [gm, alice])
    text = await refusal(fake, alice, "purse pay", opt("amount", STRING, "1 s"))
    assert text == t("en", "error.option_missing", option="to")
    text = await refusal(
        fake,
        alice,
        "purse pay",
        opt("to", STRING, "Hans"),
        opt("amount", STRING, "1 s"),
        opt("tip", STRING, "1 p"),
    )
    assert text == OUTDATED
    text = await refusal(
        fake,
        alice,
        "purse pay",
        opt("to", STRING, "Hans"),
        opt("to", STRING, "Greta"),
        opt("amount", STRING, "1 s"),
    )
    assert text == OUTDATED
    text = await refusal(fake, alice, "purse pay", "not an option")
    assert text == OUTDATED
    text = await refusal(fake, alice, "purse pay", {"name": "to", "type": STRING})
    assert text == t("en", "error.option_type", option="to")
    assert await snapshot(harness.bot, fake.guild.id, [gm, alice]) == before


async def test_broken_command_paths_are_refused(fake: FakeDiscord, harness: BotHarness) -> None:
    alice = fake.add_player("Alice")
    root = next(c for c in fake.state.commands_for(None) if c["name"] == "purse")
    shapes: list[Any] = [
        {"id": root["id"], "name": "purse", "type": 1, "options": []},  # a group, no subcommand
        {"id": root["id"], "name": "purse", "type": 1, "options": [{"name": "steal", "type": 1}]},
        {"id": root["id"], "name": "purse", "type": 1, "options": "show"},
        {"id": root["id"], "name": "nosuch", "type": 1, "options": []},
        {"id": root["id"], "type": 1},
        ["purse", "show"],
    ]
    for data in shapes:
        handle = fake.raw_interaction(alice, data, name="purse")
        reply = await handle.reply()
        assert (reply.content, reply.ephemeral) == (OUTDATED, True), data


async def test_ids_that_are_no_snowflakes_or_were_not_resolved(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    gm, alice = await party(fake)
    keepers = fake.guild.add_role("Keepers")
    unresolved = t("en", "error.option_unresolved", option="role")
    for value in ("abc", "-5", "1" * 21, str(2**64), 12345):
        text = await refusal(fake, gm, "gm role", opt("role", ROLE, value))
        assert text == unresolved, value
    text = await refusal(fake, gm, "gm role", opt("role", ROLE, str(keepers.id)))  # no resolved
    assert text == unresolved
    text = await refusal(fake, alice, "character list", opt("user", USER, "Bob"))
    assert text == t("en", "error.option_unresolved", option="user")
    assert await harness.bot.services.guilds.gm_role(fake.guild.id) is None


async def test_gm_role_refuses_a_role_that_is_not_this_servers(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    """Issue 11 item 10: an unresolved role id was stored, then "Nothing was changed"."""
    owner = fake.add_player("Ola", permissions=MANAGE_GUILD)
    ghost = {
        "id": "4242424242",
        "name": "Ghost",
        "color": 0,
        "hoist": False,
        "position": 1,
        "permissions": "0",
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }
    text = await refusal(
        fake,
        owner,
        "gm role",
        opt("role", ROLE, ghost["id"]),
        resolved={"roles": {ghost["id"]: ghost}},
    )
    assert text == t("en", "error.gm_role_unknown")
    assert await harness.bot.services.guilds.gm_role(fake.guild.id) is None
    keepers = fake.guild.add_role("Keepers")
    done = await say(fake, owner, "gm role", role=keepers)
    assert done.content == t("en", "gm.role.set", role=f"<@&{keepers.id}>")
    assert await harness.bot.services.guilds.gm_role(fake.guild.id) == keepers.id


async def test_what_discord_py_cannot_parse_is_refused_not_dropped(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    """A resolved user without its fields passes the gate but breaks discord.py's parsing
    (a KeyError, and then no answer at all): it is refused too."""
    alice = fake.add_player("Alice")
    bob = fake.add_player("Bob")
    text = await refusal(
        fake,
        alice,
        "character list",
        opt("user", USER, str(bob.id)),
        resolved={"users": {str(bob.id): {"id": str(bob.id)}}},
    )
    assert text == t("en", "error.option_invalid")


async def test_a_malformed_autocomplete_gets_no_choices(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    gm, alice = await party(fake)
    fine = await fake.autocomplete(alice, "purse pay", "to", "H")
    assert [c["value"] for c in fine] == ["Hans"]
    for options in (
        [opt("bogus", STRING, "H", focused=True)],
        [opt("to", STRING, "H", focused=True), opt("to", STRING, "G")],
    ):
        handle = await fake.raw_slash(alice, "purse pay", options, kind=AUTOCOMPLETE)
        await handle.ack()
        assert handle.choices == [], options
    user = opt("user", USER, "not-an-id")
    handle = await fake.raw_slash(
        gm, "character create", [opt("name", STRING, "K", focused=True), user], kind=AUTOCOMPLETE
    )
    await handle.ack()
    assert handle.choices == []


async def test_the_refusal_speaks_polish_with_the_polish_option_name(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    gm, _ = await party(fake)
    await say(fake, gm, "settings language", language="pl")
    ola = fake.add_player("Ola", locale="pl")
    await say(fake, ola, "character create", name="Jadwiga")
    text = await refusal(
        fake,
        ola,
        "purse pay",
        opt("to", STRING, "Hans"),
        opt("amount", STRING, "1 s"),
        opt("reason", STRING, "x" * (REASON_MAX + 1)),
    )
    assert text == t("pl", "error.option_length", option="powód", min=1, max=REASON_MAX)
    assert text.startswith("Opcja `powód` musi mieć od 1 do")
