"""``/purse show|history|pay|give|take``: every character's coins, kept in the ledger.

Amounts are typed as people say them (``1 GC 10 s``, ``15p``, ``250 cr``); the coins name the
currency. Players see their own purses; a GM sees any, and alone gives or takes coins. Purses are
a server's: the group works only there.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import Lang, t
from bot.render import purse as render
from bot.rules.money import parse_money
from bot.services.outcomes import Character
from cogs.common import (
    Amount,
    CharacterName,
    acting_character,
    all_names,
    gm_only,
    guild_id_of,
    is_gm,
    my_names,
    page_button,
)
from cogs.replies import answer, bot_of, guarded, lang_of

if TYPE_CHECKING:
    from bot.app import SzulerniaBot

PAGE_SIZE = 10
Currency = Literal["wh", "cr"]
REASON_MAX = 200


class HistoryButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"pur:h:(?P<char>\d+):(?P<cur>[a-z]+):(?P<page>\d+):(?P<dir>[on])",
):
    """ "Older" / "Newer" under ``/purse history``: ``pur:h:<character>:<currency>:<page>:<o|n>``
    where ``page`` is the page it leads to, counted from the newest (0)."""

    def __init__(
        self,
        character_id: int,
        currency: str,
        page: int,
        older: bool,
        *,
        label: str = "",
        disabled: bool = False,
    ) -> None:
        self.character_id, self.currency, self.page = character_id, currency, page
        custom_id = f"pur:h:{character_id}:{currency}:{page}:{'o' if older else 'n'}"
        super().__init__(page_button(custom_id, label, disabled))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HistoryButton:
        return cls(int(match["char"]), match["cur"], int(match["page"]), match["dir"] == "o")

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self._turn(interaction))

    async def _turn(self, interaction: discord.Interaction) -> None:
        services = bot_of(interaction).services
        character = await services.characters.get(self.character_id)
        await services.characters.require_owner(
            character.id, interaction.user.id, as_gm=await is_gm(interaction)
        )
        embed, view = await history_view(interaction, character, self.currency, self.page)
        await interaction.response.edit_message(
            embed=embed, view=view, allowed_mentions=discord.AllowedMentions.none()
        )


async def history_view(
    interaction: discord.Interaction, character: Character, currency: str, page: int
) -> tuple[discord.Embed, discord.ui.View]:
    """The embed and the Older/Newer buttons of one history page (0 = the newest)."""
    services = bot_of(interaction).services
    before: int | None = None
    shown = 0
    while True:  # keyset pages from the newest: page n is n steps down
        found = await services.purses.history(
            character.id, currency, before=before, limit=PAGE_SIZE
        )
        if shown == page or found.next_before is None:
            break
        before, shown = found.next_before, shown + 1
    names = await bot_of(interaction).services.characters.names(
        {line.other_character_id for line in found.lines}
    )
    lang = await lang_of(interaction)
    embed = render.history(lang, character.name, currency, found.lines, page=shown, names=names)
    view = discord.ui.View(timeout=None)
    newer = t(lang, "purse.history.newer")
    older = t(lang, "purse.history.older")
    view.add_item(
        HistoryButton(
            character.id, currency, max(shown - 1, 0), False, label=newer, disabled=shown == 0
        )
    )
    view.add_item(
        HistoryButton(
            character.id,
            currency,
            shown + 1,
            True,
            label=older,
            disabled=found.next_before is None,
        )
    )
    return embed, view


async def _viewed(interaction: discord.Interaction, name: str | None) -> Character:
    """The character whose purse is shown: a GM may name any; a player, their own."""
    if name and await is_gm(interaction):
        return await bot_of(interaction).services.characters.by_name(guild_id_of(interaction), name)
    return await acting_character(interaction, name)


def _reason(text: str | None) -> str:
    return " ".join((text or "").split())


@app_commands.guild_only()
class Purse(
    commands.GroupCog,
    group_name="purse",
    group_description="Coin purses: see, pay, and (GM) give or take coins.",
):
    def __init__(self, bot: SzulerniaBot) -> None:
        self.bot = bot

    async def _lang(self, interaction: discord.Interaction) -> Lang:
        return await lang_of(interaction)

    @app_commands.command(name="show", description="Show what a purse holds (only you see it).")
    @app_commands.describe(character="Whose purse (default: your character's).")
    @app_commands.autocomplete(character=my_names)
    async def show(
        self, interaction: discord.Interaction, character: CharacterName | None = None
    ) -> None:
        who = await _viewed(interaction, character)
        held = await self.bot.services.purses.balances(who.id)
        await answer(interaction, render.balances(await self._lang(interaction), who.name, held))

    @app_commands.command(
        name="history", description="Page through a purse's movements (only you see it)."
    )
    @app_commands.describe(
        character="Whose purse (default: your character's).",
        currency="Which coins (default: Warhammer coin, or credits if only those moved).",
    )
    @app_commands.choices(
        currency=[
            app_commands.Choice(name="Warhammer coin", value="wh"),
            app_commands.Choice(name="Credits", value="cr"),
        ]
    )
    @app_commands.autocomplete(character=my_names)
    async def history(
        self,
        interaction: discord.Interaction,
        character: CharacterName | None = None,
        currency: Currency | None = None,
    ) -> None:
        who = await _viewed(interaction, character)
        code: str = currency or "wh"
        if currency is None:
            purses = self.bot.services.purses
            wh = await purses.history(who.id, "wh", limit=1)
            cr = await purses.history(who.id, "cr", limit=1)
            code = "cr" if cr.lines and not wh.lines else "wh"
        embed, view = await history_view(interaction, who, code, 0)
        await answer(interaction, embed=embed, view=view)

    @app_commands.command(name="pay", description="Pay coins from your character to another one.")
    @app_commands.describe(
        to="The character who gets the coins.",
        amount="How much, with its coins: 1 GC 10 s, 15p, 250 cr.",
        payer="Which of your characters pays (default: the one you play).",
        reason="What for (shown with the payment).",
    )
    @app_commands.rename(payer="from")
    @app_commands.autocomplete(to=all_names, payer=my_names)
    async def pay(
        self,
        interaction: discord.Interaction,
        to: CharacterName,
        amount: Amount,
        payer: CharacterName | None = None,
        reason: app_commands.Range[str, 1, REASON_MAX] | None = None,
    ) -> None:
        source = await acting_character(interaction, payer)
        target = await self.bot.services.characters.by_name(guild_id_of(interaction), to)
        currency, units = parse_money(amount)
        why = _reason(reason)
        await self.bot.services.purses.pay(
            source.id,
            target.id,
            currency.code,
            units,
            actor_id=interaction.user.id,
            as_gm=await is_gm(interaction),
            reason=why,
        )
        text = render.movement(
            await self._lang(interaction),
            "purse.paid",
            units=units,
            currency=currency.code,
            reason=why,
            payer=source.name,
            payee=target.name,
        )
        await answer(interaction, text, ephemeral=False)

    @app_commands.command(name="give", description="GM: give coins to a character.")
    @app_commands.describe(
        character="Who gets the coins.",
        amount="How much, with its coins: 1 GC 10 s, 15p, 250 cr.",
        reason="Why (kept in the purse's history).",
    )
    @app_commands.autocomplete(character=all_names)
    @gm_only()
    async def give(
        self,
        interaction: discord.Interaction,
        character: CharacterName,
        amount: Amount,
        reason: app_commands.Range[str, 1, REASON_MAX],
    ) -> None:
        await self._gm_move(interaction, character, amount, reason, give=True)

    @app_commands.command(name="take", description="GM: take coins from a character.")
    @app_commands.describe(
        character="Who loses the coins.",
        amount="How much, with its coins: 1 GC 10 s, 15p, 250 cr.",
        reason="Why (kept in the purse's history).",
    )
    @app_commands.autocomplete(character=all_names)
    @gm_only()
    async def take(
        self,
        interaction: discord.Interaction,
        character: CharacterName,
        amount: Amount,
        reason: app_commands.Range[str, 1, REASON_MAX],
    ) -> None:
        await self._gm_move(interaction, character, amount, reason, give=False)

    async def _gm_move(
        self, interaction: discord.Interaction, name: str, amount: str, reason: str, *, give: bool
    ) -> None:
        who = await self.bot.services.characters.by_name(guild_id_of(interaction), name)
        currency, units = parse_money(amount)
        why = _reason(reason)
        purses = self.bot.services.purses
        move = purses.grant if give else purses.take
        await move(who.id, currency.code, units, actor_id=interaction.user.id, reason=why)
        text = render.movement(
            await self._lang(interaction),
            "purse.given" if give else "purse.taken",
            units=units,
            currency=currency.code,
            reason=why,
            name=who.name,
        )
        await answer(interaction, text, ephemeral=False)


async def setup(bot: SzulerniaBot) -> None:
    bot.add_dynamic_items(HistoryButton)
    await bot.add_cog(Purse(bot))
