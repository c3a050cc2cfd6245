"""Pazaak at a Discord table: challenges with escrowed wagers, side decks, the board, secret
hands by DM (with a "Show my hand" fallback), timeouts and the final summary."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.pazaak.commands import Pazaak

if TYPE_CHECKING:
    from bot.app import SzulerniaBot


async def setup(bot: SzulerniaBot) -> None:
    await bot.add_cog(Pazaak(bot))
