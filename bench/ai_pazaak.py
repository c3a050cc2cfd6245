"""Pazaak's computer players against each other: win rates and decision times.

``python bench/ai_pazaak.py [--matches N] [--workers W] [--deck CODES] [--skills] [--caught]
[--only LEVEL] [--against LEVEL] [--hand H]``

For each pairing, N matches (default 10,000) through the rules core: N/2 seeds, each played twice
with the seats swapped, so that the seats and the set-1 starter are balanced. Both players use
the same 10-card side deck (``--deck``; by default the starter's +1..+5 with their minus twins,
-1..-5). Prints the first player's match win rate with a 95% interval (normal approximation),
then the median and p99 time of one decision by level, over every pairing. Prints figures;
never passes or fails. Runs on ``--workers`` processes (default 2). ``--only`` and ``--against``
keep the pairings of those levels; ``--hand H`` cuts both hands to H cards, the reduced games
whose exact best response ``bench/pazaak_bound.py`` computes, so the two can be compared.

``--caught`` instead plays a cheating Master (skills on, Gamble: one hidden swap a match) against
a fair Master whose Perception is each of ``PERCEPTIONS``, and prints swaps per match, the share
of swaps caught and the cheat's win rate. A catch is ruled as the table's default ruling, the one
a fair GM keeps: the cheater forfeits the match. ``--peeking`` gives the first player of each
pairing the house edge (``bot.ai.peeking``), to measure what it is worth.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Literal

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.ai import pazaak as ai
from bot.ai.peeking import decide_peeking
from bot.rules import pazaak
from bot.rules.pazaak.state import player_with, state_with

DECK = "+1 +2 +3 +4 +5 -1 -2 -3 -4 -5"
PAIRINGS: tuple[tuple[ai.Level, ai.Level, float], ...] = (
    ("master", "stand17", 0.92),
    ("regular", "stand17", 0.85),
    ("novice", "stand17", 0.0),
    ("master", "novice", 0.65),
    ("master", "regular", 0.60),
)
"""(first, second, goal for the first's win rate; 0 for none)."""
SET_CAP = 200
"""A match still going after this many sets (ties score nothing) counts as lost by both."""

PERCEPTIONS = (0, 30, 60)
"""The fair player's Perception in ``--caught``: never, sometimes, often caught."""

MainDeck = Literal["pool", "infinite"]
Job = tuple[ai.Level, ai.Level, int, tuple[str, ...], bool, bool, int, MainDeck]
"""(first, second, seed, side deck, skills, the first has the house edge, hand cards each,
the main deck)."""


def play(job: Job) -> tuple[int, dict[str, list[float]]]:
    """One match of ``first`` against ``second`` (``first`` in seat 0 when ``seed`` is even,
    seat 1 when odd): 1 if ``first`` won, and each level's decision times in seconds."""
    first, second, seed, deck, skills, peeking, hand, main_deck = job
    styles = (ai.Style(first), ai.Style(second))
    first_seat = 1 if seed % 2 else 0
    if seed % 2:
        styles = styles[::-1]
    dealer = random.Random(seed // 2)
    state = deal_match(dealer, deck, skills, hand, main_deck)
    minds = {1: random.Random(seed), 2: random.Random(~seed)}
    times: dict[str, list[float]] = defaultdict(list)
    while not pazaak.is_over(state) and state.set_number <= SET_CAP:
        player = state.current_player
        assert player is not None
        style = styles[player - 1]
        start = time.perf_counter()
        if peeking and player - 1 == first_seat:
            action = decide_peeking(state, player, style, minds[player])
        else:
            action = ai.decide(pazaak.view(state, player), style, minds[player])
        times[style.level].append(time.perf_counter() - start)
        state, _ = pazaak.apply(state, action, dealer)
    winner_seat = None if state.winner is None else state.winner - 1
    return int(winner_seat == first_seat), times


def deal_match(
    dealer: random.Random,
    deck: tuple[str, ...],
    skills: bool,
    hand: int = pazaak.HAND_SIZE,
    main_deck: MainDeck = "pool",
) -> pazaak.PazaakState:
    """A new match between players 1 and 2, each with ``deck``; with ``hand`` under 4, each hand
    is cut to its first ``hand`` cards (a reduced game, as ``bench/pazaak_bound.py`` solves);
    ``main_deck``: the table option (``infinite``: the draws that bench's bound assumes)."""
    selection = pazaak.parse_side_cards(deck)
    settings = pazaak.PazaakSettings(skills=skills, main_deck=main_deck)
    traits = (pazaak.Traits(luck=True), pazaak.Traits(luck=True)) if skills else None
    state, _ = pazaak.new_match(
        settings, 1, selection, 2, selection, dealer, *(() if traits is None else (traits,))
    )
    if hand < pazaak.HAND_SIZE:
        cut = tuple(player_with(p, hand=p.hand[:hand]) for p in state.players)
        state = state_with(state, players=(cut[0], cut[1]))
    return state


def set_stats(job: Job) -> list[tuple[int, int, int, int]]:
    """The sets of one match of ``first`` against itself, from seat 0's side and seat 1's:
    ``(own cards, their cards, 1 won / 0 tied / -1 lost, own cards spent)``, hands counted as
    the set starts (what ``bot.ai.pazaak.match_values`` is fitted to)."""
    level, _, seed, deck, skills, _, _, _ = job
    style = ai.Style(level)
    dealer, mind = random.Random(seed), random.Random(~seed)
    selection = pazaak.parse_side_cards(deck)
    state, _ = pazaak.new_match(
        pazaak.PazaakSettings(skills=skills), 1, selection, 2, selection, dealer
    )
    found: list[tuple[int, int, int, int]] = []
    while not pazaak.is_over(state) and state.set_number <= SET_CAP:
        hands = [len(p.hand) for p in state.players]
        number = state.set_number
        while state.set_number == number and not pazaak.is_over(state):
            player = state.current_player
            assert player is not None
            state, _ = pazaak.apply(
                state, ai.decide(pazaak.view(state, player), style, mind), dealer
            )
        winner = state.results[-1].winner
        for seat in (0, 1):
            outcome = 0 if winner is None else (1 if winner == seat + 1 else -1)
            spent = hands[seat] - len(state.players[seat].hand)
            found.append((hands[seat], hands[1 - seat], outcome, spent))
    return found


def calibrate(level: ai.Level, matches: int, deck: tuple[str, ...], workers: int) -> None:
    """Print, by the hand sizes at a set's start, how sets of ``level`` against itself end."""
    tally: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    jobs: list[Job] = [
        (level, level, seed, deck, False, False, pazaak.HAND_SIZE, "pool")
        for seed in range(matches)
    ]
    with multiprocessing.Pool(workers) as pool:
        for sets in pool.imap_unordered(set_stats, jobs, chunksize=50):
            for mine, theirs, outcome, spent in sets:
                row = tally[(mine, theirs)]
                row[0] += 1
                row[1] += outcome == 1
                row[2] += outcome == 0
                row[3] += spent
    print(f"{level} against itself, {matches} matches: sets by the hand cards at their start")
    print(f"{'cards':<7} {'sets':>6} {'won':>6} {'tied':>6} {'won untied':>10} {'spent':>6}")
    for (mine, theirs), (n, won, tied, spent) in sorted(tally.items()):
        untied = won / (n - tied) if n > tied else 0.0
        print(
            f"{mine} v {theirs}  {n:>6} {won / n:6.3f} {tied / n:6.3f} {untied:10.3f} "
            f"{spent / n:6.2f}"
        )


def caught_match(job: tuple[int, int, tuple[str, ...]]) -> tuple[int, int, int]:
    """One match of a cheating Master against a fair one of ``perception`` (seats swapped on odd
    seeds): (swaps, catches, 1 if the cheat won)."""
    perception, seed, deck = job
    cheat = 1 if seed % 2 else 0
    styles = [ai.Style("master"), ai.Style("master")]
    styles[cheat] = ai.Style("master", cheats=True)
    traits = [pazaak.Traits(perception=perception), pazaak.Traits(perception=perception)]
    traits[cheat] = pazaak.Traits(gamble=True)
    dealer = random.Random(seed // 2)
    selection = pazaak.parse_side_cards(deck)
    settings = pazaak.PazaakSettings(skills=True)
    state, _ = pazaak.new_match(
        settings, 1, selection, 2, selection, dealer, (traits[0], traits[1])
    )
    minds = {1: random.Random(seed), 2: random.Random(~seed)}
    swaps = catches = 0
    while not pazaak.is_over(state) and state.set_number <= SET_CAP:
        player = state.current_player
        assert player is not None  # the default ruling never waits for a GM
        action = ai.decide(pazaak.view(state, player), styles[player - 1], minds[player])
        state, events = pazaak.apply(state, action, dealer)
        swaps += any(isinstance(e, pazaak.Swapped) for e in events)
        catches += any(isinstance(e, pazaak.Caught) for e in events)
    return swaps, catches, int(state.winner == cheat + 1)


def caught(matches: int, deck: tuple[str, ...], workers: int) -> None:
    """Print, by the fair player's Perception, how often the cheat swaps, is caught, and wins."""
    print(
        f"{matches} matches per Perception: cheating Master (Gamble) vs fair Master; "
        "a caught swap forfeits the match (the default ruling)"
    )
    print(
        f"{'perception':<11} {'swaps/match':>11} {'caught':>7}  {'95% interval':<15} "
        f"{'cheat wins':>10}  95% interval"
    )
    with multiprocessing.Pool(workers) as pool:
        for perception in PERCEPTIONS:
            jobs = [(perception, seed, deck) for seed in range(matches)]
            swaps = catches = wins = 0
            for s, c, w in pool.imap_unordered(caught_match, jobs, chunksize=50):
                swaps, catches, wins = swaps + s, catches + c, wins + w
            rate, low, high = interval(catches, swaps) if swaps else (0.0, 0.0, 0.0)
            won, won_low, won_high = interval(wins, matches)
            print(
                f"{perception:<11} {swaps / matches:11.3f} {rate:7.1%}  {low:6.1%}..{high:6.1%}  "
                f"{won:10.1%}  {won_low:6.1%}..{won_high:6.1%}"
            )


def interval(wins: int, n: int) -> tuple[float, float, float]:
    rate = wins / n
    half = 1.96 * math.sqrt(rate * (1 - rate) / n)
    return rate, max(0.0, rate - half), min(1.0, rate + half)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=10_000, help="per pairing (default 10000)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--deck", default=DECK, help=f"10 side-card codes (default {DECK!r})")
    parser.add_argument("--skills", action="store_true", help="skills on, both players lucky")
    parser.add_argument("--only", help="run the pairings whose first player is this level")
    parser.add_argument("--against", help="and whose second player is this level")
    parser.add_argument(
        "--hand",
        type=int,
        default=pazaak.HAND_SIZE,
        choices=range(pazaak.HAND_SIZE + 1),
        help="hand cards each (a reduced game, to compare with bench/pazaak_bound.py)",
    )
    parser.add_argument(
        "--main-deck",
        default="pool",
        choices=("pool", "infinite"),
        help="the table option: 80 cards a set, or uniform draws (bench/pazaak_bound.py's)",
    )
    parser.add_argument(
        "--calibrate", metavar="LEVEL", help="instead: how sets of LEVEL against itself end"
    )
    parser.add_argument(
        "--caught", action="store_true", help="instead: how often a cheating Master is caught"
    )
    parser.add_argument(
        "--peeking", action="store_true", help="the first of each pairing has the house edge"
    )
    args = parser.parse_args()
    deck = tuple(args.deck.split())
    pazaak.validate_selection(pazaak.parse_side_cards(deck), pazaak.parse_side_cards(deck))
    if args.caught:
        caught(args.matches + args.matches % 2, deck, args.workers)
        return
    if args.calibrate:
        calibrate(args.calibrate, args.matches, deck, args.workers)
        return
    matches = args.matches + args.matches % 2
    print(
        f"Python {sys.version.split()[0]}; {matches} matches per pairing "
        f"({matches // 2} seeds, seats swapped); side deck {' '.join(deck)}; "
        f"skills {'on' if args.skills else 'off'}; {args.workers} worker(s)"
        + ("; the first player has the house edge (sees every hand)" if args.peeking else "")
        + (f"; a reduced game, {args.hand} hand cards each" if args.hand < pazaak.HAND_SIZE else "")
        + f"; main deck: {args.main_deck}"
    )
    all_times: dict[str, list[float]] = defaultdict(list)
    print(f"{'pairing':<22} {'win rate':>8}  {'95% interval':<15} {'goal':<6} time")
    with multiprocessing.Pool(args.workers) as pool:
        for first, second, goal in PAIRINGS:
            if (args.only and first != args.only) or (args.against and second != args.against):
                continue
            start = time.perf_counter()
            jobs = [
                (first, second, seed, deck, args.skills, args.peeking, args.hand, args.main_deck)
                for seed in range(matches)
            ]
            wins = 0
            for won, times in pool.imap_unordered(play, jobs, chunksize=50):
                wins += won
                for level, spent in times.items():
                    all_times[level].extend(spent)
            rate, low, high = interval(wins, matches)
            verdict = "" if not goal else ("met" if low >= goal else "MISSED")
            print(
                f"{first + ' vs ' + second:<22} {rate:8.1%}  {low:6.1%}..{high:6.1%}  "
                f"{(f'{goal:.0%} ' + verdict) if goal else '-':<6} "
                f"{time.perf_counter() - start:.0f} s"
            )
    print(f"\n{'level':<8} {'decisions':>10} {'median':>9} {'p99':>9} {'max':>9}")
    for level in ("stand17", "novice", "regular", "master"):
        spent = all_times.get(level)
        if spent:
            p99 = statistics.quantiles(spent, n=100)[-1]
            print(
                f"{level:<8} {len(spent):>10} {statistics.median(spent) * 1e3:7.3f}ms "
                f"{p99 * 1e3:7.3f}ms {max(spent) * 1e3:7.1f}ms"
            )


if __name__ == "__main__":
    main()
