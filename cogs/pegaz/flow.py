"""After a step: tell everyone what happened, each only what they may see.

For one outcome, in this order: each newly dealt hand by DM to whoever plays that seat (an NPC's
to its GM), the detection rolls by DM to the table's GM (its opener), ONE channel message with the
public events (pinging exactly the users it names: whose turn, who must choose, who failed to get
a DM), and ONE edit of the table message, drawn from the table as it stands now. Timeouts come
through the same path (``on_table_outcome``).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import Lang, t
from bot.render.pegaz import Roster, Who, hand_embed, name_of, table_embed
from bot.render.pegaz_events import gm_lines, mention_of, public_lines
from bot.replies import send_dm
from bot.rules import pegaz
from bot.services.errors import UnknownCharacter
from bot.services.outcomes import TableOutcome, TableView
from cogs.pegaz.views import choices_view, table_view

if TYPE_CHECKING:
    from bot.app import SzulerniaBot

log = logging.getLogger(__name__)
CONTENT_MAX = 2000
_MENTION = re.compile(r"<@(\d+)>")


def mentions(text: str) -> discord.AllowedMentions:
    """Ping exactly the users a text names."""
    users = [discord.Object(int(i)) for i in dict.fromkeys(_MENTION.findall(text))]
    return discord.AllowedMentions(users=users) if users else discord.AllowedMentions.none()


def clip(text: str, limit: int = CONTENT_MAX) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _players(states: Iterable[pegaz.PegazState], events: Sequence[Any]) -> list[int]:
    found: dict[int, None] = {}
    for state in states:
        found.update(dict.fromkeys(s.player for s in state.seats))
    for event in events:
        for name in ("player", "target", "cheater"):
            value = getattr(event, name, None)
            if isinstance(value, int):
                found[value] = None
    return list(found)


async def roster_of(
    bot: SzulerniaBot, states: Iterable[pegaz.PegazState], events: Sequence[Any] = ()
) -> dict[int, Who]:
    """Who plays each seat (names, owners) of these states and events."""
    out: dict[int, Who] = {}
    for player in _players(states, events):
        try:
            c = await bot.services.characters.get(player)
        except UnknownCharacter:  # deleted since the game
            continue
        out[player] = Who(c.name, c.owner_id, c.is_npc)
    return out


def dealt_players(events: Sequence[Any]) -> list[int]:
    """Players who got new cards in these events, in order."""
    return list(dict.fromkeys(e.player for e in events if isinstance(e, pegaz.Dealt | pegaz.Drew)))


class Publisher:
    """Renders outcomes for one bot; one table's renders never interleave."""

    def __init__(self, bot: SzulerniaBot) -> None:
        self.bot = bot
        self._locks: dict[int, asyncio.Lock] = {}

    def _lock(self, table_id: int) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    async def lang(self, guild_id: int) -> Lang:
        return await self.bot.services.guilds.language(guild_id)

    def channel(self, view: TableView) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(view.channel_id, guild_id=view.guild_id)

    async def publish(self, outcome: TableOutcome) -> None:
        """Tell the players, the GM and the channel what one step did (see the module doc)."""
        self.bot.timers.poke()
        if outcome.repeated:
            return
        async with self._lock(outcome.table_id):
            view = await self.bot.services.tables.get(outcome.table_id)
            lang = await self.lang(view.guild_id)
            state: pegaz.PegazState = outcome.state
            roster = await roster_of(self.bot, (state, view.state), outcome.events)
            lines = public_lines(outcome.events, state, roster, lang)
            try:
                for player in dealt_players(outcome.events):
                    if (
                        pegaz.hand_of(state, player)
                        and await self.send_hand(view, state, player, roster, lang) is None
                    ):
                        lines.append(
                            t(
                                lang,
                                "pegaz.ev.dm_closed",
                                user=mention_of(roster, player),
                                name=name_of(roster, player),
                            )
                        )
                await self._tell_gm(view, outcome.events, roster, lang)
                if lines:
                    text = clip("\n".join(lines))
                    await self.channel(view).send(text, allowed_mentions=mentions(text))
            finally:
                # The step is saved: whatever failed above, the table message must show it, or
                # its buttons would stay one version behind (and be refused as stale) for good.
                await self._redraw(view, roster, lang)

    async def send_hand(
        self,
        view: TableView,
        state: pegaz.PegazState,
        player: int,
        roster: Roster,
        lang: Lang,
    ) -> discord.Message | None:
        """DM a seat's cards (and its choices) to whoever plays it; None if DMs are closed."""
        who = roster.get(player)
        if who is None:
            return None
        embed = hand_embed(
            state,
            player,
            table_id=view.table_id,
            channel_id=view.channel_id,
            roster=roster,
            lang=lang,
        )
        choices = choices_view(state, player, view.table_id, lang)
        return await send_dm(self.bot, who.user_id, embed=embed, view=choices)

    async def _tell_gm(
        self, view: TableView, events: Sequence[Any], roster: Roster, lang: Lang
    ) -> None:
        lines = gm_lines(events, roster, lang, table_id=view.table_id)
        if lines:
            gm = await self.bot.services.tables.opener(view.table_id)
            await send_dm(self.bot, gm, clip("\n".join(lines)))

    async def _redraw(self, view: TableView, roster: Roster, lang: Lang) -> None:
        """Draw the table message as the table stands (one edit; a new one if it is gone)."""
        embed = table_embed(
            view.state, table_id=view.table_id, roster=roster, lang=lang, deadline=view.deadline
        )
        buttons = table_view(view.state, view.table_id, view.version, roster, lang)
        channel = self.channel(view)
        if view.message_id is not None:
            try:
                await channel.get_partial_message(view.message_id).edit(embed=embed, view=buttons)
                return
            except discord.NotFound:
                log.info("the message of table %d is gone; posting it again", view.table_id)
        message = await channel.send(embed=embed, view=buttons)
        await self.bot.services.tables.set_message(view.table_id, message.id)

    async def post_table(self, table_id: int) -> None:
        """Post a new table's message and remember it (a table has none yet: it is posted)."""
        view = await self.bot.services.tables.get(table_id)
        async with self._lock(table_id):
            lang = await self.lang(view.guild_id)
            await self._redraw(view, await roster_of(self.bot, (view.state,)), lang)

    async def warn(self, table_id: int, version: int) -> None:
        """Ping whoever must act ~a minute before their time runs out."""
        view = await self.bot.services.tables.get(table_id)
        if view.game != pegaz.GAME or view.version != version or view.deadline is None:
            return
        waiting = pegaz.to_act(view.state)
        if not waiting:
            return
        lang = await self.lang(view.guild_id)
        roster = await roster_of(self.bot, (view.state,))
        users = ", ".join(dict.fromkeys(mention_of(roster, p) for p in waiting))
        text = t(lang, "pegaz.ev.warning", users=users, at=f"<t:{view.deadline // 1000}:R>")
        await self.channel(view).send(text, allowed_mentions=mentions(text))
