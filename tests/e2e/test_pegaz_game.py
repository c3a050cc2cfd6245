"""Whole Three-Card Pegasus games at a Discord table, two and three players, seeded.

Every card and d100 of a step comes from the bot's seeded ``random.Random`` (a fresh one per
step), so the hands, the rolls and the winner below are exact.
"""

from __future__ import annotations

import pytest

from tests.e2e.pegaz_kit import GC, S, Tavern, at, field, hand_of, status
from tests.fakediscord import BotHarness, FakeDiscord

ONE = "Luck or Gamble: move one card by 1…"
TWO = "Luck and Gamble: move two cards by 1…"
CHEAT = "Cheat: move one card by 2 (others may notice)…"


@pytest.mark.seed(20)
async def test_two_players_luck_both_an_unnoticed_cheat_raises_and_a_check(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    alice = await tv.player("Alice", luck=True)
    bob = await tv.player("Bob", luck=True, gamble=True, perception=90)
    table = await tv.open()
    assert table.embeds[0]["title"] == "🐎 Three-Card Pegasus · table 1"
    assert table.button_labels == ["Join", "Leave", "Start", "Show my hand", "Watch", "Cancel game"]

    joined = await tv.press(alice.user, table, "Join")
    assert joined.content == "Alice sits at table 1; the ante of 1 s is paid." and joined.ephemeral
    await tv.press(bob.user, table, "Join")
    assert field(table, "Players") == (
        f"1. **Alice** ({at(alice)}) · paid 1 s\n2. **Bob** ({at(bob)}) · paid 1 s"
    )
    await tv.press(tv.gm, table, "Start")

    # The deal: each hand goes only to its owner, as creatures, with the choices it is entitled to.
    assert hand_of(tv.hand_dm(alice)) == ["🐎 Pegasus (new)", "🐎 Pegasus (new)", "🐉 Dragon (new)"]
    assert hand_of(tv.hand_dm(bob)) == ["🦅 Griffin (new)", "🐎 Pegasus (new)", "🐎 Pegasus (new)"]
    assert [s["placeholder"] for s in tv.hand_dm(alice).selects] == [ONE]
    assert [s["placeholder"] for s in tv.hand_dm(bob).selects] == [ONE, TWO, CHEAT]
    assert status(table) == "Cards dealt. Choosing in secret: **Alice**, **Bob**."

    # Luck: Dragon -> Griffin. Both: Griffin -> Basilisk and Pegasus -> Unicorn.
    done = await tv.pick(alice.user, tv.hand_dm(alice), ["2+1"], ONE)
    assert done.content == "Done: one card moved." and done.components == []
    assert hand_of(done) == ["🐎 Pegasus", "🐎 Pegasus", "🦅 Griffin"]
    done = await tv.pick(bob.user, tv.hand_dm(bob), ["0+1,1-1"], TWO)
    assert hand_of(done) == ["🦎 Basilisk", "🦄 Unicorn", "🐎 Pegasus"]
    assert status(table) == "Round 1 of 2: **Alice**'s turn."
    assert table.button_labels == [
        "Pay & exchange…",
        "Fold",
        "Show my hand",
        "Watch",
        "Cancel game",
    ]

    # Only the player on turn may act; the raise menu lists only what the limit (1 p) allows.
    refused = await tv.press(bob.user, table, "Fold")
    assert refused.content == "It isn't your turn." and refused.ephemeral
    dialog = await fake.click(alice.user, table, "Pay & exchange…")
    modal = await dialog.wait_modal()
    raising = modal["components"][1]
    assert raising["description"] == "Stake now 1 s; a raise of at most 1 p"
    assert [o["label"] for o in raising["component"]["options"]] == ["+1 p (stake 1 s 1 p)"]
    with pytest.raises(ValueError):  # a raise over the limit cannot even be picked
        await fake.submit_modal(alice.user, dialog, {"cards": "3", "raise": "2p"})
    preview = await (
        await fake.submit_modal(alice.user, dialog, {"cards": "3", "raise": "1p"})
    ).reply()
    assert preview.components_v2 and preview.texts() == [
        "Exchange 1 card (3. 🦅 Griffin) at a stake of 1 s 1 p: you pay **2 s 2 p**.\n"
        "This raises the stake to 1 s 1 p for everyone after you.",
        "**Your cards**\n1. 🐎 Pegasus: kept\n2. 🐎 Pegasus: kept\n3. 🦅 Griffin: exchanged",
    ]
    paid = await tv.press(alice.user, preview, "Pay 2 s 2 p")
    assert paid.texts() == ["Paid 2 s 2 p."] and paid.buttons == []
    assert hand_of(tv.hand_dm(alice)) == ["🐎 Pegasus", "🐎 Pegasus", "🐎 Pegasus (new)"]
    await tv.press(alice.user, tv.hand_dm(alice), "Keep the cards")

    # Bob exchanges his third card and cheats on the new one; Alice (Perception 0) misses it.
    dialog = await fake.click(bob.user, table, "Pay & exchange…")
    preview = await (await fake.submit_modal(bob.user, dialog, {"cards": "3"})).reply()
    await tv.press(bob.user, preview, "Pay 2 s 2 p")
    cheated = await tv.pick(bob.user, tv.hand_dm(bob), ["2-2"], CHEAT)
    assert hand_of(cheated) == ["🦎 Basilisk", "🦄 Unicorn", "🦎 Basilisk"]
    assert [m.content for m in fake.dms(tv.gm)] == [
        "Table 1: **Bob** cheated. Detection tests (d100, success at or under the target):\n"
        "• **Alice**: 93 against 0: missed."
    ]

    # Round 2: a check (3 x 1 s 1 p) shows both hands in the channel, with the ranking explained.
    assert status(table) == "Round 2 of 2: **Alice**'s turn (checks allowed)."
    ask = await tv.press(alice.user, table, "Check…")
    assert ask.components_v2 and ask.texts()[0].startswith("A check costs 3 s 3 p.")
    checked = await tv.pick(alice.user, ask, [str(bob.id)], "Whom do you check?")
    assert checked.texts() == ["You checked Bob: see the channel."] and checked.selects == []
    assert tv.said() == [
        "**Alice** sits down and pays the ante of 1 s.",
        "**Bob** sits down and pays the ante of 1 s.",
        "🎲 The game begins: 2 players, a pot of 2 s. The cards are dealt in secret.\n"
        f"Choose in secret (your cards are in your DMs): {at(alice)}, {at(bob)}",
        f"Round 1: **Alice**'s turn. {at(alice)}",
        "**Alice** pays 2 s 2 p and exchanges 1 card (stake 1 s 1 p).",
        f"Round 1: **Bob**'s turn. {at(bob)}",
        "**Bob** pays 2 s 2 p and exchanges 1 card (stake 1 s 1 p).",
        f"Round 2: **Alice**'s turn. {at(alice)}",
        "🔍 **Alice** checks **Bob** and pays 3 s 3 p.\n"
        "**Alice**: 🐎 Pegasus, 🐎 Pegasus, 🐎 Pegasus (three of a kind: Pegasus)\n"
        "**Bob**: 🦎 Basilisk, 🦄 Unicorn, 🦎 Basilisk (pair: Basilisk + Unicorn)\n"
        "three of a kind: Pegasus beats pair: Basilisk + Unicorn (a better kind of hand). "
        "**Bob** is out.\n"
        "🏆 **Alice** wins the pot of 9 s 7 p!\n"
        f"🙏 {at(alice)} **Alice** may give a tenth of the winnings (11 p) to Ranald: "
        "decide with the buttons on the table.",
    ]
    assert table.button_labels == ["Give a tenth to Ranald", "Keep it all", "Show my hand", "Watch"]
    refused = await tv.press(bob.user, table, "Keep it all")
    assert refused.content == "Only a winner decides on the offering to Ranald."
    gave = await tv.press(alice.user, table, "Give a tenth to Ranald")
    assert gave.content == "You gave 11 p to Ranald. May luck stay with you!"
    assert tv.said()[-1] == "🙏 **Alice** gives 11 p to Ranald."

    # The table message is the final summary; purses to the penny (pot 115 p, offering 11 p).
    assert table.embeds[0]["description"] == "🏆 **Alice** won 9 s 7 p.\nThe game is over."
    assert table.button_labels == ["History"]
    assert await tv.purse(alice) == GC - S - 26 - 39 + 115 - 11
    assert await tv.purse(bob) == GC - S - 26
    await tv.books_balance(table_id=1, pot=0)


async def test_three_players_gamble_a_caught_cheat_and_a_forced_fold(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann = await tv.player("Ann", gamble=True, perception=50)
    ben = await tv.player("Ben", luck=True, perception=100)
    cid = await tv.player("Cid", 1 * S + 6, perception=0)
    stranger = fake.add_player("Stranger")
    table = await tv.open()
    for who in (ann, ben, cid):
        await tv.press(who.user, table, "Join")
    await tv.press(tv.gm, table, "Start")
    assert fake.dms(cid.user)[0].components == []  # no trait, no choice: Cid just waits

    # "Show my hand" shows the presser's own cards only, in a new ephemeral message each time.
    shown = await tv.press(ben.user, table, "Show my hand")
    assert shown.ephemeral and hand_of(shown) == [
        "🐍 Snake (new)",
        "🦄 Unicorn (new)",
        "🐍 Snake (new)",
    ]
    again = await tv.press(ben.user, table, "Show my hand")
    assert again is not shown and hand_of(again) == hand_of(shown)
    refused = await tv.press(stranger, table, "Show my hand")
    assert refused.content == "You don't sit at this table."

    # Gamble without a cheat: Basilisk -> Unicorn. Ben keeps his cards from the ephemeral message.
    done = await tv.pick(ann.user, tv.hand_dm(ann), ["0+1"], ONE)
    assert hand_of(done) == ["🦄 Unicorn", "🐍 Snake", "🐍 Snake"]
    await tv.press(ben.user, again, "Keep the cards")
    # The choice was made elsewhere: the hand DM no longer offers it.
    await fake.wait_for(lambda: tv.hand_dm(ben).components == [])

    # Ann exchanges a Snake, then cheats on the new Basilisk: Ben (100) catches her, Cid misses.
    dialog = await fake.click(ann.user, table, "Pay & exchange…")
    preview = await (await fake.submit_modal(ann.user, dialog, {"cards": "2"})).reply()
    await tv.press(ann.user, preview, "Pay 2 s")
    assert hand_of(tv.hand_dm(ann)) == ["🦄 Unicorn", "🦎 Basilisk (new)", "🐍 Snake"]
    await tv.pick(ann.user, tv.hand_dm(ann), ["1+2"], CHEAT)
    assert [m.content for m in fake.dms(tv.gm)] == [
        "Table 1: **Ann** cheated. Detection tests (d100, success at or under the target):\n"
        "• **Ben**: 100 against 100: caught!\n"
        "• **Cid**: 57 against 0: missed."
    ]

    # Ben stays in for the stake; Cid cannot pay it when his turn comes, so Ben takes the pot.
    dialog = await fake.click(ben.user, table, "Pay & exchange…")
    preview = await (await fake.submit_modal(ben.user, dialog, {})).reply()
    assert preview.texts()[0] == "Keep your cards at a stake of 1 s: you pay **1 s**."
    await tv.press(ben.user, preview, "Pay 1 s")
    kept = await tv.press(ben.user, table, "Keep it all")
    assert kept.content == "You keep every coin."
    assert tv.said()[4:] == [
        f"Round 1: **Ann**'s turn. {at(ann)}",
        "**Ann** pays 2 s and exchanges 1 card (stake 1 s).",
        "🚨 **Ben** caught **Ann** cheating!\n"
        "**Ann** is expelled: the cards are dead and the stakes stay in the pot.\n"
        f"Round 1: **Ben**'s turn. {at(ben)}",
        "**Ben** pays 1 s and keeps the cards (stake 1 s).\n"
        "**Cid** can't pay the stake of 1 s and is out.\n"
        "🏆 **Ben** wins the pot of 6 s!\n"
        f"🙏 {at(ben)} **Ben** may give a tenth of the winnings (7 p) to Ranald: "
        "decide with the buttons on the table.",
        "**Ben** keeps every coin.",
    ]
    assert field(table, "Players") == (
        f"1. **Ann** ({at(ann)}) · paid 3 s · expelled\n"
        f"2. **Ben** ({at(ben)}) · paid 2 s · won 6 s\n"
        f"3. **Cid** ({at(cid)}) · paid 1 s · out of coin"
    )
    assert await tv.purse(ann) == GC - 3 * S
    assert await tv.purse(ben) == GC - 2 * S + 6 * S
    assert await tv.purse(cid) == 6
    await tv.books_balance(table_id=1, pot=0)
