"""The bound of ``bench/pazaak_bound.py``, for the full game: its programme compiled.

``python bench/pazaak_bound_c.py [--against LEVEL] [--hand H] [--sets S] [--deals D]
[--first F] [--workers W] [--check]``

``bench/pazaak_bound.c`` is :class:`~bench.pazaak_oracle.Oracle`'s dynamic programme in C: the
same states, the same order of the rules' checks, the same value (the oracle's chance to win the
match, with the rival's hand revealed to it, draws uniform 1..10). It is compiled once a run
(``cc -O2``, into a temporary directory) and run once a deal. The rival's moves are not
re-implemented in C: this module asks :meth:`Oracle.rival` (so ``bot.ai.pazaak.decide``) for
every key of its table, ``(total before the draw, draw, hand left, T played)``, and writes the
table on the solver's stdin, with the oracle's card values and the settings. Only levels that do
not read the other seat (``READS_OPPONENT``: Novice, stand17) have such a table.

It prints the exact value's mean over the deals with a 95% interval over them, as
``bench/pazaak_bound.py`` does; the played part (the policy in the rules core) stays there, for
small games. ``--check`` also runs the Python Oracle on each deal and prints the difference
(only for reduced games). The full game, four cards each and three sets: about 20 s and 0.9 GiB
a deal, one core (the figures the solver reports, for the default deck).
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.pazaak_bound import deal, interval
from bench.pazaak_oracle import DECK, DRAWS, READS_OPPONENT, Oracle
from bot.ai import pazaak as ai
from bot.rules import pazaak
from bot.rules.pazaak.cards import HAND_SIZE, SideCard
from bot.rules.pazaak.state import NINE_CARDS, TARGET

SOURCE = Path(__file__).with_name("pazaak_bound.c")


def compile_solver(directory: Path) -> Path:
    """Build ``bench/pazaak_bound.c`` into ``directory``; the executable's path."""
    cc = shutil.which("cc")
    if cc is None:
        raise RuntimeError("no C compiler (cc) on the PATH")
    exe = directory / "pazaak_bound"
    subprocess.run([cc, "-O2", "-std=c11", "-o", str(exe), str(SOURCE), "-lm"], check=True)
    return exe


def lowest_total(cards: tuple[SideCard, ...]) -> int:
    """A bound under any total before a draw: 0, or a draw (>= 1) plus every card's least."""
    return min(0, 1 + sum(min(0, *card.values) for card in cards))


def solver_input(oracle: Oracle) -> str:
    """The solver's stdin for ``oracle``'s deal: settings, the oracle's cards, the rival's table.

    The table is the rival's own code: :meth:`Oracle.rival` for every total from
    :func:`lowest_total` to 20, draw, hand mask and T flag (the count on its table is asked as
    0, ``added`` being what the turn put there; a level reading the other seat is refused)."""
    if READS_OPPONENT[oracle.level]:
        raise ValueError(f"{oracle.level} reads the other seat: its moves need a bigger table")
    settings = oracle.settings
    lines = [
        "pazaak-bound 1",
        f"need {oracle.need} nine {int(settings.nine_card_win)} target {TARGET} "
        f"ninecards {NINE_CARDS}",
        f"mine {len(oracle.mine)}",
    ]
    for card in oracle.mine:
        values = " ".join(str(v) for v in card.values)
        lines.append(f"{len(card.values)} {values} {int(card.kind == 'tiebreaker')}")
    rival_tb = any(card.kind == "tiebreaker" for card in oracle.theirs)
    low = lowest_total(oracle.theirs)
    lines += [f"theirs {len(oracle.theirs)} {int(rival_tb)}", f"t2lo {low}"]
    rows = []
    for t2 in range(low, TARGET + 1):
        for d in DRAWS:
            for o in range(1 << len(oracle.theirs)):
                for tb2 in (False, True) if rival_tb else (False,):
                    move = oracle.rival((0, 0, 0), 0, o, 0, False, False, t2, d, 0, tb2)
                    total, left, tb, stand, added = move
                    key = f"{t2} {d} {o} {int(tb2)}"
                    rows.append(f"{key} {total} {left} {int(tb)} {int(stand)} {added}")
    lines += [f"table {len(rows)}", *rows]
    return "\n".join(lines) + "\n"


def solve(exe: Path, oracle: Oracle) -> tuple[float, str]:
    """The exact match value of ``oracle``'s deal, by the compiled solver, and its report."""
    done = subprocess.run(
        [str(exe)], input=solver_input(oracle), capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"the solver failed ({done.returncode}): {done.stderr.strip()}")
    return float(done.stdout), done.stderr.strip()


Job = tuple[Path, int, ai.Level, tuple[str, ...], int, int, bool]


def run_deal(job: Job) -> tuple[int, float, float | None, float, str]:
    """Deal ``number``: the compiled value, the Python one if checked, seconds, the report."""
    exe, number, level, codes, hand, sets, check = job
    mine, theirs = deal(number, pazaak.parse_side_cards(codes))
    begin = time.perf_counter()
    value, report = solve(exe, Oracle(mine[:hand], theirs[:hand], level, sets))
    seconds = time.perf_counter() - begin
    exact = Oracle(mine[:hand], theirs[:hand], level, sets).value() if check else None
    return number, value, exact, seconds, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", default="novice", choices=("novice", "stand17"))
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--first", type=int, default=0, help="the first deal's number")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--deck", default=DECK)
    parser.add_argument("--hand", type=int, default=HAND_SIZE, help="cards dealt (default 4)")
    parser.add_argument("--sets", type=int, default=3, help="sets to win")
    parser.add_argument("--check", action="store_true", help="compare with the Python Oracle")
    args = parser.parse_args()
    sys.setrecursionlimit(20_000)
    codes = tuple(args.deck.split())
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        exe = compile_solver(Path(tmp))
        numbers = range(args.first, args.first + args.deals)
        jobs = [(exe, n, args.against, codes, args.hand, args.sets, args.check) for n in numbers]
        done = []
        with multiprocessing.Pool(args.workers) as pool:
            for row in pool.imap(run_deal, jobs):
                number, value, exact, seconds, report = row
                diff = "" if exact is None else f"  python {exact:.12f}  diff {value - exact:.1e}"
                print(f"deal {number:4d}  {value:.12f}  {seconds:5.1f} s  [{report}]{diff}")
                sys.stdout.flush()
                done.append(row)
    values = [v for _, v, _, _, _ in done]
    print(
        f"oracle (hands revealed) vs {args.against}, side deck {' '.join(codes)}, "
        f"{args.hand} hand cards, {args.sets} sets to win: "
        f"{len(done)} deals, {time.perf_counter() - start:.0f} s"
    )
    if len(values) > 1:
        mean, low, high = interval(values)
        print(f"  exact value, infinite deck:  {mean:6.2%}  {low:6.2%}..{high:6.2%} (over deals)")
    worst = max((abs(v - e) for _, v, e, _, _ in done if e is not None), default=None)
    if worst is not None:
        print(f"  largest |compiled - Python|: {worst:.1e}")
    seconds = sorted(t for _, _, _, t, _ in done)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"  seconds a deal: median {seconds[len(seconds) // 2]:.1f}, max {seconds[-1]:.1f}")
    print(f"  peak memory of a solver run (this process's children): {peak:.0f} MiB")


if __name__ == "__main__":
    main()
