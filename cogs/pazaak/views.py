"""The components of a pazaak table and of a challenge, as plain views (the cog receives them).

custom_ids follow the kit's grammar (``cogs.kit.ids``), prefix ``pz``:

- ``pz:<table>:<version>:end`` / ``:stand`` (End turn, Stand) at the table's version, on the
  board and under a "Show my hand" message;
- ``pz:<table>:<hand version>:card:<i>`` (hand card i) and
  ``pz:<table>:<hand version>:val:<i>.<value>`` (card i as value, after a choice), at the
  player's *hand version* (:func:`hand_version`: how many hand cards they have played this
  match), so that the hand DM changes only when the hand does (not every turn); a card played
  moves it, so a double click is stale;
- ``pz:<table>:0:hand`` (Show my hand), ``pz:<table>:0:ff`` and ``pz:<table>:0:ffy:<player>``
  (Forfeit, confirmed);

and prefix ``pzc`` for a challenge: ``pzc:<challenge>:0:yes`` / ``:no`` (Accept, Decline).
"""

from __future__ import annotations

import discord

from bot.i18n import Lang, t
from bot.render import pazaak as render
from bot.rules import pazaak
from bot.rules.pazaak.queries import seat_index
from cogs.kit.ids import Target, button, view

PREFIX = "pz"
CHALLENGE_PREFIX = "pzc"


def at(table_id: int, version: int, act: str, arg: str = "") -> Target:
    return Target(PREFIX, table_id, version, act, arg)


def hand_version(state: pazaak.PazaakState, player: int) -> int:
    """How many hand cards ``player`` has played this match: it moves exactly when their hand
    changes (the hand is dealt once, at the start of the match)."""
    seat = seat_index(state, player)
    assert seat is not None
    return pazaak.HAND_SIZE - len(state.players[seat].hand)


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


def _cards(
    table_id: int,
    state: pazaak.PazaakState,
    player: int,
    lang: Lang,
    *,
    enabled: dict[int, list[int | None]] | None = None,
) -> list[discord.ui.Button[discord.ui.View]]:
    """One button per hand card, at the hand version (all enabled unless ``enabled`` says which
    may be played now)."""
    version = hand_version(state, player)
    return [
        button(
            at(table_id, version, "card", str(index)),
            render.card_label(card, lang),
            disabled=enabled is not None and index not in enabled,
            row=0,
        )
        for index, card in enumerate(pazaak.view(state, player).hand)
    ]


def hand_dm_view(
    table_id: int, state: pazaak.PazaakState, player: int, lang: Lang
) -> discord.ui.View | None:
    """Under the hand DM: one button per hand card, all enabled while the match goes on (whether
    a card may be played now is decided at the click), so it changes only with the hand. End
    turn and Stand are on the board."""
    if state.phase == "over":
        return None
    cards = _cards(table_id, state, player, lang)
    return view(*cards) if cards else None


def hand_view(
    table_id: int, version: int, state: pazaak.PazaakState, player: int, lang: Lang
) -> discord.ui.View | None:
    """Under a "Show my hand" message (a fresh one each time): the hand cards (enabled when they
    may be played now), End turn and Stand (at the table's ``version``)."""
    if state.phase == "over":
        return None
    cards = _cards(table_id, state, player, lang, enabled=playable(state, player))
    off_turn = state.current_player != player
    return view(*cards, *_turn_buttons(table_id, version, lang, disabled=off_turn, row=1))


def values_view(table_id: int, version: int, index: int, values: list[int]) -> discord.ui.View:
    """The values a ± card may be played as, one button each (``version``: the hand version)."""
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
