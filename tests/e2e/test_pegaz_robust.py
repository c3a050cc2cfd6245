"""What users test by accident: closed DMs, a storm of clicks, restarts, turns that time out."""

from __future__ import annotations

import asyncio
import re
from collections import Counter

from tests.e2e.pazaak_support import settle
from tests.e2e.pegaz_kit import GC, S, Tavern, answer_to, at, hand_of, status
from tests.fakediscord import BotHarness, FakeDiscord

ONE = "Luck or Gamble: move one card by 1…"


async def test_a_player_with_closed_dms_plays_a_whole_game_through_show_my_hand(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann = await tv.player("Ann")
    bob = await tv.player("Bob", luck=True, dms_open=False)
    table = await tv.open()
    await tv.press(ann.user, table, "Join")
    await tv.press(bob.user, table, "Join")
    await tv.press(tv.gm, table, "Start")
    assert fake.dms(bob.user) == []
    assert tv.said()[-1] == (
        "🎲 The game begins: 2 players, a pot of 2 s. The cards are dealt in secret.\n"
        f"Choose in secret (your cards are in your DMs): {at(bob)}\n"
        f"{at(bob)} I can't send **Bob**'s cards by DM: press **Show my hand** on the table to "
        "see them."
    )

    # The hand and its choices come as an ephemeral message; the choice updates that message.
    shown = await tv.press(bob.user, table, "Show my hand")
    assert shown.ephemeral and hand_of(shown) == [
        "🐍 Snake (new)",
        "🦄 Unicorn (new)",
        "🐍 Snake (new)",
    ]
    moved = await tv.pick(bob.user, shown, ["1+1"], ONE)
    assert moved is shown and hand_of(moved) == ["🐍 Snake", "🐎 Pegasus", "🐍 Snake"]
    assert status(table) == "Round 1 of 2: **Ann**'s turn."

    for player, cards in ((ann, []), (bob, ["1"])):
        dialog = await fake.click(player.user, table, "Pay & exchange…")
        preview = await (await fake.submit_modal(player.user, dialog, {"cards": cards})).reply()
        await tv.press(player.user, preview, preview.button_labels[0])
    assert tv.said()[-1] == (
        "**Bob** pays 2 s and exchanges 1 card (stake 1 s).\n"
        f"{at(bob)} I can't send **Bob**'s cards by DM: press **Show my hand** on the table to "
        "see them."
    )
    shown = await tv.press(bob.user, table, "Show my hand")
    assert hand_of(shown) == ["🦎 Basilisk (new)", "🐎 Pegasus", "🐍 Snake"]
    await tv.press(bob.user, shown, "Keep the cards")
    ask = await tv.press(ann.user, table, "Check…")
    await tv.pick(ann.user, ask, [str(bob.id)], "Whom do you check?")
    await tv.press(ann.user, table, "Keep it all")

    assert tv.said()[-2].splitlines()[1:4] == [
        "**Ann**: 🦎 Basilisk, 🐍 Snake, 🐍 Snake (pair: Snake + Basilisk)",
        "**Bob**: 🦎 Basilisk, 🐎 Pegasus, 🐍 Snake (Pegasus-Basilisk-Snake)",
        "pair: Snake + Basilisk beats Pegasus-Basilisk-Snake (a better kind of hand). "
        "**Bob** is out.",
    ]
    assert tv.said()[-2].splitlines()[4] == "🏆 **Ann** wins the pot of 8 s!"
    assert await tv.purse(ann) == GC - S - S - 3 * S + 8 * S
    assert await tv.purse(bob) == GC - S - 2 * S
    assert fake.dms(bob.user) == []


async def test_twenty_simultaneous_clicks_fold_once(fake: FakeDiscord, harness: BotHarness) -> None:
    tv = Tavern(fake, harness)
    ann, bob = await tv.player("Ann"), await tv.player("Bob")
    table = await tv.open()
    await tv.press(ann.user, table, "Join")
    await tv.press(bob.user, table, "Join")
    await tv.press(tv.gm, table, "Start")
    before = len(tv.said())

    clicks = await asyncio.gather(*(fake.click(ann.user, table, "Fold") for _ in range(20)))
    answers = [(await answer_to(click, table)).content for click in clicks]

    assert Counter(answers) == {
        "You folded.": 1,
        "That button is out of date: the table has moved on. Nothing was changed.": 19,
    }
    assert tv.said()[before:] == [
        "**Ann** folds.\n"
        "🏆 **Bob** wins the pot of 2 s!\n"
        f"🙏 {at(bob)} **Bob** may give a tenth of the winnings (2 p) to Ranald: "
        "decide with the buttons on the table."
    ]
    assert await tv.purse(ann) == GC - S
    assert await tv.purse(bob) == GC - S + 2 * S
    await tv.books_balance(table_id=1, pot=0)


async def test_a_restart_between_every_two_actions_loses_nothing(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann = await tv.player("Ann", luck=True)
    bob = await tv.player("Bob")
    table = await tv.open()
    await harness.restart()
    await tv.press(ann.user, table, "Join")
    await harness.restart()
    await tv.press(bob.user, table, "Join")
    await harness.restart()
    await tv.press(tv.gm, table, "Start")
    await harness.restart()
    await tv.pick(ann.user, tv.hand_dm(ann), ["1+1"], ONE)  # a DM's select, from an older run
    await harness.restart()
    dialog = await fake.click(ann.user, table, "Pay & exchange…")
    await harness.restart()  # the modal is answered by the next run
    preview = await (
        await fake.submit_modal(ann.user, dialog, {"cards": "3", "raise": "1p"})
    ).reply()
    await harness.restart()
    await tv.press(ann.user, preview, "Pay 2 s 2 p")
    await harness.restart()
    await tv.press(ann.user, tv.hand_dm(ann), "Keep the cards")
    await harness.restart()
    dialog = await fake.click(bob.user, table, "Pay & exchange…")
    preview = await (await fake.submit_modal(bob.user, dialog, {})).reply()
    await harness.restart()
    await tv.press(bob.user, preview, "Pay 1 s 1 p")
    await harness.restart()
    ask = await tv.press(ann.user, table, "Check…")
    await harness.restart()
    await tv.pick(ann.user, ask, [str(bob.id)], "Whom do you check?")
    await harness.restart()
    await tv.press(ann.user, table, "Give a tenth to Ranald")

    assert len(harness.startup_seconds) == 14  # the first start and 13 restarts
    lines = [line for message in tv.said() for line in message.splitlines()]
    assert [line for line in lines if "🏆" in line or "🙏" in line or "Bob** is" in line] == [
        "pair: Basilisk + Dragon beats pair: Snake + Unicorn (the higher pair). **Bob** is out.",
        "🏆 **Ann** wins the pot of 8 s 6 p!",
        f"🙏 {at(ann)} **Ann** may give a tenth of the winnings (10 p) to Ranald: "
        "decide with the buttons on the table.",
        "🙏 **Ann** gives 10 p to Ranald.",
    ]
    # Antes 2 s, Ann's exchange 2 s 2 p, Bob's stake 1 s 1 p, Ann's check 3 s 3 p: 8 s 6 p.
    assert await tv.purse(ann) == GC - S - 26 - 39 + 102 - 10
    assert await tv.purse(bob) == GC - S - 13
    await tv.books_balance(table_id=1, pot=0)


def _without_warnings(said: list[str]) -> list[str]:
    return [m for m in said if not m.startswith("⏳")]


async def test_a_turn_times_out_and_then_the_offering(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann, bob = await tv.player("Ann"), await tv.player("Bob")
    table = await tv.open(turn_timeout="1 s")
    await tv.press(ann.user, table, "Join")
    await tv.press(bob.user, table, "Join")
    await tv.press(tv.gm, table, "Start")
    await settle(fake, harness)
    assert not any("folds" in m for m in tv.said())

    await harness.clock.advance(1)  # Ann's turn runs out
    await fake.wait_for(lambda: any("folds" in m for m in tv.said()))
    await settle(fake, harness)
    assert "no offering" not in tv.said()[-1]
    await harness.clock.advance(1)  # and Bob's time to decide on the offering
    await fake.wait_for(lambda: "no offering" in tv.said()[-1])
    assert _without_warnings(tv.said())[3:] == [
        "**Ann** ran out of time and folds.\n"
        "🏆 **Bob** wins the pot of 2 s!\n"
        f"🙏 {at(bob)} **Bob** may give a tenth of the winnings (2 p) to Ranald: "
        "decide with the buttons on the table.",
        "**Bob** didn't decide in time: no offering.",
    ]
    warnings = [m for m in tv.said() if m.startswith("⏳")]
    assert re.fullmatch(rf"⏳ {at(ann)} time runs out <t:\d+:R>\.", warnings[0])
    assert await tv.purse(bob) == GC - S + 2 * S
    await fake.wait_for(lambda: table.embeds[0]["description"].endswith("The game is over."))


async def test_a_pending_timeout_fires_after_a_restart(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann, bob = await tv.player("Ann"), await tv.player("Bob")
    table = await tv.open(turn_timeout="2 s")
    await tv.press(ann.user, table, "Join")
    await tv.press(bob.user, table, "Join")
    await tv.press(tv.gm, table, "Start")
    await harness.restart()
    await harness.clock.advance(1.999)
    await settle(fake, harness)
    assert "folds" not in "".join(tv.said())

    await harness.clock.advance(0.001)
    await fake.wait_for(lambda: "folds" in "".join(tv.said()))
    assert _without_warnings(tv.said())[3].startswith("**Ann** ran out of time and folds.\n")
    assert await tv.purse(ann) == GC - S
    assert await tv.purse(bob) == GC - S + 2 * S
