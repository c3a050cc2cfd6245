"""Answering interactions: the guild's language, ephemeral errors, and a guard for callbacks.

Every domain error (rules, money, services, permissions) becomes an ephemeral message in the
guild's language that says what to do; nothing was changed. Anything unexpected is logged with a
short reference that the player also sees, so a GM can find it in the log.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, ClassVar, cast

import discord
from discord import app_commands

from bot.i18n import Lang, t
from bot.render.errors import error_text
from bot.rules.common import DomainError

if TYPE_CHECKING:
    from bot.app import SzulerniaBot

log = logging.getLogger(__name__)


class Refused(DomainError):
    """A refusal named where it is raised by its catalogue code (``error.<code>``): the user may
    not do this (``not_opener``, ``gm_role_unknown``...) or typed something unusable. A command's
    check refuses with a :class:`CheckRefusal` instead, told the same way."""

    def __init__(self, code: str, **params: object) -> None:
        self.code = code
        super().__init__(**params)


class CheckRefusal(app_commands.CheckFailure):
    """A command's check refused the user (see ``cogs.common.gm_only``); ``code`` is the
    catalogue code of the refusal they hear, the same as a :class:`Refused` of that code."""

    code: ClassVar[str]


class MalformedInteraction(app_commands.AppCommandError):
    """discord.py could not read an interaction's payload (see ``SzulerniaTree._call``)."""


# discord.py's errors for a payload that doesn't fit the commands: the command is unknown or
# its options changed (Discord still syncing), or a value could not be read.
OUTDATED = (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)
INVALID = (app_commands.TransformerError, MalformedInteraction)


def bot_of(interaction: discord.Interaction[Any]) -> SzulerniaBot:
    return cast("SzulerniaBot", interaction.client)


async def lang_of(interaction: discord.Interaction[Any]) -> Lang:
    bot = bot_of(interaction)
    if interaction.guild_id is None:
        return bot.settings.bot.language
    locale = interaction.guild_locale  # the server's own, until a GM chooses a language
    return await bot.services.guilds.language(
        interaction.guild_id, None if locale is None else str(locale)
    )


async def answer(
    interaction: discord.Interaction[Any],
    content: str | None = None,
    *,
    embed: discord.Embed | None = None,
    view: discord.ui.View | None = None,
    ephemeral: bool = True,
    mention: discord.abc.Snowflake | None = None,
    file: discord.File | None = None,
) -> None:
    """Reply, or follow up when the interaction was already answered or deferred.

    Mentions are off except for ``mention`` (a user who should be pinged).
    """
    allowed = (
        discord.AllowedMentions(users=[mention]) if mention else discord.AllowedMentions.none()
    )
    kwargs: dict[str, Any] = {"ephemeral": ephemeral, "allowed_mentions": allowed}
    if embed is not None:
        kwargs["embed"] = embed
    if view is not None:
        kwargs["view"] = view
    if file is not None:
        kwargs["file"] = file
    if interaction.response.is_done():
        await interaction.followup.send(content or discord.utils.MISSING, **kwargs)
    else:
        await interaction.response.send_message(content, **kwargs)


async def report(
    interaction: discord.Interaction[Any], error: BaseException, *, lang: Lang | None = None
) -> None:
    """Tell the user what went wrong, ephemerally, in the guild's language (or ``lang``: e.g.
    the language of the table a button in a DM belongs to). A failed check (a guild-only or a GM
    command) is told as the :class:`Refused` of its code."""
    original = getattr(error, "original", None) or error
    if isinstance(original, app_commands.NoPrivateMessage):
        original = Refused("guild_only")
    elif isinstance(original, CheckRefusal):
        original = Refused(original.code)
    elif isinstance(original, (*OUTDATED, *INVALID)):
        log.warning("refused a malformed interaction (%s)", type(original).__name__)
        outdated = isinstance(original, OUTDATED)
        original = Refused("command_outdated" if outdated else "option_invalid")
    lang = lang or await _safe_lang(interaction)
    text = error_text(lang, original) if isinstance(original, Exception) else None
    if text is None:
        ref = secrets.token_hex(3)
        log.error("unexpected error (ref %s)", ref, exc_info=original)
        text = t(lang, "error.unexpected", ref=ref)
    else:
        log.debug("refused: %r", original)
    try:
        if interaction.type is discord.InteractionType.autocomplete:
            if not interaction.response.is_done():  # it can only answer with choices
                await interaction.response.autocomplete([])
            return
        await answer(interaction, text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell the user about an error")


async def _safe_lang(interaction: discord.Interaction[Any]) -> Lang:
    try:
        return await lang_of(interaction)
    except Exception:
        return "en"


async def guarded(
    interaction: discord.Interaction[Any],
    handler: Callable[[], Awaitable[None]],
) -> None:
    """Run a component callback as work in flight; any error becomes an ephemeral answer (see
    :func:`report`)."""
    bot_of(interaction).in_flight.join()
    try:
        await handler()
    except Exception as exc:
        await report(interaction, exc)


def _attached(file: Callable[[], discord.File] | None) -> dict[str, Any]:
    return {} if file is None else {"file": file()}


async def send_dm(
    bot: SzulerniaBot,
    user_id: int,
    content: str | None = None,
    *,
    embed: discord.Embed | None = None,
    view: discord.ui.View | None = None,
    nonce: str | None = None,
    file: Callable[[], discord.File] | None = None,
) -> discord.Message | None:
    """DM a user; None when their DMs are closed (the caller then points them at the
    "Show my hand" button, which always works). With a ``nonce``, Discord posts it only once.
    ``file``: makes the attachment (a file is read once, and a send may be tried twice)."""
    kwargs: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions.none()}
    if nonce is not None:
        kwargs["nonce"] = nonce
    if embed is not None:
        kwargs["embed"] = embed
    if view is not None:
        kwargs["view"] = view
    try:
        known = bot.dm_channels.get(user_id)
        if known is not None:
            try:
                channel = bot.get_partial_messageable(known, type=discord.ChannelType.private)
                return await channel.send(content, **kwargs, **_attached(file))
            except discord.NotFound:  # the DM channel is gone: open it again
                bot.dm_channels.pop(user_id, None)
        # straight to Discord: discord.py's own cache may still hold the channel that is gone
        opened = int((await bot.http.start_private_message(user_id))["id"])
        bot.dm_channels[user_id] = opened
        channel = bot.get_partial_messageable(opened, type=discord.ChannelType.private)
        return await channel.send(content, **kwargs, **_attached(file))
    except discord.Forbidden:
        log.info("DMs closed for a player; they will use the ephemeral fallback")
        return None
    except discord.HTTPException as exc:  # an unknown or deleted user, a refused body...
        log.warning(
            "could not DM a player (%s %s); the ephemeral fallback stays", exc.status, exc.code
        )
        return None
