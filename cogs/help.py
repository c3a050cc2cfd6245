"""``/help``: what the bot can do, with every command's description."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands


class Help(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="Show what Szulernia can do and its commands.")
    async def help(self, interaction: discord.Interaction) -> None:
        lines = []
        for command in sorted(self.bot.tree.walk_commands(), key=lambda c: c.qualified_name):
            if isinstance(command, app_commands.Command):
                lines.append(f"`/{command.qualified_name}`: {command.description}")
        await interaction.response.send_message("\n".join(lines), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Help(bot))
