"""Ties (split and rollover, the pot carried into the next game), the wild preset and the deck.

With dice, every step draws from a fresh seeded ``random.Random``, so two players who exchange
all three cards get the same three cards: their check is a tie.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.pegaz_kit import GC, Player, S, Tavern, at, field, status
from tests.fakediscord import BotHarness, FakeDiscord, FakeMessage


async def _exchange(
    tv: Tavern, player: Player, table: FakeMessage, values: dict[str, Any], pay: str
) -> None:
    dialog = await tv.fake.click(player.user, table, "Pay & exchange…")
    preview = await (await tv.fake.submit_modal(player.user, dialog, values)).reply()
    await tv.press(player.user, preview, pay)


async def test_a_tie_splits_the_pot_odd_penny_to_the_earlier_seat_under_a_max_stake(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann, ben = await tv.player("Ann"), await tv.player("Ben")
    table = await tv.open(max_stake="1 s 1 p", raise_limit="2 p")
    await tv.press(ann.user, table, "Join")
    await tv.press(ben.user, table, "Join")
    await tv.press(tv.gm, table, "Start")

    dialog = await fake.click(ann.user, table, "Pay & exchange…")
    modal = await dialog.wait_modal()  # the raise limit is 2 p, but the maximum stake is nearer
    raising = modal["components"][1]["component"]
    assert [o["label"] for o in raising["options"]] == ["+1 p (stake 1 s 1 p)"]
    preview = await (
        await fake.submit_modal(ann.user, dialog, {"cards": ["1", "2", "3"], "raise": "1p"})
    ).reply()
    assert preview.texts()[0].startswith(
        "Exchange all 3 cards (1. 🦎 Basilisk, 2. 🐍 Snake, 3. 🐍 Snake) at a stake of 1 s 1 p: "
        "you pay **4 s 4 p**."
    )
    await tv.press(ann.user, preview, "Pay 4 s 4 p")
    await _exchange(tv, ben, table, {"cards": ["1", "2", "3"]}, "Pay 4 s 4 p")
    ask = await tv.press(ann.user, table, "Check…")
    await tv.pick(ann.user, ask, [str(ben.id)], "Whom do you check?")

    assert tv.said()[-1] == (
        "🔍 **Ann** checks **Ben** and pays 3 s 3 p.\n"
        "**Ann**: 🦎 Basilisk, 🐍 Snake, 🐍 Snake (pair: Snake + Basilisk)\n"
        "**Ben**: 🦎 Basilisk, 🐍 Snake, 🐍 Snake (pair: Snake + Basilisk)\n"
        "pair: Snake + Basilisk ties with pair: Snake + Basilisk: both are out.\n"
        "🤝 **Ann** and **Ben** tie and split the pot: **Ann** 7 s, **Ben** 6 s 11 p.\n"
        f"🙏 {at(ann)} **Ann** may give a tenth of the winnings (8 p) to Ranald: "
        "decide with the buttons on the table.\n"
        f"🙏 {at(ben)} **Ben** may give a tenth of the winnings (8 p) to Ranald: "
        "decide with the buttons on the table."
    )
    await tv.press(ann.user, table, "Give a tenth to Ranald")
    await tv.press(ben.user, table, "Keep it all")
    assert tv.said()[-2:] == ["🙏 **Ann** gives 8 p to Ranald.", "**Ben** keeps every coin."]
    assert table.embeds[0]["description"] == (
        "🏆 **Ann** won 7 s.\n🏆 **Ben** won 6 s 11 p.\nThe game is over."
    )
    # The pot: 2 antes, 2 exchanges of 4 s 4 p, one check of 3 s 3 p = 167 p, split 84 / 83.
    assert await tv.purse(ann) == GC - S - 52 - 39 + 84 - 8
    assert await tv.purse(ben) == GC - S - 52 + 83
    await tv.books_balance(table_id=1, pot=0)


async def test_a_tie_rolls_the_pot_over_into_the_next_game_in_polish(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    await tv.services.guilds.set_language(fake.guild.id, "pl")
    ann, ben = await tv.player("Ann", luck=True), await tv.player("Ben")
    table = await tv.open(tie="rollover")
    assert table.button_labels == [
        "Dosiądź się",
        "Wstań od stołu",
        "Zaczynamy",
        "Pokaż moje karty",
        "Oglądaj",
        "Odwołaj grę",
    ]
    await tv.press(ann.user, table, "Dosiądź się")
    await tv.press(ben.user, table, "Dosiądź się")
    await tv.press(tv.gm, table, "Zaczynamy")
    assert tv.hand_dm(ann).embeds[0]["title"] == "Twoje karty przy stole 1"
    kept = await tv.press(ann.user, tv.hand_dm(ann), "Zostawiam karty")
    assert kept.content == "Zostawiasz te karty."
    assert status(table) == "Runda 1 z 2: kolej na **Ann**."
    for player in (ann, ben):
        dialog = await fake.click(player.user, table, "Zapłać i wymień…")
        preview = await (
            await fake.submit_modal(player.user, dialog, {"cards": ["1", "2", "3"]})
        ).reply()
        await tv.press(player.user, preview, "Płacę 4 s")
        if player is ann:  # a double click in a DM: the refusal speaks the table's language
            hand = tv.hand_dm(ann)
            twice = [await fake.click(ann.user, hand, "Zostawiam karty") for _ in range(2)]
            refusals = await fake.wait_for(lambda: [f for c in twice for f in c.followups])  # noqa: B023
            assert [m.content for m in refusals] == [
                "Ten przycisk jest nieaktualny: gra poszła dalej. Nic nie zmieniono."
            ]
            await fake.wait_for(lambda: hand.content == "Zostawiasz te karty.")  # noqa: B023
    ask = await tv.press(ann.user, table, "Sprawdź…")
    await tv.pick(ann.user, ask, [str(ben.id)], "Kogo sprawdzasz?")

    assert tv.said()[2:] == [
        "🎲 Gra się zaczyna: graczy 2, pula 2 s. Karty rozdane w tajemnicy.\n"
        f"Wybierzcie w tajemnicy (karty są w prywatnych wiadomościach): {at(ann)}",
        f"Runda 1: kolej na **Ann**. {at(ann)}",
        "**Ann** płaci 4 s i wymienia wszystkie 3 karty (stawka 1 s).",
        f"Runda 1: kolej na **Ben**. {at(ben)}",
        "**Ben** płaci 4 s i wymienia wszystkie 3 karty (stawka 1 s).\n"
        f"Runda 2: kolej na **Ann**. {at(ann)}",
        "🔍 **Ann** sprawdza postać **Ben** i płaci 3 s.\n"
        "**Ann**: 🦎 Bazyliszek, 🐍 Wąż, 🐍 Wąż (para: Wąż + Bazyliszek)\n"
        "**Ben**: 🦎 Bazyliszek, 🐍 Wąż, 🐍 Wąż (para: Wąż + Bazyliszek)\n"
        "para: Wąż + Bazyliszek i para: Wąż + Bazyliszek to remis: odpadają oba układy.\n"
        "🤝 Remis: **Ann** i **Ben**. Pula 13 s przechodzi na następną grę przy tym stole.",
    ]
    assert table.embeds[0]["description"] == (
        "Remis: 13 s czeka w puli na następną grę.\nGra skończona."
    )
    await tv.books_balance(table_id=1, pot=13 * S)

    # The next game at this table starts with the carried pot; only a GM or the opener starts it.
    refused = await tv.press(ann.user, table, "Następna gra (z pulą)")
    assert refused.content == "Tylko osoba, która otworzyła stół, albo MG może to zrobić."
    opened = await tv.press(tv.gm, table, "Następna gra (z pulą)")
    assert opened.content == "Stół 2 jest otwarty na tym kanale."
    again = tv.table_message(2)
    assert field(again, "Pula") == "13 s"
    assert "Przeniesione z poprzedniej gry: 13 s" in field(again, "Ustawienia")
    late = await tv.press(tv.gm, table, "Następna gra (z pulą)")
    assert late.content == "Następna gra przy tym stole jest już otwarta."
    await tv.press(ann.user, again, "Dosiądź się")
    await tv.press(ben.user, again, "Dosiądź się")
    await tv.press(tv.gm, again, "Zaczynamy")
    await tv.press(ann.user, tv.hand_dm(ann), "Zostawiam karty")
    folded = await tv.press(ann.user, again, "Pasuję")
    assert folded.content == "Pasujesz."
    await tv.press(ben.user, again, "Dziesięcina dla Ranalda")
    assert tv.said()[-2:] == [
        "**Ann** pasuje.\n"
        "🏆 **Ben** zgarnia pulę: 15 s!\n"
        f"🙏 {at(ben)} **Ben** może oddać dziesiątą część wygranej (1 s 6 p) Ranaldowi: "
        "zdecyduj przyciskami przy stole.",
        "🙏 **Ben** oddaje 1 s 6 p Ranaldowi.",
    ]
    assert await tv.purse(ann) == GC - S - 48 - 36 - S
    assert await tv.purse(ben) == GC - S - 48 - S + 15 * S - 18
    await tv.books_balance(table_id=1, pot=0)
    await tv.books_balance(table_id=2, pot=0)


@pytest.mark.seed(5)
async def test_six_players_wild_pegasus_from_a_deck(fake: FakeDiscord, harness: BotHarness) -> None:
    tv = Tavern(fake, harness)
    ada, bo, cy, di, ed, flo = [
        await tv.player(name) for name in ("Ada", "Bo", "Cy", "Di", "Ed", "Flo")
    ]
    table = await tv.open(wild=True, source="deck")
    assert field(table, "Settings").splitlines()[:5] == [
        "Stake: 1 s",
        "Exchange rounds: unlimited",
        "Raise limit: none",
        "Maximum stake: none",
        "Cards: d6, deck",
    ]
    for player in (ada, bo, cy, di, ed, flo):
        await tv.press(player.user, table, "Join")
    await tv.press(tv.gm, table, "Start")
    assert field(table, "Cards in the deck") == "6"

    # No raise limit: Ada raises a whole shilling while exchanging two cards.
    await _exchange(tv, ada, table, {"cards": ["1", "2"], "raise": "1 s"}, "Pay 6 s")
    await tv.press(bo.user, table, "Fold")
    await _exchange(tv, cy, table, {}, "Pay 2 s")
    await tv.press(di.user, table, "Fold")
    await tv.press(ed.user, table, "Fold")
    await _exchange(tv, flo, table, {"cards": ["1", "2", "3"]}, "Pay 8 s")
    assert field(table, "Cards in the deck") == "1"
    assert status(table) == "Round 2: **Ada**'s turn (checks allowed)."

    # Two checks, each explained: by the top card, then by the lowest.
    ask = await tv.press(ada.user, table, "Check…")
    await tv.pick(ada.user, ask, [str(cy.id)], "Whom do you check?")
    ask = await tv.press(flo.user, table, "Check…")
    await tv.pick(flo.user, ask, [str(ada.id)], "Whom do you check?")
    assert tv.said()[-2:] == [
        "🔍 **Ada** checks **Cy** and pays 6 s.\n"
        "**Ada**: 🐎 Pegasus, 🦅 Griffin, 🦎 Basilisk (Pegasus-Basilisk-Griffin)\n"
        "**Cy**: 🦄 Unicorn, 🦅 Griffin, 🐍 Snake (Unicorn-Griffin-Snake)\n"
        "Pegasus-Basilisk-Griffin beats Unicorn-Griffin-Snake (the higher top card). "
        "**Cy** is out.\n"
        f"Round 2: **Flo**'s turn. {at(flo)}",
        "🔍 **Flo** checks **Ada** and pays 6 s.\n"
        "**Flo**: 🦎 Basilisk, 🐎 Pegasus, 🐉 Dragon (Pegasus-Basilisk-Dragon)\n"
        "**Ada**: 🐎 Pegasus, 🦅 Griffin, 🦎 Basilisk (Pegasus-Basilisk-Griffin)\n"
        "Pegasus-Basilisk-Griffin beats Pegasus-Basilisk-Dragon (the higher lowest card). "
        "**Flo** is out.\n"
        "🏆 **Ada** wins the pot of 1 GC 14 s!\n"
        f"🙏 {at(ada)} **Ada** may give a tenth of the winnings (3 s 4 p) to Ranald: "
        "decide with the buttons on the table.",
    ]
    await tv.press(ada.user, table, "Keep it all")
    purses = [await tv.purse(p) for p in (ada, bo, cy, di, ed, flo)]
    assert purses == [
        GC - S - 72 - 72 + 408,
        GC - S,
        GC - S - 24,
        GC - S,
        GC - S,
        GC - S - 96 - 72,
    ]
    await tv.books_balance(table_id=1, pot=0)


async def test_a_carried_pot_outlives_a_cancelled_game(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann, ben = await tv.player("Ann"), await tv.player("Ben")
    table = await tv.open(tie="rollover")
    await tv.press(ann.user, table, "Join")
    await tv.press(ben.user, table, "Join")
    await tv.press(tv.gm, table, "Start")
    for player in (ann, ben):  # the same seeded cards as above: both hands tie
        dialog = await fake.click(player.user, table, "Pay & exchange…")
        preview = await (
            await fake.submit_modal(player.user, dialog, {"cards": ["1", "2", "3"]})
        ).reply()
        await tv.press(player.user, preview, "Pay 4 s")
    ask = await tv.press(ann.user, table, "Check…")
    await tv.pick(ann.user, ask, [str(ben.id)], "Whom do you check?")
    await tv.books_balance(table_id=1, pot=13 * S)

    # The next game is called off before it starts: the antes go back, the carried pot stays
    # and is offered to the game after it.
    await tv.press(tv.gm, table, "Next game (carry the pot)")
    second = tv.table_message(2)
    await tv.press(ann.user, second, "Join")
    await tv.press(tv.gm, second, "Cancel game")
    await tv.books_balance(table_id=2, pot=13 * S)
    opened = await tv.press(tv.gm, second, "Next game (carry the pot)")
    assert opened.content == "Table 3 is open in this channel."
    await tv.books_balance(table_id=2, pot=0)
    await tv.books_balance(table_id=3, pot=13 * S)
    assert await tv.purse(ann) == GC - 8 * S
