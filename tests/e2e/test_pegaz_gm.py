"""The GM's part: an NPC at the table (its hand by DM to the GM, its turns played by the GM), the
detection rolls by DM, and a ruling on a caught cheater."""

from __future__ import annotations

from tests.e2e.pegaz_kit import GC, S, Tavern, at, field, hand_of, status
from tests.fakediscord import BotHarness, FakeDiscord

CHEAT = "Cheat: move one card by 2 (others may notice)…"


async def test_an_npc_catches_a_cheat_and_the_gm_pardons_then_plays_the_npc(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann = await tv.player("Ann", gamble=True)
    grim = await tv.player("Grimbold", npc=True, luck=True, perception=100)
    table = await tv.open(cheat_ruling="gm")
    await tv.press(ann.user, table, "Join")

    seat = await fake.slash(ann.user, "pegaz seat", npc="Grimbold")
    assert (await seat.reply()).content == "Only a GM can do that."
    seat = await fake.slash(tv.gm, "pegaz seat", npc="Ann")
    assert (await seat.reply()).content == (
        "Ann is not an NPC: players sit down themselves with the Join button."
    )
    seat = await fake.slash(tv.gm, "pegaz seat", npc="Grimbold")
    assert (await seat.reply()).content == "Grimbold sits at table 1; the ante of 1 s is paid."
    assert field(table, "Players").splitlines()[1] == "2. **Grimbold** (NPC) · paid 1 s"
    await tv.press(tv.gm, table, "Start")

    # The NPC's hand goes to the GM, under its name; Ann's to Ann.
    npc_hand = fake.dms(tv.gm)[-1]
    assert npc_hand.embeds[0]["title"] == "Grimbold's cards at table 1"
    assert hand_of(npc_hand) == ["🐍 Snake (new)", "🦄 Unicorn (new)", "🐍 Snake (new)"]
    assert hand_of(tv.hand_dm(ann)) == ["🦎 Basilisk (new)", "🐍 Snake (new)", "🐍 Snake (new)"]

    # Ann cheats (Snake -> Griffin); Grimbold notices. The GM gets the roll and rules.
    await tv.pick(ann.user, tv.hand_dm(ann), ["1+2"], CHEAT)
    assert fake.dms(tv.gm)[-1].content == (
        "Table 1: **Ann** cheated. Detection tests (d100, success at or under the target):\n"
        "• **Grimbold**: 100 against 100: caught!\n"
        "Table 1: **Ann** was caught moving card 2 by +2. "
        "Expel or pardon with the buttons on the table."
    )
    assert tv.said()[-1] == (
        "🚨 **Grimbold** caught **Ann** cheating!\nThe GM rules on **Ann**: expel or pardon."
    )
    assert status(table) == "Waiting for the GM's ruling on **Ann**."
    assert table.button_labels == [
        "Expel Ann",
        "Pardon Ann",
        "Show my hand",
        "Watch",
        "Cancel game",
    ]
    refused = await tv.press(ann.user, table, "Pardon Ann")
    assert refused.content == "Only whoever opened the table, or a GM, can do that."

    # Secret choices go on while the ruling waits: the GM keeps Grimbold's cards from the DM.
    await tv.press(tv.gm, npc_hand, "Keep the cards")
    assert (await tv.press(tv.gm, table, "Pardon Ann")).content == "The cheater is pardoned."
    assert tv.said()[-1] == (
        "The GM pardons **Ann**: the cheat is undone and the game goes on.\n"
        f"Round 1: **Ann**'s turn. {at(ann)}"
    )
    shown = await tv.press(ann.user, table, "Show my hand")
    assert hand_of(shown) == ["🦎 Basilisk", "🐍 Snake", "🐍 Snake"]

    # Ann stays in; on Grimbold's turn only the GM may act for him: the GM folds him.
    dialog = await fake.click(ann.user, table, "Pay & exchange…")
    preview = await (await fake.submit_modal(ann.user, dialog, {})).reply()
    await tv.press(ann.user, preview, "Pay 1 s")
    assert tv.said()[-1].endswith(f"Round 1: **Grimbold**'s turn. {at(tv.gm)}")
    assert (await tv.press(ann.user, table, "Fold")).content == "It isn't your turn."
    assert (await tv.press(tv.gm, table, "Fold")).content == "You folded."
    await tv.press(ann.user, table, "Give a tenth to Ranald")
    assert tv.said()[-2:] == [
        "**Grimbold** folds.\n"
        "🏆 **Ann** wins the pot of 3 s!\n"
        f"🙏 {at(ann)} **Ann** may give a tenth of the winnings (3 p) to Ranald: "
        "decide with the buttons on the table.",
        "🙏 **Ann** gives 3 p to Ranald.",
    ]
    assert await tv.purse(ann) == GC - S - S + 3 * S - 3
    assert await tv.purse(grim) == GC - S


async def test_an_expelled_cheater_under_the_gm_ruling_and_the_npc_wins(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann = await tv.player("Ann", gamble=True)
    grim = await tv.player("Grimbold", npc=True, perception=100)
    table = await tv.open(cheat_ruling="gm")
    await tv.press(ann.user, table, "Join")
    await (await fake.slash(tv.gm, "pegaz seat", npc="Grimbold")).reply()
    await tv.press(tv.gm, table, "Start")
    await tv.pick(ann.user, tv.hand_dm(ann), ["0-2"], CHEAT)
    assert (await tv.press(tv.gm, table, "Expel Ann")).content == "The cheater is expelled."
    assert tv.said()[-1] == (
        "**Ann** is expelled: the cards are dead and the stakes stay in the pot.\n"
        "🏆 **Grimbold** wins the pot of 2 s!\n"
        f"🙏 {at(tv.gm)} **Grimbold** may give a tenth of the winnings (2 p) to Ranald: "
        "decide with the buttons on the table."
    )
    assert (await tv.press(tv.gm, table, "Keep it all")).content == "You keep every coin."
    assert await tv.purse(ann) == GC - S
    assert await tv.purse(grim) == GC + S
