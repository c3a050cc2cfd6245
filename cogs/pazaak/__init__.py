"""Pazaak at a Discord table: challenges with escrowed wagers, side decks, the board, secret
hands by DM (with a "Show my hand" fallback), timeouts and the final summary."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.pazaak.buttons import DYNAMIC_ITEMS
from cogs.pazaak.challenge import ChallengeButton
from cogs.pazaak.commands import Pazaak

if TYPE_CHECKING:
    from bot.app import SzulerniaBot


async def setup(bot: SzulerniaBot) -> None:
    bot.add_dynamic_items(ChallengeButton, *DYNAMIC_ITEMS)
    await bot.add_cog(Pazaak(bot))
