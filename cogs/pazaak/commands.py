"""``/pazaak``: challenge, collection, deck, grant, take, rules; the match's buttons
(``moves``), the challenges' (``challenge``); and the table events of the timers."""

from __future__ import annotations

import contextlib
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.render.pazaak import text as pazaak_text
from bot.rules import pazaak
from bot.rules.money import CREDITS, parse_amount
from bot.services.challenges import ChallengeRow
from bot.services.errors import InvalidSideCards
from bot.services.outcomes import Character, TableOutcome
from bot.timers import WARN_BEFORE_MS
from cogs.common import (
    Amount,
    CharacterName,
    acting_character,
    all_names,
    gm_only,
    guild_id_of,
    is_gm,
    member_is_gm,
    my_names,
    own_names,
)
from cogs.kit import threads
from cogs.kit.watch import WatchActs
from cogs.npcs import PERSONALITY_MAX, choices_for, known_personality
from cogs.pazaak.challenge import CHALLENGE_SECONDS, ChallengeActs, selection
from cogs.pazaak.deck import DeckModal
from cogs.pazaak.moves import MatchActs
from cogs.pazaak.people import controls, mention, pinging
from cogs.pazaak.scene import PazaakScene
from cogs.pazaak.views import PREFIX, challenge_view
from cogs.replies import Refused, answer, lang_of

if TYPE_CHECKING:
    from bot.app import SzulerniaBot

MAX_GRANT = 50
CARDS_TEXT_MAX = 400  # MAX_GRANT codes of up to 5 characters (``±1/2``), with separators
MAX_TURN = 3600  # within the rules' MIN_TURN_TIMEOUT..MAX_TURN_TIMEOUT (a day)
DEFAULT_TURN = 300
COG_NAME = "pazaak"


def card_codes(text: str) -> list[str]:
    """The side cards a GM names (``+3 -2 ±4``, commas or spaces between), as their codes; a
    refusal for none, too many, or one that is no side card."""
    words = [word for word in re.split(r"[\s,;]+", text) if word]
    if not words:
        raise Refused("pazaak_grant_empty")
    if len(words) > MAX_GRANT:
        raise Refused("pazaak_grant_too_many", max=MAX_GRANT)
    found = []
    for word in words:
        try:
            found.append(pazaak.parse_side_card(word).code)
        except pazaak.UnknownSideCard as exc:
            codes = " ".join(card.code for card in pazaak.ALL_SIDE_CARDS)
            raise Refused("pazaak_grant_unknown", card=word, codes=codes) from exc
    return found


class Pazaak(
    WatchActs,
    MatchActs,
    ChallengeActs,
    commands.GroupCog,
    name=COG_NAME,
    group_name="pazaak",
    group_description="Pazaak (Star Wars): challenges, side decks and the rules.",
):
    GAME = pazaak.GAME
    PREFIX = PREFIX

    def __init__(self, bot: SzulerniaBot) -> None:
        self.scene = PazaakScene(bot)
        self.spectated = self.scene
        super().__init__(bot, self.scene)
        self.challenge_setup()

    async def cog_load(self) -> None:
        await super().cog_load()  # the tables that are behind first: a board is then below
        await self.challenges_load()

    async def cog_unload(self) -> None:
        self.challenges_unload()
        await super().cog_unload()

    @app_commands.command(
        name="challenge", description="Challenge another character to a match of pazaak."
    )
    @app_commands.describe(
        opponent="The character you challenge.",
        wager="Credits each player puts into the pot, e.g. 250 or 250 cr.",
        character="Your character who plays (default: your active one).",
        turn_timeout="Seconds a player has for each turn before standing (default 300).",
        main_deck="Where the main cards come from (default: the pool of 80).",
        kotor2_cards="Allow the KOTOR II side cards: Flip 2&4, Flip 3&6, ±1/2 (default: yes).",
        nine_card_win="Nine cards on a table without busting win the set (default: yes).",
        starter="Who starts each set after the first (default: the players alternate).",
        skills="Luck, Gamble and Perception count: a redraw, a swap, detection (default: no).",
        detection="With skills: modifier to the detection tests (-100 to 100, default 0).",
        cheat_ruling="With skills: a caught cheater forfeits, or the GM rules",
        referee="With skills: the GM told of every swap and who rules (default: you, if a GM).",
        personality="GM, for your NPC: the bot plays it, as this gambler (default: you play it).",
        house_edge="GM, with a personality: the bot plays your NPC seeing every hand.",
        thread="The match talks in a thread of its own (default: the server's /settings threads).",
        side_bets="Spectators may back a seat with a side bet (default: no)",
    )
    @app_commands.choices(
        main_deck=[
            app_commands.Choice(name="Pool of 80 cards, shuffled every set", value="pool"),
            app_commands.Choice(name="Infinite: every draw is 1 to 10 at random", value="infinite"),
        ],
        starter=[
            app_commands.Choice(name="The players alternate", value="alternate"),
            app_commands.Choice(name="The loser of the last set", value="loser"),
        ],
        cheat_ruling=[
            app_commands.Choice(name="the cheater forfeits", value="forfeit"),
            app_commands.Choice(name="the GM rules", value="gm"),
        ],
    )
    @app_commands.autocomplete(
        opponent=all_names, character=own_names, personality=choices_for(pazaak.GAME)
    )
    async def challenge(
        self,
        interaction: discord.Interaction[Any],
        opponent: CharacterName,
        wager: Amount,
        character: CharacterName | None = None,
        turn_timeout: app_commands.Range[int, 1, MAX_TURN] = DEFAULT_TURN,
        main_deck: str = "pool",
        kotor2_cards: bool = True,
        nine_card_win: bool = True,
        starter: str = "alternate",
        skills: bool = False,
        detection: app_commands.Range[int, -100, 100] = 0,
        cheat_ruling: str = "forfeit",
        referee: discord.Member | None = None,
        personality: app_commands.Range[str, 1, PERSONALITY_MAX] | None = None,
        house_edge: bool = False,
        thread: bool | None = None,
        side_bets: bool = False,
    ) -> None:
        # Acknowledge first: the checks below read the database. The challenge is public, so
        # is the deferral; a refusal deletes it and follows up ephemerally instead.
        await interaction.response.defer(thinking=True)
        try:
            wants = await threads.wanted(self.bot, guild_id_of(interaction), thread)
            allowed = threads.may_start(interaction)
            row, text, them = await self._challenge(
                interaction,
                opponent,
                wager,
                character,
                {
                    "turn_timeout": turn_timeout,
                    "main_deck": "infinite" if main_deck == "infinite" else "pool",
                    "kotor2_cards": kotor2_cards,
                    "nine_card_win": nine_card_win,
                    "starter": "loser" if starter == "loser" else "alternate",
                    "skills": skills,
                    "detection_modifier": detection,
                    "cheat_ruling": "gm" if cheat_ruling == "gm" else "forfeit",
                    "side_bets": side_bets,
                },
                referee,
                personality,
                house_edge,
                wants and allowed,
            )
        except Exception:
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()
            raise
        lang = await lang_of(interaction)
        message = await interaction.edit_original_response(
            content=text,
            view=challenge_view(row.id, lang),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(them.owner_id)]),
        )
        await self.bot.services.challenges.set_message(row.id, message.id)
        if row.house_edge:  # the GM's secret: told to the GM alone
            await interaction.followup.send(t(lang, "npc.house_edge.on"), ephemeral=True)
        if wants and not allowed:
            await interaction.followup.send(t(lang, "threads.fallback"), ephemeral=True)

    async def _challenge(
        self,
        interaction: discord.Interaction[Any],
        opponent: str,
        wager: str,
        character: str | None,
        options: dict[str, Any],
        referee: discord.Member | None,
        personality: str | None = None,
        house_edge: bool = False,
        thread: bool = False,
    ) -> tuple[ChallengeRow, str, Character]:
        """Check and save the challenge (``options``: the match settings but the wager); its
        row, its text and the opponent. With skills, the table needs a GM as its referee (told
        of every swap, and who rules on a caught one): ``referee``, or the user if a GM."""
        lang = await lang_of(interaction)
        services = self.bot.services
        me = await acting_character(interaction, character)
        them = await services.characters.by_name(guild_id_of(interaction), opponent)
        if them.id == me.id:
            raise Refused("pazaak_self_challenge")
        amount = parse_amount(wager, CREDITS)
        if await services.tables.seated_at(me.id):
            raise Refused("pazaak_busy", name=me.name)
        held = await services.purses.balance(me.id, CREDITS.code) if amount else 0
        if held < amount:
            raise Refused(
                "pazaak_cannot_pay_held", name=me.name, amount=amount, balance=held, currency="cr"
            )
        settings = pazaak.PazaakSettings.parse({"wager": amount, **options})
        judge = await self._referee(interaction, referee) if settings.skills else None
        gambler = None
        if house_edge and personality is None:
            raise Refused("npc_house_edge_needs_personality")
        if personality is not None:  # a GM's NPC the bot plays
            if not me.is_npc or not await is_gm(interaction):
                raise Refused("npc_personality_needs_npc")
            gambler = known_personality(personality, pazaak.GAME)
        await selection(self.bot, me, kotor2_cards=settings.kotor2_cards)
        assert interaction.channel_id is not None
        row = await services.challenges.create(
            guild_id=guild_id_of(interaction),
            channel_id=interaction.channel_id,
            challenger=me.id,
            opponent=them.id,
            created_by=interaction.user.id,
            settings=settings.model_dump_json(),
            seconds=CHALLENGE_SECONDS,
            referee=judge,
            personality=gambler,
            house_edge=house_edge,
            thread=thread,
        )
        text = pazaak_text.challenge(
            lang,
            mention=mention(them.owner_id),
            challenger=me.name,
            opponent=them.name,
            wager=amount,
            turn=settings.turn_timeout,
            expires=row.expires_at // 1000,
            settings=settings,
            referee=None if judge is None else mention(judge),
        )
        return row, text, them

    async def _referee(
        self, interaction: discord.Interaction[Any], named: discord.Member | None
    ) -> int:
        """The user id of a skills table's referee: the GM named, else the user, if a GM."""
        if named is None:
            if not await is_gm(interaction):
                raise Refused("pazaak_skills_need_gm")
            return interaction.user.id
        if named.bot or not await member_is_gm(interaction, named):
            raise Refused("pazaak_referee_not_gm", name=named.display_name)
        return named.id

    @app_commands.command(name="collection", description="Show a character's side cards.")
    @app_commands.describe(character="Whose side cards (default: your active character).")
    @app_commands.autocomplete(character=all_names)
    async def collection(
        self, interaction: discord.Interaction[Any], character: CharacterName | None = None
    ) -> None:
        lang = await lang_of(interaction)
        if character:
            who = await self.bot.services.characters.by_name(guild_id_of(interaction), character)
        else:
            who = await acting_character(interaction, None)
        deck = who.selection if await controls(interaction, who) else None
        embed = pazaak_text.collection(
            lang, name=who.name, side_cards=who.side_cards, selection=deck
        )
        await answer(interaction, embed=embed, ephemeral=True)

    @app_commands.command(
        name="deck", description="Choose the 10 side cards your character brings to a match."
    )
    @app_commands.describe(character="Whose side deck (default: your active character).")
    @app_commands.autocomplete(character=my_names)
    async def deck(
        self, interaction: discord.Interaction[Any], character: CharacterName | None = None
    ) -> None:
        lang = await lang_of(interaction)
        who = await acting_character(interaction, character)
        if not who.side_cards:
            raise Refused("pazaak_no_side_cards", name=who.name)
        await interaction.response.send_modal(DeckModal(who, lang))

    @app_commands.command(name="grant", description="(GM) Give side cards to a character as loot.")
    @app_commands.describe(
        character="The character who gets the cards.",
        cards="Card codes, e.g. +3 -2 ±4 D T F24 F36 ±1/2 (+-4 works too).",
    )
    @app_commands.autocomplete(character=all_names)
    @gm_only()
    async def grant(
        self,
        interaction: discord.Interaction[Any],
        character: CharacterName,
        cards: app_commands.Range[str, 1, CARDS_TEXT_MAX],
    ) -> None:
        lang = await lang_of(interaction)
        services = self.bot.services
        who = await services.characters.by_name(guild_id_of(interaction), character)
        codes = card_codes(cards)
        given = await services.characters.give_side_cards(who.id, codes)
        text = t(lang, "pazaak.grant.done", name=given.name, cards=pazaak_text.counted(codes, lang))
        await answer(interaction, text, ephemeral=False)

    @app_commands.command(name="take", description="(GM) Take side cards from a character.")
    @app_commands.describe(
        character="The character who loses the cards.",
        cards="Card codes, e.g. +3 -2 ±4 D T F24 F36 ±1/2 (+-4 works too).",
    )
    @app_commands.autocomplete(character=all_names)
    @gm_only()
    async def take(
        self,
        interaction: discord.Interaction[Any],
        character: CharacterName,
        cards: app_commands.Range[str, 1, CARDS_TEXT_MAX],
    ) -> None:
        """The GM takes side cards back (lost in a bet, stolen...): all of them, or none if the
        collection lacks one. A match under way keeps the side deck it began with."""
        lang = await lang_of(interaction)
        services = self.bot.services
        who = await services.characters.by_name(guild_id_of(interaction), character)
        codes = card_codes(cards)
        try:
            left = await services.characters.take_side_cards(who.id, codes)
        except InvalidSideCards as exc:
            if exc.params.get("reason") != "not_owned":
                raise
            raise Refused("pazaak_take_not_owned", name=who.name, **exc.params) from exc
        text = t(lang, "pazaak.take.done", name=left.name, cards=pazaak_text.counted(codes, lang))
        await answer(interaction, text, ephemeral=False)

    @app_commands.command(name="rules", description="Show the rules of pazaak.")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        lang = await lang_of(interaction)
        await answer(interaction, embed=pazaak_text.rules(lang), ephemeral=True)

    # --- the turn timers ------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_table_outcome(self, outcome: TableOutcome) -> None:
        """A turn timed out, or a GM closed the table: show it like any move."""
        self.bot.in_flight.join()
        if outcome.game == pazaak.GAME:
            await self.publisher.publish(outcome.table_id)

    @commands.Cog.listener()
    async def on_turn_warning(self, table_id: int, version: int) -> None:
        """Ping the player whose turn is about to time out (if the turn is long enough to)."""
        self.bot.in_flight.join()
        table = await self.bot.services.tables.get(table_id)
        if table.game != pazaak.GAME:
            return
        state: pazaak.PazaakState = table.state
        player = state.current_player
        if table.version != version or player is None or table.deadline is None:
            return
        if state.settings.turn_timeout * 1000 <= WARN_BEFORE_MS:
            return
        who = await self.bot.services.characters.get(player)
        lang = await self.bot.services.guilds.language(table.guild_id)
        text = pazaak_text.turn_warning(
            lang, mention=mention(who.owner_id), name=who.name, deadline_ms=table.deadline
        )
        where = await threads.talk_of(self.bot, table)
        channel = self.bot.get_partial_messageable(where, guild_id=table.guild_id)
        await channel.send(text, allowed_mentions=pinging(who.owner_id))
