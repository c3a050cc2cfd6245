"""At most once, and nothing lost: a restart between every two moves of a whole match, twenty
simultaneous clicks, stale and foreign clicks."""

# ruff: noqa: RUF001 (the bot writes real minus signs and en dashes)

from __future__ import annotations

import asyncio

from tests.e2e.pazaak_support import Move, hand_version, moves_log, refusal, seat_two, settle
from tests.fakediscord import BotHarness, FakeDiscord

# Seed 1234 (the default) with the starter side decks: Bastila starts.
MATCH: list[tuple[Move, list[str]]] = [
    (("B", "end"), ["Bastila ends the turn.", "Ahsoka draws 4."]),
    (("A", "end"), ["Ahsoka ends the turn.", "Bastila draws 9."]),
    (("B", "end"), ["Bastila ends the turn.", "Ahsoka draws 7."]),
    (("A", "card", 0), ["Ahsoka plays +4."]),
    (("A", "stand"), ["Ahsoka stands.", "Bastila draws 8."]),
    (
        ("B", "stand"),
        [
            "Bastila stands.",
            "Set 1 goes to Bastila.",
            "Set 2 begins; Ahsoka starts.",
            "Ahsoka draws 5.",
        ],
    ),
    (("A", "card", 2), ["Ahsoka plays +5."]),
    (("A", "end"), ["Ahsoka ends the turn.", "Bastila draws 9."]),
    (("B", "end"), ["Bastila ends the turn.", "Ahsoka draws 2."]),
    (("A", "end"), ["Ahsoka ends the turn.", "Bastila draws 3."]),
    (("B", "card", 3), ["Bastila plays +5."]),
    (("B", "stand"), ["Bastila stands.", "Ahsoka draws 2."]),
    (("A", "end"), ["Ahsoka ends the turn.", "Ahsoka draws 9."]),
    (
        ("A", "stand"),
        [
            "Ahsoka stands.",
            "Set 2 goes to Bastila.",
            "Set 3 begins; Bastila starts.",
            "Bastila draws 5.",
        ],
    ),
    (("B", "end"), ["Bastila ends the turn.", "Ahsoka draws 9."]),
    (("A", "card", 0), ["Ahsoka plays +1."]),
    (("A", "end"), ["Ahsoka ends the turn.", "Bastila draws 2."]),
    (("B", "end"), ["Bastila ends the turn.", "Ahsoka draws 3."]),
    (("A", "end"), ["Ahsoka ends the turn.", "Bastila draws 2."]),
    (("B", "end"), ["Bastila ends the turn.", "Ahsoka draws 9."]),
    (("A", "stand"), []),
]


async def test_a_restart_between_every_two_moves_loses_nothing(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    alice, bob = table.users["A"], table.users["B"]
    board = await table.open(wager="100")

    for index, (move, logged) in enumerate(MATCH):
        if index % 2 == 0:
            await harness.restart()
        await table.move(move)
        assert moves_log(board) == logged, (index, move)

    assert fake.gateway.log.count("IDENTIFY") == 1 + (len(MATCH) + 1) // 2
    assert table.channel_texts()[2:] == [
        "**Set 1**: Bastila wins, 18 to 15. Sets: Ahsoka 0–1 Bastila.",
        "**Set 2**: Ahsoka busts with 23, so Bastila wins the set. Sets: Ahsoka 0–2 Bastila.",
        "**Set 3**: Ahsoka busts with 22, so Bastila wins the set. Sets: Ahsoka 0–3 Bastila.",
        "**Bastila** wins the match 3–0 against Ahsoka. Bastila takes the pot: 200 cr.",
    ]
    assert board.embeds[0]["title"] == "Pazaak: Ahsoka vs Bastila · Bastila wins"
    assert len(board.history) == len(MATCH) and board.button_labels == ["History"]
    # the hand DMs were edited across the restarts, never sent again
    assert [len(fake.dms(alice)), len(fake.dms(bob))] == [1, 1]
    assert table.hand_dm("A").text == (
        "Your hand: Ahsoka vs Bastila\nHand: +1\n\nThe match is over: Bastila wins.\nTable 1"
    )
    assert table.hand_dm("B").text == (
        "Your hand: Bastila vs Ahsoka\n"
        "Hand: +5 · +1 · +1\n\n"
        "The match is over: Bastila wins.\n"
        "Table 1"
    )
    # edited once per card played (Ahsoka 3, Bastila 1) and once at the end, not every turn
    assert [len(table.hand_dm(who).history) for who in "AB"] == [3 + 1, 1 + 1]
    assert (await table.balance("A"), await table.balance("B")) == (900, 1100)


STALE = "That button is out of date: the table has moved on. Nothing was changed."
HINT = (
    "On your turn, play a card here. End turn and Stand are on the board in the channel, "
    "which shows both tables and totals."
)


async def test_twenty_simultaneous_clicks_make_one_move(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    alice, bob = table.users["A"], table.users["B"]
    board = await table.open(wager="250 cr")

    clicks = await asyncio.gather(*(fake.click(bob, board, "End turn") for _ in range(20)))
    await settle(fake, harness, *clicks)

    assert moves_log(board) == ["Bastila ends the turn.", "Ahsoka draws 4."]
    assert len(board.history) == 1
    assert [m.text for m in fake.ephemeral(bob)] == [STALE] * 19

    hand = table.hand_dm("A")
    card = hand.buttons[0]["custom_id"]
    clicks = await asyncio.gather(*(fake.click(alice, hand, custom_id=card) for _ in range(20)))
    await settle(fake, harness, *clicks)

    assert moves_log(board) == ["Ahsoka plays +4."]
    assert len(board.history) == 2
    assert [m.text for m in fake.ephemeral(alice)] == [STALE] * 19
    # the hand DM (edited through the click's token) moved to the new hand's version
    assert hand.text == f"Your hand: Ahsoka vs Bastila\nHand: +1 · +1 · +5\n\n{HINT}\nTable 1"
    assert [b["custom_id"] for b in hand.buttons] == [
        f"pz:1:{hand_version('+1', '+1', '+5')}:card:{i}" for i in range(3)
    ]
    assert [b.get("disabled", False) for b in hand.buttons] == [False] * 3
    assert len(hand.history) == 1

    second = await fake.click(alice, hand, custom_id=hand.buttons[0]["custom_id"])
    assert (await refusal(second)).text == "You already played a hand card this turn."
    await settle(fake, harness, second)
    assert moves_log(board) == ["Ahsoka plays +4."] and len(hand.history) == 1
    assert (await table.balance("A"), await table.balance("B")) == (750, 750)


async def test_stale_foreign_and_out_of_turn_clicks_change_nothing(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    alice, bob = table.users["A"], table.users["B"]
    stranger = fake.add_player("Carth")
    board = await table.open(wager="250 cr")
    old_hand = await table.show_hand("B")  # Bastila to play, at version 1
    older_hand = await table.show_hand("B")  # another one, for after the restart

    await table.move(("B", "end"))
    assert moves_log(board) == ["Bastila ends the turn.", "Ahsoka draws 4."]

    answers = []
    bob_dm = table.hand_dm("B")
    for who, message, label in (
        (bob, old_hand, "End turn"),  # stale: the table has moved on
        (bob, board, "Stand"),  # Ahsoka's turn
        (bob, bob_dm, bob_dm.buttons[0]["label"]),  # a card from the DM, on Ahsoka's turn
        (stranger, board, "End turn"),
        (stranger, board, "Show my hand"),
    ):
        handle = await fake.click(who, message, label)
        answers.append((await refusal(handle)).text)
        await settle(fake, harness, handle)

    assert answers == [
        STALE,
        "It isn't your turn.",
        "It isn't your turn.",
        "You don't sit at this table.",
        "You don't sit at this table.",
    ]
    assert bob_dm.history == []  # the DM was not edited: Bastila's hand did not change
    assert len(board.history) == 1
    assert moves_log(board) == ["Bastila ends the turn.", "Ahsoka draws 4."]
    await harness.restart()
    late = await fake.click(bob, older_hand, "Stand")  # still stale after a restart
    assert (await refusal(late)).text == STALE
    await settle(fake, harness, late)
    assert fake.ephemeral(alice) == [] and len(board.history) == 1
    assert (await table.balance("A"), await table.balance("B")) == (750, 750)
