"""GM tools: ``/gm role``, ``/settings language``, ``/table list``, ``/table close`` and
``/table history`` (its pages: ``cogs.history``).

``/gm role`` needs Manage Server (it decides who the GMs are); the other settings and closing a
table need a GM: both are discord.py checks (``cogs.common``). The three groups work only on a
server. Closing a table cancels it through the table service, which gives every stake still in
the pot back; the game's cog hears of it through ``on_table_outcome``. The GM's books
(``/gm report``, ``/gm export``, ``/gm void``, ``/settings overdraft``) are declared here and
run in ``cogs.books``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.render import tables as render
from bot.services.errors import TableClosed, UnknownTable
from bot.services.table_steps import CLOSED
from cogs import books
from cogs.common import (
    MAX_TABLE_ID,
    CharacterName,
    TableNumber,
    all_names,
    gm_only,
    guild_id_of,
    manager_only,
    page_button,
)
from cogs.history import history_page
from cogs.replies import Refused, answer, bot_of, guarded, lang_of

if TYPE_CHECKING:
    from bot.app import SzulerniaBot


@app_commands.guild_only()
class GameMaster(commands.GroupCog, group_name="gm", group_description="Who runs the games here."):
    def __init__(self, bot: SzulerniaBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="role", description="Manage Server only: set which role counts as GM."
    )
    @app_commands.describe(role="The GM role (leave empty to go back to the default).")
    @manager_only()
    async def role(
        self, interaction: discord.Interaction, role: discord.Role | None = None
    ) -> None:
        guild_id = guild_id_of(interaction)
        guild = interaction.guild
        if role is not None and (guild is None or guild.get_role(role.id) is None):
            raise Refused("gm_role_unknown")  # not a role of this server: nothing is stored
        await self.bot.services.guilds.set_gm_role(guild_id, None if role is None else role.id)
        lang = await lang_of(interaction)
        if role is None:
            text = t(lang, "gm.role.cleared", name=self.bot.settings.bot.gm_role)
        else:
            text = t(lang, "gm.role.set", role=role.mention)
        await answer(interaction, text)

    @app_commands.command(
        name="report",
        description="GM: the evening's books: results, pots, offerings, grants, corrections, "
        "cheats, tables.",
    )
    @app_commands.describe(
        since="From when: 3h or 1d back, or a UTC time such as 2026-12-01 18:00 (default: the "
        "last report).",
        public="Post it in the channel (without the cheats nobody caught).",
    )
    @gm_only()
    async def report(
        self,
        interaction: discord.Interaction,
        since: app_commands.Range[str, 1, 40] | None = None,
        public: bool = False,
    ) -> None:
        await books.report(interaction, since, public)

    @app_commands.command(name="export", description="GM: the ledger as CSV and JSON files.")
    @app_commands.describe(character="Only this character's movements (default: the whole server).")
    @app_commands.autocomplete(character=all_names)
    @gm_only()
    async def export(
        self, interaction: discord.Interaction, character: CharacterName | None = None
    ) -> None:
        await books.export(interaction, character)

    @app_commands.command(
        name="void",
        description="GM: undo a finished table, or one grant, take or payment, without erasing it.",
    )
    @app_commands.describe(
        table="A finished table's number.",
        movement="A grant's, take's or payment's number (see /gm export).",
        overdraft="Let a purse go below zero if it must (when the server allows it).",
    )
    @gm_only()
    async def void(
        self,
        interaction: discord.Interaction,
        table: TableNumber | None = None,
        movement: app_commands.Range[int, 1, MAX_TABLE_ID] | None = None,
        overdraft: bool = False,
    ) -> None:
        await books.void(interaction, table, movement, overdraft)

    @void.autocomplete("movement")
    async def void_movement(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await books.movements(interaction, current)


ON_OFF = [app_commands.Choice(name="On", value="on"), app_commands.Choice(name="Off", value="off")]


@app_commands.guild_only()
class Settings(
    commands.GroupCog, group_name="settings", group_description="GM: this server's settings."
):
    def __init__(self, bot: SzulerniaBot) -> None:
        self.bot = bot

    @app_commands.command(name="language", description="GM: the language the bot speaks here.")
    @app_commands.describe(language="English or Polish.")
    @app_commands.choices(
        language=[
            app_commands.Choice(name="English", value="en"),
            app_commands.Choice(name="Polish", value="pl"),
        ]
    )
    @gm_only()
    async def language(
        self, interaction: discord.Interaction, language: Literal["en", "pl"]
    ) -> None:
        await self.bot.services.guilds.set_language(guild_id_of(interaction), language)
        await answer(interaction, t(language, "settings.language.set"))

    @app_commands.command(
        name="overdraft", description="GM: whether a correction may leave a purse below zero."
    )
    @app_commands.describe(state="On or off.")
    @app_commands.choices(state=ON_OFF)
    @gm_only()
    async def overdraft(
        self, interaction: discord.Interaction, state: Literal["on", "off"]
    ) -> None:
        await books.set_overdraft(interaction, state == "on")

    @app_commands.command(
        name="images", description="GM: whether tables show pictures of the cards beside the text."
    )
    @app_commands.describe(state="On or off (the text stays complete either way).")
    @app_commands.choices(state=ON_OFF)
    @gm_only()
    async def images(self, interaction: discord.Interaction, state: Literal["on", "off"]) -> None:
        guild_id = guild_id_of(interaction)
        await self.bot.services.guilds.set_images(guild_id, state == "on")
        lang = await lang_of(interaction)
        await answer(interaction, t(lang, f"settings.images.{state}"))

    @app_commands.command(
        name="threads",
        description="GM: whether tables talk in a thread of their own.",
    )
    @app_commands.describe(state="On or off.")
    @app_commands.choices(state=ON_OFF)
    @gm_only()
    async def threads(self, interaction: discord.Interaction, state: Literal["on", "off"]) -> None:
        await self.bot.services.guilds.set_threads(guild_id_of(interaction), state == "on")
        lang = await lang_of(interaction)
        await answer(interaction, t(lang, f"settings.threads.{state}"))


class TablePageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tbl:l:(?P<page>\d+):(?P<dir>[pn])",
):
    """ "Previous" / "Next" under ``/table list``: ``tbl:l:<page>:<p|n>``, where ``page`` is the
    page it leads to (from 0). The tables are read afresh on every click, so a page survives a
    restart and never shows a closed table."""

    def __init__(
        self, page: int, forward: bool, *, label: str = "", disabled: bool = False
    ) -> None:
        self.page = page
        super().__init__(page_button(f"tbl:l:{page}:{'n' if forward else 'p'}", label, disabled))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TablePageButton:
        return cls(int(match["page"]), match["dir"] == "n")

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self._turn(interaction))

    async def _turn(self, interaction: discord.Interaction) -> None:
        text, view = await table_page(interaction, self.page)
        await interaction.response.edit_message(
            content=text, view=view, allowed_mentions=discord.AllowedMentions.none()
        )


async def table_page(
    interaction: discord.Interaction, page: int
) -> tuple[str, discord.ui.View | None]:
    """One page of the guild's open tables, with Previous/Next when there is more than one."""
    found = await bot_of(interaction).services.tables.live_in_guild(guild_id_of(interaction))
    lang = await lang_of(interaction)
    pages = render.page_count(len(found))
    page = min(max(page, 0), pages - 1)
    text = render.listing(lang, found, page)
    if pages == 1:
        return text, None
    view = discord.ui.View(timeout=None)
    previous, following = t(lang, "table.list.previous"), t(lang, "table.list.next")
    view.add_item(TablePageButton(max(page - 1, 0), False, label=previous, disabled=page == 0))
    last = page >= pages - 1
    view.add_item(TablePageButton(min(page + 1, pages - 1), True, label=following, disabled=last))
    return text, view


@app_commands.guild_only()
class Tables(
    commands.GroupCog, group_name="table", group_description="The game tables on this server."
):
    def __init__(self, bot: SzulerniaBot) -> None:
        self.bot = bot

    @app_commands.command(name="list", description="List the open tables on this server.")
    async def list_(self, interaction: discord.Interaction) -> None:
        text, view = await table_page(interaction, 0)
        await answer(interaction, text, view=view)

    @app_commands.command(name="close", description="GM: cancel a table and give every stake back.")
    @app_commands.describe(table="The table's number (see /table list).")
    @gm_only()
    async def close(self, interaction: discord.Interaction, table: TableNumber) -> None:
        guild_id = guild_id_of(interaction)
        services = self.bot.services
        view = await services.tables.get(table)  # kept in memory: no wait for the database
        if view.guild_id != guild_id:
            raise UnknownTable(table=table)
        if view.status in CLOSED:  # refused ephemerally, as any refusal before the answer
            raise TableClosed(table=table, status=view.status)
        # The cancel is a write, which may wait for the writer: acknowledge first, publicly
        # (the closing is announced in the channel; a later refusal, a race, is public too).
        await interaction.response.defer(thinking=True)
        outcome = await services.tables.cancel(
            table, key=interaction.id, actor_id=interaction.user.id
        )
        self.bot.timers.poke()
        if not outcome.repeated:
            self.bot.dispatch("table_outcome", outcome)
        names = await services.characters.names(render.refunds(outcome))
        lang = await lang_of(interaction)
        await answer(interaction, render.closed(lang, view, outcome, names), ephemeral=False)

    @app_commands.command(
        name="history",
        description="A finished table's turn-by-turn history (with your own cards in your copy).",
    )
    @app_commands.describe(table="The table's number (see /table list).")
    async def history(self, interaction: discord.Interaction, table: TableNumber) -> None:
        embed, view = await history_page(interaction, table, 0)
        await answer(interaction, embed=embed, view=view)

    @close.autocomplete("table")
    async def close_table(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        if interaction.guild is None:
            return []
        found = await self.bot.services.tables.live_in_guild(interaction.guild.id)
        lang = await lang_of(interaction)
        typed = current.strip().lstrip("#")
        choices = []
        for view in found:
            if typed and not str(view.table_id).startswith(typed):
                continue
            channel = interaction.guild.get_channel(view.channel_id)
            name = render.choice_name(lang, view, None if channel is None else channel.name)
            choices.append(app_commands.Choice(name=name, value=view.table_id))
        return choices[:25]


async def setup(bot: SzulerniaBot) -> None:
    await bot.add_cog(GameMaster(bot))
    await bot.add_cog(Settings(bot))
    bot.add_dynamic_items(TablePageButton)
    await bot.add_cog(Tables(bot))
