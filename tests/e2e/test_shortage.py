"""A shortage says what it costs and what the purse holds (issue 11, item 14): joining a
Pegasus table, raising past the purse, a check, and a Pazaak challenge and its acceptance."""

from __future__ import annotations

from tests.e2e.pazaak_support import seat_two, settle
from tests.e2e.pegaz_kit import S, Tavern
from tests.fakediscord import BotHarness, FakeDiscord


async def test_joining_and_raising_past_the_purse_give_the_figures(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    poor = await tv.player("Poor", coins=S - 1)
    ann = await tv.player("Ann", coins=2 * S + 6)
    bob = await tv.player("Bob")
    table = await tv.open(raise_limit="1 GC")

    refused = await tv.press(poor.user, table, "Join")
    assert refused.ephemeral and refused.content == (
        "Not enough coin for that: it costs 1 s, and the purse holds 11 p."
    )
    typed = await (await fake.slash(poor.user, "pegaz join", character="Poor")).reply()
    assert typed.content == refused.content  # the slash command says the same

    await tv.press(ann.user, table, "Join")
    await tv.press(bob.user, table, "Join")
    await tv.press(tv.gm, table, "Start")
    # Ann holds 1 s 6 p after the ante: one card at a stake raised to 2 s costs 4 s.
    dialog = await fake.click(ann.user, table, "Pay & exchange…")
    preview = await (
        await fake.submit_modal(ann.user, dialog, {"cards": "1", "raise": "1 s"})
    ).reply()
    assert preview.ephemeral and preview.content == (
        "Not enough coin for that: it costs 4 s, and the purse holds 1 s 6 p."
    )
    assert await tv.purse(ann) == S + 6


async def test_in_polish_too(fake: FakeDiscord, harness: BotHarness) -> None:
    tv = Tavern(fake, harness)
    await (await fake.slash(tv.gm, "settings language", language="pl")).reply()
    poor = await tv.player("Biedak", coins=S - 1)
    table = await tv.open()
    refused = await tv.press(poor.user, table, "Dosiądź się")
    assert refused.content == "Za mało monet: to kosztuje 1 s, a w sakiewce jest 11 p."


async def test_a_pazaak_wager_shortage_shows_only_ones_own_purse(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness, credits=0)
    services = harness.bot.services
    alice, bob = table.users["A"], table.users["B"]
    ahsoka, bastila = table.characters["A"].id, table.characters["B"].id
    await services.purses.grant(ahsoka, "cr", 300, actor_id=fake.owner.id)
    await services.purses.grant(bastila, "cr", 1000, actor_id=fake.owner.id)

    refused = await fake.slash(alice, "pazaak challenge", opponent="Bastila", wager="1000 cr")
    assert (await refused.reply()).text == (
        "**Ahsoka** can't cover the wager of 1000 cr: the purse holds 300 cr."
    )
    # Ahsoka's purse shrinks after the challenge: Bastila hears of it, but not what it holds.
    challenge = await table.send_challenge(wager="250")
    await services.purses.take(ahsoka, "cr", 100, actor_id=fake.owner.id, reason="Fine")
    accept = await fake.click(bob, challenge, "Accept")
    assert (await accept.reply()).text == "**Ahsoka** can't cover the wager of 250 cr."
    await settle(fake, harness, accept)
    assert (await table.balance("A"), await table.balance("B")) == (200, 1000)
