"""Challenges: Accept and Decline under a challenge message.

A challenge is not a table yet, so it holds no money. Everything it needs is in the buttons'
custom_id (``pz:ch:<challenger>:<opponent>:<wager>:<turn seconds>:<expiry>:<flags>:yes|no``,
the table options as one hex digit of :data:`FLAGS`; a custom_id without flags, from before
the options, means the defaults). The table is created only on Accept, which escrows both
wagers in one transaction (or changes nothing). That the challenge was answered is kept in the
guild service's meta store, so a stale Accept after a Decline (or a restart) does nothing, and
the Accept's idempotency key is the message id, so a double click opens one table.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any, Self

import discord

from bot.i18n import Lang, t
from bot.render import pazaak_text
from bot.replies import Refused, answer, bot_of
from bot.rules import pazaak
from bot.rules.pazaak import SideCard
from bot.services.errors import AlreadyInMatch, InsufficientFunds, InvalidSideCards
from bot.services.outcomes import Character, TableOutcome
from cogs.common import guild_id_of
from cogs.pazaak.common import controls
from cogs.pazaak.flow import Flow, flow_of

log = logging.getLogger(__name__)

CHALLENGE_SECONDS = 15 * 60
"""How long a challenge may be accepted."""

INFINITE, NO_KOTOR2, NO_NINE, LOSER_STARTS = 1, 2, 4, 8
FLAGS = (INFINITE, NO_KOTOR2, NO_NINE, LOSER_STARTS)
"""The table options that differ from the defaults, one bit each (0: all defaults)."""


def option_flags(*, main_deck: str, kotor2_cards: bool, nine_card_win: bool, starter: str) -> int:
    """The flags of ``/pazaak challenge``'s options."""
    return (
        (INFINITE if main_deck == "infinite" else 0)
        | (0 if kotor2_cards else NO_KOTOR2)
        | (0 if nine_card_win else NO_NINE)
        | (LOSER_STARTS if starter == "loser" else 0)
    )


@dataclass(frozen=True, slots=True)
class Terms:
    challenger: int
    opponent: int
    wager: int
    turn: int
    expires: int
    """Unix seconds."""
    flags: int = 0
    """The table options (:data:`FLAGS`)."""

    def custom_id(self, answer: str) -> str:
        return (
            f"pz:ch:{self.challenger}:{self.opponent}:{self.wager}:{self.turn}:{self.expires}:"
            f"{self.flags:x}:{answer}"
        )

    def settings(self) -> pazaak.PazaakSettings:
        """The match's settings (the rules' defaults for everything the challenge doesn't set)."""
        return pazaak.PazaakSettings(
            wager=self.wager,
            turn_timeout=self.turn,
            main_deck="infinite" if self.flags & INFINITE else "pool",
            kotor2_cards=not self.flags & NO_KOTOR2,
            nine_card_win=not self.flags & NO_NINE,
            starter="loser" if self.flags & LOSER_STARTS else "alternate",
        )


class ChallengeButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=(
        r"pz:ch:(?P<a>\d+):(?P<b>\d+):(?P<wager>\d+):(?P<turn>\d+):(?P<exp>\d+)"
        r"(?::(?P<flags>[0-9a-f]))?:(?P<ans>yes|no)"
    ),
):
    def __init__(self, terms: Terms, answer: str, label: str = "…") -> None:
        self.terms, self.answer = terms, answer
        style = discord.ButtonStyle.success if answer == "yes" else discord.ButtonStyle.danger
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=label, style=style, custom_id=terms.custom_id(answer)
        )
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        terms = Terms(
            int(match["a"]), int(match["b"]), int(match["wager"]), int(match["turn"]),
            int(match["exp"]), int(match["flags"] or "0", 16),
        )  # fmt: skip
        return cls(terms, match["ans"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        flow = flow_of(interaction)
        run = accept if self.answer == "yes" else decline
        await flow.guard(interaction, lambda lang: run(interaction, flow, self.terms, lang))


def challenge_view(terms: Terms, lang: Lang) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ChallengeButton(terms, "yes", t(lang, "pazaak.button.accept")))
    view.add_item(ChallengeButton(terms, "no", t(lang, "pazaak.button.decline")))
    return view


def _key(message_id: int) -> str:
    return f"pazaak:challenge:{message_id}"


async def selection(
    flow: Flow, who: Character, *, kotor2_cards: bool = True, secret: bool = False
) -> tuple[SideCard, ...]:
    """The character's saved side deck, or a refusal that names the character and the reason.

    ``secret``: the refusal goes to someone else (the challenged player, for the challenger's
    deck), so a KOTOR II card the table refuses is not named."""
    try:
        return await flow.bot.services.characters.match_selection(who.id, kotor2_cards=kotor2_cards)
    except InvalidSideCards as exc:
        if secret and exc.params.get("reason") == "kotor2_disabled":
            raise Refused("pazaak_deck_kotor2_hidden", name=who.name) from exc
        raise deck_refusal(exc, who.name) from exc


def deck_refusal(exc: InvalidSideCards, name: str) -> Refused:
    params = dict(exc.params)
    reason = str(params.pop("reason", "unknown_card"))
    return Refused(f"pazaak_deck_{reason}", name=name, **params)


async def accepted_table(flow: Flow, message_id: int) -> int | None:
    """The table this challenge opened, if it did: from the answer stored with the challenge or,
    if the bot stopped between opening the table and storing that, from the table's key."""
    stored = await flow.bot.services.guilds.meta(_key(message_id))
    if stored is not None and stored.startswith("accepted:"):
        return int(stored.removeprefix("accepted:"))
    return await flow.bot.services.tables.by_key(_key(message_id))


async def finish(
    interaction: discord.Interaction[Any],
    flow: Flow,
    table_id: int,
    text: str,
    lang: Lang,
    outcome: TableOutcome | None = None,
) -> str:
    """Finish an accepted challenge: post the board and deal the hands (unless the table has a
    board already), then say so under the challenge. Returns ``"started"``, ``"done"`` (the
    board was there already) or ``"failed"`` (the board could not be posted; Accept retries)."""
    message = interaction.message
    assert message is not None
    await flow.bot.services.guilds.set_meta(_key(message.id), f"accepted:{table_id}")
    table = await flow.table(table_id)
    started = table.message_id is None
    if started:
        try:
            await flow.start(outcome or await flow.current(table_id))
        except discord.HTTPException as exc:  # the wagers are escrowed: Accept again retries
            log.warning("could not post the board of table %d (%s)", table_id, exc.status)
            await answer(interaction, t(lang, "pazaak.challenge.board_failed"), ephemeral=True)
            return "failed"
    await interaction.edit_original_response(
        content=text, view=None, allowed_mentions=discord.AllowedMentions.none()
    )
    return "started" if started else "done"


async def accept(
    interaction: discord.Interaction[Any], flow: Flow, terms: Terms, lang: Lang
) -> None:
    services = bot_of(interaction).services
    message = interaction.message
    assert message is not None
    challenger = await services.characters.get(terms.challenger)
    opponent = await services.characters.get(terms.opponent)
    if not await controls(interaction, opponent):
        raise Refused("pazaak_not_challenged", name=opponent.name)
    await interaction.response.defer()
    pair = (challenger.name, opponent.name)
    text = pazaak_text.challenge_closed(lang, "accepted", *pair, wager=terms.wager)
    async with flow.lock(message.id, "challenge"):
        found = await accepted_table(flow, message.id)
        if found is not None:  # accepted before: finish what a failure or a restart left undone
            if await finish(interaction, flow, found, text, lang) == "done":
                raise Refused("pazaak_challenge_answered")
            return
        if await services.guilds.meta(_key(message.id)) is not None:
            raise Refused("pazaak_challenge_answered")
        if flow.bot.clock() // 1000 > terms.expires:
            await services.guilds.set_meta(_key(message.id), "expired")
            closed = pazaak_text.challenge_closed(lang, "expired", *pair)
            await interaction.edit_original_response(content=closed, view=None)
            return
        settings = terms.settings()
        kotor2 = settings.kotor2_cards
        chosen = (
            await selection(flow, challenger, kotor2_cards=kotor2, secret=True),
            await selection(flow, opponent, kotor2_cards=kotor2),
        )
        try:
            outcome = await services.tables.create(
                pazaak.GAME,
                lambda rng: pazaak.new_match(
                    settings, challenger.id, chosen[0], opponent.id, chosen[1], rng
                ),
                guild_id=guild_id_of(interaction),
                channel_id=message.channel.id,
                actor_id=interaction.user.id,
                key=_key(message.id),
            )
        except InsufficientFunds as exc:
            poor = challenger if exc.params.get("character") == challenger.id else opponent
            raise Refused(
                "pazaak_cannot_pay", name=poor.name, amount=terms.wager, currency="cr"
            ) from exc
        except AlreadyInMatch as exc:
            busy = challenger if exc.params.get("character") == challenger.id else opponent
            raise Refused("pazaak_busy", name=busy.name) from exc
        flow.bot.timers.poke()
        await finish(interaction, flow, outcome.table_id, text, lang, outcome)


async def decline(
    interaction: discord.Interaction[Any], flow: Flow, terms: Terms, lang: Lang
) -> None:
    """The challenged player declines, or the challenger withdraws; no money moves. A challenge
    that already opened a table is accepted: its board is posted if it is missing."""
    services = bot_of(interaction).services
    message = interaction.message
    assert message is not None
    challenger = await services.characters.get(terms.challenger)
    opponent = await services.characters.get(terms.opponent)
    pair = (challenger.name, opponent.name)
    if await controls(interaction, opponent):
        how = "declined"
    elif await controls(interaction, challenger):
        how = "withdrawn"
    else:
        raise Refused("pazaak_not_in_challenge", challenger=pair[0], opponent=pair[1])
    await interaction.response.defer()
    async with flow.lock(message.id, "challenge"):
        found = await accepted_table(flow, message.id)
        if found is not None:
            text = pazaak_text.challenge_closed(lang, "accepted", *pair, wager=terms.wager)
            if await finish(interaction, flow, found, text, lang) != "failed":
                raise Refused("pazaak_challenge_answered")
            return
        if await services.guilds.meta(_key(message.id)) is not None:
            raise Refused("pazaak_challenge_answered")
        if flow.bot.clock() // 1000 > terms.expires:
            how = "expired"
        await services.guilds.set_meta(_key(message.id), how)
    text = pazaak_text.challenge_closed(lang, how, *pair)
    await interaction.edit_original_response(
        content=text, view=None, allowed_mentions=discord.AllowedMentions.none()
    )
