"""The base of a game's cog: receiving its components, authorising them, one error path.

A game cog subclasses :class:`TableKit` (beside ``commands.GroupCog``), names its ``GAME``, its
custom_id ``PREFIX`` and its :class:`~cogs.kit.frame.Scene`, and writes its handlers as
methods:

    @act("fold", who="turn", fresh=True)
    async def fold(self, click: Click) -> None: ...

The kit receives its components itself, from ``on_interaction`` (:meth:`TableKit.received`):
every component whose custom_id is the game's (:func:`~cogs.kit.ids.grammar`), from any message,
also one drawn before a restart. A ``DynamicItem`` would do the same, but discord.py rebuilds the
clicked message's whole view for each of its clicks, and nothing here reads it. The kit reads the
table and its roster once and authorises the click (``who``: anyone, a seated player, the player
on turn, the table's opener or a GM; ``fresh``: drawn at the table's current version), then runs
the handler. A dialog is a :class:`TableDialog`: its custom_id is its act's, and its submit is
authorised and run the same way.

Acknowledge first. The table, its roster, its opener and the guild's language come from what the
services keep (the table service's per-version cache, the guild service's rows), so the common
click reads no SQL before the handler answers: a handler acknowledges (:meth:`TableKit.ack`: a
deferred update of the clicked message, or its own response: a modal, an ephemeral message
built from ``click.state``) before it touches the database. Where the services keep nothing
(a table evicted, closed or written by another process), the kit acknowledges the click itself
before reading (except for ``modal=True`` acts: a modal cannot follow a deferral). A refusal
found after the acknowledgement goes as an ephemeral follow-up. The cache may be stale only if
another process wrote the table: the step checks the version again in its transaction.

Every error goes one way (:meth:`TableKit.refuse`): a stale click first redraws its table (and
strips the components off a message the table no longer shows), then the user hears why, in the
table's language, also in a DM.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypeVar

import discord
from discord.ext import commands

from bot.i18n import Lang
from bot.rules.common import InsufficientFunds, NotSeated, NotYourTurn
from bot.services.errors import StaleAction, UnknownTable
from bot.services.outcomes import TableOutcome, TableView
from bot.services.table_reads import Seen
from bot.services.table_rosters import Member
from cogs.common import is_gm
from cogs.history import HistoryScene
from cogs.kit.frame import Scene
from cogs.kit.ids import Target, deferred_update, dialog_fields, dialog_values, grammar
from cogs.kit.messages import edit_original
from cogs.kit.publisher import Publisher
from cogs.replies import Refused, bot_of, report

if TYPE_CHECKING:
    from bot.app import SzulerniaBot

log = logging.getLogger(__name__)

Who = Literal["any", "seated", "turn", "opener"]
Roster = Mapping[int, Member]
F = TypeVar("F", bound=Callable[..., Awaitable[None]])


@dataclass(frozen=True, slots=True)
class ActSpec:
    name: str
    who: Who
    fresh: bool
    handler: Callable[[Any, Click], Awaitable[None]]
    modal: bool = False


def act(
    *names: str, who: Who = "any", fresh: bool = False, modal: bool = False
) -> Callable[[F], F]:
    """Mark a cog method as the handler of these acts (see the module docstring; ``modal``: the
    handler answers with a modal, so the kit never defers it)."""

    def mark(handler: F) -> F:
        handler.__kit_acts__ = (names, who, fresh, modal)  # type: ignore[attr-defined]
        return handler

    return mark


@dataclass(frozen=True, slots=True)
class Click:
    """One authorised press of a button, pick in a menu, or submitted dialog."""

    interaction: discord.Interaction[Any]
    target: Target
    values: tuple[str, ...]
    table: TableView
    roster: Roster
    seats: tuple[int, ...]
    """The seats the user plays: their own characters first, then the NPCs they run."""
    player: int | None
    """With ``who="turn"``: the seat on turn, which the user plays."""
    lang: Lang

    @property
    def user_id(self) -> int:
        return self.interaction.user.id

    @property
    def state(self) -> Any:
        return self.table.state


ROUTED = "szulernia.dialog"
"""The ``Interaction.extras`` key a :class:`TableDialog` sets on a submit discord.py gave it."""
DIALOG_SECONDS = 900
"""How long discord.py keeps a dialog sent (one dismissed is never submitted); a submit after
that reaches the listener, as one sent before a restart does."""


class TableDialog(discord.ui.Modal):
    """A dialog of a table act (its custom_id is the act's :class:`Target`); its fields, in
    order, are the act's values (a text field's text, a select menu's picks joined by commas:
    :func:`~cogs.kit.ids.dialog_values`). The game's kit receives the submit.

    discord.py routes a submit by the custom_id of a dialog sent in this process, until it is
    submitted or :data:`DIALOG_SECONDS` pass. It keeps dialogs in memory only, so one sent before
    a restart is routed by nobody: the kit's listener (:meth:`TableKit.received`) takes
    that one, and no other (see :data:`ROUTED`)."""

    def __init__(self, target: Target, *, title: str) -> None:
        super().__init__(title=title[:45], custom_id=target.custom_id, timeout=DIALOG_SECONDS)
        self.target = target

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        # Before any await: discord.py creates this task before it dispatches on_interaction
        # (and its interaction_check returns at once), so the listener sees the mark. The values
        # are read at once too: a twin dialog (the same act opened twice) is submitted through
        # this same instance, which discord.py refreshes on every submit.
        interaction.extras[ROUTED] = True
        values = dialog_values(self.walk_children())
        for cog in bot_of(interaction).cogs.values():
            if isinstance(cog, TableKit) and self.target.game == cog.PREFIX:
                await cog.submit(interaction, self.target, values)
                return


class TableKit:
    """What both games' cogs share; mix in before ``commands.GroupCog``."""

    GAME: ClassVar[str]
    """The rules' game (``bot.rules.<game>.GAME``)."""
    PREFIX: ClassVar[str]
    """The custom_id prefix of the game's components (``pg``, ``pz``)."""
    bot: SzulerniaBot

    def __init__(self, bot: SzulerniaBot, scene: Scene) -> None:
        self.bot = bot
        self.publisher = Publisher(bot, HistoryScene(bot, scene))  # a closed board: "History"
        self._acts: dict[str, ActSpec] = {}
        for klass in reversed(type(self).__mro__):
            for value in vars(klass).values():
                marked: tuple[tuple[str, ...], Who, bool, bool] | None = getattr(
                    value, "__kit_acts__", None
                )
                if marked is not None:
                    names, who, fresh, modal = marked
                    for name in names:
                        self._acts[name] = ActSpec(name, who, fresh, value, modal)
        self._pattern = re.compile(grammar(self.PREFIX))

    # --- what each game says -------------------------------------------------------------------

    def seated(self, state: Any) -> Sequence[int]:
        """The players seated at the table, in seat order."""
        raise NotImplementedError

    def on_turn(self, state: Any) -> int | None:
        """The player whose turn it is, if any."""
        raise NotImplementedError

    # --- wiring ----------------------------------------------------------------------------------

    async def cog_load(self) -> None:
        healed = await self.publisher.publish_behind(self.GAME)
        if healed:
            log.info("%s: brought %d table(s) up to date", self.GAME, healed)

    async def cog_unload(self) -> None:
        self.publisher.close()

    @commands.Cog.listener("on_interaction")
    async def received(self, interaction: discord.Interaction[Any]) -> None:
        """A component of this game (a button, a menu's pick), or a submitted dialog of this
        game that discord.py routed to no :class:`TableDialog`: one sent before a restart
        (discord.py keeps dialogs in memory only, by custom_id)."""
        data: Any = interaction.data or {}
        kind = interaction.type
        if kind is discord.InteractionType.component:
            match = self._pattern.fullmatch(str(data.get("custom_id", "")))
            if match is not None:
                values = tuple(str(v) for v in data.get("values") or ())
                await self.submit(interaction, Target.parse(match), values)
            return
        if kind is not discord.InteractionType.modal_submit or interaction.extras.get(ROUTED):
            return
        match = self._pattern.fullmatch(str(data.get("custom_id", "")))
        if match is None:
            return
        fields: dict[str, str] = {}
        dialog_fields(data.get("components") or [], fields)
        await self.submit(interaction, Target.parse(match), tuple(fields.values()))

    async def submit(
        self, interaction: discord.Interaction[Any], target: Target, values: tuple[str, ...]
    ) -> None:
        """Authorise a click or a submitted dialog on its act, and run the act."""
        self.bot.in_flight.join()
        try:
            click = await self.authorise(interaction, target, values)
        except Exception as exc:
            await self.refuse(interaction, exc, target)
            return
        await self.run(click)

    # --- a click ---------------------------------------------------------------------------------

    async def authorise(
        self, interaction: discord.Interaction[Any], target: Target, values: tuple[str, ...]
    ) -> Click:
        spec = self._acts.get(target.act)
        if spec is None:  # a component of an older bot
            raise StaleAction(table=target.table, expected=target.ver, current=None)
        services = self.bot.services
        drawn_at = target.ver if spec.fresh else None  # a fresh act carries the table's version
        seen = services.tables.peek(target.table, drawn_at)  # kept older than that: read again
        if seen is None or not services.guilds.knows(seen.table.guild_id):
            if not spec.modal:  # nothing kept: acknowledge before reading
                await self.ack(interaction)
            seen = await services.tables.look(target.table)
        table = self._ours(seen.table, interaction.guild_id)
        if spec.fresh and target.ver != table.version:
            raise StaleAction(table=table.table_id, expected=target.ver, current=table.version)
        roster = seen.roster
        user = interaction.user.id
        own = [p for p in self.seated(table.state) if p in roster and roster[p].owner_id == user]
        seats = tuple(sorted(own, key=lambda p: roster[p].is_npc))
        player = None
        if spec.who == "seated" and not seats:
            raise NotSeated(player=user)
        if spec.who == "turn":
            turn = self.on_turn(table.state)
            if turn is None or turn not in seats:
                raise NotYourTurn(player=user) if seats else NotSeated(player=user)
            player = turn
        if spec.who == "opener":
            await self._require_opener(interaction, seen)
        lang = await services.guilds.language(table.guild_id)
        return Click(interaction, target, values, table, roster, seats, player, lang)

    @staticmethod
    async def ack(interaction: discord.Interaction[Any] | Click) -> None:
        """Acknowledge the click as a deferred update of its message, unless it already was."""
        if isinstance(interaction, Click):
            interaction = interaction.interaction
        if not interaction.response.is_done():
            await interaction.response.defer()

    async def run(self, click: Click) -> None:
        spec = self._acts[click.target.act]
        try:
            await spec.handler(self, click)
        except Exception as exc:
            if isinstance(exc, InsufficientFunds):  # the rules know no currency; the table does
                exc.params.setdefault("currency", click.table.currency)
            await self.refuse(click.interaction, exc, click.target, click.lang)

    async def refuse(
        self,
        interaction: discord.Interaction[Any],
        exc: Exception,
        target: Target,
        lang: Lang | None = None,
    ) -> None:
        """The one error path: heal a stale table, then tell the user why, in its language."""
        if lang is None:
            lang = await self._lang(target.table)
        if isinstance(exc, StaleAction | UnknownTable):
            await self.heal(interaction, target.table)
        await report(interaction, exc, lang=lang)

    async def heal(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """Redraw the table (through this click where it was on the table message), and take
        the components off a table message the table no longer shows (a duplicate left by a
        crash between posting it and recording it)."""
        try:
            marks = await self.bot.services.surfaces.marks(table_id)
            table = await self.bot.services.tables.get(table_id)
        except UnknownTable:
            return
        message = interaction.message
        if (
            message is not None
            and interaction.type is discord.InteractionType.component
            and message.channel.id == table.channel_id
            and not message.flags.ephemeral
            and message.id != marks.message_id
        ):
            if not interaction.response.is_done():
                await interaction.response.defer()
            try:
                await edit_original(interaction, view=None)
            except discord.HTTPException:
                log.info("could not take the buttons off an old message of table %d", table_id)
        await self.publisher.publish(table_id, via=interaction)

    async def step(
        self, click: Click, action: Any, *, expected: int | None, seat: int | None = None
    ) -> TableOutcome:
        """Apply one rules action for this click (its id is the idempotency key; ``seat``: the
        character it is made for, which the service checks the user plays) and publish the table
        (through the click's token where it was on the table message). Once the step is saved,
        nothing here raises for Discord's refusals: the publisher logs and retries."""
        via = click.interaction
        outcome = await self.bot.services.tables.act(
            click.target.table,
            action,
            key=via.id,
            expected_version=expected,
            actor_id=click.user_id,
            seat=seat,
            replies=deferred_update(via) and via.channel_id == click.table.channel_id,
        )
        await self.publisher.publish(click.target.table, via=click.interaction)
        return outcome

    # --- reading ---------------------------------------------------------------------------------

    async def table(self, table_id: int, guild_id: int | None = None) -> TableView:
        """A table of this game (of this guild, when the click came from one)."""
        return self._ours(await self.bot.services.tables.get(table_id), guild_id)

    def _ours(self, view: TableView, guild_id: int | None) -> TableView:
        if view.game != self.GAME or (guild_id is not None and view.guild_id != guild_id):
            raise UnknownTable(table=view.table_id)
        return view

    async def _require_opener(self, interaction: discord.Interaction[Any], seen: Seen) -> None:
        """The table's opener or a GM (start, cancel, rulings)."""
        if interaction.user.id != seen.opener and not await is_gm(interaction):
            raise Refused("not_opener")

    async def _lang(self, table_id: int) -> Lang:
        try:
            table = await self.bot.services.tables.get(table_id)
            return await self.bot.services.guilds.language(table.guild_id)
        except Exception:
            return self.bot.settings.bot.language
