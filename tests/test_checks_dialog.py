"""The Pegaz exchange dialog is a ``TableDialog``: discord.py routes its submit while the process
that sent it lives; one sent before a restart reaches the kit's listener. Either way it is
answered exactly once."""

from __future__ import annotations

from typing import Any

import discord

from cogs.kit.cog import ROUTED
from tests.e2e.pegaz_kit import Tavern
from tests.fakediscord import BotHarness, FakeDiscord, InteractionHandle

ONE = "Luck or Gamble: move one card by 1…"


def submits(harness: BotHarness) -> list[discord.Interaction[Any]]:
    """Every dialog submitted to the bot that runs now, as discord.py handed it out."""
    seen: list[discord.Interaction[Any]] = []

    async def heard(interaction: discord.Interaction[Any]) -> None:
        if interaction.type is discord.InteractionType.modal_submit:
            seen.append(interaction)

    harness.bot.add_listener(heard, "on_interaction")
    return seen


async def answers(tv: Tavern, submitted: InteractionHandle) -> list[str]:
    """What the bot answered to a submit, once a second answer (if any) had time to come: two
    more round trips through the bot."""
    await submitted.reply()
    for _ in range(2):
        await tv.press(tv.gm, tv.table_message(1), "Show my hand")
    return [m.text for m in submitted.followups]


async def test_a_dialog_is_answered_once_by_discordpy_and_once_after_a_restart(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann = await tv.player("Ann", luck=True)
    bob = await tv.player("Bob")
    table = await tv.open()
    await tv.press(ann.user, table, "Join")
    await tv.press(bob.user, table, "Join")
    await tv.press(tv.gm, table, "Start")
    await tv.pick(ann.user, tv.hand_dm(ann), ["1+1"], ONE)

    routed = submits(harness)
    dialog = await fake.click(ann.user, table, "Pay & exchange…")
    submitted = await fake.submit_modal(ann.user, dialog, {"cards": "3", "raise": "1p"})
    preview = await answers(tv, submitted)
    assert len(preview) == 1 and preview[0].startswith("Exchange 1 card (3. "), preview
    assert [i.extras.get(ROUTED) for i in routed] == [True]  # on_submit, not the listener

    dialog = await fake.click(ann.user, table, "Pay & exchange…")
    await dialog.wait_modal()
    await harness.restart()  # the dialog is open in Ann's client; the bot that sent it is gone
    unrouted = submits(harness)
    submitted = await fake.submit_modal(ann.user, dialog, {"cards": "3", "raise": "1p"})
    assert await answers(tv, submitted) == preview
    assert [i.extras.get(ROUTED) for i in unrouted] == [None]  # the listener answered it
