"""``/help``: first steps for a new GM, in the server's language, as one embed.

Who counts as a GM, then the way to a first game: create characters, give them coins, open a
Pegasus table or send a Pazaak challenge; where the rules are, how to switch the language; and
last the list of every command. Commands are named as they read in that language (the Polish
names on a Polish server), so a reader can type what they see.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import Lang, command_name, t
from cogs.replies import answer, bot_of, lang_of

SECTIONS = ("gm", "step.characters", "step.coins", "step.play", "rules", "language")
COLOUR = discord.Colour.dark_gold()


def _commands(tree: app_commands.CommandTree, lang: Lang) -> str:
    """One line per top-level command or group, with its subcommands, by name."""
    lines = []
    for command in sorted(tree.get_commands(), key=lambda c: c.name):
        name = command_name(lang, "/" + command.name).removeprefix("/")
        if isinstance(command, app_commands.Group):
            subs = ", ".join(
                command_name(lang, f"/{command.name} {sub.name}").rsplit(" ", 1)[-1]
                for sub in command.commands
            )
            lines.append(t(lang, "help.toc.group", name=name, subcommands=subs))
        elif isinstance(command, app_commands.Command):
            lines.append(t(lang, "help.toc.command", name=name))
    return "\n".join(lines)


def help_embed(tree: app_commands.CommandTree, lang: Lang, *, gm_role: str) -> discord.Embed:
    embed = discord.Embed(
        title=t(lang, "help.title"), description=t(lang, "help.intro"), colour=COLOUR
    )
    for section in SECTIONS:
        embed.add_field(
            name=t(lang, f"help.{section}.title"),
            value=t(lang, f"help.{section}.text", role=gm_role),
            inline=False,
        )
    embed.add_field(name=t(lang, "help.commands.title"), value=_commands(tree, lang), inline=False)
    return embed


class Help(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="First steps for a new GM, and every command.")
    async def help(self, interaction: discord.Interaction) -> None:
        lang = await lang_of(interaction)
        role = bot_of(interaction).settings.bot.gm_role
        await answer(interaction, embed=help_embed(self.bot.tree, lang, gm_role=role))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Help(bot))
