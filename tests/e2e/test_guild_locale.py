"""The server's own locale is its language until a GM chooses one with ``/settings language``:
in the replies (the interaction's ``guild_locale``) and in what the bot posts by itself (the
table message, from the guild Discord sent at GUILD_CREATE)."""

from __future__ import annotations

from bot.i18n import t
from tests.e2e.test_characters import say
from tests.fakediscord import MANAGE_GUILD, BotHarness, FakeDiscord


async def test_a_polish_server_speaks_polish_until_a_gm_chooses(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    gm = fake.add_player("Gunther", permissions=MANAGE_GUILD)  # English Discord clients
    karczma = fake.add_guild("Karczma", owner=gm, locale="pl")  # its owner is a GM there
    alice = fake.add_player("Alice", guild=karczma)
    await fake.wait_for(lambda: harness.bot.get_guild(karczma.id), what="the Polish guild")
    room = karczma.text_channel

    made = await say(fake, alice, "character create", name="Greta", channel=room)
    assert made.content == "Utworzono postać **Greta** (Percepcja 0)."
    await say(fake, gm, "pegaz open", channel=room)
    board = await fake.wait_for(
        lambda: next((m for m in room.messages if m.embeds), None), what="the table message"
    )
    assert board.embeds[0]["title"].startswith("🐎 Trzykartowy Pegaz · stół ")
    english = await say(fake, gm, "character create", name="Hans")  # the English server
    assert english.content == "Created **Hans** (Perception 0)."

    chosen = await say(fake, gm, "settings language", language="en", channel=room)
    assert chosen.content == t("en", "settings.language.set")
    assert (await say(fake, alice, "character show", channel=room)).content.startswith("**Greta**")
    refused = await say(fake, alice, "character create", name="greta", channel=room)
    assert refused.content == 'There is already a character called "greta" on this server.'


async def test_the_interactions_guild_locale_is_taken_when_it_changes(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    alice = fake.add_player("Alice")
    assert (await say(fake, alice, "character use", name="Nobody")).content == (
        "I don't know that character."
    )
    fake.guild.locale = "pl"  # the server's owner switched it to Polish
    assert (await say(fake, alice, "character use", name="Nobody")).content == (
        "Nie znam tej postaci."
    )
