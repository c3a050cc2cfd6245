"""The "house edge": an NPC that plays with the hidden cards in view. A GM's explicit choice.

The honest players (:mod:`bot.ai.pegaz`, :mod:`bot.ai.pazaak`) take a seat's view and cannot
see more. :func:`decide_peeking` is the one door that takes the whole state, and it is reached
only for a seat whose GM chose the house edge (``/pegaz seat ... house_edge:True``, or a
Pazaak challenge from such an NPC). It sees what the dealer could see, never the future:

- **Pegaz:** every hand at the table (the dice are not rolled yet, and a deck deals by the RNG,
  so the next cards stay unknown). It is its honest level handed a view in which every rival's
  hand was just shown, as a check shows it: the honest player already reads a shown hand
  exactly (and forecasts the exchanges still to come), so its exchanges, raises, checks and
  folds all follow from the true hands.
- **Pazaak:** the opponent's hand and the pool's order for the rest of the set. It searches
  every line of its own moves to the end of the set, the opponent playing as Novice or Regular
  would (alike likely where they differ), and
  takes the best result less what its hand cards are worth (:data:`CARD_COST`). With
  ``main_deck="infinite"`` the draws are not in the state, and it plays as its honest level.

It cheats by knowing, never by moving cards: its actions are legal moves like anyone's, so the
rules core and the table see nothing unusual. Strength: ``bench/ai_pegaz.py --peeking``.
"""

from __future__ import annotations

import random
from dataclasses import replace

import bot.ai.pazaak as pazaak_ai
import bot.ai.pegaz as pegaz_ai
from bot.ai.pazaak_turn import worth
from bot.rules import pazaak, pegaz
from bot.rules.pazaak.state import TARGET

Style = pegaz_ai.Style | pazaak_ai.Style

CARD_COST = 0.25
"""A hand card spent is worth this share of a set (a set won is 1, lost -1)."""
NODES = 4000
"""The most positions one Pazaak decision may search before it plays honestly."""
OPPONENTS = (pazaak_ai.Style("novice"), pazaak_ai.Style("regular"))
"""How the search imagines the opponent: each of these alike likely, where their moves differ.
One model alone is brittle: a plan tuned to Regular's stands lost to players who stand elsewhere."""


def decide_peeking(state: object, player: int, style: Style, rng: random.Random) -> object:
    """The move of ``player`` with every hand in view. ``state`` is a Pegaz or Pazaak state."""
    if isinstance(state, pazaak.PazaakState):
        if not isinstance(style, pazaak_ai.Style):
            raise TypeError("a Pazaak seat needs a Pazaak style")
        return _pazaak(state, player, style, rng)
    if isinstance(state, pegaz.PegazState):
        if not isinstance(style, pegaz_ai.Style):
            raise TypeError("a Pegaz seat needs a Pegaz style")
        return _pegaz(state, player, style, rng)
    raise TypeError(f"not a game state: {type(state).__name__}")


# --- Pegaz --------------------------------------------------------------------------------------


def _pegaz(
    state: pegaz.PegazState, player: int, style: pegaz_ai.Style, rng: random.Random
) -> pegaz.Action:
    seen = pegaz.view(state, player)
    held = {s.player: s.hand for s in state.seats}
    seats = tuple(
        replace(s, shown=held[s.player])
        if s.player != player and s.status is pegaz.SeatStatus.ACTIVE and held[s.player]
        else s
        for s in seen.seats
    )
    return pegaz_ai.decide(replace(seen, seats=seats), style, rng)


# --- Pazaak -------------------------------------------------------------------------------------


class _OutOfNodes(Exception):
    """The search met its :data:`NODES` budget: play honestly instead."""


def _pazaak(
    state: pazaak.PazaakState, player: int, style: pazaak_ai.Style, rng: random.Random
) -> pazaak.Action:
    honest = pazaak_ai.decide(pazaak.view(state, player), style, rng)
    if state.settings.main_deck != "pool" or state.ruling is not None:
        return honest
    search = _SetSearch(player)
    try:
        moves = [(search.after(state, a), i, a) for i, a in enumerate(search.mine(state))]
    except _OutOfNodes:
        return honest
    if not moves:
        return honest
    return max(moves, key=lambda m: (m[0], -m[1]))[2]


class _SetSearch:
    """Every line of the viewer's own moves to the end of the set, from the true state."""

    def __init__(self, player: int) -> None:
        self.player = player
        self.nodes = 0
        self.rng = random.Random(0)  # only a Regular opponent's redraw reshuffles: any order
        self.seen: dict[object, float] = {}

    def mine(self, state: pazaak.PazaakState) -> list[pazaak.Action]:
        """The viewer's candidate moves: its card plays that do not bust it, End turn, Stand
        (no Forfeit; no skill, whose effect the state does not hold yet)."""
        me = state.players[state.turn_seat]
        out: list[pazaak.Action] = []
        for action in pazaak.legal_actions(state):
            if isinstance(action, pazaak.PlayCard):
                total = me.total + pazaak.play_terms(state, action)[1]
                if total <= TARGET:
                    out.append(action)
            elif isinstance(action, pazaak.EndTurn | pazaak.Stand):
                out.append(action)
        return out

    def after(self, state: pazaak.PazaakState, action: pazaak.Action) -> float:
        self.nodes += 1
        if self.nodes > NODES:
            raise _OutOfNodes
        seat = pazaak.seat_index(state, self.player)
        assert seat is not None
        held = state.players[seat].hand
        nxt, events = pazaak.apply(state, action, self.rng)
        for event in events:
            if isinstance(event, pazaak.SetEnded | pazaak.MatchEnded):
                return self._result(event) - CARD_COST * _spent(held, nxt.players[seat].hand)
        return self.value(nxt) - CARD_COST * _spent(held, nxt.players[seat].hand)

    def value(self, state: pazaak.PazaakState) -> float:
        if state.current_player != self.player:
            other = state.current_player
            assert other is not None
            seen = pazaak.view(state, other)
            replies = {pazaak_ai.decide(seen, style, self.rng) for style in OPPONENTS}
            return sum(self.after(state, reply) for reply in replies) / len(replies)
        known = self.seen.get(state)
        if known is None:
            known = max((self.after(state, a) for a in self.mine(state)), default=-1.0)
            self.seen[state] = known
        return known

    def _result(self, event: pazaak.SetEnded | pazaak.MatchEnded) -> float:
        winner = event.winner
        if winner is None:
            return 0.0
        return 1.0 if winner == self.player else -1.0


def _spent(before: tuple[pazaak.SideCard, ...], after: tuple[pazaak.SideCard, ...]) -> float:
    """What the hand cards played between ``before`` and ``after`` were worth."""
    left = list(after)
    total = 0.0
    for card in before:
        if card in left:
            left.remove(card)
        else:
            total += worth(card)
    return total
