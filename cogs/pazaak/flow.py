"""The moving parts of a pazaak match in Discord: who may act for which seat, one action at a
time per table, and showing every outcome (the board, the announcements, the hands by DM).

Nothing here is state that matters across a restart: the table lives in the table service, the
board's message id with the table, and each hand DM's id in the guild service's meta store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import Lang
from bot.render import pazaak as render
from bot.render import pazaak_text
from bot.replies import bot_of, lang_of, report, send_dm
from bot.rules import pazaak
from bot.rules.common import NotSeated
from bot.services.errors import StaleAction, UnknownTable
from bot.services.outcomes import Character, TableOutcome, TableView
from cogs.pazaak.common import controls, dm_key, mention, names_of, pinging, touched_players

if TYPE_CHECKING:
    from bot.app import SzulerniaBot

log = logging.getLogger(__name__)

GAME = pazaak.GAME
COG_NAME = "pazaak"


Views = Callable[[int, int, pazaak.PazaakState, int, Lang], discord.ui.View | None]
"""``(table_id, version, state, player, lang)`` -> the buttons under a hand (see buttons.py)."""
BoardView = Callable[[int, int, Lang], discord.ui.View]


class Flow:
    """One per cog. ``busy`` counts the interactions and events being handled right now."""

    def __init__(self, bot: SzulerniaBot, hand_view: Views, board_view: BoardView) -> None:
        self.bot = bot
        self.hand_view = hand_view
        self.board_view = board_view
        self.busy = 0
        self._locks: dict[tuple[str, int], asyncio.Lock] = {}
        self._shown: dict[int, int] = {}
        """The newest version shown (or being shown) per table: an older outcome shows nothing."""
        self._drawn: dict[int, int] = {}
        """The version the board message was last drawn at, per table (known since the start)."""
        self._last: dict[int, tuple[int, tuple[Any, ...]]] = {}
        """The newest step's version and events per table (to redraw the board with its log)."""

    # --- guarding -----------------------------------------------------------------------------

    def lock(self, key: int, kind: str = "table") -> asyncio.Lock:
        """One at a time per table (or, with ``kind="challenge"``, per challenge message)."""
        found = self._locks.get((kind, key))
        if found is None:
            found = self._locks[kind, key] = asyncio.Lock()
        return found

    @contextlib.asynccontextmanager
    async def working(self) -> AsyncIterator[None]:
        self.busy += 1
        try:
            yield
        finally:
            self.busy -= 1

    async def guard(
        self,
        interaction: discord.Interaction[Any],
        handler: Callable[[Lang], Awaitable[None]],
        *,
        table_id: int | None = None,
    ) -> None:
        """Run a component callback in the table's language (also in DMs); a domain error becomes
        an ephemeral answer, anything else is reported with a reference."""
        async with self.working():
            try:
                lang = await self.language(interaction, table_id)
                await handler(lang)
            except Exception as exc:
                await self.refuse(interaction, exc, table_id)

    async def refuse(
        self, interaction: discord.Interaction[Any], exc: Exception, table_id: int | None = None
    ) -> None:
        """Answer an error like every cog does (:func:`bot.replies.report`), in the table's
        language; a stale click first redraws the board, which may be the one left behind."""
        try:
            lang: Lang | None = await self.language(interaction, table_id)
        except Exception:
            lang = None
        if isinstance(exc, StaleAction) and table_id is not None:
            await self.heal(interaction, table_id)
        await report(interaction, exc, lang=lang)

    async def language(self, interaction: discord.Interaction[Any], table_id: int | None) -> Lang:
        if interaction.guild_id is None and table_id is not None:
            table = await self.bot.services.tables.get(table_id)
            return await self.bot.services.guilds.language(table.guild_id)
        return await lang_of(interaction)

    # --- reading a table ----------------------------------------------------------------------

    async def table(self, table_id: int) -> TableView:
        found = await self.bot.services.tables.get(table_id)
        if found.game != GAME:
            raise UnknownTable(table=table_id)
        return found

    async def players(self, state: pazaak.PazaakState) -> dict[int, Character]:
        return {p.id: await self.bot.services.characters.get(p.id) for p in state.players}

    async def mine(
        self, interaction: discord.Interaction[Any], state: pazaak.PazaakState
    ) -> tuple[dict[int, Character], list[int]]:
        """Both players, and the ids of those the user may act for (the one on turn first)."""
        players = await self.players(state)
        ids = [pid for pid, who in players.items() if await controls(interaction, who)]
        if not ids:
            raise NotSeated(player=interaction.user.id)
        ids.sort(key=lambda pid: pid != state.current_player)
        return players, ids

    # --- acting -------------------------------------------------------------------------------

    async def act(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        version: int | None,
        make: Callable[[int], pazaak.Action],
    ) -> tuple[TableOutcome, int]:
        """Apply ``make(player)`` for the user's seat (the one on turn if they hold both), then
        show the outcome. Returns the outcome and the player who acted."""
        table = await self.table(table_id)
        _, ids = await self.mine(interaction, table.state)
        player = ids[0]
        async with self.lock(table_id):
            outcome = await self.bot.services.tables.act(
                table_id,
                make(player),
                key=interaction.id,
                expected_version=version,
                actor_id=interaction.user.id,
            )
            self.bot.timers.poke()
            if not outcome.repeated:
                await self.publish(outcome)
        return outcome, player

    # --- showing ------------------------------------------------------------------------------

    async def current(self, table_id: int) -> TableOutcome:
        """The table as it stands, shaped like the outcome of its newest step (whose events are
        known if this process showed it, or if it is the first step)."""
        table = await self.table(table_id)
        events: tuple[Any, ...] = ()
        last = self._last.get(table_id)
        if last is not None and last[0] == table.version:
            events = last[1]
        elif table.version == 1:
            events = tuple(await self.bot.services.tables.history(table_id))
        return TableOutcome(
            table.table_id,
            table.version,
            table.status,
            table.game,
            table.state,
            events,
            (),
            table.deadline,
        )

    async def heal(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """Before refusing a stale click: redraw the board if it may show an older version than
        the table's (its last edit failed; or, after a restart, the click came from the board)."""
        try:
            async with self.lock(table_id):
                table = await self.table(table_id)
                drawn = self._drawn.get(table_id)
                message = interaction.message
                on_board = message is not None and message.id == table.message_id
                if drawn == table.version or (drawn is None and not on_board):
                    return
                outcome = await self.current(table_id)
                players = await self.players(outcome.state)
                lang = await self.bot.services.guilds.language(table.guild_id)
                cancelled = outcome.status == "cancelled"
                self._shown[table_id] = max(self._shown.get(table_id, 0), outcome.version)
                await self._show_board(
                    table,
                    outcome.version,
                    outcome.state,
                    outcome.events,
                    players,
                    lang,
                    cancelled=cancelled,
                )
        except Exception as exc:  # the refusal still goes out
            log.warning("could not redraw the board of table %d (%r)", table_id, exc)

    async def start(self, outcome: TableOutcome) -> None:
        """A new match: post the board, deal the hands by DM (or say where to find them).

        Raises ``discord.HTTPException`` if the board cannot be posted (the caller may retry: the
        table then has no message id); a hand that cannot be sent is only logged."""
        async with self.lock(outcome.table_id):
            table = await self.table(outcome.table_id)
            lang = await self.bot.services.guilds.language(table.guild_id)
            state: pazaak.PazaakState = outcome.state
            players = await self.players(state)
            self._shown[table.table_id] = outcome.version
            self._last[table.table_id] = (outcome.version, outcome.events)
            await self._show_board(table, outcome.version, state, outcome.events, players, lang)
            channel = self.bot.get_partial_messageable(table.channel_id)
            for player in state.players:
                owner = players[player.id].owner_id
                embed = render.hand(state, player.id, names_of(players), lang)
                view = self.hand_view(table.table_id, outcome.version, state, player.id, lang)
                sent = await send_dm(self.bot, owner, embed=embed, view=view)
                if sent is not None:
                    value = f"{sent.channel.id}:{sent.id}"
                    await self.bot.services.guilds.set_meta(
                        dm_key(table.table_id, player.id), value
                    )
                    continue
                text = render.dm_closed(lang, mention=mention(owner), name=players[player.id].name)
                try:
                    await channel.send(text, allowed_mentions=pinging(owner))
                except discord.HTTPException as exc:
                    log.warning("could not point a player at Show my hand (%s)", exc.status)

    async def publish(self, outcome: TableOutcome) -> None:
        """Show one step: edit the board, announce set and match results, refresh the hands."""
        table = await self.table(outcome.table_id)
        lang = await self.bot.services.guilds.language(table.guild_id)
        state: pazaak.PazaakState = outcome.state
        players = await self.players(state)
        names = names_of(players)
        cancelled = outcome.status == "cancelled"  # a GM closed the table: the stakes went back
        # The step is saved whatever Discord says: a refused edit or send is logged, and the next
        # step (or a stale click, see heal) draws the board again.
        newest = outcome.version >= self._shown.get(table.table_id, 0)
        if newest:
            self._shown[table.table_id] = outcome.version
            self._last[table.table_id] = (outcome.version, outcome.events)
            try:
                await self._show_board(
                    table,
                    outcome.version,
                    state,
                    outcome.events,
                    players,
                    lang,
                    cancelled=cancelled,
                )
            except discord.HTTPException as exc:
                log.warning("could not show the board of table %d (%s)", table.table_id, exc.status)
        channel = self.bot.get_partial_messageable(table.channel_id)
        for event in outcome.events:
            try:
                if isinstance(event, pazaak.SetEnded):
                    await channel.send(render.set_result(event, state, names, lang))
                elif isinstance(event, pazaak.MatchEnded):
                    await channel.send(render.match_result(event, state, names, lang))
            except discord.HTTPException as exc:
                log.warning(
                    "could not announce a result at table %d (%s)", table.table_id, exc.status
                )
        if not newest:  # a newer step already showed the hands
            return
        touched = (
            [p.id for p in state.players] if cancelled else touched_players(state, outcome.events)
        )
        for player in touched:
            await self.refresh_hand(
                table.table_id, outcome.version, state, player, names, lang, cancelled=cancelled
            )
        if state.phase == "over" or cancelled:
            for seat in state.players:
                await self.bot.services.guilds.set_meta(dm_key(table.table_id, seat.id), None)

    async def _show_board(
        self,
        table: TableView,
        version: int,
        state: pazaak.PazaakState,
        events: Sequence[Any],
        players: dict[int, Character],
        lang: Lang,
        *,
        cancelled: bool = False,
    ) -> None:
        names = names_of(players)
        view: discord.ui.View | None = None
        owner: int | None = None
        if cancelled:
            content = None
            embed = pazaak_text.cancelled(state, table.table_id, names, lang)
        elif state.phase == "over":
            history = await self.bot.services.tables.history(table.table_id)
            content = None
            embed = pazaak_text.summary(state, table.table_id, names, lang, history)
        else:
            current = state.current_player
            owner = players[current].owner_id if current is not None else None
            ping = mention(owner) if owner is not None else None
            content, embed = render.board(
                state, table.table_id, names, lang, events=events, mention=ping
            )
            view = self.board_view(table.table_id, version, lang)
        channel = self.bot.get_partial_messageable(table.channel_id)
        if table.message_id is not None:
            message = channel.get_partial_message(table.message_id)
            try:
                await message.edit(
                    content=content, embed=embed, view=view, allowed_mentions=pinging(owner)
                )
                self._drawn[table.table_id] = version
                return
            except discord.NotFound:
                log.info("the board of table %d is gone; posting a new one", table.table_id)
        posted = await channel.send(
            content=content,
            embed=embed,
            view=view or discord.utils.MISSING,
            allowed_mentions=pinging(owner),
        )
        await self.bot.services.tables.set_message(table.table_id, posted.id)
        self._drawn[table.table_id] = version

    async def refresh_hand(
        self,
        table_id: int,
        version: int,
        state: pazaak.PazaakState,
        player: int,
        names: dict[int, str],
        lang: Lang,
        *,
        cancelled: bool = False,
    ) -> None:
        """Edit the player's hand DM (if one was sent) to show the hand as it is now."""
        stored = await self.bot.services.guilds.meta(dm_key(table_id, player))
        if stored is None:
            return
        channel_id, message_id = (int(part) for part in stored.split(":"))
        channel = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        embed = render.hand(state, player, names, lang, cancelled=cancelled)
        view = None if cancelled else self.hand_view(table_id, version, state, player, lang)
        try:
            await channel.get_partial_message(message_id).edit(embed=embed, view=view)
        except discord.HTTPException as exc:
            log.info("could not update a hand DM (%s)", exc.status)

    async def warn(self, table_id: int, version: int, warn_before_ms: int) -> None:
        """Ping the player whose turn is about to time out (if the turn is long enough to)."""
        table = await self.table(table_id)
        state: pazaak.PazaakState = table.state
        player = state.current_player
        if table.version != version or player is None or table.deadline is None:
            return
        if state.settings.turn_timeout * 1000 <= warn_before_ms:
            return
        who = await self.bot.services.characters.get(player)
        lang = await self.bot.services.guilds.language(table.guild_id)
        text = pazaak_text.turn_warning(
            lang, mention=mention(who.owner_id), name=who.name, deadline_ms=table.deadline
        )
        channel = self.bot.get_partial_messageable(table.channel_id)
        await channel.send(text, allowed_mentions=pinging(who.owner_id))


def flow_of(interaction: discord.Interaction[Any]) -> Flow:
    cog = bot_of(interaction).get_cog(COG_NAME)
    flow = getattr(cog, "flow", None)
    if not isinstance(flow, Flow):
        raise RuntimeError("the pazaak cog is not loaded")
    return flow
