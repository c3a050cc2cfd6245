"""The gate: a slash command's payload checked against what the command declares, before
discord.py reads it.

Discord's clients honour an option's type, ``required``, range, length and choices, but discord.py
trusts whatever arrives: a string where a number belongs, a 10,000-character ``reason``, an
``exchanges`` of 10^30, a role id that is no snowflake or that Discord did not resolve. Each of
those would reach the command (or crash discord.py's own parsing); here it becomes a
:class:`~cogs.replies.Refused` that names the option, as the user's client shows it.

The declarations are read from the command tree (``app_commands.Range``, ``choices``,
``Literal``), so an option is enforced here exactly as it is synced to Discord.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

import discord
from discord import AppCommandOptionType as Opt
from discord import app_commands

from bot.i18n import command_strings, valid_name
from cogs.replies import Refused

SNOWFLAKE = re.compile(r"[0-9]{1,20}")
MAX_SNOWFLAKE = 2**64 - 1
MAX_STRING = 6000  # Discord's own ceiling for a string option
MAX_INTEGER = 2**53  # Discord's own range for integer and number options
SUBCOMMAND, GROUP = 1, 2
RESOLVED: dict[Opt, tuple[str, ...]] = {
    Opt.user: ("users",),
    Opt.channel: ("channels",),
    Opt.role: ("roles",),
    Opt.mentionable: ("users", "roles"),
    Opt.attachment: ("attachments",),
}


def shown_name(name: str, locale: discord.Locale) -> str:
    """An option's name as this user's client shows it (see ``bot.i18n.Translator``)."""
    if locale is not discord.Locale.polish:
        return name
    strings = command_strings("pl")
    text = strings.get("name:" + name) or strings.get(name)
    return text if text is not None and valid_name(text) else name


def check(
    tree: app_commands.CommandTree[Any], interaction: discord.Interaction[Any]
) -> Refused | None:
    """Why this slash command (or its autocomplete) can't be run as sent, or None if it can."""
    data = interaction.data
    if not isinstance(data, Mapping) or data.get("type", 1) != 1:
        return None if isinstance(data, Mapping) else Refused("command_outdated")
    found = _leaf(tree, data)
    if found is None:
        return Refused("command_outdated")
    command, options = found
    resolved = data.get("resolved", {})
    if not isinstance(resolved, Mapping):
        return Refused("option_invalid")
    autocomplete = interaction.type is discord.InteractionType.autocomplete
    params = {param.display_name: param for param in command.parameters}
    seen: set[str] = set()
    for option in options:
        name = option.get("name") if isinstance(option, Mapping) else None
        param = params.get(name) if isinstance(name, str) else None
        if param is None or name in seen or not isinstance(option, Mapping):
            return Refused("command_outdated")
        seen.add(param.display_name)
        shown = shown_name(param.display_name, interaction.locale)
        if option.get("type") != param.type.value or "value" not in option:
            return Refused("option_type", option=shown)
        problem = _value(param, option["value"], resolved, partial=autocomplete)
        if problem is not None:
            return Refused(problem[0], option=shown, **problem[1])
    if not autocomplete:
        for param in command.parameters:
            if param.required and param.display_name not in seen:
                name = shown_name(param.display_name, interaction.locale)
                return Refused("option_missing", option=name)
    return None


def _leaf(
    tree: app_commands.CommandTree[Any], data: Mapping[str, Any]
) -> tuple[app_commands.Command[Any, ..., Any], list[Any]] | None:
    """The command a payload names, and the options given to it (None: no such command)."""
    name, guild_id = data.get("name"), data.get("guild_id")
    if not isinstance(name, str):
        return None
    command: app_commands.Command[Any, ..., Any] | app_commands.Group | None = None
    if isinstance(guild_id, str) and SNOWFLAKE.fullmatch(guild_id):
        found = tree.get_command(name, guild=discord.Object(int(guild_id)))
        command = found if isinstance(found, app_commands.Command | app_commands.Group) else None
    if command is None:
        found = tree.get_command(name)
        command = found if isinstance(found, app_commands.Command | app_commands.Group) else None
    options = data.get("options", [])
    while isinstance(command, app_commands.Group):
        if not isinstance(options, list) or len(options) != 1:
            return None
        sub = options[0]
        if not isinstance(sub, Mapping) or sub.get("type") not in (SUBCOMMAND, GROUP):
            return None
        sub_name = sub.get("name")
        command = command.get_command(sub_name) if isinstance(sub_name, str) else None
        options = sub.get("options", [])
    if command is None or not isinstance(options, list):
        return None
    return command, options


Problem = tuple[str, dict[str, object]]


def _value(
    param: app_commands.Parameter, value: Any, resolved: Mapping[str, Any], *, partial: bool
) -> Problem | None:
    """What is wrong with one option's value, if anything.

    During autocomplete Discord sends what is typed so far, any type: only the ids of users,
    roles and channels must be real (discord.py turns them into objects at once)."""
    kind = param.type
    if kind in RESOLVED:
        return _snowflake(kind, value, resolved)
    if partial:
        return None
    if kind is Opt.string:
        if not isinstance(value, str):
            return "option_type", {}
        low, high = int(param.min_value or 0), int(param.max_value or MAX_STRING)
        if not low <= len(value) <= high:
            return "option_length", {"min": low, "max": high}
    elif kind in (Opt.integer, Opt.number):
        number = isinstance(value, int) if kind is Opt.integer else isinstance(value, int | float)
        if not number or isinstance(value, bool) or not math.isfinite(value):
            return "option_type", {}
        least = param.min_value if param.min_value is not None else -MAX_INTEGER
        most = param.max_value if param.max_value is not None else MAX_INTEGER
        if not least <= value <= most:
            return "option_range", {"min": least, "max": most}
    elif kind is Opt.boolean:
        if not isinstance(value, bool):
            return "option_type", {}
    else:
        return "option_type", {}
    if param.choices and value not in [choice.value for choice in param.choices]:
        return "option_choice", {}
    return None


def _snowflake(kind: Opt, value: Any, resolved: Mapping[str, Any]) -> Problem | None:
    """A user, role, channel or attachment option: an id that Discord resolved in the payload."""
    if not isinstance(value, str) or not SNOWFLAKE.fullmatch(value):
        return "option_unresolved", {}
    if int(value) > MAX_SNOWFLAKE:
        return "option_unresolved", {}
    for key in RESOLVED[kind]:
        items = resolved.get(key)
        if isinstance(items, Mapping) and isinstance(items.get(value), Mapping):
            return None
    return "option_unresolved", {}
