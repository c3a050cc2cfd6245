"""The table message's own buttons: join (and its character pick), leave, start, cancel, show my
hand, rulings, offerings, a new game. A mixin of the Pegaz cog: its handlers are cog methods."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import Lang, t
from bot.render.pegaz import money
from bot.rules import pegaz
from bot.services.errors import NotOwner
from bot.services.outcomes import Character, TableView
from cogs.common import acting_character, guild_id_of, own_characters
from cogs.kit import threads
from cogs.kit.cog import Click, Roster, TableKit, act
from cogs.kit.messages import edit_original
from cogs.pegaz.scene import PegazScene, who_of
from cogs.pegaz.views import character_pick_view
from cogs.replies import Refused, answer, lang_of

CURRENCY = "wh"


def owns(user_id: int, roster: Roster, player: int) -> bool:
    """Whether the seat holds one of the user's own (not NPC) characters."""
    who = roster.get(player)
    return who is not None and who.owner_id == user_id and not who.is_npc


class Seating(TableKit):
    publisher_scene: PegazScene

    async def open_table(
        self,
        interaction: discord.Interaction[Any],
        settings: pegaz.PegazSettings,
        *,
        carry_from: int | None = None,
        thread: bool | None = None,
    ) -> int:
        """Create a table in the interaction's channel and post its message; return its id.
        ``thread``: whether it talks in a thread of its own (None: the server's default)."""
        threaded = await threads.wanted(self.bot, guild_id_of(interaction), thread)
        allowed = threads.may_start(interaction)
        outcome = await self.bot.services.tables.create(
            pegaz.GAME,
            lambda rng: pegaz.new_table(settings),
            guild_id=guild_id_of(interaction),
            channel_id=interaction.channel_id or 0,
            actor_id=interaction.user.id,
            key=interaction.id,
            carry_from=carry_from,
            claim=self.bot.services.surfaces.choose_thread(threaded, allowed),
        )
        await self.publisher.publish(outcome.table_id)
        return outcome.table_id

    async def sit(
        self, interaction: discord.Interaction[Any], table_id: int, character: Character
    ) -> str:
        """Seat a character (the ante comes from its purse), publish; return what to tell the
        user. At the version just checked: a join racing this one makes it stale, and the
        one-seat check runs again against the table with that seat taken."""
        services = self.bot.services
        if character.owner_id != interaction.user.id:  # an NPC sits only for the GM who owns it
            raise NotOwner(character=character.id, user=interaction.user.id)
        mine = {c.id: c.name for c in await own_characters(interaction) if not c.is_npc}
        funds = await services.purses.balance(character.id, CURRENCY)

        def join(view: TableView) -> pegaz.Join:
            if not character.is_npc:
                for seat in view.state.seats:
                    if seat.player != character.id and seat.player in mine:
                        raise Refused("pegaz_one_seat", name=mine[seat.player])
            return pegaz.Join(
                character.id, character.luck, character.gamble, character.perception, funds
            )

        await self.table(table_id, interaction.guild_id)
        outcome = await services.tables.act_on_latest(
            table_id, join, key=interaction.id, actor_id=interaction.user.id, seat=character.id
        )
        await self.publisher.publish(table_id, via=interaction)
        lang = await lang_of(interaction)
        ante = money(outcome.state.settings.stake, lang)
        return t(lang, "pegaz.done.joined", name=character.name, table=table_id, ante=ante)

    @act("join")
    async def join_button(self, click: Click) -> None:
        """Join with the active (or only) character; with several and none active, a pick. A
        table that takes nobody more (full, or the game under way) says so before any pick."""
        interaction = click.interaction
        pegaz.require_open_seat(click.state)
        await self.ack(interaction)
        try:
            character = await acting_character(interaction, None)
        except Refused as exc:
            if exc.code != "pick_character":
                raise
            refuse_second_seat(interaction.user.id, click.table, click.roster, None)
            owned = await own_characters(interaction)
            menu = character_pick_view(click.table.table_id, click.table.version, owned, click.lang)
            text = t(click.lang, "pegaz.pick.character_prompt", table=click.table.table_id)
            await answer(interaction, text, view=menu)
            return
        await answer(interaction, await self.sit(interaction, click.table.table_id, character))

    @act("pick", fresh=True)
    async def pick(self, click: Click) -> None:
        """The character picked in the Join menu sits down; the menu becomes the result. The
        menu's id is global, so the pick must be one of the clicking user's own characters."""
        interaction = click.interaction
        await self.ack(interaction)
        wanted = click.values[0] if click.values else ""
        owned = await own_characters(interaction)
        character = next((c for c in owned if str(c.id) == wanted), None)
        if character is None:
            raise NotOwner(character=wanted, user=interaction.user.id)
        text = await self.sit(interaction, click.table.table_id, character)
        await edit_original(interaction, content=text, view=None)

    @act("leave", who="seated")
    async def leave(self, click: Click) -> None:
        await self.ack(click)
        player = click.seats[0]
        await self.step(click, pegaz.Leave(player), expected=None, seat=player)
        name = click.roster[player].name
        await answer(click.interaction, t(click.lang, "pegaz.done.left", name=name))

    @act("start", who="opener")
    async def start(self, click: Click) -> None:
        await self.ack(click)
        seats = click.state.seats
        first = seats[0].player if seats else 0
        await self.step(click, pegaz.Start(first), expected=click.target.ver)
        await answer(click.interaction, t(click.lang, "pegaz.done.started"))

    @act("cancel", who="opener")
    async def cancel(self, click: Click) -> None:
        interaction = click.interaction
        await self.ack(interaction)
        await self.bot.services.tables.cancel(
            click.table.table_id, key=interaction.id, actor_id=interaction.user.id
        )
        await self.publisher.publish(click.table.table_id)
        await answer(interaction, t(click.lang, "pegaz.done.cancelled"))

    @act("hand", who="seated")
    async def show_hand(self, click: Click) -> None:
        """ "Show my hand": a new ephemeral message per seat the user plays, with its choices."""
        interaction = click.interaction
        await self.ack(interaction)
        roster = who_of(click.roster)
        scene, table = self.publisher_scene, click.table
        drawn = await self.bot.services.guilds.images(table.guild_id)
        pictures = await scene.hand_pictures(table, click.lang, click.seats) if drawn else {}
        for player in click.seats:
            picture = pictures.get(player)
            draft = scene.hand_draft(table, player, roster, click.lang, picture)
            attached = None if picture is None else picture.file()
            await answer(interaction, embed=draft.embed, view=draft.view, file=attached)

    @act("rule", who="opener", fresh=True)
    async def rule(self, click: Click) -> None:
        await self.ack(click)
        arg = click.target.arg
        expel = arg.startswith("e")
        await self.step(click, pegaz.RuleOnCheat(expel, int(arg[1:])), expected=click.target.ver)
        key = "pegaz.done.expelled" if expel else "pegaz.done.pardoned"
        await answer(click.interaction, t(click.lang, key))

    @act("offer", fresh=True)
    async def offer(self, click: Click) -> None:
        await self.ack(click)
        state: pegaz.PegazState = click.state
        mine = [p for p in state.offers if p in click.seats]
        if not mine:
            raise Refused("pegaz_not_winner")
        accept = click.target.arg == "y"
        await self.step(
            click, pegaz.Offer(mine[0], accept), expected=click.target.ver, seat=mine[0]
        )
        amount = money(pegaz.seat_of(state, mine[0]).offering, click.lang)
        key = "pegaz.done.offered" if accept else "pegaz.done.kept"
        await answer(click.interaction, t(click.lang, key, amount=amount))

    @act("again", who="opener")
    async def again(self, click: Click) -> None:
        """A new game at this table's settings, carrying a rolled-over pot."""
        interaction = click.interaction
        await self.ack(interaction)
        table = click.table
        carried = await self.bot.services.tables.pot_balance(table.table_id)
        if carried <= 0:
            raise Refused("pegaz_already_again")
        settings = pegaz.PegazSettings.parse(
            {**table.state.settings.model_dump(), "carried_pot": carried}
        )
        threaded = (await self.bot.services.surfaces.marks(table.table_id)).threaded
        table_id = await self.open_table(
            interaction, settings, carry_from=table.table_id, thread=threaded
        )
        await answer(interaction, await self.opened_text(table_id, click.lang))

    async def opened_text(self, table_id: int, lang: Lang) -> str:
        """ "Table N is open", and that it talks in the channel where a thread was refused."""
        text = t(lang, "pegaz.done.opened", table=table_id)
        if threads.fell_back(await self.bot.services.surfaces.marks(table_id)):
            text += "\n" + t(lang, "threads.fallback")
        return text


def refuse_second_seat(
    user_id: int, view: TableView, roster: Roster, character_id: int | None
) -> None:
    """One seat per player at a table: refuse a second of the user's own characters (any of
    them when ``character_id`` is None: the user is about to pick one)."""
    for seat in view.state.seats:
        if seat.player != character_id and owns(user_id, roster, seat.player):
            raise Refused("pegaz_one_seat", name=roster[seat.player].name)
