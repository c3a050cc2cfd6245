"""``/pegaz`` commands, who may do what at a table, and tables that run side by side."""

from __future__ import annotations

from tests.e2e.pegaz_kit import GC, S, Tavern, field, status
from tests.fakediscord import BotHarness, FakeDiscord


async def _say(tv: Tavern, user: object, command: str, **options: object) -> str:
    handle = await tv.fake.slash(user, command, **options)  # type: ignore[arg-type]
    return (await handle.reply()).content


async def test_opening_is_for_gms_and_every_setting_is_checked(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann = await tv.player("Ann")
    assert await _say(tv, ann.user, "pegaz open") == "Only a GM can do that."
    assert (await _say(tv, tv.gm, "pegaz open", stake="ten")).startswith('I can\'t read "ten"')
    assert await _say(tv, tv.gm, "pegaz open", stake="2 s", max_stake="1 s") == (
        "The maximum stake can't be below the starting stake."
    )
    assert await _say(tv, tv.gm, "pegaz open", turn_timeout="soon") == (
        'I can\'t read "soon" as a turn time. Write it like `10 min` or `90 s` '
        "(1 second to 24 hours)."
    )
    assert fake.tavern.messages == []

    table = await tv.open(
        stake="2 s",
        exchanges=0,
        raise_limit="none",
        max_stake="1 GC",
        die=8,
        source="deck",
        turn_timeout="90 s",
        tie="rollover",
        cheat_ruling="gm",
        detection=-10,
    )
    assert field(table, "Settings").splitlines() == [
        "Stake: 2 s",
        "Exchange rounds: unlimited",
        "Raise limit: none",
        "Maximum stake: 1 GC",
        "Cards: d8, deck",
        "Turn time: 90 s",
        "A tie rolls the pot over",
        "The GM rules on a caught cheater",
        "Detection tests: -10",
    ]
    assert status(table) == (
        "Waiting for players (0/8): join to pay the ante of 2 s. "
        "The opener or a GM starts the game."
    )


async def test_the_odds_of_a_hand_and_of_each_kind(fake: FakeDiscord, harness: BotHarness) -> None:
    tv = Tavern(fake, harness)
    ann = fake.add_player("Ann")
    reply = await (await fake.slash(ann, "pegaz odds", hand="6 6 1")).reply()
    assert reply.ephemeral and reply.embeds[0]["title"] == "Three-Card Pegasus odds (d6, dice)"
    assert reply.embeds[0]["description"] == (
        "Cards: 🐎 Pegasus, 🐎 Pegasus, 🐍 Snake\n"
        "Hand: pair: Pegasus + Snake\n"
        "Beats a random hand: 90.28% (65/72)\n"
        "Ties: 1.39% (1/72)\n"
        "Loses: 8.33% (1/12)"
    )
    assert field(reply, "Three fresh cards") == (
        "Three of a kind: 2.78% (1/36)\nA pair: 41.67% (5/12)\nThree singles: 55.56% (5/9)"
    )
    deck = await (await fake.slash(ann, "pegaz odds", source="deck")).reply()
    assert deck.embeds[0].get("description") is None
    assert field(deck, "Three fresh cards") == (
        "Three of a kind: 1.19% (3/253)\nA pair: 35.57% (90/253)\nThree singles: 63.24% (160/253)"
    )
    named = await (await fake.slash(ann, "pegaz odds", hand="hydra, 8 snake", die=8)).reply()
    assert named.embeds[0]["description"].startswith(
        "Cards: 🐲 Hydra, 🐎 Pegasus, 🐍 Snake\nHand: Pegasus-Hydra-Snake\n"
    )
    await tv.services.guilds.set_language(fake.guild.id, "pl")
    polish = await (await fake.slash(ann, "pegaz odds", hand="Pegaz pegaz wąż")).reply()
    assert polish.embeds[0]["description"].splitlines()[2] == "Bije losowy układ: 90,28% (65/72)"
    bad = await (await fake.slash(ann, "pegaz odds", hand="6 6 7")).reply()
    assert bad.content.startswith("Nie rozumiem „6 6 7” jako trzech kart na k6.")


async def test_seating_leaving_starting_and_cancelling(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann = await tv.player("Ann")
    twin = await tv.player("Ann Twin", user=ann.user)
    bob = await tv.player("Bob", 6)
    nobody = fake.add_player("Nobody")
    table = await tv.open()

    # No character, too little coin: clear refusals; several and none active: a pick is offered.
    assert (await tv.press(nobody, table, "Join")).content == (
        "You have no character here yet. Make one with /character create."
    )
    assert (await tv.press(ann.user, table, "Join")).content == (
        "Which of your characters sits at table 1?"
    )
    assert (await tv.press(bob.user, table, "Join")).content == (
        "Not enough coin for that: it costs 1 s, and the purse holds 6 p."
    )
    assert await _say(tv, ann.user, "pegaz join", character="Ann") == (
        "Ann sits at table 1; the ante of 1 s is paid."
    )
    assert await _say(tv, ann.user, "pegaz join", character="Ann Twin") == (
        "You already sit at this table with Ann."
    )
    assert (await tv.press(ann.user, table, "Start")).content == (
        "Only whoever opened the table, or a GM, can do that."
    )
    assert (await tv.press(tv.gm, table, "Start")).content == (
        "At least two players must sit before the game starts."
    )
    await tv.services.purses.grant(bob.id, "wh", GC, actor_id=tv.gm.id)
    await tv.press(bob.user, table, "Join")
    left = await tv.press(bob.user, table, "Leave")
    assert left.content == "Bob stands up; the ante is back in the purse."
    await tv.press(bob.user, table, "Join")
    await tv.press(tv.gm, table, "Start")
    assert await tv.purse(ann) == GC - S and await tv.purse(twin) == GC

    assert (await tv.press(ann.user, table, "Cancel game")).content == (
        "Only whoever opened the table, or a GM, can do that."
    )
    assert (await tv.press(tv.gm, table, "Cancel game")).content == "The table is closed."
    assert tv.said()[-1] == "The game is called off. The stakes go back: **Ann** 1 s, **Bob** 1 s."
    assert status(table) == "The game was called off." and table.button_labels == ["History"]
    assert await tv.purse(ann) == GC and await tv.purse(bob) == GC + 6
    await tv.books_balance(table_id=1, pot=0)


async def test_tables_in_two_channels_and_two_in_one_run_independently(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    backroom = fake.guild.add_channel("backroom")
    ann, bob, cid = [await tv.player(name) for name in ("Ann", "Bob", "Cid")]
    first = await tv.open()
    second = await tv.open()
    third = await tv.open(channel=backroom)

    assert await _say(tv, ann.user, "pegaz join") == (
        "This channel has several tables (1, 2): say which with the `table` option."
    )
    assert await _say(tv, ann.user, "pegaz join", table=2) == (
        "Ann sits at table 2; the ante of 1 s is paid."
    )
    await tv.press(bob.user, second, "Join")
    await tv.press(bob.user, first, "Join")  # one character may sit at two tables
    await tv.press(cid.user, first, "Join")
    handle = await fake.slash(cid.user, "pegaz join", channel=backroom)
    assert (await handle.reply()).content == "Cid sits at table 3; the ante of 1 s is paid."
    first_edits = len(first.edits)

    await tv.press(tv.gm, second, "Start")
    await tv.press(ann.user, second, "Fold")
    assert status(second) == "🏆 **Bob** won 2 s."
    assert len(first.edits) == first_edits and status(first).startswith("Waiting for players (2/8)")
    assert status(third).startswith("Waiting for players (1/8)")
    kept = await tv.press(bob.user, second, "Keep it all")
    assert kept.content == "You keep every coin."

    await tv.press(tv.gm, first, "Start")
    await tv.press(bob.user, first, "Fold")
    await tv.press(cid.user, first, "Keep it all")
    assert status(first) == "🏆 **Cid** won 2 s."
    assert await tv.purse(ann) == GC - S
    assert await tv.purse(bob) == GC - S + 2 * S - S
    assert await tv.purse(cid) == GC - S + 2 * S - S
    assert tv.said(backroom) == ["**Cid** sits down and pays the ante of 1 s."]
