"""Challenges: the challenge message, Accept and Decline under it, and its redraws.

A challenge is a row of the challenge service (``bot.services.challenges``): its terms (the
match's settings as JSON), its message, and its life (pending until accepted, declined,
withdrawn or expired). It holds no money: Accept opens the table, escrowing both wagers, and
marks the challenge accepted in ONE transaction (or changes nothing), so a double click opens
one table. Its buttons are ``pzc:<challenge>:0:yes|no``.

The message shows the answer once it is drawn (the service's ``drawn`` mark): through the click
that answered it, or else by the sweep (every 30 s, and at startup) that also expires the
challenges whose time ran out (it sleeps through ``bot.sleeper``, which a test's fake clock
wakes). A crash between accepting and redrawing heals at startup with no click: the new table is
behind, so the publisher posts its board and deals the hands, and the challenge is undrawn, so
its message is redrawn.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import TYPE_CHECKING, Any, ClassVar, Self

import discord

from bot.i18n import Lang, t
from bot.render.pazaak import text as pazaak_text
from bot.rules import pazaak
from bot.rules.pazaak import SideCard
from bot.services.challenges import ChallengeRow, ChallengeStatus
from bot.services.errors import (
    AlreadyInMatch,
    ChallengeAnswered,
    ChallengeExpired,
    InvalidSideCards,
    PurseTooLow,
    UnknownChallenge,
)
from bot.services.outcomes import Character
from cogs.kit.cog import TableKit
from cogs.kit.ids import Target, grammar
from cogs.kit.messages import edit_original
from cogs.pazaak.people import controls
from cogs.pazaak.views import CHALLENGE_PREFIX
from cogs.replies import Refused, answer, lang_of, report

if TYPE_CHECKING:
    from bot.app import SzulerniaBot

log = logging.getLogger(__name__)

CHALLENGE_SECONDS = 15 * 60
"""How long a challenge may be accepted."""
SWEEP_SECONDS = 30
QUIET = discord.AllowedMentions.none()


class ChallengeItem(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!x)x"):
    """Accept or Decline under a challenge (bound to the cog: see :func:`challenge_item`)."""

    owner: ClassVar[ChallengeActs]

    def __init__(self, item: discord.ui.Button[Any], target: Target) -> None:
        super().__init__(item)
        self.target = target

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        assert isinstance(item, discord.ui.Button)
        return cls(item, Target.parse(match))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        self.owner.bot.in_flight.join()
        await self.owner.answer_challenge(interaction, self.target)


def challenge_item(owner: ChallengeActs) -> type[ChallengeItem]:
    class Item(ChallengeItem, template=grammar(CHALLENGE_PREFIX)):
        pass

    Item.owner = owner
    Item.__name__ = Item.__qualname__ = f"{type(owner).__name__}ChallengeItem"
    return Item


async def selection(
    bot: SzulerniaBot, who: Character, *, kotor2_cards: bool = True, secret: bool = False
) -> tuple[SideCard, ...]:
    """The character's saved side deck, or a refusal that names the character and the reason.

    ``secret``: the refusal goes to someone else (the challenged player, for the challenger's
    deck), so a KOTOR II card the table refuses is not named."""
    try:
        return await bot.services.characters.match_selection(who.id, kotor2_cards=kotor2_cards)
    except InvalidSideCards as exc:
        if secret and exc.params.get("reason") == "kotor2_disabled":
            raise Refused("pazaak_deck_kotor2_hidden", name=who.name) from exc
        raise deck_refusal(exc, who.name) from exc


def deck_refusal(exc: InvalidSideCards, name: str) -> Refused:
    params = dict(exc.params)
    reason = str(params.pop("reason", "unknown_card"))
    return Refused(f"pazaak_deck_{reason}", name=name, **params)


def traits_of(who: Character) -> pazaak.Traits:
    return pazaak.Traits(who.luck, who.gamble, who.perception)


def settings_of(row: ChallengeRow) -> pazaak.PazaakSettings:
    return pazaak.PazaakSettings.model_validate_json(row.settings)


class ChallengeActs(TableKit):
    """Accept and Decline (mixed into the cog), and the challenge message's redraws."""

    def challenge_setup(self) -> None:
        self._challenge_item = challenge_item(self)
        self._sweeper: asyncio.Task[None] | None = None

    # --- the sweep ------------------------------------------------------------------------------

    async def challenges_load(self) -> None:
        self.bot.add_dynamic_items(self._challenge_item)
        await self.sweep_challenges()
        if self._sweeper is None:
            self._sweeper = asyncio.create_task(
                self.challenge_sweep(), name="szulernia-challenge-sweep"
            )

    def challenges_unload(self) -> None:
        sweeper, self._sweeper = self._sweeper, None
        if sweeper is not None:
            sweeper.cancel()
        self.bot.remove_dynamic_items(self._challenge_item)

    async def challenge_sweep(self) -> None:
        """Every :data:`SWEEP_SECONDS` (after the sweep at startup), sweep again."""
        while True:
            await self.bot.sleeper.sleep(SWEEP_SECONDS)
            await self.sweep_challenges()

    async def sweep_challenges(self) -> None:
        """Expire the challenges whose time ran out; redraw those whose answer is not shown."""
        challenges = self.bot.services.challenges
        try:
            await challenges.expire_due()
            for row in await challenges.undrawn():
                await self.redraw_challenge(row.id)
        except Exception:
            log.exception("the challenge sweep failed; it runs again in %d s", SWEEP_SECONDS)

    # --- a click --------------------------------------------------------------------------------

    async def answer_challenge(self, interaction: discord.Interaction[Any], target: Target) -> None:
        lang: Lang | None = None
        try:
            await self.ack(interaction)  # before any read: a refusal follows up, ephemerally
            row = await self.bot.services.challenges.get(target.table)
            if interaction.guild_id is not None and interaction.guild_id != row.guild_id:
                raise UnknownChallenge(challenge=row.id)
            lang = await self.bot.services.guilds.language(row.guild_id)
            if target.act == "yes":
                await self._accept(interaction, row, lang)
            else:
                await self._decline(interaction, row)
        except Exception as exc:
            await self.refuse_challenge(interaction, exc, target.table, lang)

    async def refuse_challenge(
        self,
        interaction: discord.Interaction[Any],
        exc: Exception,
        challenge_id: int,
        lang: Lang | None,
    ) -> None:
        """The challenges' error path: a click on an answered challenge first redraws its
        message (an expired one says so there, and nothing else); then the user hears why."""
        if isinstance(exc, ChallengeAnswered | ChallengeExpired):
            try:
                await self.redraw_challenge(challenge_id, via=interaction)
            except Exception:
                log.exception("could not redraw challenge %d", challenge_id)
            if isinstance(exc, ChallengeExpired):
                return
        await report(interaction, exc, lang=lang or await lang_of(interaction))

    async def _pair(self, row: ChallengeRow) -> tuple[Character, Character]:
        characters = self.bot.services.characters
        return await characters.get(row.challenger), await characters.get(row.opponent)

    async def _accept(
        self, interaction: discord.Interaction[Any], row: ChallengeRow, lang: Lang
    ) -> None:
        services = self.bot.services
        challenger, opponent = await self._pair(row)
        if not await controls(interaction, opponent):
            raise Refused("pazaak_not_challenged", name=opponent.name)
        if row.status != "pending":
            raise ChallengeAnswered(status=row.status)
        if self.bot.clock() > row.expires_at:
            await services.challenges.answer(row.id, "expired")
            raise ChallengeExpired()
        settings = settings_of(row)
        kotor2 = settings.kotor2_cards
        chosen = (
            await selection(self.bot, challenger, kotor2_cards=kotor2, secret=True),
            await selection(self.bot, opponent, kotor2_cards=kotor2),
        )
        traits = (pazaak.Traits(), pazaak.Traits())
        if settings.skills:  # as the characters are now: a change during the match counts not
            traits = (traits_of(challenger), traits_of(opponent))
        await self.ack(interaction)
        try:
            outcome = await services.challenges.accept(
                row.id,
                lambda rng: pazaak.new_match(
                    settings, challenger.id, chosen[0], opponent.id, chosen[1], rng, traits=traits
                ),
                actor_id=interaction.user.id,
            )
        except PurseTooLow as exc:
            poor = challenger if exc.params.get("character") == challenger.id else opponent
            held = {"balance": exc.params.get("balance")} if poor is opponent else {}
            code = "pazaak_cannot_pay_held" if held else "pazaak_cannot_pay"  # only one's own
            raise Refused(
                code, name=poor.name, amount=settings.wager, currency="cr", **held
            ) from exc
        except AlreadyInMatch as exc:
            busy = challenger if exc.params.get("character") == challenger.id else opponent
            raise Refused("pazaak_busy", name=busy.name) from exc
        if outcome.repeated:  # a double click: the other one opened the table
            raise ChallengeAnswered(status="accepted")
        await self.redraw_challenge(row.id, via=interaction)
        await self.publisher.publish(outcome.table_id)  # the board and the hands
        if row.personality is not None:  # the bot plays the challenger: it greets the table
            self.bot.dispatch("npc_talk", outcome.table_id, row.challenger, "seated", row.id)
        marks = await services.surfaces.marks(outcome.table_id)
        if marks.message_id is None:  # the publisher tries again shortly, and on any click
            await answer(interaction, t(lang, "pazaak.challenge.board_failed"), ephemeral=True)

    async def _decline(self, interaction: discord.Interaction[Any], row: ChallengeRow) -> None:
        """The challenged player declines, or the challenger withdraws; no money moves."""
        challenger, opponent = await self._pair(row)
        how: ChallengeStatus
        if await controls(interaction, opponent):
            how = "declined"
        elif await controls(interaction, challenger):
            how = "withdrawn"
        else:
            raise Refused(
                "pazaak_not_in_challenge", challenger=challenger.name, opponent=opponent.name
            )
        if row.status != "pending":
            raise ChallengeAnswered(status=row.status)
        if self.bot.clock() > row.expires_at:
            how = "expired"
        await self.ack(interaction)
        await self.bot.services.challenges.answer(row.id, how)
        await self.redraw_challenge(row.id, via=interaction)

    # --- the message ----------------------------------------------------------------------------

    async def closed_text(self, row: ChallengeRow) -> str:
        lang = await self.bot.services.guilds.language(row.guild_id)
        found = await self.bot.services.characters.many([row.challenger, row.opponent])
        names = [found[c].name if c in found else "?" for c in (row.challenger, row.opponent)]
        wager = settings_of(row).wager
        return pazaak_text.challenge_closed(lang, row.status, *names, wager=wager)

    async def redraw_challenge(
        self, challenge_id: int, via: discord.Interaction[Any] | None = None
    ) -> None:
        """Show an answered challenge's answer on its message (through ``via``, the click on
        it, if given) and mark it drawn; a message that cannot be edited now is left for the
        next sweep, one that is gone is given up."""
        challenges = self.bot.services.challenges
        row = await challenges.get(challenge_id)
        if row.status == "pending":
            return
        text = await self.closed_text(row)
        if via is not None and via.message is not None:
            try:
                if not via.response.is_done():
                    await via.response.defer()
                await edit_original(via, content=text, view=None, allowed_mentions=QUIET)
                await challenges.drew(row.id)
                return
            except discord.HTTPException as exc:
                log.info("challenge %d: editing through the click failed (%s)", row.id, exc.status)
        if row.message_id is not None:
            channel = self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
            try:
                await channel.get_partial_message(row.message_id).edit(
                    content=text, view=None, allowed_mentions=QUIET
                )
            except (discord.NotFound, discord.Forbidden) as exc:
                log.info("challenge %d: its message is out of reach (%s)", row.id, exc.code)
            except discord.HTTPException as exc:
                log.warning("challenge %d: could not redraw (%s); later", row.id, exc.status)
                return
        await challenges.drew(row.id)
