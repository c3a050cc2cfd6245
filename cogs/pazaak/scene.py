"""What a pazaak table shows, as a pure render of its state and its steps' events.

- the board: the table message (:func:`bot.render.pazaak.board` with the newest step's moves and
  a ping of the player to play; the summary once the match is over; the cancelled board when a
  GM closed the table);
- each step's posts: the result of a set that ended, and of the match; with the table option
  ``skills``, a Luck redraw, a caught swap and the GM's ruling, and the GM's DM (to the table's
  opener, its referee) with each swap and its detection roll, caught or not;
- the hands: one DM per seat (to whoever plays it: an NPC's goes to its GM), edited in place,
  with the hand's cards as buttons while the match goes on. It shows nothing that changes every
  turn (its buttons carry the hand version, not the table's; End turn and Stand are on the
  board), so it is edited only when the hand changes, the match ends or is cancelled.

Where the server shows images (``/settings images``), the board shows both tables drawn
(``bot.render.images.pazaak.board``) and each hand DM its side cards.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import zlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import Lang
from bot.render import images
from bot.render import pazaak as render
from bot.render.pazaak import text as pazaak_text
from bot.rules import pazaak
from bot.rules.common import NotSeated
from bot.rules.pazaak.queries import seat_index
from bot.services.outcomes import Character, TableView
from cogs.kit.emojis import AppEmojis, icons_of
from cogs.kit.frame import Draft, Frame, Hand, Picture, Post, with_picture
from cogs.kit.pictures import Pictures
from cogs.kit.watch import with_side_bets
from cogs.pazaak.people import mention, pinging
from cogs.pazaak.views import board_view, hand_dm_view, swap_offered

if TYPE_CHECKING:
    from bot.app import SzulerniaBot

UNKNOWN = "?"
HAND_LOOK = 2
"""Part of every hand's key: bump it when the hand DM's look changes (its render or buttons), so
that every hand DM is drawn again once."""


def hand_draft(
    state: pazaak.PazaakState,
    player: int,
    table_id: int,
    names: Mapping[int, str],
    lang: Lang,
    cancelled: bool,
    picture: Picture | None = None,
    emojis: AppEmojis | None = None,
) -> Draft:
    """A seat's hand DM (secret): its cards, and one button per card while the match goes on
    (with the cards' own emojis, where ``emojis`` has them)."""
    icons = icons_of(emojis)
    shown = render.hand_dm(state, player, table_id, names, lang, cancelled=cancelled, icons=icons)
    buttons = None if cancelled else hand_dm_view(table_id, state, player, lang, emojis)
    return Draft(embed=with_picture(shown, picture), view=buttons, picture=picture)


def hand_key(
    state: pazaak.PazaakState,
    player: int,
    table_id: int,
    names: Mapping[int, str],
    lang: Lang,
    cancelled: bool,
) -> str:
    """Everything :func:`hand_draft` depends on (see ``bot.render.pazaak.hand_dm``: the hand, the
    names, the match's end and its winner, the language), digested without drawing it."""
    seat = seat_index(state, player)
    if seat is None:
        raise NotSeated(player=player)
    me, other = state.players[seat], state.players[1 - seat]
    shown = (
        HAND_LOOK,
        table_id,
        lang,
        names.get(player),
        names.get(other.id),
        me.hand,  # the seat's own view of its hand (``pazaak.view``), without the rest of it
        swap_offered(state, player),
        tuple(render.skills_left(state, me, lang)),
        cancelled,
        state.phase == "over",
        state.winner,
    )
    return "k" + hashlib.sha256(repr(shown).encode()).hexdigest()[:31]


SKILL_NEWS = (pazaak.Redrawn, pazaak.Caught, pazaak.RulingRequested, pazaak.Ruled)
"""The skills' public events, announced in the channel as well as on the board."""


class PazaakScene:
    def __init__(self, bot: SzulerniaBot) -> None:
        self.bot = bot
        self.pictures = Pictures()

    async def frame(self, table: TableView, events: Mapping[int, Sequence[Any]]) -> Frame:
        state: pazaak.PazaakState = table.state
        lang = await self.bot.services.guilds.language(table.guild_id)
        players = await self.bot.services.characters.many(p.id for p in state.players)
        names = {p.id: players[p.id].name if p.id in players else UNKNOWN for p in state.players}
        cancelled = table.status == "cancelled"
        drawn = await self.bot.services.guilds.images(table.guild_id)
        board = await self.board(table, events.get(table.version, ()), players, names, lang)
        if drawn:
            drawing = await self.board_picture(table, names, lang)
            shown = board.embed and with_picture(board.embed, drawing)
            board = dataclasses.replace(board, embed=shown, picture=drawing)
        gm = None
        if any(isinstance(e, pazaak.DetectionRoll) for step in events.values() for e in step):
            gm = await self.bot.services.tables.opener(table.table_id)
        posts = {
            version: self.posts(state, step, names, lang, gm=gm, table_id=table.table_id)
            for version, step in events.items()
        }
        hands: dict[int, Hand] = {}
        for seat in state.players:
            who = players.get(seat.id)
            if who is None:
                continue
            closed = render.dm_closed(lang, mention=mention(who.owner_id), name=who.name)
            key = hand_key(state, seat.id, table.table_id, names, lang, cancelled)
            cards = await self.hand_picture(table, seat.id, names, lang, key) if drawn else None
            draw = functools.partial(hand_draft, state, seat.id, table.table_id, names, lang)
            hand = functools.partial(draw, cancelled, cards, self.bot.app_emojis)
            marks = ("i" if drawn else "") + ("e" if self.bot.app_emojis.icons() else "")
            hands[seat.id] = Hand(who.owner_id, hand, closed, key=key + marks)
        return Frame(board, posts, hands)

    async def public(self, table: TableView, lang: Lang) -> discord.Embed:
        """The board as a spectator sees it (``cogs.kit.watch``): the table message's embed,
        with the newest step's public moves (the board has no turn clock)."""
        state: pazaak.PazaakState = table.state
        players = await self.bot.services.characters.many(p.id for p in state.players)
        names = {p.id: players[p.id].name if p.id in players else UNKNOWN for p in state.players}
        steps = await self.bot.services.tables.step_events(
            table.table_id, table.version - 1, table.version
        )
        board = await self.board(table, steps.get(table.version, ()), players, names, lang)
        assert board.embed is not None
        return board.embed

    async def board_picture(
        self, table: TableView, names: Mapping[int, str], lang: Lang
    ) -> Picture:
        draw = functools.partial(images.pazaak.board, pazaak.view(table.state, None), names, lang)
        key = (table.table_id, table.version, None, lang)
        return await self.pictures.draw("pazaak_board", key, draw)

    async def hand_picture(
        self, table: TableView, player: int, names: Mapping[int, str], lang: Lang, key: str
    ) -> Picture:
        """A seat's side cards, drawn for that seat alone; kept by the hand's own key (it does
        not change with every move)."""
        seen = pazaak.view(table.state, player)
        draw = functools.partial(images.pazaak.hand, seen, names, lang)
        shows = (table.table_id, zlib.crc32(key.encode()), player, lang)
        return await self.pictures.draw("pazaak_hand", shows, draw)

    async def board(
        self,
        table: TableView,
        newest: Sequence[Any],
        players: Mapping[int, Character],
        names: Mapping[int, str],
        lang: Lang,
    ) -> Draft:
        state: pazaak.PazaakState = table.state
        if table.status == "cancelled":  # a GM closed the table: the stakes went back
            closed = pazaak_text.cancelled(state, table.table_id, names, lang)
            return Draft(embed=await with_side_bets(self.bot, table, closed, lang))
        if state.phase == "over":
            history = await self.bot.services.tables.history(table.table_id)
            summary = pazaak_text.summary(state, table.table_id, names, lang, history)
            return Draft(embed=await with_side_bets(self.bot, table, summary, lang))
        current = state.current_player
        who = players.get(current) if current is not None else None
        owner = who.owner_id if who is not None else None
        if table.version > 1 and not render.log_lines(newest, state, names, lang):
            # A step nobody may see (an unnoticed swap): the board keeps the moves it showed, or
            # their vanishing would tell the opponent that something happened.
            earlier = await self.bot.services.tables.step_events(
                table.table_id, table.version - 2, table.version - 1
            )
            newest = earlier.get(table.version - 1, ())
        content, embed = render.board(
            state,
            table.table_id,
            names,
            lang,
            events=newest,
            mention=mention(owner) if owner is not None else None,
            icons=self.bot.app_emojis.icons(),
        )
        view = board_view(table.table_id, table.version, state, lang)
        return Draft(content, embed, view, pinging(owner))

    @staticmethod
    def posts(
        state: pazaak.PazaakState,
        events: Sequence[Any],
        names: Mapping[int, str],
        lang: Lang,
        *,
        gm: int | None = None,
        table_id: int = 0,
    ) -> list[Post]:
        """A step's announcements: a redraw, a caught swap and a ruling; each set's result (with
        the score in sets right after that set, even when shown late) and the match's; and the
        GM's report of any swap, to ``gm`` alone (the table's referee)."""
        found: list[Post] = []
        notes = render.gm_lines(events, names, lang, table_id=table_id)
        if notes and gm is not None:
            found.append(Post(Draft("\n".join(notes)), to_user=gm))
        for event in events:
            if isinstance(event, SKILL_NEWS):
                found += [
                    Post(Draft(line)) for line in render.log_lines([event], state, names, lang)
                ]
            elif isinstance(event, pazaak.SetEnded):
                after = _after_set(state, event.set_number)
                found.append(Post(Draft(render.set_result(event, after, names, lang))))
            elif isinstance(event, pazaak.MatchEnded):
                found.append(Post(Draft(render.match_result(event, state, names, lang))))
        return found


def _after_set(state: pazaak.PazaakState, set_number: int) -> pazaak.PazaakState:
    """The state with the sets won counted up to ``set_number`` (for a late announcement)."""
    won = [
        sum(1 for r in state.results if r.set_number <= set_number and r.winner == p.id)
        for p in state.players
    ]
    if won == [p.sets_won for p in state.players]:
        return state
    a, b = (dataclasses.replace(p, sets_won=n) for p, n in zip(state.players, won, strict=True))
    return dataclasses.replace(state, players=(a, b))
