"""How strong can any Pazaak player be against Novice (or Regular)? An upper bound, computed.

``python bench/pazaak_bound.py [--against LEVEL] [--hand H] [--sets S] [--deals D]
[--matches N] [--workers W] [--main-deck infinite|pool]``

The bound is :class:`bench.pazaak_oracle.Oracle`, the exact best response to the level with
its hand revealed (see that module). The bench samples D deals (both hands, the bench's side
deck, each cut to its first H cards); for each it computes the exact value in the chosen main
deck (default ``infinite``), then plays the oracle's policy in the rules core (the 80-card pool)
N/D times against the level, seats swapped on odd seeds as in ``bench/ai_pazaak.py``. It prints
the exact value's mean over the deals and the played win rate, each with a 95% interval over
the deals (a deal's matches are not independent of each other).

The cost is the in-set state, both hands' masks times both tables: with one set to win, about
10 thousand nodes and 0.5 s with no hand cards, 53 thousand and 4 s with one card each, 256
thousand with two (CPython on this machine, infinite deck). The real game, four cards each and
three sets, is beyond a pure-Python run, hence ``--hand`` and ``--sets`` (defaults: one card,
three sets); for it, ``bench/pazaak_bound_c.py`` solves the infinite deck's programme in C.
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

from bench.pazaak_oracle import DECK, ORACLE, RIVAL, MainDeck, Oracle
from bot.ai import pazaak as ai
from bot.rules import pazaak
from bot.rules.pazaak.cards import HAND_SIZE, SideCard
from bot.rules.pazaak.state import player_with, state_with


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


Job = tuple[int, int, ai.Level, tuple[str, ...], int, int, MainDeck]


def run_deal(job: Job) -> tuple[float, int, int, float]:
    """A deal's exact value, its played wins and matches, and the seconds it took."""
    number, matches, level, codes, hand, sets, main_deck = job
    begin = time.perf_counter()
    deck = pazaak.parse_side_cards(codes)
    mine, theirs = deal(number, deck)
    oracle = Oracle(mine[:hand], theirs[:hand], level, sets, main_deck)
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
    parser.add_argument(
        "--main-deck",
        default="infinite",
        choices=("infinite", "pool"),
        help="the draws the programme is exact for: uniform, or the 80-card pool (its state "
        "then carries the set's draws, so it is far larger; the policy is played in that deck)",
    )
    args = parser.parse_args()
    sys.setrecursionlimit(20_000)
    each = max(2, args.matches // args.deals // 2 * 2)
    codes = tuple(args.deck.split())
    jobs: list[Job] = [
        (n, each, args.against, codes, args.hand, args.sets, args.main_deck)
        for n in range(args.deals)
    ]
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
    deck = "the 80-card pool" if args.main_deck == "pool" else "the infinite deck"
    print(f"  exact value, {deck + ':':<19} {mean:6.1%}  {low:6.1%}..{high:6.1%} (over deals)")
    print(f"  played, 80-card pool:            {rate:6.1%}  {p_low:6.1%}..{p_high:6.1%}")
    print(f"  seconds a deal: median {statistics.median(t for *_, t in done):.0f}")


if __name__ == "__main__":
    main()
