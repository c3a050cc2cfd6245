"""A complete seeded match in which every side card type is played: +, −, ±, D, T, Flip 2&4,
Flip 3&6 and ±1/2 (the moves use every card rather than play to win)."""

# ruff: noqa: RUF001, RUF002 (the bot writes real minus signs and en dashes)

from __future__ import annotations

import pytest

from tests.e2e.pazaak_support import Move, hand_version, moves_log, seat_two, seats
from tests.fakediscord import BotHarness, FakeDiscord

CARDS_A = ["+2", "+2", "+2", "-3", "-3", "-3", "±4", "±4", "D", "D"]
CARDS_B = ["T", "T", "T", "F24", "F24", "F24", "F36", "F36", "±1/2", "±1/2"]
FOOTER = "Table 1 · 5 min per turn; 3 timeouts in a row forfeit"
HINT = (
    "On your turn, play a card here. End turn and Stand are on the board in the channel, "
    "which shows both tables and totals."
)

MATCH: list[tuple[Move, list[str]]] = [
    (("A", "card", 3, 4), ["Ahsoka plays ±4 as +4."]),
    (("A", "end"), ["Ahsoka ends the turn.", "Bastila draws 2."]),
    (("B", "card", 0, 2), ["Bastila plays ±1/2 as +2."]),
    (("B", "end"), ["Bastila ends the turn.", "Ahsoka draws 3."]),
    (("A", "card", 2), ["Ahsoka plays +2."]),
    (("A", "stand"), ["Ahsoka stands.", "Bastila draws 3."]),
    (("B", "end"), ["Bastila ends the turn.", "Bastila draws 8."]),
    (("B", "card", 1, -1), ["Bastila plays T as −1."]),
    (("B", "end"), ["Bastila ends the turn.", "Bastila draws 6."]),
    (("B", "card", 0), ["Bastila plays Flip 3&6."]),
    (("B", "end"), ["Bastila ends the turn.", "Bastila draws 2."]),
    (("B", "card", 0), ["Bastila plays Flip 2&4."]),
    (
        ("B", "end"),
        [
            "Bastila ends the turn.",
            "Set 1 goes to Bastila.",
            "Set 2 begins; Bastila starts.",
            "Bastila draws 1.",
        ],
    ),
    (("B", "end"), ["Bastila ends the turn.", "Ahsoka draws 8."]),
    (("A", "card", 1), ["Ahsoka plays D as +8."]),
    (("A", "end"), ["Ahsoka ends the turn.", "Bastila draws 3."]),
    (("B", "end"), ["Bastila ends the turn.", "Ahsoka draws 4."]),
    (("A", "card", 0), ["Ahsoka plays −3."]),
    (("A", "end"), ["Ahsoka ends the turn.", "Bastila draws 5."]),
    (("B", "end"), ["Bastila ends the turn.", "Ahsoka draws 5."]),
    (
        ("A", "stand"),
        [
            "Ahsoka stands.",
            "Set 2 goes to Bastila.",
            "Set 3 begins; Ahsoka starts.",
            "Ahsoka draws 1.",
        ],
    ),
    (("A", "end"), ["Ahsoka ends the turn.", "Bastila draws 8."]),
    (("B", "end"), ["Bastila ends the turn.", "Ahsoka draws 3."]),
    (("A", "end"), ["Ahsoka ends the turn.", "Bastila draws 4."]),
    (("B", "end"), ["Bastila ends the turn.", "Ahsoka draws 5."]),
    (("A", "end"), ["Ahsoka ends the turn.", "Bastila draws 5."]),
    (("B", "stand"), ["Bastila stands.", "Ahsoka draws 6."]),
    (("A", "stand"), []),
]

# What the seats show right after some moves (by index in MATCH): flips change signs.
SEATS_AFTER = {
    9: {
        "Ahsoka · sets 0/3": "6 · [±4 +4] · 3 · [+2]\nTotal: **15** · stands\nCards in hand: 2",
        "Bastila · sets 0/3": (
            "2 · [±1/2 +2] · −3 · 8 · [T −1] · −6 · [Flip 3&6]\n"
            "Total: **2** · to play\nCards in hand: 1"
        ),
    },
    11: {
        "Ahsoka · sets 0/3": "6 · [±4 +4] · 3 · [+2]\nTotal: **15** · stands\nCards in hand: 2",
        "Bastila · sets 0/3": (
            "−2 · [±1/2 −2] · −3 · 8 · [T −1] · −6 · [Flip 3&6] · −2 · [Flip 2&4]\n"
            "Total: **−8** · to play\nCards in hand: 0"
        ),
    },
    14: {
        "Ahsoka · sets 0/3": "8 · [D +8]\nTotal: **16** · to play\nCards in hand: 1",
        "Bastila · sets 1/3": "1\nTotal: **1**\nCards in hand: 0",
    },
}


@pytest.mark.seed(3)
async def test_a_match_with_every_side_card(fake: FakeDiscord, harness: BotHarness) -> None:
    table = await seat_two(fake, harness, cards_a=CARDS_A, cards_b=CARDS_B)
    alice, bob = table.users["A"], table.users["B"]

    board = await table.open(wager="250 cr")

    assert board.text == (
        f"{alice.mention} **Ahsoka** to play.\n"
        "Pazaak: Ahsoka vs Bastila\n"
        "Set 1 · pot 500 cr\n\n"
        "• Ahsoka draws 6.\n"
        "Ahsoka · sets 0/3: 6\nTotal: **6** · to play\nCards in hand: 4\n"
        "Bastila · sets 0/3: —\nTotal: **0**\nCards in hand: 4\n"
        f"{FOOTER}"
    )
    assert board.button_labels == ["End turn", "Stand", "Show my hand", "Forfeit", "Watch"]
    # the hand DM shows the hand and nothing that changes every turn (the board does)
    assert table.hand_dm("A").text == (
        f"Your hand: Ahsoka vs Bastila\nHand: −3 · D · +2 · ±4\n\n{HINT}\nTable 1"
    )
    assert table.hand_dm("A").button_labels == ["−3", "D", "+2", "±4"]
    assert table.hand_dm("B").text == (
        f"Your hand: Bastila vs Ahsoka\nHand: ±1/2 · Flip 3&6 · T · Flip 2&4\n\n{HINT}\nTable 1"
    )
    # all enabled while the match goes on: whether a card may be played now is decided at the click
    assert [b.get("disabled", False) for b in table.hand_dm("B").buttons] == [False] * 4
    assert [b["custom_id"] for b in table.hand_dm("B").buttons] == [
        f"pz:1:{hand_version('±1/2', 'F36', 'T', 'F24')}:card:{i}" for i in range(4)
    ]
    assert (await table.balance("A"), await table.balance("B")) == (750, 750)

    for index, (move, logged) in enumerate(MATCH):
        await table.move(move)
        assert moves_log(board) == logged, (index, move)
        if index in SEATS_AFTER:
            assert seats(board) == SEATS_AFTER[index], (index, move)

    assert table.channel_texts() == [
        "**Bastila** accepted **Ahsoka**'s challenge (250 cr each). The board is below.",
        "Pazaak: Ahsoka vs Bastila · Bastila wins\n"
        "**Bastila** wins the match 3–0 against Ahsoka. Bastila takes the pot: 500 cr.\n\n"
        "Set 1: Ahsoka 15–−8 Bastila · Bastila (nine cards)\n"
        "Set 2: Ahsoka 22–9 Bastila · Bastila (bust)\n"
        "Set 3: Ahsoka 15–17 Bastila · Bastila (higher total)\n"
        "Cards played by Ahsoka: ±4 as +4 (set 1), +2 (set 1), D as +8 (set 2), −3 (set 2)\n"
        "Cards played by Bastila: ±1/2 as +2 (set 1), T as −1 (set 1), Flip 3&6 (set 1), "
        "Flip 2&4 (set 1)\n"
        "Table 1",
        "**Set 1**: Bastila fills nine cards without busting (−8) and wins the set. "
        "Sets: Ahsoka 0–1 Bastila.",
        "**Set 2**: Ahsoka busts with 22, so Bastila wins the set. Sets: Ahsoka 0–2 Bastila.",
        "**Set 3**: Bastila wins, 17 to 15. Sets: Ahsoka 0–3 Bastila.",
        "**Bastila** wins the match 3–0 against Ahsoka. Bastila takes the pot: 500 cr.",
    ]
    assert board.button_labels == ["History"] and board.content == ""
    assert len(board.history) == len(MATCH)  # one edit per move, never a new board
    assert [len(fake.dms(alice)), len(fake.dms(bob))] == [1, 1]
    for who, name, other in (("A", "Ahsoka", "Bastila"), ("B", "Bastila", "Ahsoka")):
        assert table.hand_dm(who).text == (
            f"Your hand: {name} vs {other}\n"
            "Hand: no cards left\n\n"
            "The match is over: Bastila wins.\n"
            "Table 1"
        )
        # edited only when the hand changed (each of the 4 cards played) and at the match's end
        assert len(table.hand_dm(who).history) == 4 + 1
    assert table.hand_dm("A").buttons == table.hand_dm("B").buttons == []
    # the sign or value of a choice card is picked in an ephemeral message, which then says so
    assert [m.text for m in fake.ephemeral(alice)] == ["You played ±4 as +4."]
    choice = fake.ephemeral(alice)[0].edits[0]
    assert choice["content"] == "Play ±4 as:"
    assert [b["label"] for row in choice["components"] for b in row["components"]] == ["+4", "−4"]
    assert [m.text for m in fake.ephemeral(bob)] == [
        "You played ±1/2 as +2.",
        "You played T as −1.",
    ]
    assert (await table.balance("A"), await table.balance("B")) == (750, 1250)
    assert await harness.bot.services.tables.seated_at(table.characters["A"].id) == []
