"""Side cards: a character's collection, the 10-card side deck chosen in a modal, GM loot, and
the rules in the server's language."""

# ruff: noqa: RUF001 (the bot writes real minus signs)

from __future__ import annotations

from tests.e2e.pazaak_support import seat_two, settle
from tests.fakediscord import MANAGE_GUILD, BotHarness, FakeDiscord

STARTER = "+1 ×2 · +2 ×2 · +3 ×2 · +4 ×2 · +5 ×2"


async def test_the_collection_and_the_side_deck(fake: FakeDiscord, harness: BotHarness) -> None:
    table = await seat_two(fake, harness)
    alice = table.users["A"]

    mine = await (await fake.slash(alice, "pazaak collection")).reply()
    theirs = await (await fake.slash(alice, "pazaak collection", character="Bastila")).reply()

    assert mine.ephemeral and mine.text == (
        f"Side cards: Ahsoka\nCollection (10 cards): {STARTER}\nSide deck for matches: {STARTER}"
    )
    assert theirs.text == f"Side cards: Bastila\nCollection (10 cards): {STARTER}"


async def test_a_gm_grants_side_cards_as_loot(fake: FakeDiscord, harness: BotHarness) -> None:
    table = await seat_two(fake, harness)
    gm = fake.add_player("Game Master", permissions=MANAGE_GUILD)

    given = await fake.slash(
        gm, "pazaak grant", character="Ahsoka", cards="+3 -2 ±4 D T F24 F36 ±1/2 +-4"
    )
    refused = await fake.slash(table.users["A"], "pazaak grant", character="Ahsoka", cards="+6")
    unknown = await fake.slash(gm, "pazaak grant", character="Ahsoka", cards="+3 +7")

    assert (await given.reply()).text == (
        "**Ahsoka** receives side cards: +3 · −2 · ±4 ×2 · D · T · Flip 2&4 · Flip 3&6 · ±1/2."
    )
    assert not (await given.reply()).ephemeral
    assert (await refused.reply()).text == "Only a GM can do that."
    assert (await unknown.reply()).text == (
        '"+7" is not a side card I know. Write codes like: +1 +2 +3 +4 +5 +6 -1 -2 -3 -4 -5 -6 '
        "±1 ±2 ±3 ±4 ±5 ±6 D T F24 F36 ±1/2."
    )
    ahsoka = await harness.bot.services.characters.get(table.characters["A"].id)
    assert sorted(ahsoka.side_cards) == sorted(
        [f"+{n}" for n in range(1, 6) for _ in range(2)]
        + ["+3", "-2", "±4", "D", "T", "F24", "F36", "±1/2", "±4"]
    )


async def test_a_gm_takes_side_cards_back_all_or_none(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    gm = fake.add_player("Game Master", permissions=MANAGE_GUILD)
    ahsoka = table.characters["A"]

    taken = await fake.slash(gm, "pazaak take", character="Ahsoka", cards="+1 +5, +5")
    assert (await taken.reply()).text == "**Ahsoka** gives up side cards: +1 · +5 ×2."
    too_many = await fake.slash(gm, "pazaak take", character="Ahsoka", cards="+2 +1 +1")
    assert (await too_many.reply()).text == (
        "**Ahsoka** owns 1 × +1, so can't give up 2. Nothing was taken."
    )
    refused = await fake.slash(table.users["A"], "pazaak take", character="Ahsoka", cards="+2")
    assert (await refused.reply()).text == "Only a GM can do that."

    left = await harness.bot.services.characters.get(ahsoka.id)
    assert sorted(left.side_cards) == sorted(["+1", "+2", "+2", "+3", "+3", "+4", "+4"])


async def test_the_side_deck_is_chosen_in_a_modal(fake: FakeDiscord, harness: BotHarness) -> None:
    table = await seat_two(fake, harness)
    services = harness.bot.services
    alice = table.users["A"]
    ahsoka = table.characters["A"]
    await services.characters.give_side_cards(ahsoka.id, ["-3", "±4", "D", "T"])

    opened = await fake.slash(alice, "pazaak deck")
    modal = await opened.wait_modal()

    assert modal["title"] == "Side deck: Ahsoka"
    menus = {c["label"]: c["component"] for c in modal["components"]}
    assert list(menus) == ["Plus cards", "Minus cards", "Plus/minus cards", "Special cards"]
    plus = menus["Plus cards"]
    assert (plus["min_values"], plus["max_values"], len(plus["options"])) == (0, 10, 10)
    assert [o["value"] for o in plus["options"] if o.get("default")] == [
        f"+{n}|{copy}" for n in range(1, 6) for copy in (1, 2)
    ]
    assert [o["label"] for o in menus["Special cards"]["options"]] == ["D", "T"]

    picked = {
        "pz:deck:plus": ["+1|1", "+2|1", "+3|1", "+3|2", "+4|1", "+5|1"],
        "pz:deck:minus": ["-3|1"],
        "pz:deck:plus_minus": ["±4|1"],
        "pz:deck:special": ["D|1", "T|1"],
    }
    saved = await fake.submit_modal(alice, opened, picked)
    assert (await saved.reply()).text == (
        "Saved **Ahsoka**'s side deck: +1 · +2 · +3 ×2 · +4 · +5 · −3 · ±4 · D · T."
    )
    await settle(fake, harness, saved)
    ahsoka = await services.characters.get(ahsoka.id)
    assert ahsoka.selection == ("+1", "+2", "+3", "+3", "+4", "+5", "-3", "±4", "D", "T")


async def test_a_side_deck_of_the_wrong_size_or_not_owned_is_refused(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    services = harness.bot.services
    alice = table.users["A"]
    ahsoka = table.characters["A"]

    opened = await fake.slash(alice, "pazaak deck")
    nine = await fake.submit_modal(alice, opened, {"pz:deck:plus": ["+1|1", "+1|2"]})
    assert (await nine.reply()).text == (
        "A side deck has exactly 10 cards, not 2. Choose it with /pazaak deck."
    )

    opened = await fake.slash(alice, "pazaak deck")
    await opened.wait_modal()
    await services.characters.take_side_cards(ahsoka.id, ["+5"])  # meanwhile, a +5 is lost
    starter = [f"+{n}|{copy}" for n in range(1, 6) for copy in (1, 2)]
    gone = await fake.submit_modal(alice, opened, {"pz:deck:plus": starter})  # as preselected
    assert (await gone.reply()).text == (
        "**Ahsoka**'s side deck has 2 × +5, but Ahsoka owns 1. Choose it again with /pazaak deck."
    )
    await settle(fake, harness, nine, gone)
    assert (await services.characters.get(ahsoka.id)).selection == ahsoka.selection

    # a saved deck that no longer matches the collection is refused when a match would start
    challenge = await table.send_challenge()
    assert challenge.text == (
        "**Ahsoka**'s side deck has 2 × +5, but Ahsoka owns 1. Choose it again with /pazaak deck."
    )


async def test_the_rules_in_the_server_language(fake: FakeDiscord, harness: BotHarness) -> None:
    player = fake.add_player("Alice")
    english = await (await fake.slash(player, "pazaak rules")).reply()
    await harness.bot.services.guilds.set_language(fake.guild.id, "pl")
    polish = await (await fake.slash(player, "pazaak rules")).reply()

    assert english.ephemeral and english.embeds[0]["title"] == "Pazaak: the rules"
    assert "First to win 3 sets" not in english.text  # the text is the catalogue's, not a guess
    assert "the first to win 3 sets takes it" in english.text
    assert polish.embeds[0]["title"] == "Pazaak: zasady"
    assert "kto pierwszy wygra 3 sety, ten ją bierze" in polish.text
