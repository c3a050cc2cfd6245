"""The Pegasus exchange dialog's menu of cards (issue 16): the seat's three cards by name, in the
table's language, picked from a select menu in a label; the picks reach the step, also when the
dialog is submitted after a restart (or was sent, with the cards typed, before the menu came);
a pick no client could send is refused clearly, and nothing is paid."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.pegaz_kit import Player, S, Tavern, hand_of
from tests.fakediscord import BotHarness, FakeDiscord, FakeMessage, InteractionHandle

LABEL, STRING_SELECT, TEXT_INPUT = 18, 3, 4


async def _turn_of_ann(tv: Tavern) -> tuple[Player, Player, FakeMessage]:
    """Ann and Bob sit and keep their dealt cards: Ann's turn in round 1."""
    ann, bob = await tv.player("Ann"), await tv.player("Bob")
    table = await tv.started(ann, bob)
    return ann, bob, table


def _menu(modal: dict[str, Any]) -> dict[str, Any]:
    label = modal["components"][0]
    assert label["type"] == LABEL
    menu: dict[str, Any] = label["component"]
    assert menu["type"] == STRING_SELECT and menu["custom_id"] == "cards"
    return menu


def _cards(player: Player, tv: Tavern) -> list[str]:
    return [name.removesuffix(" (new)") for name in hand_of(tv.hand_dm(player))]


def _raw(
    modal: dict[str, Any], cards: dict[str, Any], raise_by: list[str] | None = None
) -> dict[str, Any]:
    """A submit of the exchange dialog with ``cards`` as its first field and the raise menu's
    picks ``raise_by`` (none: no raise) as its second, sent verbatim."""
    picks = raise_by or []
    raise_field = {"type": STRING_SELECT, "id": 4, "custom_id": "raise", "values": picks}
    return {
        "custom_id": modal["custom_id"],
        "components": [
            {"type": LABEL, "id": 1, "component": {"id": 2, "custom_id": "cards", **cards}},
            {"type": LABEL, "id": 3, "component": raise_field},
        ],
    }


async def test_the_dialog_lists_the_cards_by_name_and_the_picks_are_paid_for(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann, _, table = await _turn_of_ann(tv)
    hand = _cards(ann, tv)
    dialog = await fake.click(ann.user, table, "Pay & exchange…")
    modal = await dialog.wait_modal()

    label, menu = modal["components"][0], _menu(modal)
    assert label["label"] == "Cards to exchange"
    assert label["description"] == "Pick up to 3; pick none to keep your hand."
    assert [o["label"] for o in menu["options"]] == [f"{i}. {c}" for i, c in enumerate(hand, 1)]
    assert [o["value"] for o in menu["options"]] == ["1", "2", "3"]
    assert (menu["min_values"], menu["max_values"], menu["required"]) == (1, 3, False)
    assert menu["placeholder"] == "None: keep my cards"

    before = await tv.purse(ann)
    preview = await (await fake.submit_modal(ann.user, dialog, {"cards": ["1", "3"]})).reply()
    assert preview.texts()[0] == (
        f"Exchange 2 cards (1. {hand[0]}, 3. {hand[2]}) at a stake of 1 s: you pay **3 s**."
    )
    await tv.press(ann.user, preview, "Pay 3 s")
    assert await tv.purse(ann) == before - 3 * S
    said = [line for message in tv.said() for line in message.splitlines()]
    assert "**Ann** pays 3 s and exchanges 2 cards (stake 1 s)." in said
    assert _cards(ann, tv)[1] == hand[1]  # the card not picked stays


async def test_the_preview_is_a_layout_whose_pay_button_works_once(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann, _, table = await _turn_of_ann(tv)
    hand = _cards(ann, tv)
    dialog = await fake.click(ann.user, table, "Pay & exchange…")
    preview = await (await fake.submit_modal(ann.user, dialog, {"cards": ["2"]})).reply()
    assert preview.ephemeral and preview.components_v2 and preview.content == ""
    assert preview.texts() == [
        f"Exchange 1 card (2. {hand[1]}) at a stake of 1 s: you pay **2 s**.",
        f"**Your cards**\n1. {hand[0]}: kept\n2. {hand[1]}: exchanged\n3. {hand[2]}: kept",
    ]
    before = await tv.purse(ann)
    twice = [await fake.click(ann.user, preview, "Pay 2 s") for _ in range(2)]
    await fake.wait_for(lambda: preview.texts() == ["Paid 2 s."] and not preview.buttons)
    refusals = await fake.wait_for(lambda: [f for c in twice for f in c.followups if f.ephemeral])
    assert [m.content for m in refusals] == [
        "That button is out of date: the table has moved on. Nothing was changed."
    ]
    assert await tv.purse(ann) == before - 2 * S  # paid once


async def test_the_menu_speaks_the_tables_language(fake: FakeDiscord, harness: BotHarness) -> None:
    tv = Tavern(fake, harness)
    await tv.services.guilds.set_language(fake.guild.id, "pl")
    ann, bob = await tv.player("Ann"), await tv.player("Bob")
    table = await tv.open()
    for who in (ann, bob):
        await tv.press(who.user, table, "Dosiądź się")
    await tv.press(tv.gm, table, "Zaczynamy")
    hand = _cards(ann, tv)
    dialog = await fake.click(ann.user, table, "Zapłać i wymień…")
    modal = await dialog.wait_modal()

    assert modal["components"][0]["label"] == "Karty do wymiany"
    menu = _menu(modal)
    assert [o["label"] for o in menu["options"]] == [f"{i}. {c}" for i, c in enumerate(hand, 1)]
    assert menu["placeholder"] == "Żadna: zostaję przy swoich kartach"
    preview = await (await fake.submit_modal(ann.user, dialog, {"cards": ["2"]})).reply()
    assert preview.texts()[0].startswith(f"Wymieniasz 1 kartę (2. {hand[1]}) przy stawce 1 s")


async def test_picks_submitted_after_a_restart_reach_the_step(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann, _, table = await _turn_of_ann(tv)
    hand = _cards(ann, tv)
    dialog = await fake.click(ann.user, table, "Pay & exchange…")
    await dialog.wait_modal()
    await harness.restart()  # no process keeps the dialog: the kit's listener reads the submit

    submitted = await fake.submit_modal(ann.user, dialog, {"cards": ["2", "3"], "raise": "1p"})
    preview = await submitted.reply()
    assert preview.texts()[0] == (
        f"Exchange 2 cards (2. {hand[1]}, 3. {hand[2]}) at a stake of 1 s 1 p: you pay **3 s 3 p**."
        "\nThis raises the stake to 1 s 1 p for everyone after you."
    )
    await tv.press(ann.user, preview, "Pay 3 s 3 p")
    assert _cards(ann, tv)[0] == hand[0]


async def test_a_dialog_with_the_cards_typed_from_before_the_menu_still_works_after_a_restart(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    """A dialog sent by the bot before this version, with a text field ``cards``."""
    tv = Tavern(fake, harness)
    ann, _, table = await _turn_of_ann(tv)
    hand = _cards(ann, tv)
    dialog = await fake.click(ann.user, table, "Pay & exchange…")
    modal = await dialog.wait_modal()
    await harness.restart()

    typed = {"type": TEXT_INPUT, "custom_id": "cards", "value": "1 3"}
    old = {
        "custom_id": modal["custom_id"],
        "components": [
            {"type": 1, "id": 1, "components": [typed | {"id": 2}]},
            {
                "type": 1,
                "id": 3,
                "components": [{"type": TEXT_INPUT, "id": 4, "custom_id": "raise", "value": ""}],
            },
        ],
    }
    preview = await (await fake.submit_raw_modal(ann.user, dialog, old)).reply()
    assert preview.texts()[0] == (
        f"Exchange 2 cards (1. {hand[0]}, 3. {hand[2]}) at a stake of 1 s: you pay **3 s**."
    )


@pytest.mark.parametrize("restart", [False, True], ids=["routed", "after a restart"])
@pytest.mark.parametrize(("values", "shown"), [(["4"], "4"), (["1", "1"], "1,1"), (["x"], "x")])
async def test_a_pick_no_client_could_send_is_refused_clearly(
    fake: FakeDiscord, harness: BotHarness, values: list[str], shown: str, restart: bool
) -> None:
    tv = Tavern(fake, harness)
    ann, _, table = await _turn_of_ann(tv)
    before = await tv.purse(ann)
    dialog = await fake.click(ann.user, table, "Pay & exchange…")
    modal = await dialog.wait_modal()
    if restart:
        await harness.restart()

    forged = _raw(modal, {"type": STRING_SELECT, "values": values})
    refused = await (await fake.submit_raw_modal(ann.user, dialog, forged)).reply()
    assert refused.ephemeral and refused.content == (
        f'I can\'t read "{shown}" as cards to exchange. Pick them from the list in the dialog '
        "(at most three different cards), or none to keep your hand."
    )
    assert await tv.purse(ann) == before
    assert table.button_labels[0] == "Pay & exchange…"  # still Ann's turn, nothing moved


async def test_the_raise_menu_lists_each_raise_the_table_allows_with_its_stake(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann, bob = await tv.player("Ann"), await tv.player("Bob")
    table = await tv.started(ann, bob, raise_limit="3 p")
    dialog = await fake.click(ann.user, table, "Pay & exchange…")
    modal = await dialog.wait_modal()

    label = modal["components"][1]
    assert label["label"] == "Raise the stake by (empty: no raise)"
    menu = label["component"]
    assert (menu["type"], menu["custom_id"], menu["required"]) == (STRING_SELECT, "raise", False)
    assert menu["placeholder"] == "No raise (stake 1 s)"
    assert [(o["label"], o["value"]) for o in menu["options"]] == [
        ("+1 p (stake 1 s 1 p)", "1p"),
        ("+2 p (stake 1 s 2 p)", "2p"),
        ("+3 p (stake 1 s 3 p)", "3p"),
    ]
    preview = await (await fake.submit_modal(ann.user, dialog, {"raise": "3p"})).reply()
    assert preview.texts()[0] == (
        "Keep your cards at a stake of 1 s 3 p: you pay **1 s 3 p**.\n"
        "This raises the stake to 1 s 3 p for everyone after you."
    )


async def test_without_a_short_list_of_raises_the_raise_is_typed(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann, bob = await tv.player("Ann"), await tv.player("Bob")
    table = await tv.started(ann, bob, raise_limit="none")
    dialog = await fake.click(ann.user, table, "Pay & exchange…")
    modal = await dialog.wait_modal()
    label = modal["components"][1]
    assert label["component"]["type"] == TEXT_INPUT
    assert label["description"] == "Stake now 1 s; a raise of at most none"
    preview = await (await fake.submit_modal(ann.user, dialog, {"raise": "1 s"})).reply()
    assert preview.texts()[0].startswith("Keep your cards at a stake of 2 s: you pay **2 s**.")


async def test_a_forged_raise_over_the_limit_is_refused_by_the_rules(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann, _, table = await _turn_of_ann(tv)
    before = await tv.purse(ann)
    dialog = await fake.click(ann.user, table, "Pay & exchange…")
    modal = await dialog.wait_modal()
    forged = _raw(modal, {"type": STRING_SELECT, "values": ["3"]}, ["2p"])
    refused = await (await fake.submit_raw_modal(ann.user, dialog, forged)).reply()
    assert refused.content == "That raise is over the table's limit."
    assert await tv.purse(ann) == before


async def _opened(fake: FakeDiscord, harness: BotHarness) -> tuple[Player, InteractionHandle]:
    tv = Tavern(fake, harness)
    ann, _, table = await _turn_of_ann(tv)
    return ann, await fake.click(ann.user, table, "Pay & exchange…")


@pytest.mark.parametrize(
    ("cards", "error"),
    [
        (["4"], "are not all among"),
        (["1", "1"], "picks an option twice"),
        (["1", "2", "3", "1"], "picks an option twice"),
        ("", "are not all among"),
    ],
)
async def test_the_fake_refuses_picks_no_discord_client_sends(
    fake: FakeDiscord, harness: BotHarness, cards: Any, error: str
) -> None:
    ann, dialog = await _opened(fake, harness)
    with pytest.raises(ValueError, match=error):
        await fake.submit_modal(ann.user, dialog, {"cards": cards})


async def test_an_untouched_menu_sends_nothing_and_keeps_the_hand(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    ann, dialog = await _opened(fake, harness)
    submitted = await fake.submit_modal(ann.user, dialog, {})
    assert dict(submitted.payload["data"]["components"][0]["component"])["values"] == []
    preview = await submitted.reply()
    assert preview.texts()[0] == "Keep your cards at a stake of 1 s: you pay **1 s**."
