"""Three-Card Pegasus at a Discord table: ``/pegaz`` and the buttons of its tables.

- ``commands``: the ``/pegaz`` group and the listeners for timeouts and the exchange modal;
- ``seating``: the table message's buttons (join, leave, start, cancel, show my hand, rulings,
  offerings, a new game);
- ``turns``: a player's own moves (modifier choices, pay & exchange, check, fold);
- ``flow``: what everyone is told after each step; ``views``: the components; ``buttons``: the
  restart-proof ``DynamicItem`` ids; ``inputs``: reading what players type.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.pegaz import seating, turns
from cogs.pegaz.buttons import PegazButton, PegazSelect
from cogs.pegaz.commands import Pegaz

if TYPE_CHECKING:
    from bot.app import SzulerniaBot

__all__ = ["Pegaz", "seating", "turns"]


async def setup(bot: SzulerniaBot) -> None:
    bot.add_dynamic_items(PegazButton, PegazSelect)
    await bot.add_cog(Pegaz(bot))
