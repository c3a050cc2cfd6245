"""Benchmark the rules core: random playouts, as the NPC players will run them.

Prints the median (and p90) time of one random 4-player Three-Card Pegasus game and of one random
Pazaak set, each over many playouts (default 10,000). Run: ``python bench/rules.py [playouts]``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable

from bot.rules import pazaak, pegaz


def pegaz_game(rng: random.Random, settings: pegaz.PegazSettings) -> int:
    """One random 4-player game from an empty table to its end; returns the number of actions."""
    state, _ = pegaz.new_table(settings)
    for player in range(1, 5):
        state, _ = pegaz.apply(
            state,
            pegaz.Join(player, rng.random() < 0.5, rng.random() < 0.5, rng.randint(0, 60), 2400),
            rng,
        )
    state, _ = pegaz.apply(state, pegaz.Start(1), rng)
    actions = 0
    while not pegaz.is_over(state):
        state, _ = pegaz.apply(state, rng.choice(pegaz.legal_actions(state)), rng)
        actions += 1
    return actions


SELECTION = pazaak.parse_side_cards(["+1", "-2", "±3", "D", "T", "F24", "F36", "±1/2", "+4", "-5"])


def pazaak_set(rng: random.Random, settings: pazaak.PazaakSettings) -> int:
    """One random set of a fresh match (no forfeits); returns the number of actions."""
    state, _ = pazaak.new_match(settings, 1, SELECTION, 2, SELECTION, rng)
    actions = 0
    while state.set_number == 1 and not pazaak.is_over(state):
        choices = [a for a in pazaak.legal_actions(state) if not isinstance(a, pazaak.Forfeit)]
        state, _ = pazaak.apply(state, rng.choice(choices), rng)
        actions += 1
    return actions


def measure(
    name: str, playout: Callable[[random.Random], int], runs: int, target_ms: float
) -> None:
    rng = random.Random(2026)
    times: list[float] = []
    actions = 0
    for _ in range(runs):
        start = time.perf_counter()
        actions += playout(rng)
        times.append(time.perf_counter() - start)
    median = statistics.median(times) * 1000
    p90 = statistics.quantiles(times, n=10)[-1] * 1000
    verdict = "meets" if median < target_ms else "MISSES"
    print(
        f"{name:<40} median {median:6.3f} ms  p90 {p90:6.3f} ms  "
        f"({actions / runs:.1f} actions/playout, {runs} playouts; {verdict} < {target_ms} ms)"
    )


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    print(f"Python {sys.version.split()[0]}; {runs} playouts each")
    measure(
        "pegaz, 4 players, default table", lambda r: pegaz_game(r, pegaz.PegazSettings()), runs, 1
    )
    deck = pegaz.PegazSettings(source="deck")
    measure("pegaz, 4 players, 24-card deck", lambda r: pegaz_game(r, deck), runs, 1)
    wild = pegaz.PegazSettings.wild()
    measure("pegaz, 4 players, wild", lambda r: pegaz_game(r, wild), runs, 1)
    measure(
        "pazaak, one set, 80-card pool", lambda r: pazaak_set(r, pazaak.PazaakSettings()), runs, 0.5
    )
    infinite = pazaak.PazaakSettings(main_deck="infinite")
    measure("pazaak, one set, infinite deck", lambda r: pazaak_set(r, infinite), runs, 0.5)


if __name__ == "__main__":
    main()
