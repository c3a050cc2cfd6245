"""``/stats character|top``: records from finished games, and the server's leaderboards.

Stats are no secret: a game's result, its coins and a caught cheat were all announced at the
table, so anyone may look up any character of the server. Missed cheats are never counted here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.render import stats as render
from cogs.common import CharacterName, acting_character, all_names, guild_id_of
from cogs.replies import answer, lang_of

if TYPE_CHECKING:
    from bot.app import SzulerniaBot

By = Literal["net", "pots", "pazaak"]


@app_commands.guild_only()
class Stats(
    commands.GroupCog,
    group_name="stats",
    group_description="Stats from finished games: records, streaks, leaderboards.",
):
    def __init__(self, bot: SzulerniaBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="character",
        description="Show a character's games, coins won and streaks (only you see it).",
    )
    @app_commands.describe(character="Whose stats (default: your character's).")
    @app_commands.autocomplete(character=all_names)
    async def character(
        self, interaction: discord.Interaction, character: CharacterName | None = None
    ) -> None:
        services = self.bot.services
        if character:
            who = await services.characters.by_name(guild_id_of(interaction), character)
        else:
            who = await acting_character(interaction, None)
        found = await services.stats.character(who.id)
        embed = render.character(await lang_of(interaction), who.name, found.games, found.rivals)
        await answer(interaction, embed=embed)

    @app_commands.command(
        name="top", description="Show the server's leaderboards (only you see it)."
    )
    @app_commands.describe(by="Which leaderboard (default: net winnings).")
    @app_commands.choices(
        by=[
            app_commands.Choice(name="Net winnings", value="net"),
            app_commands.Choice(name="Pots won", value="pots"),
            app_commands.Choice(name="Pazaak match record", value="pazaak"),
        ]
    )
    async def top(self, interaction: discord.Interaction, by: By = "net") -> None:
        boards = await self.bot.services.stats.top(guild_id_of(interaction), by)
        await answer(interaction, embed=render.top(await lang_of(interaction), by, boards))


async def setup(bot: SzulerniaBot) -> None:
    await bot.add_cog(Stats(bot))
