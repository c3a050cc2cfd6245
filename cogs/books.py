"""The bodies of the GM's books commands, declared in ``cogs.gm``: ``/gm report``,
``/gm export``, ``/gm void`` and ``/settings overdraft``. Each reads its options, calls the
books service once, renders and replies; the service decides what may be done."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import discord
from discord import app_commands

from bot.render import books as render
from cogs.common import guild_id_of, is_gm
from cogs.replies import Refused, answer, bot_of, lang_of


async def report(interaction: discord.Interaction[Any], since: str | None, public: bool) -> None:
    """The GM's copy ephemerally; with ``public``, the table's copy in the channel (no missed
    cheats), and the GM's own copy beside it only when it holds more. The GM's copy alone is
    deferred first (a long window reads much of the ledger); a public one answers at once, so
    that a refusal stays ephemeral."""
    if not public:
        await interaction.response.defer(ephemeral=True, thinking=True)
    found = await bot_of(interaction).services.books.report(guild_id_of(interaction), since=since)
    lang = await lang_of(interaction)
    mine = render.report(lang, found, gm_copy=True)
    if not public:
        await answer(interaction, embed=mine)
        return
    await answer(interaction, embed=render.report(lang, found, gm_copy=False), ephemeral=False)
    if any(not cheat.caught_by for cheat in found.cheats):
        await answer(interaction, embed=mine)


async def export(interaction: discord.Interaction[Any], character: str | None) -> None:
    """Defer (a big ledger takes a while), then attach the two files; a file too large for the
    server's upload limit goes gzipped."""
    guild_id = guild_id_of(interaction)
    services = bot_of(interaction).services
    who = None if not character else await services.characters.by_name(guild_id, character)
    lang = await lang_of(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    files = render.ExportFiles(lang)
    try:
        rows = await services.books.export(
            guild_id, files, character_id=None if who is None else who.id
        )
        if not await asyncio.to_thread(files.fit, interaction.filesize_limit):
            raise Refused("export_too_large")
        stem = "ledger" if who is None else "ledger-" + _slug(who.name)
        await interaction.followup.send(
            render.exported(lang, rows, None if who is None else who.name),
            files=[
                discord.File(files.csv, filename=files.filename(stem, "csv")),
                discord.File(files.json, filename=files.filename(stem, "json")),
            ],
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )
    finally:
        files.close()


async def void(
    interaction: discord.Interaction[Any],
    table: int | None,
    movement: int | None,
    overdraft: bool,
) -> None:
    """A finished table, or one grant, take or payment: announced in the channel, since every
    purse it changes belongs to someone at the table."""
    books = bot_of(interaction).services.books
    guild_id = guild_id_of(interaction)
    if table is not None and movement is None:
        done = await books.void_table(
            table, guild_id=guild_id, actor_id=interaction.user.id, overdraft=overdraft
        )
    elif movement is not None and table is None:
        done = await books.void_movement(
            movement, guild_id=guild_id, actor_id=interaction.user.id, overdraft=overdraft
        )
    else:
        raise Refused("void_what")
    await answer(interaction, render.voided(await lang_of(interaction), done), ephemeral=False)


async def movements(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[int]]:
    """Autocomplete: the latest grants, takes and payments not undone yet, by number or name;
    for a GM only (autocomplete runs no command check)."""
    if interaction.guild_id is None or not await is_gm(interaction):
        return []
    found = await bot_of(interaction).services.books.voidable(interaction.guild_id, limit=100)
    lang = await lang_of(interaction)
    typed = current.strip().lstrip("#").casefold()
    choices = []
    for row in found:
        name = render.movement_choice(lang, row)
        if typed and not (str(row.movement_id).startswith(typed) or typed in name.casefold()):
            continue
        choices.append(app_commands.Choice(name=name, value=row.movement_id))
    return choices[:25]


async def set_overdraft(interaction: discord.Interaction[Any], allowed: bool) -> None:
    await bot_of(interaction).services.books.set_overdraft(guild_id_of(interaction), allowed)
    await answer(interaction, render.overdraft(await lang_of(interaction), allowed))


def _slug(name: str) -> str:
    """A character's name as a file name may hold it."""
    return re.sub(r"[^\w-]+", "-", name, flags=re.UNICODE).strip("-").lower() or "character"
