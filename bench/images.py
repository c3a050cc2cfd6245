"""Measure the table images: render time per image (p50, p99) and bytes per image, per kind.

The states: an 8-seat Pegaz table on a d20 mid-game (its overview, the hand of the seat whose
turn it is, and a check between two of its seats) and a Pazaak board mid-set with side cards
on both tables (the board and a hand). Targets: under 20 ms and under 100 KiB an image.
Each image is drawn from cold caches of whole cards (glyphs stay cached, as in the bot), and
one PNG of each kind is saved under ``bench/out/`` (gitignored) for a person to look at.
Run: ``python bench/images.py [--runs N] [--lang en|pl]``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from pathlib import Path

from bot.i18n import Lang
from bot.render import images
from bot.render.images import pazaak as pazaak_images
from bot.render.images import pegaz as pegaz_images
from bot.rules import pazaak, pegaz

OUT = Path(__file__).with_name("out")
NAMES = {
    1: "Gunther Stahlberg",
    2: "Łucja Żmigrodzka",
    3: "Ottokar",
    4: "Brunhilda z Nuln",
    5: "Piotr Ćwik",
    6: "Anselm",
    7: "Źdźisław Gęśla",
    8: "Magda",
}


def pegaz_table(seed: int = 7) -> tuple[pegaz.PegazState, pegaz.Checked]:
    """An 8-seat table in round 2 or later, and a check made at it, from seeded random play."""
    rng = random.Random(seed)
    state, _ = pegaz.new_table(pegaz.PegazSettings(die=20, exchanges=4))
    for p in NAMES:
        state, _ = pegaz.apply(state, pegaz.Join(p, p % 2 == 0, p % 3 == 0, 30, 10_000), rng)
    state, _ = pegaz.apply(state, pegaz.Start(1), rng)
    check: pegaz.Checked | None = None
    while True:
        moves = [a for a in pegaz.legal_actions(state) if not isinstance(a, pegaz.Fold)]
        state, events = pegaz.apply(state, rng.choice(moves), rng)
        check = next((e for e in events if isinstance(e, pegaz.Checked)), check)
        if check is not None and state.round >= 2 and pegaz.whose_turn(state) is not None:
            return state, check


def pazaak_board(seed: int = 3) -> pazaak.PazaakState:
    """A match past its first set, with four or more cards and a side card on each table and
    side cards left in both hands, from seeded random play that seldom plays a hand card."""
    rng = random.Random(seed)
    cards = pazaak.parse_side_cards(["+3", "-2", "±4", "D", "T", "F24", "±1/2", "+1", "-5", "±2"])
    settings = pazaak.PazaakSettings(wager=500)
    state, _ = pazaak.new_match(settings, 1, cards, 2, cards[::-1], rng)
    while True:
        if pazaak.is_over(state):
            state, _ = pazaak.new_match(settings, 1, cards, 2, cards[::-1], rng)
        seats = state.players
        if state.set_number >= 2 and all(
            len(p.table) >= 4 and p.hand and any(c.side for c in p.table) for p in seats
        ):
            return state
        moves = [a for a in pazaak.legal_actions(state) if not isinstance(a, pazaak.Forfeit)]
        plays = [a for a in moves if isinstance(a, pazaak.PlayCard)]
        ends = [a for a in moves if isinstance(a, pazaak.EndTurn)]
        pick = plays if plays and rng.random() < 0.2 else ends or moves
        state, _ = pazaak.apply(state, rng.choice(pick), rng)


def cold() -> None:
    """Forget the whole cards drawn before, so each run draws its cards again."""
    pegaz_images.creature_card.cache_clear()
    pazaak_images.side_card.cache_clear()
    pazaak_images.table_card.cache_clear()


def percentile(sorted_ms: list[float], q: float) -> float:
    return sorted_ms[min(len(sorted_ms) - 1, round(q * (len(sorted_ms) - 1)))]


def measure(draw: Callable[[], bytes], runs: int) -> tuple[list[float], list[float], bytes]:
    """Wall and CPU milliseconds of each run, sorted, and the last image. CPU time is this
    thread's own, so other work on a shared machine does not count in it."""
    wall, cpu = [], []
    image = b""
    for _ in range(runs):
        cold()
        start, start_cpu = time.perf_counter(), time.thread_time()
        image = draw()
        cpu.append((time.thread_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
    return sorted(wall), sorted(cpu), image


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--lang", choices=["en", "pl"], default="pl")
    args = parser.parse_args()
    lang: Lang = args.lang
    state, check = pegaz_table()
    turn = pegaz.whose_turn(state)
    assert turn is not None
    public = pegaz.view(state, None)
    match = pazaak_board()
    viewer = match.players[match.turn_seat].id
    kinds: dict[str, Callable[[], bytes]] = {
        "pegaz_table": lambda: pegaz_images.table(public, NAMES, lang, table_id=42),
        "pegaz_hand": lambda: pegaz_images.hand(pegaz.view(state, turn), lang, table_id=42),
        "pegaz_check": lambda: pegaz_images.check(check, 20, NAMES, lang),
        "pazaak_board": lambda: pazaak_images.board(pazaak.view(match, None), NAMES, lang),
        "pazaak_hand": lambda: pazaak_images.hand(pazaak.view(match, viewer), NAMES, lang),
    }
    OUT.mkdir(exist_ok=True)
    print(f"font: {images.font_source()}; {args.runs} runs per kind; lang {lang}")
    print("wall: elapsed time; cpu: this thread's CPU time (what a shared machine does not add)")
    print(f"{'kind':<14}{'wall p50':>9}{'wall p99':>9}{'cpu p50':>9}{'cpu p99':>9}{'KiB':>8}  size")
    for kind, draw in kinds.items():
        wall, cpu, image = measure(draw, args.runs)
        (OUT / f"{kind}.png").write_bytes(image)
        width, height = int.from_bytes(image[16:20]), int.from_bytes(image[20:24])
        figures = [percentile(wall, 0.5), percentile(wall, 0.99)]
        figures += [percentile(cpu, 0.5), percentile(cpu, 0.99)]
        ms = "".join(f"{x:>9.2f}" for x in figures)
        print(f"{kind:<14}{ms}{len(image) / 1024:>8.1f}  {width}x{height}")
    print(f"saved: {OUT}/*.png")


if __name__ == "__main__":
    main()
