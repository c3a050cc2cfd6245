"""A caught cheater is told so in their own reply and hand, not only in the channel (issue 11,
item 13): expelled at once, or waiting for the GM's ruling (and then expelled or pardoned)."""

from __future__ import annotations

from tests.e2e.pegaz_kit import Tavern, hand_of
from tests.fakediscord import BotHarness, FakeDiscord

CHEAT = "Cheat: move one card by 2 (others may notice)…"
EXPELLED = (
    "🚨 You were caught cheating! You are out of this game: your cards are dead and your stakes "
    "stay in the pot."
)
RULING = (
    "🚨 You were caught cheating! The GM will rule: expel you from the game, or pardon you and "
    "undo the cheat."
)
HAND_EXPELLED = (
    "You were caught cheating and are out of this game: your cards are dead and your stakes "
    "stay in the pot."
)
HAND_RULING = (
    "You were caught cheating: wait for the GM's ruling (expel, or pardon and undo the cheat)."
)


async def test_a_cheater_caught_and_expelled_is_told(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    gerwazy = await tv.player("Gerwazy", gamble=True)
    oko = await tv.player("Oko", perception=100)
    third = await tv.player("Trzeci", perception=100)
    table = await tv.open()
    for who in (gerwazy, oko, third):
        await tv.press(who.user, table, "Join")
    await tv.press(tv.gm, table, "Start")

    done = await tv.pick(gerwazy.user, tv.hand_dm(gerwazy), ["0+2"], CHEAT)
    assert tv.said()[-1].startswith("🚨 **Oko** and **Trzeci** caught **Gerwazy** cheating!")
    assert done.content == EXPELLED
    assert "nobody noticed" not in done.content
    assert done.embeds[0]["description"] == HAND_EXPELLED  # not "No cards yet."
    assert done.components == []
    shown = await tv.press(gerwazy.user, table, "Show my hand")
    assert shown.embeds[0]["description"] == HAND_EXPELLED


async def test_a_cheater_awaiting_the_gms_ruling_is_told_and_then_expelled(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann = await tv.player("Ann", gamble=True)
    await tv.player("Grimbold", npc=True, perception=100)
    table = await tv.open(cheat_ruling="gm")
    await tv.press(ann.user, table, "Join")
    await (await fake.slash(tv.gm, "pegaz seat", npc="Grimbold")).reply()
    await tv.press(tv.gm, table, "Start")

    done = await tv.pick(ann.user, tv.hand_dm(ann), ["0-2"], CHEAT)
    assert done.content == RULING
    description = done.embeds[0]["description"]
    assert description.endswith("\n\n" + HAND_RULING) and len(hand_of(done)) == 3

    await tv.press(tv.gm, table, "Expel Ann")
    # the hand DM is brought up to date: no cards, and why
    await fake.wait_for(lambda: tv.hand_dm(ann).embeds[0].get("description") == HAND_EXPELLED)


async def test_polish_cheater_is_told_in_polish(fake: FakeDiscord, harness: BotHarness) -> None:
    tv = Tavern(fake, harness)
    await (await fake.slash(tv.gm, "settings language", language="pl")).reply()
    ann = await tv.player("Ann", gamble=True)
    ben = await tv.player("Ben", perception=100)
    table = await tv.open()
    for who in (ann, ben):
        await tv.press(who.user, table, "Dosiądź się")
    await tv.press(tv.gm, table, "Zaczynamy")
    cheat = "Oszustwo: przesuń jedną kartę o 2 (inni mogą zauważyć)…"
    done = await tv.pick(ann.user, tv.hand_dm(ann), ["0+2"], cheat)
    assert done.content == (
        "🚨 Przyłapano cię na oszustwie! Odpadasz z tej gry: twoje karty przepadają, a stawki "
        "zostają w puli."
    )
    assert done.embeds[0]["description"].startswith("Przyłapano cię na oszustwie i odpadasz")
