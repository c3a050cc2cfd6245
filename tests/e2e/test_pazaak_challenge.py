"""Challenges: the terms, Accept (both wagers into escrow at once), Decline and withdrawal,
expiry, who may answer, and refusals that change nothing."""

from __future__ import annotations

import asyncio

from bot.services.clock import wall_clock
from tests.e2e.pazaak_support import masked, moves_log, refusal, seat_two, settle
from tests.fakediscord import MANAGE_GUILD, BotHarness, FakeDiscord

ACCEPTED = "**Bastila** accepted **Ahsoka**'s challenge (250 cr each). The board is below."


async def live_tables(harness: BotHarness) -> list[int]:
    return [
        t.table_id for t in await harness.bot.services.tables.live_in_guild(harness.fake.guild.id)
    ]


async def test_the_challenge_shows_its_terms_and_accept_escrows_both_wagers(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    bob = table.users["B"]

    challenge = await table.send_challenge(wager="250 cr")

    assert masked(challenge.content) == (
        f"{bob.mention} **Ahsoka** challenges **Bastila** to pazaak for 250 cr each; the winner "
        "takes 500 cr. 5 min per turn. The challenge expires <t:…:R>."
    )
    assert challenge.button_labels == ["Accept", "Decline"] and not challenge.ephemeral
    # Deferred first (the checks read the database), then filled in, pinging only Bob.
    deferral = fake.requests("POST /interactions/{interaction_id}/{interaction_token}/callback")
    assert deferral[-1].body["type"] == 5
    reply = fake.requests("PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original")[-1]
    assert reply.body["allowed_mentions"]["users"] == [bob.id]
    assert (await table.balance("A"), await table.balance("B")) == (1000, 1000)
    assert await live_tables(harness) == []

    accept = await fake.click(bob, challenge, "Accept")
    await settle(fake, harness, accept)

    assert challenge.content == ACCEPTED and challenge.buttons == []
    assert (await table.balance("A"), await table.balance("B")) == (750, 750)
    assert await live_tables(harness) == [1]
    assert [len(fake.dms(table.users["A"])), len(fake.dms(bob))] == [1, 1]


async def test_declined_withdrawn_and_expired_challenges_take_no_money(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    alice, bob = table.users["A"], table.users["B"]

    declined = await table.send_challenge()
    await settle(fake, harness, await fake.click(bob, declined, "Decline"))
    withdrawn = await table.send_challenge()
    await settle(fake, harness, await fake.click(alice, withdrawn, "Decline"))
    expired = await table.send_challenge()
    harness.bot.clock = lambda: wall_clock() + 16 * 60 * 1000  # the challenge lasts 15 min
    await settle(fake, harness, await fake.click(bob, expired, "Accept"))

    assert [declined.content, withdrawn.content, expired.content] == [
        "**Bastila** declined **Ahsoka**'s challenge. No money moved.",
        "**Ahsoka** withdrew the challenge to **Bastila**. No money moved.",
        "**Ahsoka**'s challenge to **Bastila** expired. No money moved.",
    ]
    assert declined.buttons == withdrawn.buttons == expired.buttons == []
    assert (await table.balance("A"), await table.balance("B")) == (1000, 1000)
    assert await live_tables(harness) == []
    assert fake.dms(alice) == fake.dms(bob) == []


async def test_a_challenge_answered_while_the_bot_was_down_is_redrawn_at_startup(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    challenge = await table.send_challenge()
    assert table.challenge_id is not None
    # as if the sweep expired it and the bot stopped before it could redraw the message
    await harness.bot.services.challenges.answer(table.challenge_id, "expired")
    await harness.restart()
    await settle(fake, harness)

    assert challenge.content == "**Ahsoka**'s challenge to **Bastila** expired. No money moved."
    assert challenge.buttons == [] and fake.ephemeral(table.users["B"]) == []


async def test_only_the_challenged_player_answers(fake: FakeDiscord, harness: BotHarness) -> None:
    table = await seat_two(fake, harness)
    carth = fake.add_player("Carth")
    challenge = await table.send_challenge()

    texts = []
    for label in ("Accept", "Decline"):
        handle = await fake.click(carth, challenge, label)
        texts.append((await handle.reply()).text)
        await settle(fake, harness, handle)
    handle = await fake.click(table.users["A"], challenge, "Accept")  # the challenger
    texts.append((await handle.reply()).text)
    await settle(fake, harness, handle)

    assert texts == [
        "Only Bastila's player can answer this challenge.",
        "Only Ahsoka's or Bastila's player can do that.",
        "Only Bastila's player can answer this challenge.",
    ]
    assert challenge.button_labels == ["Accept", "Decline"]
    assert (await table.balance("A"), await table.balance("B")) == (1000, 1000)


async def test_a_wager_someone_cannot_cover_is_refused_and_nothing_moves(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness, credits=0)
    services = harness.bot.services
    alice, bob = table.users["A"], table.users["B"]
    await services.purses.grant(table.characters["A"].id, "cr", 300, actor_id=fake.owner.id)
    await services.purses.grant(table.characters["B"].id, "cr", 100, actor_id=fake.owner.id)

    refused = await fake.slash(alice, "pazaak challenge", opponent="Bastila", wager="301 cr")
    assert (await refused.reply()).text == (
        "**Ahsoka** can't cover the wager of 301 cr: the purse holds 300 cr."
    )
    challenge = await table.send_challenge(wager="250")
    poor = await fake.click(bob, challenge, "Accept")
    assert (await poor.reply()).text == (
        "**Bastila** can't cover the wager of 250 cr: the purse holds 100 cr."
    )
    await settle(fake, harness, poor)

    assert challenge.button_labels == ["Accept", "Decline"]  # still open
    assert (await table.balance("A"), await table.balance("B")) == (300, 100)
    assert await live_tables(harness) == []

    await services.purses.grant(table.characters["B"].id, "cr", 150, actor_id=fake.owner.id)
    await settle(fake, harness, await fake.click(bob, challenge, "Accept"))
    assert challenge.content == ACCEPTED
    assert (await table.balance("A"), await table.balance("B")) == (50, 0)


async def test_one_match_at_a_time_per_character(fake: FakeDiscord, harness: BotHarness) -> None:
    table = await seat_two(fake, harness)
    services = harness.bot.services
    carth = fake.add_player("Carth")
    canderous = await services.characters.create(fake.guild.id, "Canderous", owner_id=carth.id)
    await services.purses.grant(canderous.id, "cr", 1000, actor_id=fake.owner.id)
    pending = await (
        await fake.slash(carth, "pazaak challenge", opponent="Ahsoka", wager="100")
    ).reply()
    await table.open()

    busy = await fake.slash(table.users["A"], "pazaak challenge", opponent="Canderous", wager="1")
    late = await fake.click(table.users["A"], pending, "Accept")

    assert (await busy.reply()).text == "**Ahsoka** is already playing a match; finish it first."
    assert (await late.reply()).text == "**Ahsoka** is already playing a match; finish it first."
    await settle(fake, harness, busy, late)
    assert pending.button_labels == ["Accept", "Decline"]
    assert await services.purses.balance(canderous.id, "cr") == 1000
    assert await live_tables(harness) == [1]


async def test_a_double_accept_opens_one_table(fake: FakeDiscord, harness: BotHarness) -> None:
    table = await seat_two(fake, harness)
    bob = table.users["B"]
    challenge = await table.send_challenge()

    clicks = await asyncio.gather(*(fake.click(bob, challenge, "Accept") for _ in range(2)))
    await settle(fake, harness, *clicks)

    assert challenge.content == ACCEPTED
    assert [m.text for m in fake.ephemeral(bob)] == ["This challenge was already answered."]
    assert await live_tables(harness) == [1]
    assert len([m for m in fake.tavern.messages if m.embeds]) == 1  # one board
    assert (await table.balance("A"), await table.balance("B")) == (750, 750)


async def test_refused_challenges(fake: FakeDiscord, harness: BotHarness) -> None:
    table = await seat_two(fake, harness)
    alice = table.users["A"]
    nobody = fake.add_player("Nobody")
    cases = [
        (alice, {"opponent": "Ahsoka", "wager": "10"}, "A character can't challenge itself."),
        (alice, {"opponent": "Revan", "wager": "10"}, "I don't know that character."),
        (
            alice,
            {"opponent": "Bastila", "wager": "ten"},
            'I can\'t read "ten" as an amount. Write it like `1 GC 10 s`, `15p` or `250 cr` '
            "(units: cr).",
        ),
        (
            nobody,
            {"opponent": "Bastila", "wager": "10"},
            "You have no character here yet. Make one with /character create.",
        ),
    ]
    for who, options, text in cases:
        handle = await fake.slash(who, "pazaak challenge", **options)
        assert (await handle.reply()).text == text, options
    assert fake.tavern.messages == []


async def test_a_gm_plays_an_npc_and_gets_its_hand(fake: FakeDiscord, harness: BotHarness) -> None:
    table = await seat_two(fake, harness)
    services = harness.bot.services
    gm = fake.add_player("Game Master", permissions=MANAGE_GUILD)
    revan = await services.characters.create(fake.guild.id, "Revan", owner_id=gm.id, npc=True)
    await services.purses.grant(revan.id, "cr", 500, actor_id=gm.id)
    bob = table.users["B"]

    handle = await fake.slash(
        gm, "pazaak challenge", opponent="Bastila", wager="0", character="Revan"
    )
    challenge = await handle.reply()
    assert masked(challenge.content) == (
        f"{bob.mention} **Revan** challenges **Bastila** to a friendly game of pazaak (no wager). "
        "5 min per turn. The challenge expires <t:…:R>."
    )
    await settle(fake, harness, handle, await fake.click(bob, challenge, "Accept"))

    board = next(m for m in fake.tavern.messages if m.embeds)
    assert board.embeds[0]["title"] == "Pazaak: Revan vs Bastila"
    assert [m.embeds[0]["title"] for m in fake.dms(gm)] == ["Your hand: Revan vs Bastila"]
    confirm = await (await fake.click(gm, board, "Forfeit")).reply()
    assert (
        confirm.text == "Forfeit the match as **Revan**? **Bastila** wins and takes the pot (0 cr)."
    )
    await settle(fake, harness, await fake.click(gm, confirm, "Yes, forfeit"))
    assert table.channel_texts()[-1] == "**Revan** forfeits. **Bastila** wins the match."
    assert await services.purses.balance(revan.id, "cr") == 500
    assert await table.balance("B") == 1000


async def test_a_polish_server_plays_in_polish(fake: FakeDiscord, harness: BotHarness) -> None:
    table = await seat_two(fake, harness)
    alice, bob = table.users["A"], table.users["B"]
    await harness.bot.services.guilds.set_language(fake.guild.id, "pl")

    board = await table.open(wager="250 cr")
    await table.move(("B", "end"))

    assert table.challenge is not None and table.challenge.text == (
        "**Bastila** przyjmuje wyzwanie od **Ahsoka** (250 cr od gracza). Plansza poniżej."
    )
    assert board.text == (
        f"{alice.mention} Ruch: **Ahsoka**.\n"
        "Pazaak: Ahsoka kontra Bastila\n"
        "Set 1 · pula 500 cr\n\n"
        "• Bastila kończy turę.\n"
        "• Ahsoka dobiera 4.\n"
        "Ahsoka · sety 0/3: 4\nSuma: **4** · ma ruch\nKart w ręce: 4\n"
        "Bastila · sety 0/3: 1\nSuma: **1**\nKart w ręce: 4\n"
        "Stół 1 · 5 min na turę; 3 przekroczenia czasu z rzędu to poddanie meczu"
    )
    assert board.button_labels == [
        "Koniec tury",
        "Pasuję",
        "Pokaż moją rękę",
        "Poddaj się",
        "Oglądaj",
    ]
    assert table.hand_dm("B").text == (
        "Twoja ręka: Bastila kontra Ahsoka\n"
        "Ręka: +5 · +1 · +1 · +5\n\n"
        "W swojej turze zagraj tu kartę. Koniec tury i Pasuję są pod planszą na kanale, "
        "która pokazuje oba stoły i sumy.\n"
        "Stół 1"
    )
    assert table.hand_dm("A").button_labels == ["+4", "+1", "+1", "+5"]
    assert (await table.show_hand("B")).text == (
        "Twoja ręka: Bastila kontra Ahsoka\n"
        "Set 1 · twój stół: 1 · suma **1**\n"
        "Ręka: +5 · +1 · +1 · +5\n\n"
        "Ruch ma Ahsoka; poczekaj na swoją turę."
    )
    assert bob.mention not in board.content


async def test_another_gm_cannot_play_or_see_an_npc_run_by_its_gm(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    services = harness.bot.services
    gm = fake.add_player("Game Master", permissions=MANAGE_GUILD)
    other_gm = fake.add_player("Other GM", permissions=MANAGE_GUILD)
    revan = await services.characters.create(fake.guild.id, "Revan", owner_id=gm.id, npc=True)
    await services.purses.grant(revan.id, "cr", 500, actor_id=gm.id)

    handle = await fake.slash(
        other_gm, "pazaak challenge", opponent="Bastila", wager="100", character="Revan"
    )
    assert (await handle.reply()).ephemeral  # refused: Revan is not the other GM's to play
    assert fake.tavern.messages == []

    handle = await fake.slash(
        gm, "pazaak challenge", opponent="Bastila", wager="0", character="Revan"
    )
    challenge = await handle.reply()
    await settle(fake, harness, handle, await fake.click(table.users["B"], challenge, "Accept"))
    board = next(m for m in fake.tavern.messages if m.embeds)
    shown = await (await fake.click(other_gm, board, "Show my hand")).reply()
    assert shown.ephemeral and not shown.embeds  # no hand of Revan's for the other GM
    assert "Revan" not in str(shown.embeds)
    forfeit = await (await fake.click(other_gm, board, "Forfeit")).reply()
    assert forfeit.ephemeral and "Yes, forfeit" not in forfeit.button_labels
    assert await services.purses.balance(revan.id, "cr") == 500


async def test_a_gm_playing_both_seats_plays_each_card_from_its_own_hand_dm(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    """A GM's character against an NPC the GM runs: both hand DMs go to the GM, and a card
    clicked in one of them is played for that seat (refused while it is the other's turn)."""
    services = harness.bot.services
    gm = fake.add_player("Game Master", permissions=MANAGE_GUILD)
    for name, npc in (("Kreia", False), ("Revan", True)):
        await services.characters.create(fake.guild.id, name, owner_id=gm.id, npc=npc)
    handle = await fake.slash(
        gm, "pazaak challenge", opponent="Revan", wager="0", character="Kreia"
    )
    challenge = await handle.reply()
    await settle(fake, harness, handle, await fake.click(gm, challenge, "Accept"))
    board = next(m for m in fake.tavern.messages if m.embeds)
    dms = {m.embeds[0]["title"].split(": ")[1].split(" vs ")[0]: m for m in fake.dms(gm)}
    assert sorted(dms) == ["Kreia", "Revan"]

    state = (await services.tables.get(1)).state
    roster = await services.characters.many(p.id for p in state.players)
    playing = roster[state.current_player].name
    waiting = "Revan" if playing == "Kreia" else "Kreia"

    off_turn = await fake.click(gm, dms[waiting], custom_id=dms[waiting].buttons[0]["custom_id"])
    assert (await refusal(off_turn)).text == "It isn't your turn."
    await settle(fake, harness, off_turn)

    card = dms[playing].buttons[1]
    played = await fake.click(gm, dms[playing], custom_id=card["custom_id"])
    await settle(fake, harness, played)
    assert moves_log(board) == [f"{playing} plays {card['label']}."]
    assert len(dms[playing].buttons) == 3 and dms[waiting].history == []
