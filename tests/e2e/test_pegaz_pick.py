"""Joining with several characters and none active: the Join button offers a pick of the user's
own characters, and the pick seats the chosen one (ante paid) through the same path as a join."""

from __future__ import annotations

from typing import Any

from tests.e2e.pegaz_kit import GC, S, Tavern, at, field
from tests.fakediscord import BotHarness, FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.interactions import COMPONENT, InteractionHandle, new_interaction
from tests.fakediscord.messages import SELECT_TYPES
from tests.fakediscord.payloads import find_item, select_data

MENU = "Pick a character…"


def forge_select(
    fake: FakeDiscord, user: FakeUser, message: FakeMessage, values: list[str]
) -> InteractionHandle:
    """A tampered client replaying another user's select menu (custom_ids are global): the same
    component payload as ``fake.select``, without the fake's "ephemeral to someone else" guard."""
    select: dict[str, Any] = find_item(message, SELECT_TYPES, placeholder=MENU)
    data = select_data(select, values, fake.guild)
    handle = new_interaction(fake.state, user, message.channel, COMPONENT, data, message=message)
    fake.state.emit("INTERACTION_CREATE", handle.payload)
    return handle


async def test_a_player_with_two_characters_picks_one_at_join(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann = await tv.player("Ann", 1 * GC)
    bea = await tv.player("Bea", 2 * GC, user=ann.user)
    table = await tv.open()

    menu = await tv.press(ann.user, table, "Join")
    assert menu.ephemeral
    assert menu.content == "Which of your characters sits at table 1?"
    [select] = menu.selects
    assert [(o["label"], o["value"]) for o in select["options"]] == [
        ("Ann", str(ann.id)),
        ("Bea", str(bea.id)),
    ]
    assert (await tv.services.tables.get(1)).state.seats == ()
    assert await tv.purse(ann) == GC and await tv.purse(bea) == 2 * GC

    done = await tv.pick(ann.user, menu, [str(bea.id)], MENU)
    assert done is menu  # the menu itself became the result, its select gone
    assert done.content == "Bea sits at table 1; the ante of 1 s is paid."
    assert done.selects == []
    assert await tv.purse(bea) == 2 * GC - S
    assert await tv.purse(ann) == GC
    assert field(table, "Players") == f"1. **Bea** ({at(ann)}) · paid 1 s"
    await tv.books_balance(table_id=1, pot=S)

    # Seated: the Join button now refuses a second seat instead of offering the menu again.
    again = await tv.press(ann.user, table, "Join")
    assert again.content == "You already sit at this table with Bea."
    assert again.selects == []


async def test_nobody_else_can_use_a_players_menu(fake: FakeDiscord, harness: BotHarness) -> None:
    tv = Tavern(fake, harness)
    ann = await tv.player("Ann")
    await tv.player("Bea", user=ann.user)
    cid = await tv.player("Cid")
    table = await tv.open()
    menu = await tv.press(ann.user, table, "Join")
    version = (await tv.services.tables.get(1)).version

    refused = await forge_select(fake, cid.user, menu, [str(ann.id)]).reply()
    assert refused.content == "That character isn't yours."
    assert refused.ephemeral and refused is not menu
    view = await tv.services.tables.get(1)
    assert view.version == version and view.state.seats == ()
    assert await tv.purse(ann) == GC and await tv.purse(cid) == GC
    assert len(menu.selects) == 1 and menu.content == "Which of your characters sits at table 1?"

    # The menu is still Ann's to use.
    done = await tv.pick(ann.user, menu, [str(ann.id)], MENU)
    assert done.content == "Ann sits at table 1; the ante of 1 s is paid."
    assert await tv.purse(ann) == GC - S


async def test_a_menu_drawn_before_the_table_moved_on_is_stale(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann = await tv.player("Ann")
    await tv.player("Bea", user=ann.user)
    cid = await tv.player("Cid")
    table = await tv.open()
    menu = await tv.press(ann.user, table, "Join")
    await tv.press(cid.user, table, "Join")

    stale = await tv.pick(ann.user, menu, [str(ann.id)], MENU)
    assert stale.content == (
        "That button is out of date: the table has moved on. Nothing was changed."
    )
    assert [s.player for s in (await tv.services.tables.get(1)).state.seats] == [cid.id]
    assert await tv.purse(ann) == GC


async def test_one_character_or_an_active_one_joins_at_once(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    solo = await tv.player("Solo")
    ann = await tv.player("Ann")
    bea = await tv.player("Bea", user=ann.user)
    await tv.services.characters.set_active(fake.guild.id, ann.user.id, bea.id)
    table = await tv.open()

    joined = await tv.press(solo.user, table, "Join")
    assert joined.content == "Solo sits at table 1; the ante of 1 s is paid."
    assert joined.selects == []
    joined = await tv.press(ann.user, table, "Join")
    assert joined.content == "Bea sits at table 1; the ante of 1 s is paid."
    assert joined.selects == []
    assert [await tv.purse(p) for p in (solo, ann, bea)] == [GC - S, GC, GC - S]
    assert field(table, "Players").splitlines() == [
        f"1. **Solo** ({at(solo)}) · paid 1 s",
        f"2. **Bea** ({at(ann)}) · paid 1 s",
    ]
    await tv.books_balance(table_id=1, pot=2 * S)
