"""The exact best response to a known Pazaak computer level: the programme of
``bench/pazaak_bound.py`` (which samples deals and plays it) and ``bench/pazaak_bound.c``.

:class:`Oracle` is the exact best response to a known computer level over a whole match, with
the opponent's hand cards revealed to it: more than a seat may know, so no fair player can do
better. It is a dynamic programme over the sets each player has won, who starts the set, both
hands (bit masks over the dealt cards) and the set's state (both totals, card counts, T cards,
who stands), valued as the chance to win the match. The opponent's moves are the level's own:
``bot.ai.pazaak.decide`` is asked, on a view of the node, what it does. A tied set's loop (the
same hands, the other starter) is solved by iteration to 1e-10.

Draws follow the table's main deck. ``infinite``: a uniform 1..10. ``pool``: the 80-card pool,
whole at each set's start, each draw taking a card of the drawn value away, so the set's state
also carries what the pool still holds (counting cards is then part of the best response);
that state is far larger (with one set to win and no hand cards, 2.0 million nodes and 124 s
against 9,870 and 0.4 s). D and the flips are not modelled.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal

from bot.ai import pazaak as ai
from bot.rules import pazaak
from bot.rules.pazaak.cards import SideCard
from bot.rules.pazaak.state import NINE_CARDS, TARGET, Phase

DECK = "+1 +2 +3 +4 +5 -1 -2 -3 -4 -5"
DRAWS = range(1, 11)
READS_OPPONENT = {"stand17": False, "novice": False, "regular": True}
"""Whether a level's decision reads the other seat (Novice's reads only its own total and hand),
so the opponent's moves can be cached without it."""
ORACLE, RIVAL = 1, 2
"""Player ids of the best responder and of the level it answers."""

Ctx = tuple[int, int, int, tuple[int, ...]]
"""``(sets the oracle won, sets the rival won, 0 if the oracle started the set else 1, left)``:
``left`` is what the pool still holds this set (a count by value 1..10, as
``pazaak.unseen_pool``), or ``()`` for the infinite deck."""
MainDeck = Literal["infinite", "pool"]
FRESH = (pazaak.MAIN_COPIES,) * len(DRAWS)
"""A set begins with the whole pool."""


class Oracle:
    """The best response, for one deal, to ``level`` (see the module docstring)."""

    def __init__(
        self,
        mine: Sequence[SideCard],
        theirs: Sequence[SideCard],
        level: ai.Level,
        sets_to_win: int = 3,
        main_deck: MainDeck = "infinite",
    ) -> None:
        for card in (*mine, *theirs):
            if not card.values:
                raise ValueError(f"a {card.code} is not modelled")
        self.settings = pazaak.PazaakSettings(main_deck=main_deck, sets_to_win=sets_to_win)
        self.pool = main_deck == "pool"
        self.need = self.settings.sets_to_win
        self.mine, self.theirs = tuple(mine), tuple(theirs)
        self.level = level
        self.style = ai.Style(level)
        self.plays = [
            tuple(
                (mask & ~(1 << i), value, card.kind == "tiebreaker")
                for i, card in enumerate(self.mine)
                if mask >> i & 1
                for value in card.values
            )
            for mask in range(1 << len(self.mine))
        ]
        self.final: dict[tuple[int, int, int, int, int], float] = {}
        self.guess: dict[tuple[int, int, int, int, int], float] = {}
        self.memo: dict[tuple[tuple[int, ...], int, int], dict[tuple[object, ...], float]] = {}
        self.moves: dict[tuple[object, ...], tuple[int, int, bool, bool, int]] = {}

    # --- the match ---------------------------------------------------------------------------

    def value(self) -> float:
        """The chance to win the match from its start, the set-1 starter being random."""
        full_m, full_o = (1 << len(self.mine)) - 1, (1 << len(self.theirs)) - 1
        return (self.start(0, 0, 0, full_m, full_o) + self.start(0, 0, 1, full_m, full_o)) / 2

    def start(self, a: int, b: int, s: int, m: int, o: int) -> float:
        """The chance to win the match at a set's start (``s`` as in :data:`Ctx`)."""
        if a >= self.need:
            return 1.0
        if b >= self.need:
            return 0.0
        key = (a, b, s, m, o)
        found = self.final.get(key)
        if found is not None:
            return found
        if key in self.guess:  # a tie with no card played: the loop being solved
            return self.guess[key]
        # V0 depends on the tie value V1 and V1 on V0, each affinely where it matters:
        # alternate, and jump to the fixed point of the last two steps (Aitken's).
        keys = [(a, b, side, m, o) for side in (0, 1)]
        self.guess[keys[1]] = 0.5
        seen: list[float] = []
        while True:
            given = self.guess[keys[1]]
            for side in (0, 1):
                self.memo.pop(((a, b, side), m, o), None)
                self.guess[keys[side]] = self.root((a, b, side), m, o)
            seen.append(self.guess[keys[1]])
            if abs(seen[-1] - given) < 1e-10:
                break
            if len(seen) >= 3:
                step, before = seen[-1] - seen[-2], seen[-2] - seen[-3]
                if before and abs(step / before) < 1:
                    ratio = step / before
                    self.guess[keys[1]] = min(1.0, max(0.0, seen[-1] + step * ratio / (1 - ratio)))
        for k in keys:
            self.final[k] = self.guess.pop(k)
        return self.final[key]

    def root(self, at: tuple[int, int, int], m: int, o: int) -> float:
        ctx: Ctx = (*at, FRESH if self.pool else ())
        if ctx[2] == 0:
            return self.my_turn(ctx, m, o, 0, 0, False, 0, 0, False, False)
        return self.their_turn(ctx, m, o, 0, 0, False, False, 0, 0, False)

    def leaf(self, ctx: Ctx, outcome: int, m: int, o: int) -> float:
        """After a set the oracle won (1), lost (-1) or tied (0), keeping masks ``m``, ``o``."""
        a, b, s = ctx[:3]
        return self.start(a + (outcome > 0), b + (outcome < 0), 1 - s, m, o)

    def compare(self, ctx: Ctx, m: int, o: int, t1: int, tb1: bool, t2: int, tb2: bool) -> float:
        """Both stand: the higher total wins; on a tie, a T played by one of them alone."""
        if t1 != t2:
            return self.leaf(ctx, 1 if t1 > t2 else -1, m, o)
        if tb1 != tb2:
            return self.leaf(ctx, 1 if tb1 else -1, m, o)
        return self.leaf(ctx, 0, m, o)

    def _memo(self, ctx: Ctx, m: int, o: int) -> dict[tuple[object, ...], float]:
        """The in-set nodes of one set's context and masks (the pool's draws are in the node's
        key: a tied set's loop clears the table of its context and masks alone)."""
        table = self.memo.get((ctx[:3], m, o))
        if table is None:
            table = self.memo[(ctx[:3], m, o)] = {}
        return table

    def draws(self, ctx: Ctx) -> list[tuple[int, float, Ctx]]:
        """``(value, chance, context after)`` of the next draw: uniform, or from what the pool
        still holds (``ctx[3]``)."""
        if not self.pool:
            return [(d, 1 / len(DRAWS), ctx) for d in DRAWS]
        left, total = ctx[3], sum(ctx[3])
        return [
            (d, n / total, (*ctx[:3], (*left[: d - 1], n - 1, *left[d:])))
            for d, n in zip(DRAWS, left, strict=True)
            if n
        ]

    # --- the oracle's turns --------------------------------------------------------------------

    def my_turn(
        self, ctx: Ctx, m: int, o: int, t1: int, c1: int, tb1: bool,
        t2: int, c2: int, tb2: bool, stood2: bool,
    ) -> float:  # fmt: skip
        """The oracle is about to draw; ``stood2``: the rival stands on ``t2``."""
        memo = self._memo(ctx, m, o)
        key = (0, t1, c1, tb1, t2, c2, tb2, stood2, ctx[3])
        found = memo.get(key)
        if found is None:
            found = 0.0
            for d, chance, after in self.draws(ctx):
                ends = self.options(after, m, o, t1 + d, c1 + 1, tb1, t2, c2, tb2, stood2)
                found += chance * max(ends)[0]
            memo[key] = found
        return found

    def options(
        self, ctx: Ctx, m: int, o: int, t1: int, c1: int, tb1: bool,
        t2: int, c2: int, tb2: bool, stood2: bool, card_played: bool = False,
    ) -> list[tuple[float, int, int, int | None, bool]]:  # fmt: skip
        """After the draw: ``(value, -cards kept, mask left, value played or None, stand)``
        for every legal way to end the turn (a card or none, then End turn or Stand)."""
        found: list[tuple[float, int, int, int | None, bool]] = []
        choices: list[tuple[int, int | None, bool]] = [(m, None, tb1)]
        if not card_played:
            choices += [(left, v, tb1 or is_tb) for left, v, is_tb in self.plays[m]]
        for left, v, tb in choices:
            total, count = (t1, c1) if v is None else (t1 + v, c1 + 1)
            for stand in (False, True):
                value = self.end_mine(ctx, left, o, total, count, tb, stand, t2, c2, tb2, stood2)
                found.append((value, left.bit_count(), left, v, stand))
        return found

    def end_mine(
        self, ctx: Ctx, m: int, o: int, t1: int, c1: int, tb1: bool, stand: bool,
        t2: int, c2: int, tb2: bool, stood2: bool,
    ) -> float:  # fmt: skip
        """The end-of-turn checks in the rules' order: bust, nine cards, 20 stands."""
        if t1 > TARGET:
            return self.leaf(ctx, -1, m, o)
        if self.settings.nine_card_win and c1 >= NINE_CARDS:
            return self.leaf(ctx, 1, m, o)
        standing = stand or t1 == TARGET
        if not stood2:
            return self.their_turn(ctx, m, o, t1, 0 if standing else c1, tb1, standing, t2, c2, tb2)
        if standing:
            return self.compare(ctx, m, o, t1, tb1, t2, tb2)
        return self.my_turn(ctx, m, o, t1, c1, tb1, t2, 0, tb2, True)

    # --- the rival's turns ---------------------------------------------------------------------

    def their_turn(
        self, ctx: Ctx, m: int, o: int, t1: int, c1: int, tb1: bool, stood1: bool,
        t2: int, c2: int, tb2: bool,
    ) -> float:  # fmt: skip
        """The rival is about to draw; ``stood1``: the oracle stands on ``t1``."""
        memo = self._memo(ctx, m, o)
        key = (1, t1, c1, tb1, stood1, t2, c2, tb2, ctx[3])
        found = memo.get(key)
        if found is not None:
            return found
        found = 0.0
        for d, chance, after in self.draws(ctx):
            total, o2, tb, stand, count = self.rival(ctx, m, o, t1, tb1, stood1, t2, d, c2, tb2)
            if total > TARGET:
                value = self.leaf(after, 1, m, o2)
            elif self.settings.nine_card_win and count >= NINE_CARDS:
                value = self.leaf(after, -1, m, o2)
            else:
                standing = stand or total == TARGET
                if not stood1:
                    c = 0 if standing else count
                    value = self.my_turn(after, m, o2, t1, c1, tb1, total, c, tb, standing)
                elif standing:
                    value = self.compare(after, m, o2, t1, tb1, total, tb)
                else:
                    value = self.their_turn(after, m, o2, t1, 0, tb1, True, total, count, tb)
            found += chance * value
        memo[key] = found
        return found

    def rival(
        self, ctx: Ctx, m: int, o: int, t1: int, tb1: bool, stood1: bool,
        t2: int, d: int, c2: int, tb2: bool,
    ) -> tuple[int, int, bool, bool, int]:  # fmt: skip
        """The rival's turn after drawing ``d`` on ``t2``, as its level plays it:
        ``(total, mask left, T played this set, stands, cards on its table)``."""
        key: tuple[object, ...] = (t2, d, c2, o, tb2)
        if READS_OPPONENT[self.level]:
            key += (ctx[0], ctx[1], t1, tb1, stood1, m.bit_count())
        found = self.moves.get(key)
        if found is not None:
            return found
        hand = [i for i in range(len(self.theirs)) if o >> i & 1]
        table = (pazaak.TableCard(t2, None, 0),) * (t2 != 0) + (pazaak.TableCard(d, None, d),)
        mine = pazaak.SeatView(
            ORACLE, (pazaak.TableCard(t1, None, 0),), t1, stood1, ctx[0], m.bit_count(),
            tb1, (), False, False,
        )  # fmt: skip
        left, tb, played = o, tb2, False
        while True:
            seat = pazaak.SeatView(
                RIVAL, table, pazaak.table_total(table), False, ctx[1], len(hand), tb, (),
                played, False,
            )  # fmt: skip
            view = pazaak.PazaakView(
                RIVAL, tuple(self.theirs[i] for i in hand), (mine, seat), RIVAL, 1,
                Phase.PLAYING, 0, None, (), 0, self.settings, (), False, False,
            )  # fmt: skip
            action = ai.decide(view, self.style, random.Random(0))
            if not isinstance(action, pazaak.PlayCard):
                break
            card = self.theirs[hand[action.hand_index]]
            value = pazaak.card_value(card, action.value, table)
            table += (pazaak.TableCard(value, card, value),)
            left &= ~(1 << hand.pop(action.hand_index))
            tb, played = tb or card.kind == "tiebreaker", True
        found = (
            pazaak.table_total(table), left, tb, isinstance(action, pazaak.Stand),
            c2 + 1 + played,
        )  # fmt: skip
        self.moves[key] = found
        return found

    # --- playing the policy in the rules core --------------------------------------------------

    def decide(self, state: pazaak.PazaakState) -> pazaak.PlayerAction:
        """The oracle's best action now, from the whole state (it sees the rival's hand)."""
        seat = 0 if state.players[0].id == ORACLE else 1
        me, them = state.players[seat], state.players[1 - seat]
        left = pazaak.unseen_pool(pazaak.view(state, ORACLE)) if self.pool else ()
        ctx: Ctx = (me.sets_won, them.sets_won, 0 if state.starter_seat == seat else 1, left)
        m, o = _mask(self.mine, me.hand), _mask(self.theirs, them.hand)
        stood2 = them.standing
        c2 = 0 if stood2 else len(them.table)
        best = max(
            self.options(
                ctx, m, o, me.total, len(me.table), me.played_tiebreaker, them.total, c2,
                them.played_tiebreaker, stood2, me.played_card_this_turn,
            )
        )  # fmt: skip
        _, _, left, value, stand = best
        if left != m:
            gone = (m & ~left).bit_length() - 1
            index = (m & ((1 << gone) - 1)).bit_count()  # the hand keeps the deal order
            card = me.hand[index]
            return pazaak.PlayCard(ORACLE, index, value if len(card.values) > 1 else None)
        return pazaak.Stand(ORACLE) if stand else pazaak.EndTurn(ORACLE)


def _mask(dealt: Sequence[SideCard], hand: Sequence[SideCard]) -> int:
    """The dealt cards still in ``hand`` (which keeps the deal order), as a bit mask."""
    mask, at = 0, 0
    for i, card in enumerate(dealt):
        if at < len(hand) and hand[at] == card:
            mask |= 1 << i
            at += 1
    return mask
