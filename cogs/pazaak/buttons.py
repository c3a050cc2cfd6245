"""The match's buttons. Each is a DynamicItem whose custom_id carries the table id and, for a
move, the table's version, so it works after a restart and a stale or double click changes
nothing. Views are built fresh from the state every time; they hold nothing themselves.

custom_ids: ``pz:<table>:<version>:end|stand`` (End turn, Stand), ``pz:<table>:<version>:c<i>``
(hand card i), ``pz:<table>:<version>:c<i>:v<value>`` (card i as value), ``pz:hand:<table>``
(Show my hand), ``pz:ff:<table>`` and ``pz:ffy:<table>:<player>`` (Forfeit, confirmed).
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.i18n import Lang, t
from bot.render import pazaak as render
from bot.replies import answer
from bot.rules import pazaak
from bot.rules.common import GameOver, NotSeated
from bot.services.errors import StaleAction
from cogs.pazaak.flow import Flow, flow_of

Button = discord.ui.Button[discord.ui.View]
PLACEHOLDER = "…"


def _button(custom_id: str, label: str, style: discord.ButtonStyle, **kw: Any) -> Button:
    return discord.ui.Button(label=label, style=style, custom_id=custom_id, **kw)


def _hand_of(state: pazaak.PazaakState, player: int) -> tuple[pazaak.SideCard, ...]:
    return pazaak.view(state, player).hand


def _playable(state: pazaak.PazaakState, player: int) -> dict[int, list[int | None]]:
    """Hand index -> the values it may be played as now (the rules' legal actions)."""
    found: dict[int, list[int | None]] = {}
    for action in pazaak.legal_actions(state):
        if isinstance(action, pazaak.PlayCard) and action.player == player:
            found.setdefault(action.hand_index, []).append(action.value)
    return found


async def _refresh_clicked(
    interaction: discord.Interaction[Any], flow: Flow, table_id: int, player: int, lang: Lang
) -> None:
    """After a move made from an ephemeral "Show my hand" message, show that hand as it is now
    (a DM or the board is edited by the flow itself)."""
    message = interaction.message
    if message is None or not message.flags.ephemeral:
        return
    table = await flow.table(table_id)
    players = await flow.players(table.state)
    names = {pid: who.name for pid, who in players.items()}
    embed = render.hand(table.state, player, names, lang)
    view = flow.hand_view(table_id, table.version, table.state, player, lang)
    await interaction.edit_original_response(embed=embed, view=view)


class TurnButton(
    discord.ui.DynamicItem[Button],
    template=r"pz:(?P<table>\d+):(?P<version>\d+):(?P<move>end|stand)",
):
    def __init__(
        self,
        table: int,
        version: int,
        move: str,
        label: str = PLACEHOLDER,
        *,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        self.table, self.version, self.move = table, version, move
        style = discord.ButtonStyle.primary if move == "end" else discord.ButtonStyle.success
        custom_id = f"pz:{table}:{version}:{move}"
        super().__init__(_button(custom_id, label, style, disabled=disabled), row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["table"]), int(match["version"]), match["move"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        flow = flow_of(interaction)

        async def run(lang: Lang) -> None:
            await interaction.response.defer()
            move = pazaak.EndTurn if self.move == "end" else pazaak.Stand
            _, player = await flow.act(interaction, self.table, self.version, move)
            await _refresh_clicked(interaction, flow, self.table, player, lang)

        await flow.guard(interaction, run, table_id=self.table)


class CardButton(
    discord.ui.DynamicItem[Button], template=r"pz:(?P<table>\d+):(?P<version>\d+):c(?P<index>\d)"
):
    def __init__(
        self, table: int, version: int, index: int, label: str = PLACEHOLDER, disabled: bool = False
    ) -> None:
        self.table, self.version, self.index = table, version, index
        custom_id = f"pz:{table}:{version}:c{index}"
        style = discord.ButtonStyle.secondary
        super().__init__(_button(custom_id, label, style, disabled=disabled), row=0)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["table"]), int(match["version"]), int(match["index"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        flow = flow_of(interaction)
        await flow.guard(
            interaction, lambda lang: self._run(interaction, flow, lang), table_id=self.table
        )

    async def _run(self, interaction: discord.Interaction[Any], flow: Flow, lang: Lang) -> None:
        table = await flow.table(self.table)
        state: pazaak.PazaakState = table.state
        if table.version != self.version:
            raise StaleAction(table=self.table, expected=self.version, current=table.version)
        _, ids = await flow.mine(interaction, state)
        player = ids[0]
        hand = _hand_of(state, player)
        values = _playable(state, player).get(self.index, [])
        if self.index < len(hand) and render.is_choice(hand[self.index]) and values:
            card = hand[self.index]
            view = discord.ui.View(timeout=None)
            for value in values:
                assert value is not None
                view.add_item(ValueButton(self.table, self.version, self.index, value))
            text = t(lang, "pazaak.hand.choose", card=render.card_label(card, lang))
            await answer(interaction, text, view=view, ephemeral=True)
            return
        await interaction.response.defer()
        index = self.index
        _, player = await flow.act(
            interaction, self.table, self.version, lambda p: pazaak.PlayCard(p, index)
        )
        await _refresh_clicked(interaction, flow, self.table, player, lang)


class ValueButton(
    discord.ui.DynamicItem[Button],
    template=r"pz:(?P<table>\d+):(?P<version>\d+):c(?P<index>\d):v(?P<value>-?\d+)",
):
    def __init__(self, table: int, version: int, index: int, value: int) -> None:
        self.table, self.version, self.index, self.value = table, version, index, value
        custom_id = f"pz:{table}:{version}:c{index}:v{value}"
        style = discord.ButtonStyle.success if value > 0 else discord.ButtonStyle.danger
        super().__init__(_button(custom_id, render.signed(value), style))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(
            int(match["table"]), int(match["version"]), int(match["index"]), int(match["value"])
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        flow = flow_of(interaction)

        async def run(lang: Lang) -> None:
            await interaction.response.defer()
            index, value = self.index, self.value
            outcome, _ = await flow.act(
                interaction, self.table, self.version, lambda p: pazaak.PlayCard(p, index, value)
            )
            played = next(e for e in outcome.events if isinstance(e, pazaak.CardPlayed))
            card = render.played_text(played.card, played.value, lang)
            await interaction.edit_original_response(
                content=t(lang, "pazaak.hand.chose", card=card), view=None
            )

        await flow.guard(interaction, run, table_id=self.table)


class HandButton(discord.ui.DynamicItem[Button], template=r"pz:hand:(?P<table>\d+)"):
    def __init__(self, table: int, label: str = PLACEHOLDER) -> None:
        self.table = table
        super().__init__(_button(f"pz:hand:{table}", label, discord.ButtonStyle.secondary))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        flow = flow_of(interaction)

        async def run(lang: Lang) -> None:
            table = await flow.table(self.table)
            players, ids = await flow.mine(interaction, table.state)
            names = {pid: who.name for pid, who in players.items()}
            cancelled = table.status == "cancelled"
            embed = render.hand(table.state, ids[0], names, lang, cancelled=cancelled)
            view = None
            if not cancelled:
                view = flow.hand_view(self.table, table.version, table.state, ids[0], lang)
            await answer(interaction, embed=embed, view=view, ephemeral=True)

        await flow.guard(interaction, run, table_id=self.table)


class ForfeitButton(discord.ui.DynamicItem[Button], template=r"pz:ff:(?P<table>\d+)"):
    def __init__(self, table: int, label: str = PLACEHOLDER) -> None:
        self.table = table
        super().__init__(_button(f"pz:ff:{table}", label, discord.ButtonStyle.danger))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        flow = flow_of(interaction)

        async def run(lang: Lang) -> None:
            table = await flow.table(self.table)
            state: pazaak.PazaakState = table.state
            if state.phase == "over":
                raise GameOver()
            players, ids = await flow.mine(interaction, state)
            me = players[ids[0]]
            other = next(who for pid, who in players.items() if pid != me.id)
            text = t(
                lang,
                "pazaak.forfeit.confirm",
                name=me.name,
                opponent=other.name,
                pot=render.credits(state.pot, lang),
            )
            view = discord.ui.View(timeout=None)
            label = t(lang, "pazaak.button.forfeit_yes")
            view.add_item(ForfeitYesButton(self.table, me.id, label))
            await answer(interaction, text, view=view, ephemeral=True)

        await flow.guard(interaction, run, table_id=self.table)


class ForfeitYesButton(
    discord.ui.DynamicItem[Button], template=r"pz:ffy:(?P<table>\d+):(?P<player>\d+)"
):
    def __init__(self, table: int, player: int, label: str = PLACEHOLDER) -> None:
        self.table, self.player = table, player
        button = _button(f"pz:ffy:{table}:{player}", label, discord.ButtonStyle.danger)
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["table"]), int(match["player"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        flow = flow_of(interaction)

        async def run(lang: Lang) -> None:
            await interaction.response.defer()
            table = await flow.table(self.table)
            players, ids = await flow.mine(interaction, table.state)
            if self.player not in ids:
                raise NotSeated(player=interaction.user.id)
            who = self.player
            await flow.act(interaction, self.table, None, lambda _: pazaak.Forfeit(who))
            text = t(lang, "pazaak.forfeit.done", name=players[who].name)
            await interaction.edit_original_response(content=text, view=None)

        await flow.guard(interaction, run, table_id=self.table)


# --- views --------------------------------------------------------------------------------------


def board_view(table_id: int, version: int, lang: Lang) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(TurnButton(table_id, version, "end", t(lang, "pazaak.button.end_turn")))
    view.add_item(TurnButton(table_id, version, "stand", t(lang, "pazaak.button.stand")))
    view.add_item(HandButton(table_id, t(lang, "pazaak.button.show_hand")))
    view.add_item(ForfeitButton(table_id, t(lang, "pazaak.button.forfeit")))
    return view


def hand_view(
    table_id: int, version: int, state: pazaak.PazaakState, player: int, lang: Lang
) -> discord.ui.View | None:
    """One button per hand card (enabled when it may be played now), End turn and Stand."""
    if state.phase == "over":
        return None
    view = discord.ui.View(timeout=None)
    playable = _playable(state, player)
    for index, card in enumerate(_hand_of(state, player)):
        label = render.card_label(card, lang)
        view.add_item(CardButton(table_id, version, index, label, disabled=index not in playable))
    on_turn = state.current_player == player
    for move, key in (("end", "pazaak.button.end_turn"), ("stand", "pazaak.button.stand")):
        label = t(lang, key)
        view.add_item(TurnButton(table_id, version, move, label, disabled=not on_turn, row=1))
    return view


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    TurnButton,
    CardButton,
    ValueButton,
    HandButton,
    ForfeitButton,
    ForfeitYesButton,
)
