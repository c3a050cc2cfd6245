"""Measure the Three-Card Pegasus NPC: 3-player games against two copies of a baseline.

Baselines: ``never`` pays the stake and never exchanges a card; ``random`` makes a random legal
move; ``pairs`` keeps pairs and trips and exchanges every single card. In the check phase
``never`` and ``pairs`` check the next player still in; neither uses Luck (``--luck``). Each
seed is played three times, the NPC in each seat in turn, with the same deal for each seat.
Every player brings 1,000 stakes, so no one is forced out for want of coin.

A fourth baseline, ``solid``, is the honest NPC itself at its solid level. ``--peeking`` seats
the house edge instead of the honest NPC (``bot.ai.peeking``: it sees every hand): its margin
against ``solid`` is what the house edge is worth.

Prints, per baseline: the NPC's share of the pots won (a split counts its part), its mean net
per game in stakes with a 95% interval, and the median and p99 time of its decisions.
Run: ``python bench/ai_pegaz.py [--games N] [--level solid] [--source dice] [--die 6]
[--peeking]``.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.ai import pegaz as npc
from bot.ai.peeking import decide_peeking
from bot.rules import pegaz

Policy = Callable[[pegaz.PegazView, random.Random], pegaz.Action]
SEATS = 3
FUNDS = 1000
"""Each player's purse, in stakes."""


def _check_next(view: pegaz.PegazView) -> pegaz.Action:
    """Check the next player still in, after this seat in seat order (fold if one cannot)."""
    me = view.viewer
    order = [s.player for s in view.seats]
    start = order.index(me) if me in order else 0
    checks = {a.target: a for a in view.legal if isinstance(a, pegaz.Check)}
    for step in range(1, len(order)):
        target = order[(start + step) % len(order)]
        if target in checks:
            return checks[target]
    return pegaz.Fold(me or 0)


def _pay(view: pegaz.PegazView, cards: tuple[int, ...]) -> pegaz.Action:
    me = view.viewer or 0
    if view.phase is pegaz.Phase.EXCHANGE:
        wanted = pegaz.Exchange(me, cards, view.stake)
        return wanted if wanted in view.legal else pegaz.Fold(me)
    return _check_next(view)


def _routine(view: pegaz.PegazView) -> pegaz.Action | None:
    """What every baseline does alike: keep its cards, decline the offering."""
    me = view.viewer or 0
    if view.phase is pegaz.Phase.OFFERING:
        return pegaz.Offer(me, False)
    if view.pending:
        return pegaz.Keep(me)
    return None


def never(view: pegaz.PegazView, rng: random.Random) -> pegaz.Action:
    return _routine(view) or _pay(view, ())


def singles(view: pegaz.PegazView, rng: random.Random) -> pegaz.Action:
    hand = view.hand
    cards = tuple(i for i, f in enumerate(hand) if hand.count(f) == 1)
    return _routine(view) or _pay(view, cards)


def random_legal(view: pegaz.PegazView, rng: random.Random) -> pegaz.Action:
    return rng.choice(view.legal)


def solid(view: pegaz.PegazView, rng: random.Random) -> pegaz.Action:
    """The honest NPC at its solid level."""
    return npc.decide(view, npc.Style("solid"), rng)


BASELINES: dict[str, Policy] = {
    "never": never,
    "random": random_legal,
    "pairs": singles,
    "solid": solid,
}


@dataclass
class Tally:
    nets: list[float] = field(default_factory=list)
    wins: float = 0.0
    times: list[float] = field(default_factory=list)


def play(
    baseline: Policy,
    style: npc.Style,
    settings: pegaz.PegazSettings,
    seed: int,
    seat: int,
    tally: Tally,
    luck: bool = False,
    peeking: bool = False,
) -> None:
    """One game with the NPC in ``seat``; the cards come from ``seed`` alone."""
    deal, moves = random.Random(seed), random.Random(seed ^ 0x5EED)
    funds = FUNDS * settings.stake
    state, _ = pegaz.new_table(settings)
    for player in range(SEATS):
        state, _ = pegaz.apply(state, pegaz.Join(player, luck, False, 30, funds), deal)
    state, _ = pegaz.apply(state, pegaz.Start(0), deal)
    while not pegaz.is_over(state):
        player = pegaz.to_act(state)[0]
        seen = pegaz.view(state, player)
        if player == seat:
            start = time.perf_counter()
            if peeking:
                action = decide_peeking(state, player, style, moves)
            else:
                action = npc.decide(seen, style, moves)
            tally.times.append(time.perf_counter() - start)
        else:
            action = baseline(seen, moves)
        state, _ = pegaz.apply(state, action, deal)
    mine = pegaz.seat_of(state, seat)
    tally.nets.append((mine.funds - funds) / settings.stake)
    if seat in state.winners:
        tally.wins += 1 / len(state.winners)


def report(name: str, tally: Tally) -> str:
    n = len(tally.nets)
    mean = statistics.fmean(tally.nets)
    half = 1.96 * statistics.stdev(tally.nets) / math.sqrt(n)
    times = sorted(tally.times)
    median = statistics.median(times) * 1000
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))] * 1000
    return (
        f"| vs 2 x {name:<6} | {n:>6} | {tally.wins / n:6.1%} | {mean:+6.2f} "
        f"[{mean - half:+.2f}, {mean + half:+.2f}] | {median:6.2f} | {p99:6.2f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per baseline (at least)")
    parser.add_argument("--level", choices=("cautious", "solid", "bold"), default="solid")
    parser.add_argument("--source", choices=("dice", "deck"), default="dice")
    parser.add_argument("--die", type=int, choices=pegaz.DICE, default=6)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", choices=tuple(BASELINES), action="append")
    parser.add_argument("--luck", action="store_true", help="every player has Luck")
    parser.add_argument("--peeking", action="store_true", help="the NPC has the house edge")
    args = parser.parse_args()
    settings = pegaz.PegazSettings(source=args.source, die=args.die)
    style = npc.Style(level=args.level)
    traits = ", everyone with Luck" if args.luck else ""
    edge = " with the house edge" if args.peeking else ""
    print(f"{args.level} NPC{edge}, 3 players, {args.source} d{args.die}, default settings{traits}")
    print("| pairing | games | pots won | net stakes/game [95%] | median ms | p99 ms |")
    print("|---|---:|---:|---|---:|---:|")
    for name in args.only or BASELINES:
        tally = Tally()
        for game in range(-(-args.games // SEATS) * SEATS):  # whole rotations of the seats
            seed = args.seed * 1_000_003 + game // SEATS
            play(
                BASELINES[name], style, settings, seed, game % SEATS, tally, args.luck, args.peeking
            )
        print(report(name, tally), flush=True)


if __name__ == "__main__":
    main()
