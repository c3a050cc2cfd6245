"""How strong can any Pazaak player be against Novice (or Regular)? An upper bound, computed.

``python bench/pazaak_bound.py [--against LEVEL] [--hand H] [--sets S] [--deals D]
[--matches N] [--workers W]``

:class:`Oracle` is the exact best response to a known computer level over a whole match, with
the opponent's hand cards revealed to it: more than a seat may know, so no fair player can do
better. It is a dynamic programme over the sets each player has won, who starts the set, both
hands (bit masks over the dealt cards) and the set's state (both totals, card counts, T cards,
who stands), valued as the chance to win the match. The opponent's moves are the level's own:
``bot.ai.pazaak.decide`` is asked, on a view of the node, what it does. Draws follow the
``infinite`` option (a uniform 1..10), so the value is exact for that deck; a tied set's loop
(the same hands, the other starter) is solved by iteration to 1e-10.

The bench samples D deals (both hands, the bench's side deck, each cut to its first H cards);
for each it computes the exact value, then plays the oracle's policy in the rules core (the
80-card pool) N/D times against the level, seats swapped on odd seeds as in
``bench/ai_pazaak.py``. It prints the exact value's mean over the deals and the played win rate,
each with a 95% interval over the deals (a deal's matches are not independent of each other).

The cost is the in-set state, both hands' masks times both tables: with one set to win, about
10 thousand nodes and 0.5 s with no hand cards, 53 thousand and 4 s with one card each, 256
thousand with two (CPython on this machine). The real game, four cards each and three sets, is
beyond a pure-Python run, hence ``--hand`` and ``--sets`` (defaults: one card, three sets); for
it, ``bench/pazaak_bound_c.py`` solves this programme in C. D and the flips are not modelled.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.ai import pazaak as ai
from bot.rules import pazaak
from bot.rules.pazaak.cards import HAND_SIZE, SideCard
from bot.rules.pazaak.state import NINE_CARDS, TARGET, Phase, player_with, state_with

DECK = "+1 +2 +3 +4 +5 -1 -2 -3 -4 -5"
DRAWS = range(1, 11)
READS_OPPONENT = {"stand17": False, "novice": False, "regular": True}
"""Whether a level's decision reads the other seat (Novice's reads only its own total and hand),
so the opponent's moves can be cached without it."""
ORACLE, RIVAL = 1, 2
"""Player ids of the best responder and of the level it answers."""

Ctx = tuple[int, int, int]
"""``(sets the oracle won, sets the rival won, 0 if the oracle started the set else 1)``."""


class Oracle:
    """The best response, for one deal, to ``level`` (see the module docstring)."""

    def __init__(
        self,
        mine: Sequence[SideCard],
        theirs: Sequence[SideCard],
        level: ai.Level,
        sets_to_win: int = 3,
    ) -> None:
        for card in (*mine, *theirs):
            if not card.values:
                raise ValueError(f"a {card.code} is not modelled")
        self.settings = pazaak.PazaakSettings(main_deck="infinite", sets_to_win=sets_to_win)
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
        self.memo: dict[tuple[Ctx, int, int], dict[tuple[object, ...], float]] = {}
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

    def root(self, ctx: Ctx, m: int, o: int) -> float:
        if ctx[2] == 0:
            return self.my_turn(ctx, m, o, 0, 0, False, 0, 0, False, False)
        return self.their_turn(ctx, m, o, 0, 0, False, False, 0, 0, False)

    def leaf(self, ctx: Ctx, outcome: int, m: int, o: int) -> float:
        """After a set the oracle won (1), lost (-1) or tied (0), keeping masks ``m``, ``o``."""
        a, b, s = ctx
        return self.start(a + (outcome > 0), b + (outcome < 0), 1 - s, m, o)

    def compare(self, ctx: Ctx, m: int, o: int, t1: int, tb1: bool, t2: int, tb2: bool) -> float:
        """Both stand: the higher total wins; on a tie, a T played by one of them alone."""
        if t1 != t2:
            return self.leaf(ctx, 1 if t1 > t2 else -1, m, o)
        if tb1 != tb2:
            return self.leaf(ctx, 1 if tb1 else -1, m, o)
        return self.leaf(ctx, 0, m, o)

    def _memo(self, ctx: Ctx, m: int, o: int) -> dict[tuple[object, ...], float]:
        table = self.memo.get((ctx, m, o))
        if table is None:
            table = self.memo[(ctx, m, o)] = {}
        return table

    # --- the oracle's turns --------------------------------------------------------------------

    def my_turn(
        self, ctx: Ctx, m: int, o: int, t1: int, c1: int, tb1: bool,
        t2: int, c2: int, tb2: bool, stood2: bool,
    ) -> float:  # fmt: skip
        """The oracle is about to draw; ``stood2``: the rival stands on ``t2``."""
        memo = self._memo(ctx, m, o)
        key = (0, t1, c1, tb1, t2, c2, tb2, stood2)
        found = memo.get(key)
        if found is None:
            found = 0.0
            for d in DRAWS:
                found += max(self.options(ctx, m, o, t1 + d, c1 + 1, tb1, t2, c2, tb2, stood2))[0]
            found /= len(DRAWS)
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
        key = (1, t1, c1, tb1, stood1, t2, c2, tb2)
        found = memo.get(key)
        if found is not None:
            return found
        found = 0.0
        for d in DRAWS:
            total, o2, tb, stand, count = self.rival(ctx, m, o, t1, tb1, stood1, t2, d, c2, tb2)
            if total > TARGET:
                found += self.leaf(ctx, 1, m, o2)
            elif self.settings.nine_card_win and count >= NINE_CARDS:
                found += self.leaf(ctx, -1, m, o2)
            else:
                standing = stand or total == TARGET
                if not stood1:
                    c = 0 if standing else count
                    found += self.my_turn(ctx, m, o2, t1, c1, tb1, total, c, tb, standing)
                elif standing:
                    found += self.compare(ctx, m, o2, t1, tb1, total, tb)
                else:
                    found += self.their_turn(ctx, m, o2, t1, 0, tb1, True, total, count, tb)
        found /= len(DRAWS)
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
        ctx = (me.sets_won, them.sets_won, 0 if state.starter_seat == seat else 1)
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


# --- the bench ----------------------------------------------------------------------------------


def deal(number: int, deck: Sequence[SideCard]) -> tuple[tuple[SideCard, ...], ...]:
    """Deal ``number``'s hands: the oracle's, then the rival's (each 4 of the same 10 cards)."""
    rng = random.Random(1_000_003 * (number + 1))
    return tuple(rng.sample(deck, HAND_SIZE)), tuple(rng.sample(deck, HAND_SIZE))


def play(oracle: Oracle, seed: int, deck: Sequence[SideCard], pool: bool = True) -> int:
    """One match in the rules core (the 80-card pool, or the infinite deck the programme
    assumes): 1 if the oracle won. It sits in seat 0 on even seeds and seat 1 on odd ones, the
    dealer's seed being ``seed // 2``."""
    dealer = random.Random(seed // 2)
    ids = (ORACLE, RIVAL) if seed % 2 == 0 else (RIVAL, ORACLE)
    settings = oracle.settings.model_copy(update={"main_deck": "pool" if pool else "infinite"})
    state, _ = pazaak.new_match(settings, ids[0], deck, ids[1], deck, dealer)
    hands = {ORACLE: oracle.mine, RIVAL: oracle.theirs}
    players = tuple(player_with(p, hand=hands[p.id]) for p in state.players)
    state = state_with(state, players=(players[0], players[1]))
    style, mind = ai.Style(oracle.level), random.Random(seed)
    while not pazaak.is_over(state):
        player = state.current_player
        if player == ORACLE:
            action = oracle.decide(state)
        else:
            action = ai.decide(pazaak.view(state, RIVAL), style, mind)
        state, _ = pazaak.apply(state, action, dealer)
    return int(state.winner == ORACLE)


Job = tuple[int, int, ai.Level, tuple[str, ...], int, int]


def run_deal(job: Job) -> tuple[float, int, int, float]:
    """A deal's exact value, its played wins and matches, and the seconds it took."""
    number, matches, level, codes, hand, sets = job
    begin = time.perf_counter()
    deck = pazaak.parse_side_cards(codes)
    mine, theirs = deal(number, deck)
    oracle = Oracle(mine[:hand], theirs[:hand], level, sets)
    value = oracle.value()
    wins = sum(play(oracle, number * matches + i, deck) for i in range(matches))
    return value, wins, matches, time.perf_counter() - begin


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of one figure per deal, with a 95% interval from their spread."""
    mean, half = statistics.fmean(values), 1.96 * statistics.stdev(values) / len(values) ** 0.5
    return mean, mean - half, mean + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", default="novice", choices=("novice", "regular", "stand17"))
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--matches", type=int, default=10_000, help="in all (default 10000)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--deck", default=DECK)
    parser.add_argument("--hand", type=int, default=1, help=f"cards dealt, at most {HAND_SIZE}")
    parser.add_argument("--sets", type=int, default=3, help="sets to win (a smaller game)")
    args = parser.parse_args()
    sys.setrecursionlimit(20_000)
    each = max(2, args.matches // args.deals // 2 * 2)
    codes = tuple(args.deck.split())
    jobs = [(n, each, args.against, codes, args.hand, args.sets) for n in range(args.deals)]
    start = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        done = pool.map(run_deal, jobs, chunksize=1)
    mean, low, high = interval([v for v, _, _, _ in done])
    rate, p_low, p_high = interval([w / n for _, w, n, _ in done])
    played = sum(n for _, _, n, _ in done)
    print(
        f"oracle (hands revealed) vs {args.against}, side deck {' '.join(codes)}, "
        f"{args.hand} hand cards, {args.sets} sets to win: "
        f"{len(done)} deals, {played} matches, {time.perf_counter() - start:.0f} s"
    )
    print(f"  exact value, infinite deck:  {mean:6.1%}  {low:6.1%}..{high:6.1%} (over deals)")
    print(f"  played, 80-card pool:        {rate:6.1%}  {p_low:6.1%}..{p_high:6.1%}")
    print(f"  seconds a deal: median {statistics.median(t for *_, t in done):.0f}")


if __name__ == "__main__":
    main()
