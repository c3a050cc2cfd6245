"""Pazaak's computer players, from PazaakRL's baseline to a search over the draw pool.

:func:`decide` takes a seat's :class:`~bot.rules.pazaak.PazaakView`, never the state, so no level
can read the other hand or the pool's order. The levels:

- ``stand17``: stands on 17 or more and never plays a hand card (PazaakRL's baseline).
- ``novice``: the same, plus a hand card to save a bust or to reach exactly 20.
- ``regular``: reads the opponent's total and stand, plays the card a turn needs, the cheapest one
  that does, and spends cards on 18 or 19 only when the match is short of sets.
- ``master``: expectimax over the rest of the set (:mod:`bot.ai.pazaak_master`). Draws come
  from :func:`~bot.rules.pazaak.unseen_pool`. The opponent is imagined to play as most players
  do (Novice's way), its hand cards being any side card there is: the chance that it holds a
  card for a need is computed exactly rather than sampled. A set's result is valued as the
  chance to win the match, given the sets and the hand cards each player keeps.

With the table option ``skills``, Regular and Master use Luck's redraw on a bad draw, and a style
with ``cheats`` uses Gamble's swap when the side deck holds the card a turn needs. Strength and
decision times are measured by ``bench/ai_pazaak.py``.
"""

from __future__ import annotations

import random

from bot.ai.pazaak_master import master
from bot.ai.pazaak_turn import (
    STAND_AT,
    Level,
    Style,
    Turn,
    best_save,
    cheapest,
    plays,
    wanted,
    worth,
)
from bot.rules import pazaak
from bot.rules.pazaak.state import TARGET

__all__ = ["Level", "Style", "decide"]


def decide(view: pazaak.PazaakView, style: Style, rng: random.Random) -> pazaak.PlayerAction:
    """The next action of ``view.viewer``, who must be on turn (a standing player never acts).

    Never a Forfeit or a Timeout; ``rng`` only breaks ties between equally good moves.
    """
    if view.viewer is None or view.current_player != view.viewer:
        raise ValueError("a computer player decides only on its own turn")
    turn = Turn.of(view)
    if style.level == "stand17":
        return turn.end(turn.total >= STAND_AT)
    if style.level == "novice":
        return _novice(turn)
    if style.level == "regular":
        return _regular(turn, style)
    return master(turn, style, rng)


# --- Novice and Regular -------------------------------------------------------------------------


def _novice(turn: Turn) -> pazaak.PlayerAction:
    if turn.total > TARGET:
        pick = best_save(turn.plays)
    else:
        pick = cheapest([p for p in turn.plays if p.total == TARGET])
    if pick is not None:
        return turn.play(pick)
    return turn.end(turn.total >= STAND_AT)


def _regular_end(turn: Turn) -> pazaak.Stand | pazaak.EndTurn:
    total, stand = turn.total, turn.opp_stand
    if stand is not None:
        return turn.end(total > stand or (total == stand and total >= 16))
    return turn.end(total >= 18 or (total == STAND_AT and turn.opp.total < 12))


def _regular(turn: Turn, style: Style) -> pazaak.PlayerAction:
    view = turn.view
    if view.may_redraw and turn.total > TARGET and best_save(turn.plays) is None:
        return pazaak.Redraw(turn.player)
    if not turn.plays:
        return _regular_end(turn)
    pick = wanted(turn, turn.plays)
    if pick is None and style.cheats and view.may_swap:
        swap = _swap_for(turn)
        if swap is not None:
            return swap
    return turn.play(pick) if pick is not None else _regular_end(turn)


def _swap_for(turn: Turn) -> pazaak.Swap | None:
    """A swap that brings the card the turn needs, giving up the hand card worth least."""
    for card in sorted(turn.view.side_deck, key=worth):
        if wanted(turn, plays((card,), turn.me.table)) is not None:
            give = min(range(len(turn.view.hand)), key=lambda i: worth(turn.view.hand[i]))
            return pazaak.Swap(turn.player, give, card)
    return None
