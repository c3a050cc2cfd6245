"""A click's acknowledgement: the redrawn message itself where that is quick, else a deferral.

The kit acknowledges a click before it touches the database (:meth:`TableKit.ack`), but it does
not send the deferral at once: :func:`defer_soon` sends it :data:`GRACE` later. If the click's
step and its table's pass are done within the grace, the pass answers the click with the
redrawn message (:func:`answer_update`: one UPDATE_MESSAGE response, where a deferral and an
edit through the token are two requests and a round trip more). Whatever else needs the click
acknowledged first (a follow-up, an edit through its token, a refusal) sends the deferral at
once (:func:`settle`). So a click is acknowledged within the grace and the event loop's lag,
whatever the database does, and a quick move is one response.

One response per click: the deferral, a redraw, or a direct response of a handler. Whoever
answers marks the click first, in the same turn of the event loop (:func:`take`), so a timer
that fires while another answer is on the wire sends nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

import discord
from discord.webhook.async_ import async_context, interaction_message_response_params

log = logging.getLogger(__name__)

GRACE = 0.05
"""Seconds a click waits for its redraw before it is deferred (Discord allows three)."""
_KEY = "szulernia.ack"
_ON_A_MESSAGE = (discord.InteractionType.component, discord.InteractionType.modal_submit)
_RUNNING: set[asyncio.Future[None]] = set()


class _Pending:
    """A click whose deferral is scheduled; ``sent`` once someone answers it."""

    __slots__ = ("sent", "timer")

    def __init__(self, timer: asyncio.Handle | None) -> None:
        self.timer = timer
        self.sent: asyncio.Future[None] | None = None


def defer_soon(interaction: discord.Interaction[Any]) -> None:
    """Acknowledge the click as a deferred update of its message within :data:`GRACE`,
    unless the redraw (or anything else) answers it first."""
    if interaction.response.is_done() or _KEY in interaction.extras:
        return
    timer = asyncio.get_running_loop().call_later(GRACE, _fire, interaction)
    interaction.extras[_KEY] = _Pending(timer)


def pending(interaction: discord.Interaction[Any]) -> bool:
    """Whether the click's deferral is scheduled and nothing has answered it yet."""
    found = interaction.extras.get(_KEY)
    return isinstance(found, _Pending) and found.sent is None


def scheduled(interaction: discord.Interaction[Any]) -> bool:
    """Whether the click was or will be acknowledged as an update of its message here."""
    return isinstance(interaction.extras.get(_KEY), _Pending)


async def settle(interaction: discord.Interaction[Any]) -> None:
    """Make sure the click's acknowledgement went out (send a scheduled deferral now); never
    raises for Discord's refusal of it (what follows through the token fails in its turn)."""
    found = interaction.extras.get(_KEY)
    if not isinstance(found, _Pending):
        return
    sent = found.sent if found.sent is not None else take(interaction, _defer(interaction))
    if sent is not None:
        await asyncio.shield(sent)


async def acknowledge(interaction: discord.Interaction[Any]) -> None:
    """Acknowledge now, as a deferred update of the clicked message, unless it already was."""
    await settle(interaction)
    if not interaction.response.is_done() and _KEY not in interaction.extras:
        sent = take(interaction, _defer(interaction))
        if sent is not None:
            await asyncio.shield(sent)


def take(
    interaction: discord.Interaction[Any], answer: Coroutine[Any, Any, None]
) -> asyncio.Future[None] | None:
    """Send ``answer`` (a coroutine) as the click's one response, unless one was sent or is on
    the wire: then close it and return None. The future of the response otherwise (it never
    raises: a refusal is logged)."""
    found = interaction.extras.get(_KEY)
    if interaction.response.is_done() or (isinstance(found, _Pending) and found.sent is not None):
        answer.close()
        return None
    if not isinstance(found, _Pending):
        found = interaction.extras[_KEY] = _Pending(None)
    if found.timer is not None:
        found.timer.cancel()
    sent: asyncio.Future[None] = asyncio.ensure_future(answer)
    found.sent = sent
    _RUNNING.add(sent)
    sent.add_done_callback(_RUNNING.discard)
    return sent


async def answer_update(interaction: discord.Interaction[Any], fields: dict[str, Any]) -> bool:
    """Answer a click still waiting for its acknowledgement with its message redrawn
    (``fields`` as for :meth:`discord.Message.edit`); False, sending nothing, if the click was
    answered otherwise (or is being). Raises what Discord refuses, once the click is
    acknowledged by a deferral instead."""
    if not pending(interaction) and not _unanswered(interaction):
        return False
    failed: list[BaseException] = []
    sent = take(interaction, _update(interaction, fields, failed))
    if sent is None:
        return False
    await asyncio.shield(sent)
    if failed:
        raise failed[0]
    return True


def _unanswered(interaction: discord.Interaction[Any]) -> bool:
    """A click on a message (or a dialog opened from one) that nobody answered yet."""
    return (
        interaction.message is not None
        and interaction.type in _ON_A_MESSAGE
        and not interaction.response.is_done()
        and _KEY not in interaction.extras
    )


def _fire(interaction: discord.Interaction[Any]) -> None:
    if pending(interaction):
        take(interaction, _defer(interaction))


async def _defer(interaction: discord.Interaction[Any]) -> None:
    try:
        await interaction.response.defer()
    except discord.InteractionResponded:
        pass
    except discord.HTTPException as exc:
        log.warning("a click could not be acknowledged (%s %s)", exc.status, exc.code)
    except Exception as exc:  # the network: what follows fails in its turn
        log.warning("a click could not be acknowledged (%r)", exc)


async def _update(
    interaction: discord.Interaction[Any], fields: dict[str, Any], failed: list[BaseException]
) -> None:
    """UPDATE_MESSAGE, built as discord.py builds it, less its parsing of the callback's reply
    and its view store (as ``cogs.kit.messages.edit_original``)."""
    state = interaction._state
    http = state.http
    params = interaction_message_response_params(
        type=discord.InteractionResponseType.message_update.value,
        previous_allowed_mentions=state.allowed_mentions,
        **fields,
    )
    try:
        await async_context.get().create_interaction_response(
            interaction.id,
            interaction.token,
            session=interaction._session,
            proxy=http.proxy,
            proxy_auth=http.proxy_auth,
            params=params,
        )
    except Exception as exc:  # handed to the caller, who answers for it
        failed.append(exc)
        await _defer(interaction)  # the click is still acknowledged, as it would have been
        return
    interaction.response._response_type = discord.InteractionResponseType.message_update
