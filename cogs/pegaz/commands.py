"""``/pegaz``: open a table (GM), sit down, seat an NPC (GM), and the exact odds of a hand.

Everything after the opening happens on the table message's buttons (``cogs.pegaz.seating`` and
``cogs.pegaz.turns``); this cog also renders the turn timers' outcomes and warnings.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.render.pegaz import odds_embed
from bot.render.pegaz.events import mention_of
from bot.rules import pegaz
from bot.rules.pegaz.state import MAX_DETECTION_MODIFIER, MAX_EXCHANGES
from bot.services.errors import UnknownTable
from bot.services.outcomes import TableOutcome
from cogs.common import (
    Amount,
    CharacterName,
    TableNumber,
    acting_character,
    gm_only,
    guild_id_of,
    my_names,
    my_npcs,
)
from cogs.kit import threads
from cogs.kit.cog import TableKit
from cogs.kit.watch import WatchActs
from cogs.npcs import PERSONALITY_MAX, choices_for, known_personality
from cogs.pegaz import inputs
from cogs.pegaz.scene import PegazScene, mentions
from cogs.pegaz.seating import Seating
from cogs.pegaz.turns import Turns
from cogs.pegaz.views import PREFIX
from cogs.replies import Refused, answer, bot_of, lang_of

if TYPE_CHECKING:
    from bot.app import SzulerniaBot

log = logging.getLogger(__name__)
Choice = app_commands.Choice
DICE: list[Choice[int]] = [Choice(name=f"d{n}", value=n) for n in pegaz.DICE]
SOURCES: list[Choice[str]] = [
    Choice(name="dice", value="dice"),
    Choice(name="24-card deck", value="deck"),
]
TIES: list[Choice[str]] = [
    Choice(name="split the pot", value="split"),
    Choice(name="roll the pot over", value="rollover"),
]
RULINGS: list[Choice[str]] = [
    Choice(name="expel the cheater", value="expel"),
    Choice(name="the GM rules", value="gm"),
]


async def _table_id(interaction: discord.Interaction[Any], table: int | None) -> int:
    """The table named, else the only Pegasus table live in this channel."""
    bot = bot_of(interaction)
    if table is not None:
        view = await bot.services.tables.get(table)
        if view.game != pegaz.GAME or view.guild_id != interaction.guild_id:
            raise UnknownTable(table=table)
        return table
    found = []
    for table_id in await bot.services.tables.live_in_channel(
        guild_id_of(interaction), interaction.channel_id or 0
    ):
        if (await bot.services.tables.get(table_id)).game == pegaz.GAME:
            found.append(table_id)
    if len(found) == 1:
        return found[0]
    if not found:
        raise Refused("pegaz_no_table")
    raise Refused("pegaz_which_table", tables=", ".join(map(str, found)))


class Pegaz(
    WatchActs,
    Seating,
    Turns,
    commands.GroupCog,
    name="Pegaz",
    group_name="pegaz",
    group_description="Three-Card Pegasus: open a table, sit down, see the odds.",
):
    GAME = pegaz.GAME
    PREFIX = PREFIX

    def __init__(self, bot: SzulerniaBot) -> None:
        self.publisher_scene = PegazScene(bot)
        self.spectated = self.publisher_scene
        TableKit.__init__(self, bot, self.publisher_scene)

    def seated(self, state: pegaz.PegazState) -> list[int]:
        return [seat.player for seat in state.seats]

    def on_turn(self, state: pegaz.PegazState) -> int | None:
        return pegaz.whose_turn(state)

    @app_commands.command(name="open", description="Open a Three-Card Pegasus table here (GM).")
    @app_commands.describe(
        stake="The starting stake (ante), e.g. 1 s",
        exchanges="Exchange rounds; 0 = unlimited",
        raise_limit="The most one raise may add, e.g. 1 p, or none",
        max_stake="The stake's ceiling, e.g. 2 s, or none",
        die="The die the creatures are rolled on",
        source="Cards from dice rolls or from a 24-card deck",
        wild="Wild Pegasus: unlimited exchanges, no raise limit, no maximum",
        turn_timeout="Time per turn, e.g. 10 min or 90 s; then the player folds",
        tie="A tie among the last players: split the pot, or roll it over",
        cheat_ruling="A caught cheater is expelled, or the GM rules",
        detection="Modifier to the detection tests (-100 to 100)",
        thread="Talk in a thread of the table's own (default: the server's /settings threads)",
        side_bets="Spectators may back a seat with a side bet (default: no)",
    )
    @app_commands.choices(die=DICE)
    @app_commands.choices(source=SOURCES, tie=TIES, cheat_ruling=RULINGS)
    @gm_only()
    async def open(
        self,
        interaction: discord.Interaction[Any],
        stake: Amount = "1 s",
        exchanges: app_commands.Range[int, 0, MAX_EXCHANGES] = 2,
        raise_limit: Amount = "1 p",
        max_stake: Amount | None = None,
        die: int = 6,
        source: str = "dice",
        wild: bool = False,
        turn_timeout: app_commands.Range[str, 1, inputs.DURATION_TEXT_MAX] = "10 min",
        tie: str = "split",
        cheat_ruling: str = "expel",
        detection: app_commands.Range[int, -MAX_DETECTION_MODIFIER, MAX_DETECTION_MODIFIER] = 0,
        thread: bool | None = None,
        side_bets: bool = False,
    ) -> None:
        settings = inputs.settings(
            stake=stake,
            exchanges=exchanges,
            raise_limit=raise_limit,
            max_stake=max_stake,
            die=die,
            source="deck" if source == "deck" else "dice",
            wild=wild,
            turn_timeout=turn_timeout,
            tie="rollover" if tie == "rollover" else "split",
            cheat_ruling="gm" if cheat_ruling == "gm" else "expel",
            detection=detection,
        )
        if side_bets:
            settings = settings.model_copy(update={"side_bets": True})
        await interaction.response.defer(ephemeral=True, thinking=True)
        table_id = await self.open_table(interaction, settings, thread=thread)
        await answer(interaction, await self.opened_text(table_id, await lang_of(interaction)))

    @app_commands.command(name="join", description="Sit down at a table with your character.")
    @app_commands.describe(
        character="Which of your characters (default: your active one)",
        table="The table's number (needed when this channel has several)",
    )
    @app_commands.autocomplete(character=my_names)
    async def join(
        self,
        interaction: discord.Interaction[Any],
        character: CharacterName | None = None,
        table: TableNumber | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        who = await acting_character(interaction, character)
        text = await self.sit(interaction, await _table_id(interaction, table), who)
        await answer(interaction, text)

    @app_commands.command(
        name="seat", description="Seat an NPC at a table; you play its turns (GM)."
    )
    @app_commands.describe(
        npc="The NPC to seat (its hand comes to you by DM)",
        table="The table's number (needed when this channel has several)",
        personality="The bot plays the NPC, as this gambler (default: you play it)",
        house_edge="With a personality: the bot plays it seeing every hand (default: no)",
    )
    @app_commands.autocomplete(npc=my_npcs, personality=choices_for(pegaz.GAME))
    @gm_only()
    async def seat(
        self,
        interaction: discord.Interaction[Any],
        npc: CharacterName,
        table: TableNumber | None = None,
        personality: app_commands.Range[str, 1, PERSONALITY_MAX] | None = None,
        house_edge: bool = False,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        services = bot_of(interaction).services
        who = await services.characters.by_name(guild_id_of(interaction), npc)
        if not who.is_npc:
            raise Refused("pegaz_not_npc", name=who.name)
        if house_edge and not personality:
            raise Refused("npc_house_edge_needs_personality")
        gambler = known_personality(personality, pegaz.GAME) if personality else None
        table_id = await _table_id(interaction, table)
        text = await self.sit(interaction, table_id, who)
        if gambler is not None:  # seated first: a crash in between leaves it the GM's to play
            await services.npcs.seat(table_id, who.id, gambler, house_edge=house_edge)
            self.bot.npc_players.notice(await services.tables.get(table_id))
            self.bot.dispatch("npc_talk", table_id, who.id, "seated", table_id + who.id)
            if house_edge:
                text += "\n" + t(await lang_of(interaction), "npc.house_edge.on")
        await answer(interaction, text)

    @app_commands.command(name="odds", description="A hand's exact chance to beat a random hand.")
    @app_commands.describe(
        hand="Three cards, e.g. 6 6 1 or Pegasus Pegasus Snake (empty: only the kinds)",
        die="The die (default d6)",
        source="Dice or a 24-card deck (default dice)",
    )
    @app_commands.choices(die=DICE)
    @app_commands.choices(source=SOURCES)
    async def odds(
        self,
        interaction: discord.Interaction[Any],
        hand: app_commands.Range[str, 1, inputs.HAND_TEXT_MAX] | None = None,
        die: int = 6,
        source: str = "dice",
    ) -> None:
        where: Literal["dice", "deck"] = "deck" if source == "deck" else "dice"
        faces = inputs.hand(hand, die) if hand else None
        embed = odds_embed(faces, die, where, await lang_of(interaction))
        await answer(interaction, embed=embed)

    # --- the timers ------------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_table_outcome(self, outcome: TableOutcome) -> None:
        self.bot.in_flight.join()
        if outcome.game == pegaz.GAME:
            await self.publisher.publish(outcome.table_id)

    @commands.Cog.listener()
    async def on_turn_warning(self, table_id: int, version: int) -> None:
        """Ping whoever must act ~a minute before their time runs out."""
        self.bot.in_flight.join()
        try:
            view = await self.table(table_id)
        except UnknownTable:
            return
        if view.version != version or view.deadline is None:
            return
        waiting = pegaz.to_act(view.state)
        if not waiting:
            return
        lang = await self.bot.services.guilds.language(view.guild_id)
        roster = await self.publisher_scene.roster(view.state)
        users = ", ".join(dict.fromkeys(mention_of(roster, p) for p in waiting))
        text = t(lang, "pegaz.ev.warning", users=users, at=f"<t:{view.deadline // 1000}:R>")
        where = await threads.talk_of(self.bot, view)
        channel = self.bot.get_partial_messageable(where, guild_id=view.guild_id)
        try:
            await channel.send(text, allowed_mentions=mentions(text))
        except discord.HTTPException as exc:
            log.warning("table %d: the turn warning was refused (%s)", table_id, exc.status)
