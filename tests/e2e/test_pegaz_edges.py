"""Rules edge cases seen through Discord (issue 11): a GM who expels everyone still in (no cheater
takes a coin, the pot waits for the next game), and an exchange with no other cards to draw."""

from __future__ import annotations

import pytest

from tests.e2e.pegaz_kit import GC, S, Tavern, field, status
from tests.fakediscord import BotHarness, FakeDiscord

CHEAT = "Cheat: move one card by 2 (others may notice)…"


async def test_expelling_every_cheater_rolls_the_pot_over(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann = await tv.player("Ann", gamble=True, perception=100)
    ben = await tv.player("Ben", gamble=True, perception=100)
    table = await tv.open(cheat_ruling="gm", tie="split")
    await tv.press(ann.user, table, "Join")
    await tv.press(ben.user, table, "Join")
    await tv.press(tv.gm, table, "Start")
    # Perception 100 each: both cheats are caught, and both wait for the GM's ruling.
    await tv.pick(ann.user, tv.hand_dm(ann), ["1+2"], CHEAT)
    await tv.pick(ben.user, tv.hand_dm(ben), ["1+2"], CHEAT)
    await tv.press(tv.gm, table, "Expel Ann")
    await tv.press(tv.gm, table, "Expel Ben")

    assert tv.said()[-1] == (
        "**Ben** is expelled: the cards are dead and the stakes stay in the pot.\n"
        "🚫 Everyone still in was expelled (**Ann** and **Ben**). No cheater takes a coin: "
        "the pot of 2 s rolls over to the next game at this table."
    )
    assert status(table) == "Everyone was expelled: 2 s waits in the pot for the next game."
    assert await tv.purse(ann) == await tv.purse(ben) == GC - S  # nobody shares the pot
    await tv.books_balance(table_id=1, pot=2 * S)

    assert table.button_labels == ["Next game (carry the pot)", "History"]
    opened = await tv.press(tv.gm, table, "Next game (carry the pot)")
    assert opened.content == "Table 2 is open in this channel."
    assert field(tv.table_message(2), "Pot") == "2 s"
    await tv.books_balance(table_id=2, pot=2 * S)


async def test_eight_players_on_a_deck_cannot_buy_their_own_cards_back(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    """Issue 11, item 22: all 24 cards are dealt, so there is nothing else to draw."""
    tv = Tavern(fake, harness)
    names = ("Ann", "Ben", "Cid", "Dot", "Eve", "Fay", "Gus", "Hal")
    players = [await tv.player(name) for name in names]
    table = await tv.open(source="deck")
    for who in players:
        await tv.press(who.user, table, "Join")
    await tv.press(tv.gm, table, "Start")
    ann = players[0]
    before = await tv.purse(ann)
    dialog = await fake.click(ann.user, table, "Pay & exchange…")
    modal = await dialog.wait_modal()  # no menu of cards: it says why, and asks for the raise
    assert [c["type"] for c in modal["components"]] == [10, 18]
    assert modal["components"][0]["content"] == (
        "Nothing is left to draw, so this exchange is of no cards: you pay the stake and keep "
        "your hand."
    )
    with pytest.raises(LookupError):  # nobody can pick a card there
        await fake.submit_modal(ann.user, dialog, {"cards": ["1", "2"]})
    assert await tv.purse(ann) == before  # nothing paid
    # paying the stake and keeping the hand works
    preview = await (await fake.submit_modal(ann.user, dialog, {})).reply()
    await tv.press(ann.user, preview, "Pay 1 s")
    assert await tv.purse(ann) == before - S
