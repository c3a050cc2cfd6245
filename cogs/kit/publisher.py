"""Publishing is reconciliation: bring what a table shows up to its durable state.

A table shows three kinds of surface, all pure renders of its state and events (its game's
:class:`Scene`):
- the **board**: the table message in its channel, drawn at one version;
- the **posts** of each version: channel announcements, hand deliveries and the GM's notes. Each
  is posted at most once: with a nonce ``<table>.<version>.<n>`` that Discord enforces, so a
  retry after a crash finds the message already there instead of posting it twice;
- the **hands**: one message per seat (a DM) that is edited in place, only when what it shows
  changed (a digest of it is kept).

The marks of what was published live with the table (``bot.services.surfaces``). The step's
transaction moves the table's version; a pass of :meth:`Publisher.publish` then draws the board,
sends the posts of every version not yet posted, refreshes the hands, and only then marks the
version posted, recording all it drew in one transaction (a new table message at once). So a
crash or a refused request anywhere leaves the table *behind*, never frozen: startup reconciles
every table that is behind before any click is taken, a stale click reconciles its table, and a
failed pass tries again after a pause.

One pass at a time per table: a request made during a pass is served by the next pass, which
draws the newest state (so bursts coalesce into one edit). A board edit goes through the
clicked interaction's own token when the click was on that message (no rate-limited request).
"""

from __future__ import annotations

import asyncio
import datetime
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.services.outcomes import TableView
from bot.services.surfaces import HandMark, Marks
from cogs.kit import threads
from cogs.kit.announce import CLOSED_DM, Posting
from cogs.kit.frame import Draft, Hand, Scene
from cogs.kit.ids import deferred_update, on_channel_message, table_of
from cogs.kit.messages import dm, edit_original, strip, unreachable

if TYPE_CHECKING:
    from bot.app import SzulerniaBot

log = logging.getLogger(__name__)

RETRY_SECONDS = (2.0, 10.0, 30.0, 120.0, 300.0)
TOKEN_MARGIN = datetime.timedelta(minutes=1)


@dataclass
class _Job:
    via: discord.Interaction[Any] | None = None
    note: str | None = None
    done: list[asyncio.Future[bool]] = field(default_factory=list)


def _same_message(one: discord.Interaction[Any] | None, two: discord.Interaction[Any]) -> bool:
    return (
        one is not None
        and one.message is not None
        and two.message is not None
        and one.message.id == two.message.id
    )


@dataclass
class _Drawn:
    """What a pass drew, recorded in one transaction when it ends (a crash before that only
    makes the next pass draw it again: edits are idempotent, and posts carry nonces)."""

    board: tuple[int, int] | None = None
    hands: dict[int, HandMark] = field(default_factory=dict)
    posted: int | None = None


@dataclass
class _Click:
    """The click a pass serves: its token may redraw the message it was on, with its ``note``
    above; ``redrew`` says whether the pass did."""

    via: discord.Interaction[Any] | None
    note: str | None = None
    redrew: bool = False

    def on(self, message_id: int) -> discord.Interaction[Any] | None:
        via = self.via
        return via if via is not None and via.message and via.message.id == message_id else None


class Publisher:
    """One per game cog; see the module docstring."""

    def __init__(self, bot: SzulerniaBot, scene: Scene) -> None:
        self.bot = bot
        self.scene = scene
        self._queued: dict[int, _Job] = {}
        self._running: dict[int, asyncio.Task[None]] = {}
        self._tokens: dict[int, discord.Interaction[Any]] = {}
        """Per table, the newest click acknowledged as an update of a message in its channel:
        its token edits that message (the board) for 15 minutes, with no rate-limited request,
        also for steps made elsewhere (a pick in an ephemeral menu, a DM, a timer)."""
        self._failures: dict[int, int] = {}
        self._retries: dict[int, asyncio.Task[None]] = {}

    # --- asking for a pass ----------------------------------------------------------------------

    async def publish(
        self, table_id: int, via: discord.Interaction[Any] | None = None, note: str | None = None
    ) -> bool:
        """Bring the table's surfaces up to its version now; return when a pass that began after
        this call has finished. Never raises for Discord's refusals (they are logged, and retried
        later). ``via``: a click deferred as an update of its message, whose token may redraw
        that message (the board, or a hand) without a rate-limited request; ``note``: a line that
        message then shows above the rest ("Done: one card moved."). True if the pass redrew the
        clicked message."""
        self.bot.timers.poke()
        job = self._queued.setdefault(table_id, _Job())
        if via is not None and deferred_update(via):
            if note is None and _same_message(job.via, via):
                note = job.note  # a later click there (a stale one, healing) keeps its line
            job.via, job.note = via, note
            if on_channel_message(via):
                self._tokens[table_id] = via
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        job.done.append(done)
        if table_id not in self._running:
            self._running[table_id] = self.bot.in_flight.spawn(
                self._work(table_id), name=f"szulernia-publish-{table_id}"
            )
        return await asyncio.shield(done)

    def remember(self, click: discord.Interaction[Any]) -> None:
        """Keep a click acknowledged as an update of a table message, for later redraws of that
        message (see ``_tokens``); the table is read from the click's components."""
        message = click.message
        if message is None or not on_channel_message(click) or not deferred_update(click):
            return
        table_id = table_of(message)
        if table_id is not None:
            self._tokens[table_id] = click

    async def publish_behind(self, game: str) -> int:
        """Reconcile every table of ``game`` that is behind (at startup), of this process's
        shards (``bot.shards``); how many there were."""
        services = self.bot.services
        behind = await services.tables.owned(await services.surfaces.behind(game))
        for table_id in behind:
            await self.publish(table_id)
        return len(behind)

    def close(self) -> None:
        for retry in self._retries.values():
            retry.cancel()
        self._retries.clear()

    async def _work(self, table_id: int) -> None:
        try:
            while table_id in self._queued:
                job = self._queued.pop(table_id)
                click = _Click(job.via, job.note)
                try:
                    complete = await self._pass(table_id, click)
                except (aiohttp.ClientError, OSError, TimeoutError) as exc:  # the network
                    log.warning("table %d: publishing was cut off (%r); will retry", table_id, exc)
                    complete = False
                except Exception:
                    log.exception("publishing table %d failed", table_id)
                    complete = False
                self._schedule(table_id, complete)
                for done in job.done:
                    if not done.done():
                        done.set_result(click.redrew)
        finally:
            self._running.pop(table_id, None)

    def _schedule(self, table_id: int, complete: bool) -> None:
        """After a pass: forget the failures, or try again after a pause that grows."""
        retry = self._retries.pop(table_id, None)
        if retry is not None:
            retry.cancel()
        if complete:
            self._failures.pop(table_id, None)
            return
        failures = self._failures[table_id] = self._failures.get(table_id, 0) + 1
        delay = RETRY_SECONDS[min(failures, len(RETRY_SECONDS)) - 1]
        self._retries[table_id] = asyncio.create_task(
            self._retry(table_id, delay), name=f"szulernia-retry-{table_id}"
        )

    async def _retry(self, table_id: int, delay: float) -> None:
        """Sleep through the bot's sleeper (a test's fake clock wakes it), then try again; the
        pass it asks for is no longer a retry to cancel."""
        await self.bot.sleeper.sleep(delay)
        if self._retries.get(table_id) is asyncio.current_task():
            del self._retries[table_id]
        await self.publish(table_id)

    # --- one pass -------------------------------------------------------------------------------

    async def _pass(self, table_id: int, click: _Click) -> bool:
        """Draw the board, send what was not posted, refresh the hands; True if all went out."""
        services = self.bot.services
        table = await services.tables.get(table_id)
        marks = await services.surfaces.marks(table_id)
        since = min(marks.posted_version, table.version - 1)
        events = await services.tables.step_events(table_id, since, table.version)
        frame = await self.scene.frame(table, events)
        drawn = _Drawn()
        try:
            complete = await self._board(table, marks, frame.board, click, drawn)
            marks, ready = await self._thread(table, marks)
            if marks.posted_version < table.version and ready:
                where = threads.talk_channel(table, marks)
                said = Posting(self.bot, table, marks, click.via, drawn.hands, where)
                complete = await said.versions(frame.posts) and complete
            shown = {**marks.hands, **drawn.hands}  # the posts may have sent hands
            complete = (
                await self._hands(table, shown, frame.hands, click, drawn) and complete and ready
            )
            if complete and marks.posted_version < table.version:
                if await threads.archive(self.bot, table, marks):  # the last posts went out
                    drawn.posted = table.version
                else:
                    complete = False
        finally:
            await services.surfaces.record(
                table_id, board=drawn.board, hands=drawn.hands.values(), posted=drawn.posted
            )
        if table.status in ("finished", "cancelled"):
            self._tokens.pop(table_id, None)
        return complete

    async def _board(
        self, table: TableView, marks: Marks, draft: Draft, click: _Click, drawn: _Drawn
    ) -> bool:
        if marks.message_id is not None and marks.board_version >= table.version:
            return True
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        old = marks.message_id
        if old is not None:
            try:
                token = click.on(old) or self._token(table.table_id, old)
                await self._edit(channel, old, draft, token)
                click.redrew = click.redrew or (token is not None and token is click.via)
                drawn.board = (old, table.version)
                return True
            except discord.HTTPException as exc:
                if not unreachable(exc):
                    log.warning(
                        "table %d: the table message could not be edited (%s %s); will retry",
                        table.table_id, exc.status, exc.code,
                    )  # fmt: skip
                    return False
                log.warning(
                    "table %d: the table message is unreachable (%s %s); posting it again",
                    table.table_id, exc.status, exc.code,
                )  # fmt: skip
        try:
            posted = await channel.send(**draft.send(), nonce=f"b{table.table_id}.{table.version}")
        except discord.HTTPException as exc:
            log.warning(
                "table %d: the table message could not be posted (%s %s); will retry",
                table.table_id, exc.status, exc.code,
            )  # fmt: skip
            return False
        await self.bot.services.surfaces.drew_board(table.table_id, posted.id, table.version)
        if old is not None and old != posted.id:
            await strip(channel, old)
        return True

    async def _thread(self, table: TableView, marks: Marks) -> tuple[Marks, bool]:
        """The marks with the table's thread started if it wants one (``cogs.kit.threads``),
        and whether its posts may go out now (not while a wanted thread could not be started)."""
        if not marks.threaded or marks.thread_id is not None:
            return marks, True
        surfaces = self.bot.services.surfaces
        await threads.start(self.bot, table, await surfaces.marks(table.table_id))  # a new board?
        marks = await surfaces.marks(table.table_id)
        return marks, marks.thread_id is not None

    def _token(self, table_id: int, message_id: int) -> discord.Interaction[Any] | None:
        """A click on ``message_id`` whose token still lives (with a minute to spare)."""
        found = self._tokens.get(table_id)
        if found is None or found.message is None or found.message.id != message_id:
            return None
        if discord.utils.utcnow() > found.expires_at - TOKEN_MARGIN:
            del self._tokens[table_id]
            return None
        return found

    async def _edit(
        self,
        channel: discord.PartialMessageable,
        message_id: int,
        draft: Draft,
        token: discord.Interaction[Any] | None,
        note: str | None = None,
    ) -> None:
        """Edit a message through a click's token (a click on it), else by REST."""
        if token is not None:
            shown = draft.edit()
            if note is not None:
                shown["content"] = note
            try:
                await edit_original(token, **shown)
                return
            except discord.HTTPException as exc:  # an expired token: the REST edit still works
                log.info("editing through the interaction failed (%s); editing directly", exc)
        await channel.get_partial_message(message_id).edit(**draft.edit())

    async def _hands(
        self,
        table: TableView,
        shown: Mapping[int, HandMark],
        hands: Mapping[int, Hand],
        click: _Click,
        drawn: _Drawn,
    ) -> bool:
        complete = True
        for player, hand in hands.items():
            digest = hand.digest()
            mark = shown.get(player)
            if mark is not None and (mark.digest == digest or mark.digest == CLOSED_DM):
                continue
            if not hand.deliver and (mark is None or mark.message_id is None):
                continue  # nothing delivered yet to keep up to date
            try:
                found = await self._hand(table, player, hand, hand.shown(), mark, click)
            except discord.HTTPException as exc:
                log.warning(
                    "table %d: a hand could not be shown (%s %s); will retry",
                    table.table_id, exc.status, exc.code,
                )  # fmt: skip
                complete = False
                continue
            if found is None:
                drawn.hands[player] = HandMark(player, None, None, CLOSED_DM)
            else:
                drawn.hands[player] = HandMark(player, found[0], found[1], digest)
        return complete

    async def _hand(
        self,
        table: TableView,
        player: int,
        hand: Hand,
        draft: Draft,
        mark: HandMark | None,
        click: _Click,
    ) -> tuple[int, int] | None:
        """Show the hand: edit its message, or send it (a DM), or tell the channel where to find
        it. ``(channel id, message id)``, or None when DMs are closed."""
        if mark is not None and mark.channel_id is not None and mark.message_id is not None:
            channel = self.bot.get_partial_messageable(
                mark.channel_id, type=discord.ChannelType.private
            )
            try:
                token = click.on(mark.message_id)
                await self._edit(channel, mark.message_id, draft, token, click.note)
                click.redrew = click.redrew or token is not None
                return mark.channel_id, mark.message_id
            except discord.HTTPException as exc:
                if not unreachable(exc):
                    raise
        nonce = f"h{table.table_id}.{player}.{table.version}"
        sent = await dm(self.bot, hand.user_id, draft, nonce)
        if sent is not None:
            return sent.channel.id, sent.id
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        ping = discord.AllowedMentions(users=[discord.Object(hand.user_id)])
        await channel.send(
            hand.undelivered, allowed_mentions=ping, nonce=f"h{table.table_id}.{player}"
        )
        return None
