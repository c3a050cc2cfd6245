"""Small message helpers of the publisher: a draft sent by DM, an edit or a follow-up through a
click's token, the errors that mean a message is gone for good, and taking the buttons off a
replaced table message."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord.http import handle_message_parameters
from discord.webhook.async_ import async_context

from cogs.kit.frame import Draft
from cogs.replies import send_dm

if TYPE_CHECKING:
    from bot.app import SzulerniaBot

log = logging.getLogger(__name__)

UNREACHABLE = frozenset({10003, 10008, 30046, 50001, 50013})
"""Unknown channel or message, too old to edit, missing access or permissions: post again."""


async def dm(bot: SzulerniaBot, user_id: int, draft: Draft, nonce: str) -> discord.Message | None:
    picture = draft.picture
    return await send_dm(
        bot,
        user_id,
        draft.content,
        embed=draft.embed,
        view=draft.view,
        nonce=nonce,
        file=None if picture is None else picture.file,
    )


async def edit_original(interaction: discord.Interaction[Any], **fields: Any) -> None:
    """``interaction.edit_original_response(**fields)``, less what nothing here needs: discord.py
    would parse the message Discord sends back, and keep the view in its view store to dispatch
    the message's components (the kit receives its components itself, ``TableKit.received``).
    Most moves make one such edit (the table message), so this is on every move's path."""
    adapter = async_context.get()
    await _through_token(interaction, adapter.edit_original_interaction_response, fields)


async def follow_up(
    interaction: discord.Interaction[Any], *, ephemeral: bool = False, **fields: Any
) -> None:
    """``interaction.followup.send(**fields)``, less the same two things as
    :func:`edit_original` (a view of an ephemeral follow-up would stay in the view store for 15
    minutes, another's for good). The announcements of most moves go this way."""
    if ephemeral:
        fields["flags"] = discord.MessageFlags(ephemeral=True)
    send = functools.partial(
        async_context.get().execute_webhook,
        wait=True,  # what Discord does for an interaction's follow-up in any case
        with_components="view" in fields,
    )
    await _through_token(interaction, send, fields)


async def _through_token(
    interaction: discord.Interaction[Any], request: Callable[..., Any], fields: dict[str, Any]
) -> None:
    """One request through the click's token, built as discord.py builds it; its reply unread."""
    state = interaction._state
    http = state.http
    with handle_message_parameters(
        previous_allowed_mentions=state.allowed_mentions, **fields
    ) as params:
        await request(
            interaction.application_id,
            interaction.token,
            session=interaction._session,
            proxy=http.proxy,
            proxy_auth=http.proxy_auth,
            payload=params.payload,
            multipart=params.multipart,
            files=params.files,
        )


def unreachable(exc: discord.HTTPException) -> bool:
    return isinstance(exc, discord.NotFound | discord.Forbidden) or exc.code in UNREACHABLE


async def strip(channel: discord.PartialMessageable, message_id: int) -> None:
    """Take the buttons off a table message that was replaced (where Discord still lets us)."""
    try:
        await channel.get_partial_message(message_id).edit(view=None)
    except discord.HTTPException:
        log.info("the replaced table message %d keeps its buttons (refused)", message_id)
