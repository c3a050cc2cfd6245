"""The components of a pazaak table and of a challenge, as plain views (the cog receives them).

custom_ids follow the kit's grammar (``cogs.kit.ids``), prefix ``pz``:

- ``pz:<table>:<version>:end`` / ``:stand`` (End turn, Stand), on the board and under a hand;
- ``pz:<table>:<version>:card:<i>`` (hand card i), ``pz:<table>:<version>:val:<i>.<value>``
  (card i as value, after a choice);
- ``pz:<table>:0:hand`` (Show my hand), ``pz:<table>:0:ff`` and ``pz:<table>:0:ffy:<player>``
  (Forfeit, confirmed);

and prefix ``pzc`` for a challenge: ``pzc:<challenge>:0:yes`` / ``:no`` (Accept, Decline).
"""

from __future__ import annotations

import discord

from bot.i18n import Lang, t
from bot.render import pazaak as render
from bot.rules import pazaak
from cogs.kit.ids import Target, button, view

PREFIX = "pz"
CHALLENGE_PREFIX = "pzc"


def at(table_id: int, version: int, act: str, arg: str = "") -> Target:
    return Target(PREFIX, table_id, version, act, arg)


def playable(state: pazaak.PazaakState, player: int) -> dict[int, list[int | None]]:
    """Hand index -> the values it may be played as now (the rules' legal actions)."""
    found: dict[int, list[int | None]] = {}
    for action in pazaak.legal_actions(state):
        if isinstance(action, pazaak.PlayCard) and action.player == player:
            found.setdefault(action.hand_index, []).append(action.value)
    return found


def _turn_buttons(
    table_id: int, version: int, lang: Lang, *, disabled: bool = False, row: int | None = None
) -> list[discord.ui.Button[discord.ui.View]]:
    return [
        button(
            at(table_id, version, "end"),
            t(lang, "pazaak.button.end_turn"),
            style=discord.ButtonStyle.primary,
            disabled=disabled,
            row=row,
        ),
        button(
            at(table_id, version, "stand"),
            t(lang, "pazaak.button.stand"),
            style=discord.ButtonStyle.success,
            disabled=disabled,
            row=row,
        ),
    ]


def board_view(table_id: int, version: int, lang: Lang) -> discord.ui.View:
    """End turn, Stand, Show my hand, Forfeit."""
    return view(
        *_turn_buttons(table_id, version, lang),
        button(at(table_id, 0, "hand"), t(lang, "pazaak.button.show_hand")),
        button(
            at(table_id, 0, "ff"),
            t(lang, "pazaak.button.forfeit"),
            style=discord.ButtonStyle.danger,
        ),
    )


def hand_view(
    table_id: int, version: int, state: pazaak.PazaakState, player: int, lang: Lang
) -> discord.ui.View | None:
    """One button per hand card (enabled when it may be played now), End turn and Stand."""
    if state.phase == "over":
        return None
    can = playable(state, player)
    cards = [
        button(
            at(table_id, version, "card", str(index)),
            render.card_label(card, lang),
            disabled=index not in can,
            row=0,
        )
        for index, card in enumerate(pazaak.view(state, player).hand)
    ]
    off_turn = state.current_player != player
    return view(*cards, *_turn_buttons(table_id, version, lang, disabled=off_turn, row=1))


def values_view(table_id: int, version: int, index: int, values: list[int]) -> discord.ui.View:
    """The values a ± card may be played as, one button each."""
    return view(
        *(
            button(
                at(table_id, version, "val", f"{index}.{value}"),
                render.signed(value),
                style=discord.ButtonStyle.success if value > 0 else discord.ButtonStyle.danger,
            )
            for value in values
        )
    )


def forfeit_view(table_id: int, player: int, lang: Lang) -> discord.ui.View:
    return view(
        button(
            at(table_id, 0, "ffy", str(player)),
            t(lang, "pazaak.button.forfeit_yes"),
            style=discord.ButtonStyle.danger,
        )
    )


def challenge_view(challenge_id: int, lang: Lang) -> discord.ui.View:
    return view(
        button(
            Target(CHALLENGE_PREFIX, challenge_id, 0, "yes"),
            t(lang, "pazaak.button.accept"),
            style=discord.ButtonStyle.success,
        ),
        button(
            Target(CHALLENGE_PREFIX, challenge_id, 0, "no"),
            t(lang, "pazaak.button.decline"),
            style=discord.ButtonStyle.danger,
        ),
    )
