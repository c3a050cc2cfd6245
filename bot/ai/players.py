"""The bot's NPC players, for the loop that runs them: who owes a move, the move a personality
makes from what its seat may see, and the moments of a step worth a line of table talk.

:func:`choose` takes the whole state, as the loop has it, but hands the game's player only the
seat's view (``pazaak.view`` / ``pegaz.view``): the barrier is in the deciders' types. The one
exception is a seat its GM gave the house edge, which :mod:`bot.ai.peeking` plays from the state.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.rules import pazaak, pegaz

if TYPE_CHECKING:
    from bot.ai.peeking import Style
    from bot.ai.personalities import Personality

BIG_RAISE = 2
"""A raise of at least this many times the stake before it is a big one (worth a line)."""
HIGH_STAND = 18
"""A Pazaak stand on this total or more is worth a line."""


def waiting(game: str, state: Any) -> tuple[int, ...]:
    """The players who owe a move now (several in Pegaz's secret modifier step)."""
    if game == pazaak.GAME:
        current = state.current_player
        return () if current is None else (current,)
    if state.phase is pegaz.Phase.SEATING:
        return ()
    return tuple(pegaz.to_act(state))


def choose(
    game: str,
    state: Any,
    player: int,
    personality: Personality,
    rng: random.Random,
    *,
    house_edge: bool = False,
) -> Any:
    """The move ``personality`` makes for ``player`` now (``house_edge``: seeing every hand).
    The deciders (the Master's search tables among them) are imported at the first decision,
    not with the bot."""
    import bot.ai.pazaak as pazaak_ai
    import bot.ai.pegaz as pegaz_ai

    if game == pazaak.GAME:
        style = pazaak_ai.Style(level=personality.level, cheats=bool(personality.cheats))  # type: ignore[arg-type]
        if house_edge:
            return decide_peeking(state, player, style, rng)
        return pazaak_ai.decide(pazaak.view(state, player), style, rng)
    pegaz_style = pegaz_ai.Style(level=personality.level, cheats=float(personality.cheats))  # type: ignore[arg-type]
    if house_edge:
        return decide_peeking(state, player, pegaz_style, rng)
    return pegaz_ai.decide(pegaz.view(state, player), pegaz_style, rng)


def decide_peeking(state: object, player: int, style: Style, rng: random.Random) -> object:
    """:func:`bot.ai.peeking.decide_peeking`, imported with the first peek."""
    from bot.ai import peeking

    return peeking.decide_peeking(state, player, style, rng)


def fallback(game: str, state: Any, player: int, rng: random.Random) -> Any | None:
    """A legal move for ``player`` if the personality's was refused (a bug): the table must not
    wait on it. Pazaak: End turn; Pegaz: a random legal move of that player."""
    rules: Any = pazaak if game == pazaak.GAME else pegaz
    legal = [a for a in rules.legal_actions(state) if getattr(a, "player", None) == player]
    if game == pazaak.GAME:
        ends = [a for a in legal if isinstance(a, pazaak.EndTurn)]
        return ends[0] if ends else None
    calm = [a for a in legal if not isinstance(a, pegaz.Cheat)]
    return rng.choice(calm) if calm else None


def moments(game: str, before: Any, events: Sequence[Any], player: int) -> tuple[str, ...]:
    """The moments of one step worth a line from ``player`` (see ``bot.ai.personalities``)."""
    found: list[str] = []
    for event in events:
        kind = _moment(game, before, event, player)
        if kind is not None and kind not in found:
            found.append(kind)
    return tuple(found)


def _moment(game: str, before: Any, event: Any, player: int) -> str | None:
    if game == pazaak.GAME:
        if isinstance(event, pazaak.MatchEnded):
            return "win" if event.winner == player else "lose"
        if isinstance(event, pazaak.Caught):
            return "caught" if event.cheater == player else "caught_other"
        if isinstance(event, pazaak.SetEnded) and event.reason == "bust" and event.winner != player:
            return "bust"
        if isinstance(event, pazaak.Stood) and event.player == player and event.reason == "stand":
            seat = pazaak.seat_index(before, player)
            return "stand" if seat is not None and _total_at_stand(before, seat) else None
        return None
    if isinstance(event, pegaz.GameEnded) and player in [s.player for s in before.seats]:
        won = dict(zip(event.players, event.amounts, strict=True)).get(player, 0)
        return "win" if won > 0 else "lose"
    if isinstance(event, pegaz.Caught):
        if event.cheater == player:
            return "caught"
        return "caught_other" if player in event.caught_by else None
    if isinstance(event, pegaz.Exchanged) and event.player == player:
        return "big_raise" if event.stake >= BIG_RAISE * max(before.stake, 1) else None
    if isinstance(event, pegaz.Checked) and event.player == player:
        return "check"
    return None


def _total_at_stand(state: pazaak.PazaakState, seat: int) -> bool:
    return state.players[seat].total >= HIGH_STAND
