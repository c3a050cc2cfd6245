"""``bench/pazaak_bound.c``: the compiled programme gives the Python Oracle's value.

Small deals (one or two cards each, one or two sets), among them a ± card and T cards on both
sides, so every branch of the C code's state is compared, to 1e-9, with ``Oracle.value()``."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from bench.pazaak_bound_c import compile_solver, solve
from bench.pazaak_oracle import Oracle
from bot.rules import pazaak

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler (cc)")


def cards(codes: str) -> tuple[pazaak.SideCard, ...]:
    return tuple(pazaak.parse_side_cards(codes.split()))


@pytest.mark.parametrize(
    ("mine", "theirs", "sets"),
    [("-3", "+2", 2), ("+1 -4", "-2 +5", 1), ("±3", "T", 1), ("T", "-5", 2)],
)
def test_the_compiled_value_is_the_oracles(
    tmp_path: Path, mine: str, theirs: str, sets: int
) -> None:
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
    exe = compile_solver(tmp_path)
    compiled, _ = solve(exe, Oracle(cards(mine), cards(theirs), "novice", sets))
    exact = Oracle(cards(mine), cards(theirs), "novice", sets).value()
    assert 0.05 < exact < 0.95
    assert compiled == pytest.approx(exact, abs=1e-9)


def test_a_level_that_reads_the_other_seat_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="reads the other seat"):
        solve(compile_solver(tmp_path), Oracle(cards("-3"), cards("+2"), "regular", 1))
