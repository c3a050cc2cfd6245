"""A look-alike name is refused through ``/character create`` and ``/character edit``, and the
refusal says whose name it copies, on an English and on a Polish server."""

from __future__ import annotations

from tests.e2e.test_characters import say, snapshot
from tests.fakediscord import BotHarness, FakeDiscord

CYRILLIC_BOB = "\u0412\u043eb Smith"  # a Cyrillic capital Ve and a small o


async def test_a_look_alike_name_is_refused_and_named(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    alice, bob = fake.add_player("Alice"), fake.add_player("Bob")
    await say(fake, bob, "character create", name="Bob Smith")
    await say(fake, alice, "character create", name="Rob Smith")
    before = await snapshot(harness.bot, fake.guild.id, [alice, bob])

    refused = await say(fake, alice, "character create", name=CYRILLIC_BOB)
    assert refused.ephemeral and refused.content == (
        f'"{CYRILLIC_BOB}" looks just like "Bob Smith", a character already on this server '
        "(letters from another alphabet, or digits that pass for letters). "
        "Pick a name that looks different."
    )
    renamed = await say(fake, alice, "character edit", name="Rob Smith", new_name="B0B SMITH")
    assert renamed.content.startswith('"B0B SMITH" looks just like "Bob Smith"')
    assert await snapshot(harness.bot, fake.guild.id, [alice, bob]) == before

    fake.guild.locale = "pl"
    polish = await say(fake, alice, "character create", name=CYRILLIC_BOB)
    assert polish.content.startswith(
        f"Imię „{CYRILLIC_BOB}” wygląda tak samo jak „Bob Smith”, a taka postać już jest"
    )
    made = await say(fake, alice, "character create", name="Bob Smithson")
    assert made.content == "Utworzono postać **Bob Smithson** (Percepcja 0)."
