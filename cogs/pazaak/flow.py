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
from bot.render.errors import error_text
from bot.replies import Refused, answer, bot_of, lang_of, report, send_dm
from bot.rules import pazaak
from bot.rules.common import NotSeated
from bot.services.errors import UnknownTable
from bot.services.outcomes import Character, TableOutcome, TableView
from cogs.common import is_gm

if TYPE_CHECKING:
    from bot.app import SzulerniaBot

log = logging.getLogger(__name__)

GAME = pazaak.GAME
COG_NAME = "pazaak"


class PazaakRefused(Refused):
    """A refusal of this cog with a catalogue key ``error.<code>`` (shaped like domain errors)."""


async def controls(interaction: discord.Interaction[Any], character: Character) -> bool:
    """Whether the user may act for the character: its owner, or a GM for an NPC."""
    if character.owner_id == interaction.user.id:
        return True
    return character.is_npc and await is_gm(interaction)


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def pinging(user_id: int | None) -> discord.AllowedMentions:
    if user_id is None:
        return discord.AllowedMentions.none()
    return discord.AllowedMentions(
        users=[discord.Object(user_id)], roles=False, everyone=False, replied_user=False
    )


def _dm_key(table_id: int, player: int) -> str:
    return f"pazaak:dm:{table_id}:{player}"


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
        try:
            lang = await self.language(interaction, table_id)
        except Exception:
            lang = "en"
        text = error_text(lang, exc)
        if text is None:
            await report(interaction, exc)
            return
        log.debug("refused: %r", exc)
        try:
            await answer(interaction, text, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not tell the user about a refusal")

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

    async def start(self, outcome: TableOutcome) -> None:
        """A new match: post the board, deal the hands by DM (or say where to find them)."""
        async with self.lock(outcome.table_id):
            table = await self.table(outcome.table_id)
            lang = await self.bot.services.guilds.language(table.guild_id)
            state: pazaak.PazaakState = outcome.state
            players = await self.players(state)
            self._shown[table.table_id] = outcome.version
            await self._show_board(table, outcome.version, state, outcome.events, players, lang)
            channel = self.bot.get_partial_messageable(table.channel_id)
            for player in state.players:
                owner = players[player.id].owner_id
                embed = render.hand(state, player.id, _names(players), lang)
                view = self.hand_view(table.table_id, outcome.version, state, player.id, lang)
                sent = await send_dm(self.bot, owner, embed=embed, view=view)
                if sent is not None:
                    value = f"{sent.channel.id}:{sent.id}"
                    await self.bot.services.guilds.set_meta(
                        _dm_key(table.table_id, player.id), value
                    )
                    continue
                text = render.dm_closed(lang, mention=mention(owner), name=players[player.id].name)
                await channel.send(text, allowed_mentions=pinging(owner))

    async def publish(self, outcome: TableOutcome) -> None:
        """Show one step: edit the board, announce set and match results, refresh the hands."""
        table = await self.table(outcome.table_id)
        lang = await self.bot.services.guilds.language(table.guild_id)
        state: pazaak.PazaakState = outcome.state
        players = await self.players(state)
        names = _names(players)
        cancelled = outcome.status == "cancelled"  # a GM closed the table: the stakes went back
        if outcome.version >= self._shown.get(table.table_id, 0):
            self._shown[table.table_id] = outcome.version
            await self._show_board(
                table, outcome.version, state, outcome.events, players, lang, cancelled=cancelled
            )
        channel = self.bot.get_partial_messageable(table.channel_id)
        for event in outcome.events:
            if isinstance(event, pazaak.SetEnded):
                await channel.send(render.set_result(event, state, names, lang))
            elif isinstance(event, pazaak.MatchEnded):
                await channel.send(render.match_result(event, state, names, lang))
        touched = [p.id for p in state.players] if cancelled else _touched(state, outcome.events)
        for player in touched:
            await self.refresh_hand(
                table.table_id, outcome.version, state, player, names, lang, cancelled=cancelled
            )
        if state.phase == "over" or cancelled:
            self._shown.pop(table.table_id, None)
            for seat in state.players:
                await self.bot.services.guilds.set_meta(_dm_key(table.table_id, seat.id), None)

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
        names = _names(players)
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
        stored = await self.bot.services.guilds.meta(_dm_key(table_id, player))
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


def _names(players: dict[int, Character]) -> dict[int, str]:
    return {pid: who.name for pid, who in players.items()}


def _touched(state: pazaak.PazaakState, events: Sequence[Any]) -> list[int]:
    """The players whose hand view this step changed (their DM is edited)."""
    both = [p.id for p in state.players]
    touched = {state.current_player} if state.current_player is not None else set()
    for event in events:
        if isinstance(event, pazaak.SetStarted | pazaak.SetEnded | pazaak.MatchEnded):
            touched.update(both)
        elif isinstance(event, pazaak.CardPlayed | pazaak.TurnEnded | pazaak.Stood):
            touched.add(event.player)
    return [pid for pid in both if pid in touched]


def flow_of(interaction: discord.Interaction[Any]) -> Flow:
    cog = bot_of(interaction).get_cog(COG_NAME)
    flow = getattr(cog, "flow", None)
    if not isinstance(flow, Flow):
        raise RuntimeError("the pazaak cog is not loaded")
    return flow
