"""A closed table's hand history: the "History" button on its final board, and its pages.

Every game's publisher draws its boards through :class:`HistoryScene`, which adds the button once
the table is finished or cancelled (a live table's history is refused: see
``bot.services.history``). The button, and ``/table history`` (``cogs.gm``), answer with an
ephemeral page of the copy the user may read: a GM's has every secret, a player's their own
cards, anyone else's only what the table saw. Pages turn with Previous / Next, persistent
``DynamicItem`` buttons: ``hist:<table>:<page>`` opens a history (page ``page``) in a new
ephemeral message, ``hist:<table>:<page>:<p|n>`` turns the page of the one it is on. Nothing is
kept between clicks: each one reads the table's events again, as the clicking user may see them.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import Lang, t
from bot.render.history import Viewer, page_embed, paginate
from bot.render.pazaak.history import history_lines as pazaak_lines
from bot.render.pegaz import Who
from bot.render.pegaz.history import history_lines as pegaz_lines
from bot.render.tables import game_name
from bot.services.history import Person, Record, named
from bot.services.outcomes import TableView
from bot.services.table_steps import CLOSED
from cogs.common import guild_id_of, is_gm, page_button
from cogs.kit.frame import Draft, Frame, Scene
from cogs.replies import answer, bot_of, guarded, lang_of

if TYPE_CHECKING:
    from bot.app import SzulerniaBot

PREFIX = "hist"


class TableHistoryButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=PREFIX + r":(?P<table>\d+):(?P<page>\d+)(?::(?P<dir>[pn]))?",
):
    """ "History" on a closed table's board (no direction: a new ephemeral reply), or
    "Previous" / "Next" under a page of it (a direction: that reply turns its page)."""

    def __init__(
        self,
        table_id: int,
        page: int = 0,
        direction: str = "",
        *,
        label: str = "",
        disabled: bool = False,
    ) -> None:
        self.table_id, self.page, self.turns = table_id, page, bool(direction)
        custom_id = f"{PREFIX}:{table_id}:{page}" + (f":{direction}" if direction else "")
        super().__init__(page_button(custom_id, label, disabled))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TableHistoryButton:
        return cls(int(match["table"]), int(match["page"]), match["dir"] or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self._show(interaction))

    async def _show(self, interaction: discord.Interaction) -> None:
        embed, view = await history_page(interaction, self.table_id, self.page)
        if self.turns:
            await interaction.response.edit_message(embed=embed, view=view)
        else:
            await answer(interaction, embed=embed, view=view)


async def history_page(
    interaction: discord.Interaction[Any], table_id: int, page: int
) -> tuple[discord.Embed, discord.ui.View | None]:
    """One page of the table's history as the user may read it, with Previous / Next when it
    has more than one. Raises ``UnknownTable`` (also another server's) and ``HistoryLive``."""
    bot = bot_of(interaction)
    record = await bot.services.history.record(table_id, guild_id_of(interaction))
    viewer = Viewer(record.own(interaction.user.id), await is_gm(interaction))
    lang = await lang_of(interaction)
    pages = paginate(history_lines(record, viewer, lang))
    page = min(max(page, 0), len(pages) - 1)
    embed = page_embed(
        lang,
        table_id=table_id,
        game=game_name(lang, record.game),
        viewer=viewer,
        text=pages[page],
        page=page,
        pages=len(pages),
    )
    if len(pages) == 1:
        return embed, None
    view = discord.ui.View(timeout=None)
    back, on = t(lang, "history.previous"), t(lang, "history.next")
    first, last = page == 0, page == len(pages) - 1
    view.add_item(TableHistoryButton(table_id, max(page - 1, 0), "p", label=back, disabled=first))
    following = min(page + 1, len(pages) - 1)
    view.add_item(TableHistoryButton(table_id, following, "n", label=on, disabled=last))
    return embed, view


def history_lines(record: Record, viewer: Viewer, lang: Lang) -> list[str]:
    """The record told by its game's history render."""
    steps: Sequence[tuple[int, Sequence[Any]]] = record.steps
    if record.game == "pegaz":
        roster = {c: Who(p.name, p.owner_id, p.is_npc) for c, p in record.people.items()}
        return pegaz_lines(steps, roster, viewer, lang, table_id=record.table_id)
    names = _names(record.people, [c for _, events in steps for c in named(events)])
    cancelled = record.status == "cancelled"
    return pazaak_lines(steps, names, viewer, lang, table_id=record.table_id, cancelled=cancelled)


def _names(people: Mapping[int, Person], ids: Sequence[int]) -> dict[int, str]:
    """A name for every character the events name (``#id`` for one deleted since)."""
    return {c: people[c].name if c in people else f"#{c}" for c in dict.fromkeys(ids)}


def with_history(draft: Draft, table_id: int, lang: Lang) -> Draft:
    """The board with the "History" button added to its own."""
    view = draft.view if draft.view is not None else discord.ui.View(timeout=None)
    view.add_item(TableHistoryButton(table_id, label=t(lang, "history.button")))
    return dataclasses.replace(draft, view=view)


class HistoryScene:
    """A game's scene whose board, once the table is closed, also offers its history."""

    def __init__(self, bot: SzulerniaBot, scene: Scene) -> None:
        self.bot = bot
        self.scene = scene

    async def frame(self, table: TableView, events: Mapping[int, Sequence[Any]]) -> Frame:
        frame = await self.scene.frame(table, events)
        if table.status not in CLOSED:
            return frame
        lang = await self.bot.services.guilds.language(table.guild_id)
        return dataclasses.replace(frame, board=with_history(frame.board, table.table_id, lang))


async def setup(bot: SzulerniaBot) -> None:
    bot.add_dynamic_items(TableHistoryButton)
