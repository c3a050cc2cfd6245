"""What a Three-Card Pegasus table shows, as a pure render of its state and its steps' events.

- the board: the table message (:func:`bot.render.pegaz.table_embed` and its buttons by phase);
- each step's posts, in order: each newly dealt hand by DM to whoever plays that seat (an NPC's
  to its GM), with a line in the channel when it cannot be delivered; the detection rolls by DM
  to the table's GM (its opener); ONE channel message with the public events, pinging exactly
  the users it names (whose turn, who must choose).

Pegasus has no hand surfaces to edit: each deal is a new DM (a player is notified of new cards),
and "Show my hand" always shows the hand as it stands.

Where the server shows images (``/settings images``), the board shows the table drawn
(``bot.render.images.pegaz.table``, what everyone sees), each hand DM its three cards, and a
check's announcement both hands side by side.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import Lang, t
from bot.render import images
from bot.render.pegaz import Roster, Who, hand_embed, iconed, name_of, table_embed
from bot.render.pegaz.events import gm_lines, mention_of, public_lines
from bot.rules import pegaz
from bot.services.outcomes import Character, TableView
from bot.services.table_rosters import Member
from cogs.kit.frame import Draft, Frame, Hand, Picture, Post, with_picture
from cogs.kit.pictures import Pictures
from cogs.kit.watch import with_side_bets
from cogs.pegaz.views import choices_view, table_view

if TYPE_CHECKING:
    from bot.app import SzulerniaBot

CONTENT_MAX = 2000
_MENTION = re.compile(r"<@(\d+)>")


def mentions(text: str) -> discord.AllowedMentions:
    """Ping exactly the users a text names."""
    users = [discord.Object(int(i)) for i in dict.fromkeys(_MENTION.findall(text))]
    return discord.AllowedMentions(users=users) if users else discord.AllowedMentions.none()


def clip(text: str, limit: int = CONTENT_MAX) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def who_of(characters: Mapping[int, Character] | Mapping[int, Member]) -> dict[int, Who]:
    return {cid: Who(c.name, c.owner_id, c.is_npc) for cid, c in characters.items()}


def dealt_players(events: Sequence[Any]) -> list[int]:
    """Players who got new cards in these events, in order."""
    return list(dict.fromkeys(e.player for e in events if isinstance(e, pegaz.Dealt | pegaz.Drew)))


def _players(state: pegaz.PegazState, events: Sequence[Any]) -> list[int]:
    found = dict.fromkeys(s.player for s in state.seats)
    for event in events:
        for name in ("player", "target", "cheater"):
            value = getattr(event, name, None)
            if isinstance(value, int):
                found[value] = None
    return list(found)


class PegazScene:
    def __init__(self, bot: SzulerniaBot) -> None:
        self.bot = bot
        self.pictures = Pictures()

    async def roster(self, state: pegaz.PegazState, events: Sequence[Any] = ()) -> dict[int, Who]:
        """Who plays each seat of the state and each player the events name."""
        return who_of(await self.bot.services.characters.many(_players(state, events)))

    async def frame(self, table: TableView, events: Mapping[int, Sequence[Any]]) -> Frame:
        state: pegaz.PegazState = table.state
        lang = await self.bot.services.guilds.language(table.guild_id)
        everything = [e for v in sorted(events) for e in events[v]]
        roster = await self.roster(state, everything)
        drawn = await self.bot.services.guilds.images(table.guild_id)
        board_picture = await self.board_picture(table, roster, lang) if drawn else None
        embed = table_embed(
            state, table_id=table.table_id, roster=roster, lang=lang, deadline=table.deadline
        )
        board = Draft(
            embed=with_picture(await with_side_bets(self.bot, table, embed, lang), board_picture),
            view=table_view(state, table.table_id, table.version, roster, lang),
            picture=board_picture,
        )
        pictures = await self.hand_pictures(table, lang) if drawn else {}
        gm = await self.bot.services.tables.opener(table.table_id)
        checks: dict[int, Picture] = {}  # a check's announcement shows both hands side by side
        for version, step in events.items() if drawn else ():
            checked = next((e for e in step if isinstance(e, pegaz.Checked)), None)
            if checked is not None:
                checks[version] = await self.check_picture(table, version, checked, roster, lang)
        posts = {
            version: self.posts(table, gm, step, roster, lang, pictures, checks.get(version))
            for version, step in events.items()
        }
        return Frame(board, posts, self.hands(table, roster, lang, pictures))

    async def public(self, table: TableView, lang: Lang) -> discord.Embed:
        """The board as a spectator sees it (``cogs.kit.watch``): the table message's text,
        without the turn clock."""
        roster = await self.roster(table.state)
        embed = table_embed(table.state, table_id=table.table_id, roster=roster, lang=lang)
        return await with_side_bets(self.bot, table, embed, lang)

    async def board_picture(self, table: TableView, roster: Roster, lang: Lang) -> Picture:
        seen = pegaz.view(table.state, None)
        names = {player: who.name for player, who in roster.items()}
        draw = partial(images.pegaz.table, seen, names, lang, table_id=table.table_id)
        return await self.pictures.draw(
            "pegaz_table", (table.table_id, table.version, None, lang), draw
        )

    async def check_picture(
        self, table: TableView, version: int, event: pegaz.Checked, roster: Roster, lang: Lang
    ) -> Picture:
        names = {player: who.name for player, who in roster.items()}
        die = table.state.settings.die
        draw = partial(images.pegaz.check, event, die, names, lang)
        return await self.pictures.draw("pegaz_check", (table.table_id, version, None, lang), draw)

    async def hand_pictures(
        self, table: TableView, lang: Lang, players: Sequence[int] | None = None
    ) -> dict[int, Picture]:
        """Each seat's hand (of ``players`` only, if given), drawn for that seat alone."""
        found: dict[int, Picture] = {}
        for seat in table.state.seats:
            if seat.hand and (players is None or seat.player in players):
                seen = pegaz.view(table.state, seat.player)
                draw = partial(images.pegaz.hand, seen, lang, table_id=table.table_id)
                key = (table.table_id, table.version, seat.player, lang)
                found[seat.player] = await self.pictures.draw("pegaz_hand", key, draw)
        return found

    def hands(
        self,
        table: TableView,
        roster: Roster,
        lang: Lang,
        pictures: Mapping[int, Picture] | None = None,
    ) -> dict[int, Hand]:
        """Each seat's newest hand DM, kept showing the hand as it stands (its choices gone
        once made, even if the bot died before it could say so)."""
        state: pegaz.PegazState = table.state
        found: dict[int, Hand] = {}
        for seat in state.seats:
            who = roster.get(seat.player)
            expelled = seat.status is pegaz.SeatStatus.EXPELLED  # told so, in place of the cards
            if who is None or not (seat.hand or expelled):
                continue
            picture = (pictures or {}).get(seat.player)
            draft = self.hand_draft(table, seat.player, roster, lang, picture)
            found[seat.player] = Hand(who.user_id, draft, "", deliver=False)
        return found

    def hand_draft(
        self,
        table: TableView,
        player: int,
        roster: Roster,
        lang: Lang,
        picture: Picture | None = None,
    ) -> Draft:
        """A seat's cards and its modifier choices, for its DM (secret)."""
        state: pegaz.PegazState = table.state
        embed = hand_embed(
            state,
            player,
            table_id=table.table_id,
            channel_id=table.channel_id,
            roster=roster,
            lang=lang,
        )
        if embed.description:  # the creatures' own emojis, where they were uploaded
            die = state.settings.die
            embed.description = iconed(embed.description, die, lang, self.bot.app_emojis.icons())
        return Draft(
            embed=with_picture(embed, picture),
            view=choices_view(state, player, table.table_id, lang),
            picture=picture,
        )

    def posts(
        self,
        table: TableView,
        gm: int,
        events: Sequence[Any],
        roster: Roster,
        lang: Lang,
        pictures: Mapping[int, Picture] | None = None,
        check: Picture | None = None,
    ) -> list[Post]:
        """One step's posts (see the module docstring), rendered from the table as it is now:
        a hand dealt by a step is shown as it stands (a later deal's DM supersedes it)."""
        state: pegaz.PegazState = table.state
        found: list[Post] = []
        for player in dealt_players(events):
            who = roster.get(player)
            if who is None or not pegaz.hand_of(state, player):
                continue
            closed = t(
                lang,
                "pegaz.ev.dm_closed",
                user=mention_of(roster, player),
                name=name_of(roster, player),
            )
            draft = self.hand_draft(table, player, roster, lang, (pictures or {}).get(player))
            found.append(Post(draft, to_user=who.user_id, undelivered=closed, hand_of=player))
        notes = gm_lines(events, roster, lang, table_id=table.table_id)
        if notes:
            found.append(Post(Draft(clip("\n".join(notes))), to_user=gm))
        lines = public_lines(events, state, roster, lang)
        if lines:
            plain = "\n".join(lines)
            icons = self.bot.app_emojis.icons()
            text = iconed(plain, state.settings.die, lang, icons)
            text = text if len(text) <= CONTENT_MAX else clip(plain)  # no emoji cut in half
            found.append(Post(Draft(text, mentions=mentions(text), picture=check)))
        return found
