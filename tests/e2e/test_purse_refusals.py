"""Every bad input gets its own clear, ephemeral answer, and the database is left as it was."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_characters import assert_nothing_pings, say, snapshot
from tests.fakediscord import MANAGE_GUILD, BotHarness, FakeDiscord

NOT_GM = "Only a GM can do that."
GUILD_ONLY = "That works only on a server, not in a DM."
UNITS = "GC, s, p, cr"


async def test_bad_purse_input_is_refused_and_changes_nothing(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    gm = fake.add_player("Gunther", permissions=MANAGE_GUILD)
    alice = fake.add_player("Alice")
    bob = fake.add_player("Bob")
    bot = harness.bot
    await say(fake, alice, "character create", name="Greta")
    await say(fake, bob, "character create", name="Hans")
    await say(fake, gm, "character create", name="Innkeeper", npc=True)
    await say(fake, gm, "purse give", character="Greta", amount="1 GC", reason="Start")
    await say(fake, gm, "purse give", character="Hans", amount="100 cr", reason="Start")
    before = await snapshot(bot, fake.guild.id, [gm, alice, bob])

    pay: list[tuple[Any, dict[str, Any], str]] = [
        (alice, {"to": "Nobody", "amount": "1 s"}, "I don't know that character."),
        (
            alice,
            {"to": "Hans", "amount": "lots"},
            'I can\'t read "lots" as an amount. '
            f"Write it like `1 GC 10 s`, `15p` or `250 cr` (units: {UNITS}).",
        ),
        (alice, {"to": "Hans", "amount": "-5 s"}, "An amount can't be negative."),
        (alice, {"to": "Hans", "amount": "0 s"}, "The amount must be more than zero."),
        (alice, {"to": "Hans", "amount": "15"}, f'Say which coin: add one of {UNITS} to "15".'),
        (
            alice,
            {"to": "Hans", "amount": "1.5 p"},
            '"1.5 p" is not a whole number of p. Coins can\'t be cut.',
        ),
        (
            alice,
            {"to": "Hans", "amount": "5 denarii"},
            f'"denarii" is not a coin I know. Use {UNITS}.',
        ),
        (
            alice,
            {"to": "Hans", "amount": "1 GC 5 cr"},
            f'"1 GC 5 cr" mixes two currencies: use the coins of one ({UNITS}).',
        ),
        (
            alice,
            {"to": "Hans", "amount": "1 GC 1 p"},
            "Not enough in the purse: it holds 1 GC, and this needs 1 GC 1 p.",
        ),
        (
            alice,
            {"to": "Hans", "amount": "1 cr"},
            "Not enough in the purse: it holds 0 cr, and this needs 1 cr.",
        ),
        (alice, {"to": "greta", "amount": "1 s"}, "You can't pay yourself."),
        (
            alice,
            {"to": "Greta", "amount": "1 cr", "options": {"from": "Hans"}},
            "That character isn't yours.",
        ),
        (
            alice,
            {"to": "Greta", "amount": "1 cr", "options": {"from": "Innkeeper"}},
            "That character isn't yours.",
        ),
        (
            gm,
            {"to": "Greta", "amount": "1 s"},
            "You have no character here yet. Make one with /character create.",
        ),
    ]
    for who, options, expected in pay:
        answer = await say(fake, who, "purse pay", **options)
        assert (answer.content, answer.ephemeral) == (expected, True), options

    gm_only: list[tuple[str, dict[str, Any]]] = [
        ("purse give", {"character": "Greta", "amount": "1 GC", "reason": "Cheating"}),
        ("purse take", {"character": "Hans", "amount": "1 cr", "reason": "Cheating"}),
        ("settings language", {"language": "pl"}),
        ("table close", {"table": 1}),
        ("character create", {"name": "Twin", "npc": True}),
    ]
    for command, options in gm_only:
        answer = await say(fake, alice, command, **options)
        assert (answer.content, answer.ephemeral) == (NOT_GM, True), command
    gm_role = fake.guild.add_role("Game Master")
    manager = await say(fake, gm, "gm role", role=gm_role)
    assert manager.ephemeral  # Gunther has Manage Server; a GM by role only may not:
    role_gm = fake.add_player("Rolf", roles=[gm_role])
    refused = await say(fake, role_gm, "gm role")
    assert refused.content == "Only someone with Manage Server can do that."
    await say(fake, gm, "gm role")  # back to no GM role: the snapshot below must match
    assert await snapshot(bot, fake.guild.id, [gm, alice, bob]) == before

    gm_refusals: list[tuple[str, dict[str, Any], str]] = [
        (
            "purse give",
            {"character": "Nobody", "amount": "1 s", "reason": "x"},
            "I don't know that character.",
        ),
        (
            "purse take",
            {"character": "Hans", "amount": "101 cr", "reason": "Fine"},
            "Not enough in the purse: it holds 100 cr, and this needs 101 cr.",
        ),
        (
            "purse take",
            {"character": "Hans", "amount": "0 cr", "reason": "Fine"},
            "The amount must be more than zero.",
        ),
        (
            "purse give",
            {"character": "Hans", "amount": "2000000 GC", "reason": "x"},
            '"2000000 GC" is more than the bot accepts at once.',
        ),
        ("purse show", {"character": "Nobody"}, "I don't know that character."),
        ("table close", {"table": 99}, "I don't know that table."),
    ]
    for command, options, expected in gm_refusals:
        answer = await say(fake, gm, command, **options)
        assert (answer.content, answer.ephemeral) == (expected, True), (command, options)

    nosy = await say(fake, alice, "purse show", character="Hans")
    assert nosy.content == "That character isn't yours."
    nosy = await say(fake, alice, "purse history", character="Hans")
    assert nosy.content == "That character isn't yours."

    dm = fake.dm_channel(alice)
    in_dm: list[tuple[str, dict[str, Any]]] = [
        ("purse show", {}),
        ("purse history", {}),
        ("purse pay", {"to": "Hans", "amount": "1 s"}),
        ("purse give", {"character": "Hans", "amount": "1 s", "reason": "x"}),
        ("character list", {}),
        ("character show", {"name": "Greta"}),
        ("gm role", {}),
        ("settings language", {"language": "pl"}),
        ("table list", {}),
        ("table close", {"table": 1}),
    ]
    for command, options in in_dm:
        answer = await say(fake, alice, command, channel=dm, **options)
        assert (answer.content, answer.ephemeral) == (GUILD_ONLY, True), command

    assert await snapshot(bot, fake.guild.id, [gm, alice, bob]) == before
    assert len(fake.tavern.messages) == 2  # the two grants before the snapshot, nothing since
    assert_nothing_pings(fake)
