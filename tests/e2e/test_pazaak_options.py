"""The table options of ``/pazaak challenge`` (main deck, KOTOR II cards, nine-card win, who
starts): shown in the challenge and on the board, kept with the challenge until it is accepted
(also across a restart), and checked against both side decks before any money moves."""

from __future__ import annotations

from tests.e2e.pazaak_support import masked, seat_two, settle
from tests.fakediscord import BotHarness, FakeDiscord

PLAIN = ["+1", "+1", "+2", "+2", "+3", "+3", "+4", "+4", "+5", "+5"]
WITH_KOTOR2 = ["+1", "+1", "+2", "+2", "+3", "+3", "+4", "+4", "+5", "±1/2"]
NO_KOTOR2 = (
    "**Bastila**'s side deck has ±1/2, a KOTOR II card, but this table is played without "
    "KOTOR II cards. Choose another side deck with /pazaak deck."
)


async def live_tables(harness: BotHarness) -> list[int]:
    found = await harness.bot.services.tables.live_in_guild(harness.fake.guild.id)
    return [table.table_id for table in found]


async def test_infinite_deck_and_loser_starts_are_shown_and_reach_the_match(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    bob = table.users["B"]

    challenge = await table.send_challenge(main_deck="infinite", starter="loser")

    assert masked(challenge.content) == (
        f"{bob.mention} **Ahsoka** challenges **Bastila** to pazaak for 250 cr each; the winner "
        "takes 500 cr. 5 min per turn. The challenge expires <t:…:R>. Table rules: infinite "
        "main deck (every draw 1\N{EN DASH}10), the loser of a set starts the next."
    )
    assert [b["custom_id"] for b in challenge.buttons] == ["pzc:1:0:yes", "pzc:1:0:no"]
    row = await harness.bot.services.challenges.get(1)
    assert (row.status, row.message_id) == ("pending", challenge.id)

    await settle(fake, harness, await fake.click(bob, challenge, "Accept"))

    settings = (await harness.bot.services.tables.get(1)).state.settings
    assert (settings.main_deck, settings.starter) == ("infinite", "loser")
    assert (settings.kotor2_cards, settings.nine_card_win) == (True, True)
    assert (settings.wager, settings.turn_timeout) == (250, 300)
    board = next(m for m in fake.tavern.messages if m.embeds)
    assert board.embeds[0]["footer"]["text"] == (
        "Table 1 · 5 min per turn; 3 timeouts in a row forfeit · infinite main deck "
        "(every draw 1\N{EN DASH}10), the loser of a set starts the next"
    )
    assert (await table.balance("A"), await table.balance("B")) == (750, 750)


async def test_without_kotor2_cards_a_kotor2_side_deck_is_refused_and_nothing_moves(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness, cards_a=PLAIN, cards_b=WITH_KOTOR2)
    services = harness.bot.services
    alice, bob = table.users["A"], table.users["B"]
    ahsoka, bastila = table.characters["A"].id, table.characters["B"].id

    challenge = await table.send_challenge(kotor2_cards=False, nine_card_win=False)
    assert masked(challenge.content).endswith(
        "Table rules: no KOTOR II cards, nine cards don't win a set."
    )
    refused = await fake.click(bob, challenge, "Accept")  # Bob's own deck: the card is named
    assert (await refused.reply()).text == NO_KOTOR2
    await settle(fake, harness, refused)

    await services.characters.give_side_cards(bastila, ["+5"])
    await services.characters.set_selection(bastila, PLAIN, actor_id=bob.id)
    await services.characters.give_side_cards(ahsoka, ["F24"])
    await services.characters.set_selection(ahsoka, [*PLAIN[:9], "F24"], actor_id=alice.id)
    hidden = await fake.click(bob, challenge, "Accept")  # Ahsoka's deck is her secret
    assert (await hidden.reply()).text == (
        "**Ahsoka**'s side deck has KOTOR II cards, but this table is played without them. "
        "Ahsoka's player must choose another side deck with /pazaak deck."
    )
    await settle(fake, harness, hidden)
    again = await fake.slash(
        alice, "pazaak challenge", opponent="Bastila", wager="250", kotor2_cards=False
    )
    assert (await again.reply()).text == (
        "**Ahsoka**'s side deck has Flip 2&4, a KOTOR II card, but this table is played without "
        "KOTOR II cards. Choose another side deck with /pazaak deck."
    )
    await settle(fake, harness, again)

    assert challenge.button_labels == ["Accept", "Decline"]
    assert [m for m in fake.tavern.messages if m is not challenge] == []
    assert (await table.balance("A"), await table.balance("B")) == (1000, 1000)
    assert await live_tables(harness) == []
    assert fake.dms(alice) == fake.dms(bob) == []


async def test_a_challenge_survives_a_restart_and_is_accepted_with_the_defaults(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    challenge = await table.send_challenge()
    await harness.restart()

    await settle(fake, harness, await fake.click(table.users["B"], challenge, "Accept"))

    assert challenge.content == (
        "**Bastila** accepted **Ahsoka**'s challenge (250 cr each). The board is below."
    )
    settings = (await harness.bot.services.tables.get(1)).state.settings
    assert (settings.main_deck, settings.kotor2_cards) == ("pool", True)
    assert (settings.nine_card_win, settings.starter) == (True, "alternate")
    board = next(m for m in fake.tavern.messages if m.embeds)
    assert board.embeds[0]["footer"]["text"] == (
        "Table 1 · 5 min per turn; 3 timeouts in a row forfeit"
    )
    assert (await table.balance("A"), await table.balance("B")) == (750, 750)
