"""``/help``: what the bot can do, one line per command group, in the server's language.

Command names are shown the way the user's Discord client shows them (Polish clients see the
Polish names); descriptions follow the server's language.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import Lang, command_strings, t
from bot.replies import answer, lang_of


def _text(lang: Lang, english: str) -> str:
    return command_strings(lang).get(english, english) if lang != "en" else english


def _name(lang: Lang, english: str) -> str:
    """A command name as that language's clients show it (see ``bot.i18n.Translator``)."""
    if lang == "en":
        return english
    strings = command_strings(lang)
    return strings.get("name:" + english) or strings.get(english) or english


def help_text(tree: app_commands.CommandTree, lang: Lang, names: Lang) -> str:
    """One line per top-level command or group: its subcommands and what it is for."""
    lines = [t(lang, "help.title")]
    for command in sorted(tree.get_commands(), key=lambda c: c.name):
        if isinstance(command, app_commands.Group):
            subs = [_name(names, sub.name) for sub in command.commands]
            lines.append(
                t(
                    lang,
                    "help.group",
                    name=_name(names, command.name),
                    subcommands=", ".join(subs),
                    description=_text(lang, command.description),
                )
            )
        elif isinstance(command, app_commands.Command):
            lines.append(
                t(
                    lang,
                    "help.command",
                    name=_name(names, command.name),
                    description=_text(lang, command.description),
                )
            )
    return "\n".join(lines)


class Help(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="Show what Szulernia can do and its commands.")
    async def help(self, interaction: discord.Interaction) -> None:
        lang = await lang_of(interaction)
        names: Lang = "pl" if interaction.locale is discord.Locale.polish else "en"
        await answer(interaction, help_text(self.bot.tree, lang, names)[:2000])


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Help(bot))
