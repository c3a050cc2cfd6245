"""A complete seeded match through the ends of a set: a bust saved by a minus card, the
automatic stand at 20, a tie decided by T, a tie with no point and a nine-card win. Bob's DMs are
closed, so Bastila plays the whole match through "Show my hand"."""

# ruff: noqa: RUF001 (the bot writes real minus signs and en dashes)

from __future__ import annotations

import pytest

from tests.e2e.pazaak_support import Move, moves_log, seat_two, seats
from tests.fakediscord import BotHarness, FakeDiscord

CARDS = ["T", "T", "-4", "-4", "-5", "-5", "-6", "-6", "-3", "-3"]

MATCH: list[tuple[Move, list[str]]] = [
    (("B", "end"), ["Bastila ends the turn.", "Ahsoka draws 9."]),
    (("A", "end"), ["Ahsoka ends the turn.", "Bastila draws 10."]),
    (("B", "end"), ["Bastila ends the turn.", "Ahsoka draws 8."]),
    (("A", "end"), ["Ahsoka ends the turn.", "Bastila draws 1."]),
    (("B", "end"), ["Bastila ends the turn.", "Ahsoka draws 8."]),
    (("A", "card", 2), ["Ahsoka plays −5."]),
    (
        ("A", "end"),
        [
            "Ahsoka ends the turn.",
            "Ahsoka reaches 20 and stands automatically.",
            "Bastila draws 3.",
        ],
    ),
    (("B", "end"), ["Bastila ends the turn.", "Bastila draws 5."]),
    (("B", "card", 3, -1), ["Bastila plays T as −1."]),
    (
        ("B", "stand"),
        [
            "Bastila stands.",
            "Set 1 goes to Bastila.",
            "Set 2 begins; Ahsoka starts.",
            "Ahsoka draws 7.",
        ],
    ),
    (("A", "end"), ["Ahsoka ends the turn.", "Bastila draws 5."]),
    (("B", "end"), ["Bastila ends the turn.", "Ahsoka draws 9."]),
    (("A", "stand"), ["Ahsoka stands.", "Bastila draws 7."]),
    (("B", "end"), ["Bastila ends the turn.", "Bastila draws 4."]),
    (
        ("B", "stand"),
        ["Bastila stands.", "Set 2 is a tie.", "Set 3 begins; Bastila starts.", "Bastila draws 7."],
    ),
    (("B", "end"), ["Bastila ends the turn.", "Ahsoka draws 5."]),
    (("A", "end"), ["Ahsoka ends the turn.", "Bastila draws 9."]),
    (("B", "end"), ["Bastila ends the turn.", "Ahsoka draws 7."]),
    (("A", "end"), ["Ahsoka ends the turn.", "Bastila draws 4."]),
    (
        ("B", "end"),
        [
            "Bastila ends the turn.",
            "Bastila reaches 20 and stands automatically.",
            "Ahsoka draws 2.",
        ],
    ),
    (("A", "end"), ["Ahsoka ends the turn.", "Ahsoka draws 3."]),
    (
        ("A", "stand"),
        [
            "Ahsoka stands.",
            "Set 3 goes to Bastila.",
            "Set 4 begins; Ahsoka starts.",
            "Ahsoka draws 7.",
        ],
    ),
    (("A", "end"), ["Ahsoka ends the turn.", "Bastila draws 5."]),
    (("B", "end"), ["Bastila ends the turn.", "Ahsoka draws 9."]),
    (("A", "end"), ["Ahsoka ends the turn.", "Bastila draws 7."]),
    (("B", "end"), ["Bastila ends the turn.", "Ahsoka draws 4."]),
    (("A", "stand"), ["Ahsoka stands.", "Bastila draws 2."]),
    (("B", "end"), ["Bastila ends the turn.", "Bastila draws 3."]),
    (("B", "card", 1), ["Bastila plays −6."]),
    (("B", "end"), ["Bastila ends the turn.", "Bastila draws 5."]),
    (("B", "end"), ["Bastila ends the turn.", "Bastila draws 5."]),
    (("B", "card", 1), ["Bastila plays −5."]),
    (("B", "end"), ["Bastila ends the turn.", "Bastila draws 6."]),
    (("B", "card", 0), ["Bastila plays −4."]),
    (("B", "end"), []),
]

# What the seats show right after some moves (by index in MATCH).
SEATS_AFTER = {
    4: {  # Ahsoka draws 8 and is over 20 ...
        "Ahsoka · sets 0/3": "9 · 8 · 8\nTotal: **25** · to play\nCards in hand: 4",
        "Bastila · sets 0/3": "2 · 10 · 1\nTotal: **13**\nCards in hand: 4",
    },
    5: {  # ... and a minus card saves her
        "Ahsoka · sets 0/3": "9 · 8 · 8 · [−5]\nTotal: **20** · to play\nCards in hand: 3",
        "Bastila · sets 0/3": "2 · 10 · 1\nTotal: **13**\nCards in hand: 4",
    },
    6: {  # 20 at the end of the turn stands by itself
        "Ahsoka · sets 0/3": "9 · 8 · 8 · [−5]\nTotal: **20** · stands\nCards in hand: 3",
        "Bastila · sets 0/3": "2 · 10 · 1 · 3\nTotal: **16** · to play\nCards in hand: 4",
    },
    8: {  # Bastila is saved by her tiebreaker card too: 20 all, and only she played a T
        "Ahsoka · sets 0/3": "9 · 8 · 8 · [−5]\nTotal: **20** · stands\nCards in hand: 3",
        "Bastila · sets 0/3": (
            "2 · 10 · 1 · 3 · 5 · [T −1]\nTotal: **20** · to play\nCards in hand: 3"
        ),
    },
    33: {  # the tenth card on her table: nine cards without busting win the set
        "Ahsoka · sets 0/3": "7 · 9 · 4\nTotal: **20** · stands\nCards in hand: 3",
        "Bastila · sets 2/3": (
            "5 · 7 · 2 · 3 · [−6] · 5 · 5 · [−5] · 6 · [−4]\nTotal: **18** · to play\n"
            "Cards in hand: 0"
        ),
    },
}


@pytest.mark.seed(50)
async def test_a_match_through_every_end_of_a_set(fake: FakeDiscord, harness: BotHarness) -> None:
    table = await seat_two(fake, harness, cards_a=CARDS, cards_b=CARDS, bob_dms=False)
    alice, bob = table.users["A"], table.users["B"]

    board = await table.open(wager="250 cr")

    assert table.channel_texts()[1:] == [
        f"{bob.mention} **Bastila** to play.\n"
        "Pazaak: Ahsoka vs Bastila\n"
        "Set 1 · pot 500 cr\n\n"
        "• Bastila draws 2.\n"
        "Ahsoka · sets 0/3: —\nTotal: **0**\nCards in hand: 4\n"
        "Bastila · sets 0/3: 2\nTotal: **2** · to play\nCards in hand: 4\n"
        "Table 1 · 5 min per turn; 3 timeouts in a row forfeit",
        f"{bob.mention} I can't send you **Bastila**'s hand by DM. Use **Show my hand** on the "
        "board to see and play your cards.",
    ]
    assert fake.dms(bob) == []
    assert table.hand_dm("A").text == (
        "Your hand: Ahsoka vs Bastila\n"
        "Hand: −6 · −5 · −5 · −3\n\n"
        "On your turn, play a card here. End turn and Stand are on the board in the channel, "
        "which shows both tables and totals.\n"
        "Table 1"
    )
    shown = await table.show_hand("B")
    assert shown.text == (
        "Your hand: Bastila vs Ahsoka\n"
        "Set 1 · your table: 2 · total **2**\n"
        "Hand: −4 · −6 · −5 · T\n\n"
        "Your turn: play at most one card, then End turn or Stand."
    )
    assert shown.button_labels == ["−4", "−6", "−5", "T", "End turn", "Stand"]
    assert (await table.balance("A"), await table.balance("B")) == (750, 750)

    for index, (move, logged) in enumerate(MATCH):
        await table.move(move, via="hand" if move[0] == "B" else "dm")
        assert moves_log(board) == logged, (index, move)
        if index in SEATS_AFTER:
            assert seats(board) == SEATS_AFTER[index], (index, move)

    assert table.channel_texts()[3:] == [
        "**Set 1**: a tie at 20, decided by Bastila's tiebreaker card: Bastila wins the set. "
        "Sets: Ahsoka 0–1 Bastila.",
        "**Set 2**: a tie at 16. Nobody scores. Sets: Ahsoka 0–1 Bastila.",
        "**Set 3**: Bastila wins, 20 to 17. Sets: Ahsoka 0–2 Bastila.",
        "**Set 4**: Bastila fills nine cards without busting (18) and wins the set. "
        "Sets: Ahsoka 0–3 Bastila.",
        "**Bastila** wins the match 3–0 against Ahsoka. Bastila takes the pot: 500 cr.",
    ]
    assert board.text == (
        "Pazaak: Ahsoka vs Bastila · Bastila wins\n"
        "**Bastila** wins the match 3–0 against Ahsoka. Bastila takes the pot: 500 cr.\n\n"
        "Set 1: Ahsoka 20–20 Bastila · Bastila (tiebreaker)\n"
        "Set 2: Ahsoka 16–16 Bastila · tie\n"
        "Set 3: Ahsoka 17–20 Bastila · Bastila (higher total)\n"
        "Set 4: Ahsoka 20–18 Bastila · Bastila (nine cards)\n"
        "Cards played by Ahsoka: −5 (set 1)\n"
        "Cards played by Bastila: T as −1 (set 1), −6 (set 4), −5 (set 4), −4 (set 4)\n"
        "Table 1"
    )
    assert len(board.history) == len(MATCH) and board.button_labels == ["History"]
    assert table.hand_dm("A").text == (
        "Your hand: Ahsoka vs Bastila\n"
        "Hand: −6 · −5 · −3\n\n"
        "The match is over: Bastila wins.\n"
        "Table 1"
    )
    assert len(table.hand_dm("A").history) == 1 + 1  # one card played, and the end
    # Bob never got a DM: every move was made from a new "Show my hand" message
    assert fake.dms(bob) == []
    hands = [m for m in fake.ephemeral(bob) if m.embeds]
    assert len(hands) == 1 + sum(move[0] == "B" for move, _ in MATCH)
    assert hands[-1].text == (
        "Your hand: Bastila vs Ahsoka\n"
        "Set 4 · your table: 5 · 7 · 2 · 3 · [−6] · 5 · 5 · [−5] · 6 · [−4] · total **18**\n"
        "Hand: no cards left\n\n"
        "The match is over: Bastila wins."
    )
    assert hands[-1].buttons == []
    assert [m.text for m in fake.ephemeral(bob) if not m.embeds] == ["You played T as −1."]
    assert fake.ephemeral(alice) == []
    assert (await table.balance("A"), await table.balance("B")) == (750, 1250)
