"""A TEST-ONLY extension that exercises what the fake must support before the real cogs exist.

Loaded with ``@pytest.mark.extensions("tests.e2e.harness_cog")``. It follows the design's
patterns in miniature: a table message with buttons (DynamicItems, so they survive a restart),
a secret hand by DM with the "Show my hand" fallback when DMs are closed, a deferred slow command,
a select menu that updates its message, a modal, autocomplete, and every option type. The
``/harness bad`` command sends bodies Discord rejects, to prove that the validator catches them.
"""

from __future__ import annotations

import io
import random
import re
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

CARDS = ("Gryphon", "Dragon", "Pegasus", "Wyvern", "Basilisk", "Manticore", "Hydra")
LONG_CUSTOM_ID = "x" * 101


def hand_text(client: discord.Client, table: int) -> str:
    """Three cards dealt with the bot's injected random source (seeded in tests)."""
    rng = getattr(client, "rng_factory", random.Random)()
    return f"Your hand at table {table}: {', '.join(rng.sample(CARDS, 3))}"


class JoinButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"hx:join:(?P<table>\d+)"
):
    def __init__(self, table: int) -> None:
        self.table = table
        button: discord.ui.Button[Any] = discord.ui.Button(
            label="Join", style=discord.ButtonStyle.primary, custom_id=f"hx:join:{table}"
        )
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> JoinButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.user.send(hand_text(interaction.client, self.table))
        except discord.Forbidden:
            await interaction.response.send_message(
                f"{interaction.user.mention}, your DMs are closed: "
                'use the "Show my hand" button to see your cards.'
            )
            return
        await interaction.response.send_message(
            "You joined; your hand is in your DMs.", ephemeral=True
        )


class HandButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"hx:hand:(?P<table>\d+)"
):
    def __init__(self, table: int) -> None:
        self.table = table
        button: discord.ui.Button[Any] = discord.ui.Button(
            label="Show my hand", style=discord.ButtonStyle.secondary, custom_id=f"hx:hand:{table}"
        )
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HandButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            hand_text(interaction.client, self.table), ephemeral=True
        )


class Colours(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.select(
        placeholder="Pick colours",
        min_values=1,
        max_values=2,
        options=[discord.SelectOption(label=c.title(), value=c) for c in ("red", "green", "blue")],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.edit_message(
            content=f"Picked: {', '.join(select.values)}", view=None
        )

    @discord.ui.button(label="Later", custom_id="hx:later")
    async def later(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()  # a deferred update (type 6) ...
        await interaction.edit_original_response(content="Decided later.", view=None)  # ... filled


class Wager(discord.ui.Modal, title="Place a wager"):
    amount: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Amount", custom_id="amount")
    note: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Note", custom_id="note", required=False, style=discord.TextStyle.paragraph
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"Wager {self.amount.value} ({self.note.value or 'no note'})", ephemeral=True
        )


class Harness(commands.GroupCog, name="harness", description="Test-only commands"):
    deep = app_commands.Group(name="deep", description="A subcommand group")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.tables = 0

    @app_commands.command(name="table", description="Open a table with Join / Show my hand")
    async def table(self, interaction: discord.Interaction) -> None:
        self.tables += 1
        view = discord.ui.View(timeout=None)
        view.add_item(JoinButton(self.tables))
        view.add_item(HandButton(self.tables))
        await interaction.response.send_message(f"Table {self.tables} is open.", view=view)

    @app_commands.command(name="post", description="Defer, post in the channel, then confirm")
    async def post(self, interaction: discord.Interaction, text: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert isinstance(interaction.channel, discord.abc.Messageable)
        await interaction.channel.send(text)
        await interaction.followup.send("Posted.", ephemeral=True)

    @app_commands.command(name="nodefer", description="Post in the channel, then reply (no defer)")
    async def nodefer(self, interaction: discord.Interaction, text: str) -> None:
        assert isinstance(interaction.channel, discord.abc.Messageable)
        await interaction.channel.send(text)
        await interaction.response.send_message("Posted.", ephemeral=True)

    @app_commands.command(name="scratch", description="Channel messages: send, edit, delete, get")
    async def scratch(self, interaction: discord.Interaction) -> None:
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        draft = await channel.send("draft", file=discord.File(io.BytesIO(b"card"), "card.png"))
        await draft.edit(content="final")
        oops = await channel.send("oops")
        await oops.delete()
        fetched = await channel.fetch_message(draft.id)
        await interaction.response.send_message(f"{fetched.content} {len(fetched.attachments)}")

    @app_commands.command(name="followups", description="Follow-ups: send, edit, delete, get")
    async def followups(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("first")
        second = await interaction.followup.send("second", wait=True)
        await second.edit(content="second (edited)")
        third = await interaction.followup.send("third", ephemeral=True, wait=True)
        await third.delete()
        original = await interaction.original_response()
        await interaction.edit_original_response(content=f"{original.content} (edited)")

    @app_commands.command(name="options", description="Echo one option of every type")
    async def options(
        self,
        interaction: discord.Interaction,
        text: str,
        count: app_commands.Range[int, 1, 10],
        ratio: float,
        flag: bool,
        who: discord.Member,
        where: discord.TextChannel,
        role: discord.Role,
        mood: Literal["calm", "angry"] = "calm",
    ) -> None:
        perms = who.guild_permissions.manage_guild
        await interaction.response.send_message(
            f"{text}|{count}|{ratio}|{flag}|{who.name}:{perms}|{where.name}|{role.name}|{mood}",
            ephemeral=True,
        )

    @deep.command(name="echo", description="A command inside a group")
    async def deep_echo(self, interaction: discord.Interaction, word: str) -> None:
        await interaction.response.send_message(f"deep {word}")

    @app_commands.command(name="pick", description="Autocomplete a character")
    async def pick(self, interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"Picked {name}", ephemeral=True)

    @pick.autocomplete("name")
    async def pick_name(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        names = ["Grimbold", "Greta", "Ulrika", "Gruber"]
        return [
            app_commands.Choice(name=n, value=n)
            for n in names
            if n.lower().startswith(current.lower())
        ]

    @app_commands.command(name="menu", description="A select menu that updates its message")
    async def menu(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Choose:", view=Colours())

    @app_commands.command(name="form", description="Open a modal")
    async def form(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(Wager())

    @app_commands.command(name="gm", description="Tells whether the member may manage the server")
    async def gm(self, interaction: discord.Interaction) -> None:
        allowed = interaction.permissions.manage_guild
        await interaction.response.send_message(f"GM: {allowed}", ephemeral=True)

    @app_commands.command(name="bad", description="Send a body Discord rejects")
    async def bad(
        self, interaction: discord.Interaction, kind: Literal["custom_id", "embed_field"]
    ) -> None:
        if kind == "custom_id":
            view = discord.ui.View()
            view.add_item(discord.ui.Button(label="Too long", custom_id=LONG_CUSTOM_ID))
            await interaction.response.send_message("bad button", view=view)
        else:
            embed = discord.Embed(title="Too long").add_field(name="field", value="v" * 1025)
            await interaction.response.send_message(embed=embed)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(JoinButton, HandButton)
    await bot.add_cog(Harness(bot))
