"""Three-Card Pegasus at a Discord table: ``/pegaz`` and the buttons of its tables.

- ``commands``: the cog: the ``/pegaz`` group, and the listeners for the turn timers;
- ``seating``: the table message's buttons (join, leave, start, cancel, show my hand, rulings,
  offerings, a new game), as cog methods;
- ``turns``: a player's own moves (modifier choices, pay & exchange, check, fold), as cog methods;
- ``scene``: what a table shows (the board and each step's posts), for the kit's publisher;
  ``views``: the components; ``inputs``: reading what players type.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.pegaz.commands import Pegaz

if TYPE_CHECKING:
    from bot.app import SzulerniaBot

__all__ = ["Pegaz"]


async def setup(bot: SzulerniaBot) -> None:
    await bot.add_cog(Pegaz(bot))
