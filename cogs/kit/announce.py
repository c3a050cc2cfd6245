"""A version's announcements where its table talks (its channel, or its thread: see
``cogs.kit.threads``), posted exactly once (see the publisher)."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.services.outcomes import TableView
from bot.services.surfaces import HandMark, Marks
from cogs.kit.frame import Draft, Post
from cogs.kit.messages import dm, follow_up

if TYPE_CHECKING:
    from bot.app import SzulerniaBot

log = logging.getLogger(__name__)

LOOK_BACK = 50
"""How many of a channel's newest messages are searched for a follow-up sent before a crash."""
POSTS_KEPT = 20
"""A table this many versions behind skips the older posts: newer ones supersede them."""
CLOSED_DM = "closed"
"""The digest of a hand that could not be sent (DMs closed): the seat was told once."""


class Announcer:
    """Posts one version's announcements in ``channel_id`` (where the table talks), once.

    Through the click that made the step, as its follow-ups, where it can (they do not count
    against Discord's global rate limit): the version is first *claimed* (a mark: by the step's
    own transaction, or here), so that a pass after a crash knows the follow-up may have gone
    out, and looks for it in the channel before posting it (with a nonce) itself. Otherwise by a
    channel message with a nonce. In a table's thread always so: a follow-up goes to the
    click's own channel, so none was sent and a claim means nothing there.
    """

    def __init__(
        self,
        bot: SzulerniaBot,
        table: TableView,
        marks: Marks,
        version: int,
        via: discord.Interaction[Any] | None,
        channel_id: int | None = None,
    ) -> None:
        self.bot = bot
        self.table = table
        self.version = version
        where = table.channel_id if channel_id is None else channel_id
        self.channel = self.bot.get_partial_messageable(where, guild_id=table.guild_id)
        self.via = (
            via
            if via is not None
            and version == table.version
            and via.channel_id == where
            and not via.is_expired()
            else None
        )
        self.maybe_sent = version <= marks.claimed_version and where == table.channel_id

    async def send(self, draft: Draft, nonce: str) -> bool:
        if self.via is not None:
            if not self.maybe_sent:  # else the step claimed it (or an earlier post of it)
                await self.bot.services.surfaces.claimed(self.table.table_id, self.version)
                self.maybe_sent = True
            try:
                await follow_up(self.via, **draft.send())
                return True
            except discord.HTTPException as exc:  # an expired or refused token: post it
                log.info("table %d: a follow-up was refused (%s)", self.table.table_id, exc.status)
                self.via = None
        if self.maybe_sent and await self._already_there(draft):
            return True
        if self.channel.id != self.table.channel_id:  # its thread: if archived, the channel
            sent = await send(self.channel, draft, nonce, self.table.table_id, thread=True)
            if sent is not None:
                return sent
            self.channel = self.bot.get_partial_messageable(
                self.table.channel_id, guild_id=self.table.guild_id
            )
        return bool(await send(self.channel, draft, nonce, self.table.table_id))

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


class Posting:
    """One pass's posts: every version's not yet posted, oldest first, each version's through
    an :class:`Announcer`; the hand DMs among them are noted in ``hands`` (the pass's)."""

    def __init__(
        self,
        bot: SzulerniaBot,
        table: TableView,
        marks: Marks,
        via: discord.Interaction[Any] | None,
        hands: dict[int, HandMark],
        channel_id: int,
    ) -> None:
        self.bot, self.table, self.marks, self.via = bot, table, marks, via
        self.hands = hands
        self.channel_id = channel_id

    async def versions(self, posts: Mapping[int, Sequence[Post]]) -> bool:
        table = self.table
        oldest = table.version - POSTS_KEPT
        for version in sorted(v for v in posts if v > self.marks.posted_version):
            if version <= oldest:
                log.info("table %d: skipping the posts of version %d", table.table_id, version)
                continue
            said = Announcer(self.bot, table, self.marks, version, self.via, self.channel_id)
            if not await self._version(version, posts[version], said):
                return False
        return True

    async def _version(self, version: int, posts: Sequence[Post], said: Announcer) -> bool:
        table_id = self.table.table_id
        notices: list[str] = []
        for index, post in enumerate(posts):
            nonce = f"{table_id}.{version}.{index}"
            if post.to_user is not None:
                sent = await dm(self.bot, post.to_user, post.draft, nonce)
                if sent is None and post.undelivered:
                    notices.append(post.undelivered)
                if post.hand_of is not None:
                    mark = HandMark(post.hand_of, None, None, CLOSED_DM)
                    if sent is not None:
                        mark = HandMark(post.hand_of, sent.channel.id, sent.id, post.draft.digest())
                    self.hands[post.hand_of] = mark
                continue
            draft = post.draft
            if notices and draft.content is not None and draft.embed is None:
                draft = with_lines(draft, notices)
                notices = []
            if not await said.send(draft, nonce):
                return False
        if notices:
            return await said.send(with_lines(Draft(), notices), f"{table_id}.{version}.n")
        return True


def with_lines(draft: Draft, lines: Sequence[str]) -> Draft:
    text = "\n".join([*([draft.content] if draft.content else []), *lines])
    users = [discord.Object(int(i)) for i in _mentioned(text)]
    allowed = discord.AllowedMentions(users=users) if users else discord.AllowedMentions.none()
    return Draft(text[:2000], draft.embed, draft.view, allowed, draft.picture)


def _mentioned(text: str) -> list[str]:
    return list(dict.fromkeys(re.findall(r"<@(\d+)>", text)))


THREAD_GONE = frozenset({10003, 50001, 50013, 50083})
"""Unknown channel, missing access or permissions, an archived thread."""


async def send(
    channel: discord.PartialMessageable,
    draft: Draft,
    nonce: str,
    table_id: int,
    *,
    thread: bool = False,
) -> bool | None:
    """Post ``draft``: True if it went out or never may (403), False to retry later. In a
    ``thread``, None where the thread takes no message (archived, gone, no permission)."""
    try:
        await channel.send(**draft.send(), nonce=nonce)
        return True
    except discord.HTTPException as exc:
        refused = isinstance(exc, discord.Forbidden | discord.NotFound) or exc.code in THREAD_GONE
        if thread and refused:
            log.info("table %d: its thread takes no message (%s); the channel", table_id, exc.code)
            return None
        if isinstance(exc, discord.Forbidden):  # nothing may be posted: do not stall the game
            log.warning("table %d: an announcement was refused (%s); skipped", table_id, exc.code)
            return True
        log.warning(
            "table %d: an announcement could not be posted (%s %s); will retry",
            table_id, exc.status, exc.code,
        )  # fmt: skip
        return False
