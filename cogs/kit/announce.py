"""A version's announcements in a table's channel, posted exactly once (see the publisher)."""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.services.outcomes import TableView
from bot.services.surfaces import Marks
from cogs.kit.frame import Draft

if TYPE_CHECKING:
    from bot.app import SzulerniaBot

log = logging.getLogger(__name__)

LOOK_BACK = 50
"""How many of a channel's newest messages are searched for a follow-up sent before a crash."""


class Announcer:
    """Posts one version's announcements in the table's channel, exactly once.

    Through the click that made the step, as its follow-ups, where it can (they do not count
    against Discord's global rate limit): the version is first *claimed* (a mark: by the step's
    own transaction, or here), so that a pass after a crash knows the follow-up may have gone
    out, and looks for it in the channel before posting it (with a nonce) itself. Otherwise by a
    channel message with a nonce.
    """

    def __init__(
        self,
        bot: SzulerniaBot,
        table: TableView,
        marks: Marks,
        version: int,
        via: discord.Interaction[Any] | None,
    ) -> None:
        self.bot = bot
        self.table = table
        self.version = version
        self.channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        self.via = (
            via
            if via is not None
            and version == table.version
            and via.channel_id == table.channel_id
            and not via.is_expired()
            else None
        )
        self.maybe_sent = version <= marks.claimed_version

    async def send(self, draft: Draft, nonce: str) -> bool:
        if self.via is not None:
            if not self.maybe_sent:  # else the step claimed it (or an earlier post of it)
                await self.bot.services.surfaces.claimed(self.table.table_id, self.version)
                self.maybe_sent = True
            try:
                await self.via.followup.send(**draft.send(), wait=True)
                return True
            except discord.HTTPException as exc:  # an expired or refused token: post it
                log.info("table %d: a follow-up was refused (%s)", self.table.table_id, exc.status)
                self.via = None
        if self.maybe_sent and await self._already_there(draft):
            return True
        return await send(self.channel, draft, nonce, self.table.table_id)

    async def _already_there(self, draft: Draft) -> bool:
        """Whether the channel's recent messages hold this announcement (a follow-up that went
        out before a crash). Only after a crash: it costs a request."""
        me = self.bot.user
        try:
            async for message in self.channel.history(limit=LOOK_BACK):
                if (
                    me is not None
                    and message.author.id == me.id
                    and (message.content == (draft.content or ""))
                ):
                    return True
        except discord.HTTPException as exc:
            log.warning(
                "table %d: could not read the channel (%s); posting",
                self.table.table_id,
                exc.status,
            )
        return False


def with_lines(draft: Draft, lines: Sequence[str]) -> Draft:
    text = "\n".join([*([draft.content] if draft.content else []), *lines])
    users = [discord.Object(int(i)) for i in _mentioned(text)]
    allowed = discord.AllowedMentions(users=users) if users else discord.AllowedMentions.none()
    return Draft(text[:2000], draft.embed, draft.view, allowed, draft.picture)


def _mentioned(text: str) -> list[str]:
    return list(dict.fromkeys(re.findall(r"<@(\d+)>", text)))


async def send(
    channel: discord.PartialMessageable, draft: Draft, nonce: str, table_id: int
) -> bool:
    try:
        await channel.send(**draft.send(), nonce=nonce)
        return True
    except discord.Forbidden as exc:  # nothing may be posted here: do not stall the game on it
        log.warning("table %d: an announcement was refused (%s); skipped", table_id, exc.code)
        return True
    except discord.HTTPException as exc:
        log.warning(
            "table %d: an announcement could not be posted (%s %s); will retry",
            table_id, exc.status, exc.code,
        )  # fmt: skip
        return False
