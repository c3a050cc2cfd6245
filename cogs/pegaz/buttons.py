"""Buttons and select menus that survive restarts: ``discord.ui.DynamicItem`` with state in the id.

A custom_id is ``pg:<table>:<version>:<act>[:<arg>]`` for a button, ``pgs:`` for a select menu
and ``pgm:`` for the exchange modal. ``version`` is the table's version the message was drawn at
(passed to the service as ``expected_version``), or, under a hand, the seat's "deal" (what it had
paid when those cards came), so an old hand's buttons can never act on newer cards. The handlers
live in ``cogs.pegaz.seating`` and ``cogs.pegaz.turns`` and register themselves with :func:`on`.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n import Lang
from bot.replies import bot_of, report
from bot.services.errors import StaleAction

_ID = r":(?P<table>\d+):(?P<ver>\d+):(?P<act>[a-z]+)(?::(?P<arg>[\w.,+-]+))?"
BUTTON = "pg"
SELECT = "pgs"
MODAL = "pgm"
MODAL_PATTERN = re.compile(MODAL + _ID)


@dataclass(frozen=True, slots=True)
class Target:
    """What a component points at: the table, the version it was drawn at, the act, an arg."""

    table: int
    ver: int
    act: str
    arg: str = ""

    def custom_id(self, prefix: str) -> str:
        tail = f":{self.arg}" if self.arg else ""
        return f"{prefix}:{self.table}:{self.ver}:{self.act}{tail}"

    @classmethod
    def parse(cls, match: re.Match[str]) -> Target:
        return cls(int(match["table"]), int(match["ver"]), match["act"], match["arg"] or "")


@dataclass(frozen=True, slots=True)
class Click:
    """One press of a button, pick in a select menu, or submitted modal."""

    interaction: discord.Interaction[Any]
    target: Target
    values: tuple[str, ...] = ()

    @property
    def user_id(self) -> int:
        return self.interaction.user.id


Handler = Callable[[Click], Awaitable[None]]
_HANDLERS: dict[str, Handler] = {}


def on(*acts: str) -> Callable[[Handler], Handler]:
    """Register the handler of these acts."""

    def register(handler: Handler) -> Handler:
        for act in acts:
            _HANDLERS[act] = handler
        return handler

    return register


async def dispatch(click: Click) -> None:
    """Run the act's handler; any error becomes an ephemeral answer in the table's language
    (which a DM, having no guild, would not know)."""
    handler = _HANDLERS.get(click.target.act)
    try:
        if handler is None:
            raise StaleAction(table=click.target.table, expected=click.target.ver, current=None)
        await handler(click)
    except Exception as exc:
        await report(click.interaction, exc, lang=await _table_lang(click))


async def _table_lang(click: Click) -> Lang | None:
    if click.interaction.guild_id is not None:
        return None
    try:
        services = bot_of(click.interaction).services
        view = await services.tables.get(click.target.table)
        return await services.guilds.language(view.guild_id)
    except Exception:  # an unknown table: the default language will do
        return None


class PegazButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON + _ID):
    def __init__(
        self,
        target: Target,
        label: str = "…",
        *,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        self.target = target
        super().__init__(
            discord.ui.Button(
                label=label[:80], style=style, custom_id=target.custom_id(BUTTON), row=row
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> PegazButton:
        return cls(Target.parse(match))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await dispatch(Click(interaction, self.target))


class PegazSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT + _ID):
    def __init__(
        self,
        target: Target,
        options: Sequence[discord.SelectOption],
        *,
        placeholder: str | None = None,
        max_values: int = 1,
        min_values: int = 1,
        row: int | None = None,
    ) -> None:
        self.target = target
        super().__init__(
            discord.ui.Select(
                custom_id=target.custom_id(SELECT),
                options=list(options),
                placeholder=placeholder[:150] if placeholder else None,
                min_values=min_values,
                max_values=max_values,
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> PegazSelect:
        options = item.options if isinstance(item, discord.ui.Select) else []
        return cls(Target.parse(match), options)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = tuple(str(v) for v in self.item.values)
        await dispatch(Click(interaction, self.target, values))


async def dispatch_modal(interaction: discord.Interaction[Any]) -> bool:
    """Handle a submitted ``pgm:`` modal (from any bot run: modals are not kept in memory)."""
    data: Any = interaction.data or {}
    match = MODAL_PATTERN.fullmatch(str(data.get("custom_id", "")))
    if match is None:
        return False
    fields: dict[str, str] = {}
    _collect(data.get("components") or [], fields)
    values = (fields.get("cards", ""), fields.get("raise", ""))
    await dispatch(Click(interaction, Target.parse(match), values))
    return True


def _collect(components: Sequence[Any], out: dict[str, str]) -> None:
    for component in components:
        if not isinstance(component, dict):
            continue
        if "custom_id" in component and "value" in component:
            out[str(component["custom_id"])] = str(component["value"] or "")
        _collect(component.get("components") or [], out)
        inner = component.get("component")
        if isinstance(inner, dict):
            _collect([inner], out)
