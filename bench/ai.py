"""The NPC strength benches, under the one name: ``python bench/ai.py pazaak|pegaz [options]``.

``pazaak`` runs ``bench/ai_pazaak.py`` (win rates of the levels against each other and the
baselines, decision times), ``pegaz`` runs ``bench/ai_pegaz.py`` (net stakes per game against
three baselines). Each takes its own options (``--help``); this script only chooses.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

BENCHES = {"pazaak": "ai_pazaak.py", "pegaz": "ai_pegaz.py"}


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in BENCHES:
        sys.exit(f"usage: python bench/ai.py {{{'|'.join(BENCHES)}}} [options]")
    script = Path(__file__).with_name(BENCHES[sys.argv[1]])
    sys.argv = [str(script), *sys.argv[2:]]
    runpy.run_path(str(script), run_name="__main__")


if __name__ == "__main__":
    main()
