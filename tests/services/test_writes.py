"""``Writes``: which kept records a write overlapped, by key, as a model says (Hypothesis)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.services.writes import Writes

Op = tuple[str, int]
ops = st.lists(st.tuples(st.sampled_from(["read", "write", "end"]), st.integers(0, 5)), max_size=60)


@given(ops, st.integers(1, 4))
def test_a_read_is_untouched_exactly_when_no_write_to_its_key_began_since(
    steps: list[Op], limit: int
) -> None:
    writes = Writes(limit)
    open_reads: list[tuple[int, int, set[int]]] = []  # (key, since, keys written since)
    for op, key in steps:
        if op == "read":
            open_reads.append((key, writes.now(), set()))
        elif op == "write":
            writes.wrote(key)
            for _, _, seen in open_reads:
                seen.add(key)
        elif open_reads:
            read_key, since, seen = open_reads.pop(0)
            # Never kept when its key was written (the bound may forget more, never less).
            if read_key in seen:
                assert not writes.untouched(read_key, since)


def test_writes_to_other_keys_leave_a_read_untouched() -> None:
    writes = Writes(100)
    since = writes.now()
    for other in range(1, 50):
        writes.wrote(other)
    assert writes.untouched(0, since)
    writes.wrote(0)
    assert not writes.untouched(0, since)
    assert writes.untouched(0, writes.now())


def test_past_its_bound_it_forgets_and_spoils_only_older_reads() -> None:
    writes = Writes(2)
    old = writes.now()
    for key in (1, 2, 3):  # the third key passes the bound
        writes.wrote(key)
    assert not writes.untouched(9, old)  # begun before the forgetting: not trusted
    fresh = writes.now()
    assert writes.untouched(9, fresh) and writes.untouched(1, fresh)
