"""The in-memory turn deadlines agree with the plain reading of what the steps set."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.services.table_deadlines import Deadlines

TABLES = st.integers(1, 6)
WHEN = st.integers(0, 50)
SETS = st.lists(st.tuples(TABLES, st.integers(1, 9), st.none() | WHEN), max_size=60)


def expected(model: dict[int, tuple[int, int]], now: int) -> list[tuple[int, int]]:
    due = sorted((d, t, v) for t, (d, v) in model.items() if d <= now)
    return [(t, v) for _, t, v in due]


@given(loaded=SETS, early=SETS, later=SETS, now=WHEN)
def test_due_and_next_follow_the_newest_deadline_of_each_table(
    loaded: list[tuple[int, int, int | None]],
    early: list[tuple[int, int, int | None]],
    later: list[tuple[int, int, int | None]],
    now: int,
) -> None:
    """What the load read, overlaid by what steps set before it and after it."""
    rows = {t: (d, v) for t, v, d in loaded if d is not None}
    deadlines = Deadlines()
    model = dict(rows)
    for table_id, version, deadline in [*early, *later]:
        if deadline is None:
            model.pop(table_id, None)
        else:
            model[table_id] = (deadline, version)
    for table_id, version, deadline in early:
        deadlines.set(table_id, version, deadline)
    deadlines.load((t, v, d) for t, (d, v) in rows.items())
    for table_id, version, deadline in later:
        deadlines.set(table_id, version, deadline)
    assert deadlines.due(now) == expected(model, now)
    assert deadlines.due(now) == expected(model, now)  # asking does not consume them
    assert deadlines.next() == min((d for d, _ in model.values()), default=None)


def test_a_replaced_deadline_is_not_due_and_the_heap_stays_small() -> None:
    deadlines = Deadlines()
    deadlines.load([(1, 3, 100)])
    for version in range(4, 5000):
        deadlines.set(1, version, 100 + version)
    assert deadlines.due(10_000) == [(1, 4999)]
    assert deadlines.next() == 5099
    assert len(deadlines._heap) < 1100
    deadlines.set(1, 5000, None)
    assert deadlines.due(10**6) == [] and deadlines.next() is None
