"""The process's garbage-collector policy (``bot.collector``), each case in a fresh interpreter:
the policy is process-wide, and this test process keeps Python's defaults."""

from __future__ import annotations

import json
import subprocess
import sys

from bot import collector

PROBE = """
import gc, json
from bot import collector
before = {"threshold": gc.get_threshold(), "tuned": collector.tuned()}
collector.settle()
before["frozen"] = gc.get_freeze_count()
collector.tune()
keep = [[i] for i in range(1000)]  # alive at the restore: frozen
collector.settle()
after = {"threshold": gc.get_threshold(), "tuned": collector.tuned(),
         "frozen": gc.get_freeze_count(), "kept_frozen": len(keep)}
print(json.dumps({"before": before, "after": after}))
"""


def _probe() -> dict[str, dict[str, object]]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=60
    )
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_settle_does_nothing_until_the_process_opts_in_then_freezes_what_lives() -> None:
    seen = _probe()
    before, after = seen["before"], seen["after"]
    assert before["tuned"] is False
    assert before["frozen"] == 0  # an untuned process (a test's) keeps everything collectable
    assert tuple(before["threshold"]) != collector.THRESHOLDS  # type: ignore[arg-type]
    assert after["tuned"] is True
    assert tuple(after["threshold"]) == collector.THRESHOLDS  # type: ignore[arg-type]
    assert int(after["frozen"]) > 1000  # type: ignore[call-overload]  # the modules and the list
