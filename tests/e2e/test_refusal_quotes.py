"""Refusals quote only a short, clipped piece of what was typed (issue 11, item 5), and name a
side card as the boards do, ``Flip 2&4`` rather than ``F24`` (item 17)."""

from __future__ import annotations

from bot.i18n import QUOTE_MAX
from tests.e2e.pazaak_support import seat_two, settle
from tests.e2e.test_pazaak_options import PLAIN
from tests.fakediscord import MANAGE_GUILD, BotHarness, FakeDiscord

CODES = "+1 +2 +3 +4 +5 +6 -1 -2 -3 -4 -5 -6 ±1 ±2 ±3 ±4 ±5 ±6 D T F24 F36 ±1/2"


async def test_a_long_unknown_card_is_answered_with_a_short_quote(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    gm = fake.add_player("Game Master", permissions=MANAGE_GUILD)
    typed = "Ż" * 390  # as long as the option takes: one unknown "card"
    before = await harness.bot.services.characters.get(table.characters["A"].id)

    unknown = await fake.slash(gm, "pazaak grant", character="Ahsoka", cards=f"+3 {typed}")
    text = (await unknown.reply()).text
    quoted = "Ż" * (QUOTE_MAX - 1) + "…"
    assert text == f'"{quoted}" is not a side card I know. Write codes like: {CODES}.'
    after = await harness.bot.services.characters.get(table.characters["A"].id)
    assert after.side_cards == before.side_cards  # nothing was given


async def test_a_kotor2_refusal_names_the_card_in_both_languages(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness, cards_a=PLAIN, cards_b=PLAIN)
    services = harness.bot.services
    alice = table.users["A"]
    ahsoka = table.characters["A"].id
    await services.characters.give_side_cards(ahsoka, ["F24"])
    await services.characters.set_selection(ahsoka, [*PLAIN[:9], "F24"], actor_id=alice.id)

    english = await fake.slash(
        alice, "pazaak challenge", opponent="Bastila", wager="250", kotor2_cards=False
    )
    assert (await english.reply()).text == (
        "**Ahsoka**'s side deck has Flip 2&4, a KOTOR II card, but this table is played without "
        "KOTOR II cards. Choose another side deck with /pazaak deck."
    )
    await settle(fake, harness, english)
    await services.guilds.set_language(fake.guild.id, "pl")
    polish = await fake.slash(
        alice, "pazaak challenge", opponent="Bastila", wager="250", kotor2_cards=False
    )
    assert "ma kartę Odwróć 2&4 z KOTOR II" in (await polish.reply()).text
    await settle(fake, harness, polish)
