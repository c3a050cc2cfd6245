"""The components of a pazaak table and of a challenge, as plain views (the cog receives them).

custom_ids follow the kit's grammar (``cogs.kit.ids``), prefix ``pz``:

- ``pz:<table>:<version>:end`` / ``:stand`` (End turn, Stand) at the table's version, on the
  board and under a "Show my hand" message;
- ``pz:<table>:<hand version>:card:<i>`` (hand card i) and
  ``pz:<table>:<hand version>:val:<i>.<value>`` (card i as value, after a choice), at the
  player's *hand version* (:func:`hand_version`: how many hand cards they have played this
  match, or a swap), so that the hand DM changes only when the hand does (not every turn); a
  card played moves it, so a double click is stale;
- ``pz:<table>:0:hand`` (Show my hand), ``pz:<table>:0:ff`` and ``pz:<table>:0:ffy:<player>``
  (Forfeit, confirmed);
- with the table option ``skills``: ``pz:<table>:<version>:redraw`` (Redraw, Luck: on the board
  right after the draw of a player who may), ``pz:<table>:<hand version>:swap`` (Swap a card,
  Gamble: under the hand) and its menu ``pz:<table>:<hand version>:swp`` (values
  ``<i>.<code>``: give hand card i, take that card), and the GM's rulings on a caught swap,
  ``pz:<table>:<version>:rule:<pardon|set|ff>``;

and prefix ``pzc`` for a challenge: ``pzc:<challenge>:0:yes`` / ``:no`` (Accept, Decline).
"""

from __future__ import annotations

import zlib
from typing import Any, Literal

import discord

from bot.i18n import Lang, t
from bot.render import pazaak as render
from bot.rules import pazaak
from bot.rules.pazaak.queries import seat_index
from cogs.kit.emojis import AppEmojis
from cogs.kit.ids import Target, button, select, view
from cogs.kit.watch import watch_button

PREFIX = "pz"
CHALLENGE_PREFIX = "pzc"


def at(table_id: int, version: int, act: str, arg: str = "") -> Target:
    return Target(PREFIX, table_id, version, act, arg)


def hand_version(state: pazaak.PazaakState, player: int) -> int:
    """The fingerprint of ``player``'s hand (its cards in order): it moves exactly when the hand
    changes (a card played, a swap, a swap undone), and a button drawn under a hand is good for
    that very hand only. A checksum, not Python's ``hash``: it must agree across restarts."""
    seat = seat_index(state, player)
    assert seat is not None
    codes = " ".join(card.code for card in state.players[seat].hand)
    return zlib.crc32(codes.encode())


def swap_offered(state: pazaak.PazaakState, player: int) -> bool:
    """Whether the hand shows "Swap a card" (whether it may be used now is asked at the click):
    the table plays with skills, the character has Gamble and has not swapped this match."""
    seat = seat_index(state, player)
    assert seat is not None
    me = state.players[seat]
    return state.settings.skills and me.traits.gamble and not me.swapped and state.phase != "over"


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


def _redraw(table_id: int, version: int, lang: Lang, row: int | None = None) -> list[Any]:
    return [
        button(at(table_id, version, "redraw"), t(lang, "pazaak.button.redraw"), row=row),
    ]


RULINGS: dict[str, Literal["pardon", "lose_set", "forfeit"]] = {
    "pardon": "pardon",
    "set": "lose_set",
    "ff": "forfeit",
}
"""The ruling buttons' args and the verdicts they give."""


def _rulings(table_id: int, version: int, lang: Lang) -> list[Any]:
    styles = {
        "pardon": discord.ButtonStyle.success,
        "set": discord.ButtonStyle.primary,
        "ff": discord.ButtonStyle.danger,
    }
    return [
        button(
            at(table_id, version, "rule", arg),
            t(lang, f"pazaak.button.rule_{RULINGS[arg]}"),
            style=style,
        )
        for arg, style in styles.items()
    ]


def board_view(
    table_id: int, version: int, state: pazaak.PazaakState, lang: Lang
) -> discord.ui.View:
    """End turn, Stand (and Redraw, right after the draw of a player who may), Show my hand,
    Forfeit; while a caught swap awaits the GM, the GM's rulings instead of the turn's buttons."""
    current = state.current_player
    if state.ruling is not None:
        turn = _rulings(table_id, version, lang)
    else:
        turn = _turn_buttons(table_id, version, lang)
        if current is not None and pazaak.may_redraw(state, current):
            turn += _redraw(table_id, version, lang)
    return view(
        *turn,
        button(at(table_id, 0, "hand"), t(lang, "pazaak.button.show_hand")),
        button(
            at(table_id, 0, "ff"),
            t(lang, "pazaak.button.forfeit"),
            style=discord.ButtonStyle.danger,
        ),
        watch_button(PREFIX, table_id, lang),  # anyone: the public view
    )


def _cards(
    table_id: int,
    state: pazaak.PazaakState,
    player: int,
    lang: Lang,
    *,
    enabled: dict[int, list[int | None]] | None = None,
    emojis: AppEmojis | None = None,
) -> list[discord.ui.Button[discord.ui.View]]:
    """One button per hand card, at the hand version (all enabled unless ``enabled`` says which
    may be played now), with its kind's emoji where ``emojis`` has it (the label stays)."""
    version = hand_version(state, player)
    found = []
    for index, card in enumerate(pazaak.view(state, player).hand):
        item = button(
            at(table_id, version, "card", str(index)),
            render.card_label(card, lang),
            disabled=enabled is not None and index not in enabled,
            row=0,
        )
        item.emoji = None if emojis is None else emojis.card_button(card.kind)
        found.append(item)
    return found


def hand_dm_view(
    table_id: int,
    state: pazaak.PazaakState,
    player: int,
    lang: Lang,
    emojis: AppEmojis | None = None,
) -> discord.ui.View | None:
    """Under the hand DM: one button per hand card, all enabled while the match goes on (whether
    a card may be played now is decided at the click), so it changes only with the hand. End
    turn and Stand are on the board."""
    if state.phase == "over":
        return None
    cards = _cards(table_id, state, player, lang, emojis=emojis)
    items = [*cards, *_swap(table_id, state, player, lang)]
    return view(*items) if items else None


def _swap(
    table_id: int, state: pazaak.PazaakState, player: int, lang: Lang, *, now: bool = False
) -> list[Any]:
    """The "Swap a card" button, where it is offered (``now``: enabled only if it may be used
    now; else always, as the hand DM is not redrawn every turn)."""
    if not swap_offered(state, player):
        return []
    target = at(table_id, hand_version(state, player), "swap")
    disabled = now and not pazaak.may_swap(state, player)
    return [button(target, t(lang, "pazaak.button.swap"), disabled=disabled, row=1)]


def swap_menu(
    table_id: int, state: pazaak.PazaakState, player: int, lang: Lang
) -> discord.ui.View | None:
    """The swaps ``player`` may make now, one option each (a hand card out, a side-deck card
    in; the same card twice in the hand is offered once), or None if there are none."""
    seat = seat_index(state, player)
    assert seat is not None
    hand = state.players[seat].hand
    choices = pazaak.swap_choices(state, player)
    options: dict[str, discord.SelectOption] = {}
    for index, out in enumerate(hand):
        for card in choices:
            key = f"{out.code}>{card.code}"
            if key in options or out == card:
                continue
            label = t(
                lang,
                "pazaak.swap.option",
                out=render.card_label(out, lang),
                card=render.card_label(card, lang),
            )
            options[key] = discord.SelectOption(label=label[:100], value=f"{index}.{card.code}")
    if not options:
        return None
    target = at(table_id, hand_version(state, player), "swp")
    placeholder = t(lang, "pazaak.swap.placeholder")
    return view(select(target, list(options.values())[:25], placeholder=placeholder))


def hand_view(
    table_id: int,
    version: int,
    state: pazaak.PazaakState,
    player: int,
    lang: Lang,
    emojis: AppEmojis | None = None,
) -> discord.ui.View | None:
    """Under a "Show my hand" message (a fresh one each time): the hand cards (enabled when they
    may be played now), End turn and Stand (at the table's ``version``)."""
    if state.phase == "over":
        return None
    cards = _cards(table_id, state, player, lang, enabled=playable(state, player), emojis=emojis)
    off_turn = state.current_player != player
    turn = _turn_buttons(table_id, version, lang, disabled=off_turn, row=2)
    if pazaak.may_redraw(state, player):
        turn += _redraw(table_id, version, lang, row=2)
    return view(*cards, *_swap(table_id, state, player, lang, now=True), *turn)


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
