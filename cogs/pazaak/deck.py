"""``/pazaak deck``: choose the 10 side cards a character brings to a match, in a modal.

The modal holds up to four select menus (plus, minus, plus/minus and special cards), one option
per owned copy, the saved side deck preselected, so the whole choice arrives in one submit with no
state kept between clicks. Discord allows 25 options per menu: in a group with more owned copies
than that, each card shows as many copies as fit evenly (at least four of each).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import discord

from bot.i18n import Lang, t
from bot.render import pazaak as render
from bot.render.pazaak import text as pazaak_text
from bot.rules.pazaak import ALL_SIDE_CARDS, SELECTION_SIZE, SideCard
from bot.services.errors import InvalidSideCards
from bot.services.outcomes import Character
from cogs.common import is_gm
from cogs.pazaak.challenge import deck_refusal
from cogs.replies import answer, bot_of, report

MAX_OPTIONS = 25
GROUPS: tuple[tuple[str, frozenset[str]], ...] = (
    ("plus", frozenset({"plus"})),
    ("minus", frozenset({"minus"})),
    ("plus_minus", frozenset({"plus_minus"})),
    ("special", frozenset({"double", "tiebreaker", "flip24", "flip36", "pm12"})),
)


def _copies_shown(owned: Counter[SideCard]) -> int:
    """The most copies of each card that fit into one menu (never more than a deck holds)."""
    for copies in range(SELECTION_SIZE, 0, -1):
        if sum(min(count, copies) for count in owned.values()) <= MAX_OPTIONS:
            return copies
    return 1


def _options(
    cards: Sequence[SideCard], owned: Counter[str], chosen: Counter[str], lang: Lang
) -> list[discord.SelectOption]:
    counts = Counter({card: owned[card.code] for card in cards if owned[card.code]})
    shown = _copies_shown(counts)
    options = []
    for card in cards:
        count = min(owned[card.code], shown)
        for copy in range(1, count + 1):
            options.append(
                discord.SelectOption(
                    label=render.card_label(card, lang),
                    value=f"{card.code}|{copy}",
                    description=t(lang, "pazaak.deck.copy", n=copy, count=owned[card.code]),
                    default=copy <= chosen[card.code],
                )
            )
    return options


class DeckModal(discord.ui.Modal):
    def __init__(self, who: Character, lang: Lang) -> None:
        super().__init__(title=t(lang, "pazaak.deck.title", name=who.name)[:45], timeout=900)
        self.who, self.lang = who, lang
        owned, chosen = Counter(who.side_cards), Counter(who.selection)
        self.menus: list[discord.ui.Select[Any]] = []
        for group, kinds in GROUPS:
            cards = [card for card in ALL_SIDE_CARDS if card.kind in kinds]
            options = _options(cards, owned, chosen, lang)
            if not options:
                continue
            menu: discord.ui.Select[Any] = discord.ui.Select(
                custom_id=f"pz:deck:{group}",
                options=options,
                min_values=0,
                max_values=min(SELECTION_SIZE, len(options)),
                required=False,
            )
            self.menus.append(menu)
            label = discord.ui.Label(
                text=t(lang, f"pazaak.deck.group.{group}"),
                description=t(lang, "pazaak.deck.hint"),
                component=menu,
            )
            self.add_item(label)

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        bot_of(interaction).in_flight.join()
        try:
            await self._save(interaction)
        except Exception as exc:
            await report(interaction, exc, lang=self.lang)

    async def _save(self, interaction: discord.Interaction[Any]) -> None:
        codes = [value.split("|")[0] for menu in self.menus for value in menu.values]
        services = bot_of(interaction).services
        gm = self.who.is_npc and await is_gm(interaction)
        try:
            saved = await services.characters.set_selection(
                self.who.id, codes, actor_id=interaction.user.id, as_gm=gm
            )
        except InvalidSideCards as exc:
            raise deck_refusal(exc, self.who.name) from exc
        text = t(
            self.lang,
            "pazaak.deck.saved",
            name=saved.name,
            cards=pazaak_text.counted(saved.selection, self.lang),
        )
        await answer(interaction, text, ephemeral=True)
