"""Whose seat is whose: one seat per player even when two joins race, and an NPC's cards and
turns only for the GM who runs it, not for another GM who sits at the table as a player."""

from __future__ import annotations

import asyncio

from tests.e2e.pegaz_kit import GC, S, Tavern, answer_to, field
from tests.fakediscord import MANAGE_GUILD, BotHarness, FakeDiscord


async def test_joins_racing_still_give_a_player_one_seat(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann = await tv.player("Ann")
    alts = [await tv.player(f"Ann{n}", user=ann.user) for n in range(5)]
    await tv.services.characters.set_active(fake.guild.id, ann.user.id, ann.id)
    table = await tv.open()

    handles = await asyncio.gather(
        fake.click(ann.user, table, "Join"),
        *(fake.slash(ann.user, "pegaz join", character=alt.name, table=1) for alt in alts),
    )
    answers = [(await answer_to(handles[0], table)).content] + [
        (await handle.reply()).content for handle in handles[1:]
    ]

    seated = [s.player for s in (await tv.services.tables.get(1)).state.seats]
    assert len(seated) == 1, answers
    name = next(p.name for p in [ann, *alts] if p.id == seated[0])
    assert sorted(answers) == sorted(
        [f"{name} sits at table 1; the ante of 1 s is paid."]
        + [f"You already sit at this table with {name}."] * 5
    )
    purses = [await tv.purse(p) for p in [ann, *alts]]
    assert sum(purses) == 6 * GC - S
    await tv.books_balance(table_id=1, pot=S)


async def test_another_gm_at_the_table_plays_only_their_own_seat(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    npc = await tv.player("Innkeeper", npc=True)
    second_gm = fake.add_player("Second GM", permissions=MANAGE_GUILD)
    greta = await tv.player("Greta", user=second_gm)
    table = await tv.open()
    seat = await fake.slash(tv.gm, "pegaz seat", npc="Innkeeper")
    await seat.reply()
    await tv.press(second_gm, table, "Join")
    await tv.press(tv.gm, table, "Start")
    assert field(table, "Players").splitlines()[0].startswith("1. **Innkeeper** (NPC)")

    # It is the NPC's turn. The second GM sees only Greta's cards, and cannot play the NPC.
    shown = await tv.press(second_gm, table, "Show my hand")
    assert shown.ephemeral and shown.embeds[0]["title"] == "Your cards at table 1"
    assert "Innkeeper" not in str(shown.embeds)
    refused = await tv.press(second_gm, table, "Fold")
    assert refused.content == "It isn't your turn."
    assert [s.status.value for s in (await tv.services.tables.get(1)).state.seats] == [
        "active",
        "active",
    ]

    # The GM who runs the NPC plays its turn.
    folded = await tv.press(tv.gm, table, "Fold")
    assert folded.content == "You folded."
    assert await tv.purse(greta) == GC - S + 2 * S
    assert await tv.purse(npc) == GC - S


async def test_a_failed_announcement_still_redraws_the_table(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann, bob = await tv.player("Ann"), await tv.player("Bob")
    table = await tv.open()
    await tv.press(ann.user, table, "Join")
    await tv.press(bob.user, table, "Join")
    await tv.press(tv.gm, table, "Start")
    version = (await tv.services.tables.get(1)).version

    # Discord refuses the channel announcement of the fold; the fold is saved all the same, and
    # the player is told the truth: it was done.
    fake.fail(
        "POST /channels/{channel_id}/messages", status=403, code=50013, message="Missing Access"
    )
    answer = await tv.press(ann.user, table, "Fold")
    assert answer.content == "You folded."
    assert harness.take_errors() == []

    # The table message shows the finished game, so its buttons are not left a version behind.
    assert (await tv.services.tables.get(1)).version > version
    await fake.wait_for(lambda: any("Ranald" in b for b in table.button_labels), timeout=5)
    assert await tv.purse(bob) == GC - S + 2 * S


async def test_check_is_refused_when_the_checker_cannot_pay_it(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann, bob = await tv.player("Ann", coins=2 * S + 30), await tv.player("Bob")
    table = await tv.open()
    await tv.press(ann.user, table, "Join")
    await tv.press(bob.user, table, "Join")
    await tv.press(tv.gm, table, "Start")
    for player in (ann, bob):  # round 1: both pay the stake and exchange nothing
        dialog = await fake.click(player.user, table, "Pay & exchange…")
        preview = await (await fake.submit_modal(player.user, dialog, {})).reply()
        await tv.press(player.user, preview, "Pay 1 s")

    # Round 2: Ann has 2 s 6 p, less than a check's 3 s: no menu of targets, a clear refusal.
    refused = await tv.press(ann.user, table, "Check…")
    assert refused.ephemeral and refused.content == (
        "Not enough coin for that: it costs 3 s, and the purse holds 2 s 6 p."
    )
    assert await tv.purse(ann) == 30
    await tv.books_balance(table_id=1, pot=4 * S)
