"""The custom_id grammar of every table component: ``<game>:<table>:<version>:<act>[:<arg>]``.

``version`` is the version of what the component was drawn from: the table's (a move on the table
message), or a seat's own (under a hand), or 0 where no version applies ("Show my hand"). The
service refuses a component drawn at an older version, so a stale or double click changes
nothing. Components are plain ``discord.ui`` items: receiving them is the cog's ``DynamicItem``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

ARG = r"[\w.,+-]+"


def grammar(game: str) -> str:
    """The DynamicItem template of one game's components."""
    return (
        rf"(?P<game>{re.escape(game)}):(?P<table>\d+):(?P<ver>\d+):(?P<act>[a-z]+)"
        rf"(?::(?P<arg>{ARG}))?"
    )


@dataclass(frozen=True, slots=True)
class Target:
    """What a component points at: the game, the table, the version it was drawn at, the act."""

    game: str
    table: int
    ver: int
    act: str
    arg: str = ""

    @property
    def custom_id(self) -> str:
        tail = f":{self.arg}" if self.arg else ""
        return f"{self.game}:{self.table}:{self.ver}:{self.act}{tail}"

    @classmethod
    def parse(cls, match: re.Match[str]) -> Target:
        return cls(
            match["game"], int(match["table"]), int(match["ver"]), match["act"], match["arg"] or ""
        )


def button(
    target: Target,
    label: str,
    *,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    disabled: bool = False,
    row: int | None = None,
) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label=label[:80], style=style, custom_id=target.custom_id, disabled=disabled, row=row
    )


def select(
    target: Target,
    options: Sequence[discord.SelectOption],
    *,
    placeholder: str | None = None,
    min_values: int = 1,
    max_values: int = 1,
    row: int | None = None,
) -> discord.ui.Select[Any]:
    return discord.ui.Select(
        custom_id=target.custom_id,
        options=list(options),
        placeholder=placeholder[:150] if placeholder else None,
        min_values=min_values,
        max_values=max_values,
        row=row,
    )


def view(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """A view that holds nothing but its components (they are received by the cog)."""
    found = discord.ui.View(timeout=None)
    for item in items:
        found.add_item(item)
    return found


def on_channel_message(click: discord.Interaction[Any]) -> bool:
    """Whether the click was on a message everyone in a server channel sees (not a DM, not an
    ephemeral one): a table message."""
    message = click.message
    return click.guild_id is not None and message is not None and not message.flags.ephemeral


def table_of(message: discord.Message) -> int | None:
    """The table a message's components belong to (``<game>:<table>:...``)."""
    for row in message.components:
        for item in getattr(row, "children", ()):
            parts = str(getattr(item, "custom_id", "") or "").split(":")
            if len(parts) >= 4 and parts[1].isdigit():
                return int(parts[1])
    return None


def deferred_update(interaction: discord.Interaction[Any]) -> bool:
    """Whether the click was acknowledged as an update of its own message (type 6), so that its
    token edits that message."""
    kind = interaction.response.type
    return kind in (
        discord.InteractionResponseType.deferred_message_update,
        discord.InteractionResponseType.message_update,
    )


def dialog_values(items: Iterable[discord.ui.Item[Any]]) -> tuple[str, ...]:
    """A routed dialog's fields, in order: a text field's text, a select menu's picks joined by
    commas (empty when none was picked)."""
    values: list[str] = []
    for item in items:
        if isinstance(item, discord.ui.TextInput):
            values.append(item.value)
        elif isinstance(item, discord.ui.Select):
            values.append(",".join(str(v) for v in item.values))
    return tuple(values)


def dialog_fields(components: Sequence[Any], out: dict[str, str]) -> None:
    """A submitted dialog's fields, by custom_id, in order, as :func:`dialog_values` reads them
    when discord.py routes the submit (a text field's ``value``, a select menu's ``values``
    joined by commas), also inside a label (``component``)."""
    for component in components:
        if not isinstance(component, dict):
            continue
        if "custom_id" in component and "value" in component:
            out[str(component["custom_id"])] = str(component["value"] or "")
        elif "custom_id" in component and isinstance(component.get("values"), list):
            out[str(component["custom_id"])] = ",".join(str(v) for v in component["values"])
        dialog_fields(component.get("components") or [], out)
        inner = component.get("component")
        if isinstance(inner, dict):
            dialog_fields([inner], out)
