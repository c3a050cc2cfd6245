"""What players type for Three-Card Pegasus: any text reads as cards or a turn time, or is
refused with a clear message; nothing typed ever raises anything else (issue 11, item 4)."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from bot.rules import pegaz
from bot.rules.pegaz.state import MAX_TURN_TIMEOUT, MIN_TURN_TIMEOUT
from cogs.pegaz import inputs
from cogs.replies import Refused

dice = st.sampled_from(pegaz.DICE)
digits = st.text(alphabet="0123456789", min_size=1, max_size=7000)
words = st.sampled_from(["6", "1", "pegasus", "Pegaz", "snake", "99", "0", ",", " ", "/", "+"])
typed = st.one_of(
    st.text(max_size=300),
    digits,
    st.lists(words, max_size=12).map(" ".join),
    st.lists(digits, min_size=1, max_size=4).map(" ".join),
)


@given(typed, dice)
@example("6" * 6000, 6)  # Python refuses to read an integer of over 4,300 digits
@example("9" * inputs.HAND_TEXT_MAX, 6)
@example("\N{KHAROSHTHI DIGIT ONE} 6 6", 6)  # isdigit(), but int() can't read it
@example("\N{SUPERSCRIPT TWO} 6 6", 6)
def test_any_typed_hand_is_three_cards_of_the_die_or_refused(text: str, die: int) -> None:
    try:
        faces = inputs.hand(text, die)
    except Refused as refused:
        assert refused.code == "pegaz_bad_hand"
        assert len(str(refused.params["text"])) <= 50
    else:
        assert len(text) <= inputs.HAND_TEXT_MAX
        assert len(faces) == 3 and all(1 <= face <= die for face in faces)


@given(st.lists(st.integers(1, 20), min_size=3, max_size=3), dice, st.sampled_from([" ", ", "]))
def test_faces_typed_as_numbers_read_back(faces: list[int], die: int, gap: str) -> None:
    if max(faces) > die:
        with pytest.raises(Refused):
            inputs.hand(gap.join(map(str, faces)), die)
    else:
        assert inputs.hand(gap.join(map(str, faces)), die) == tuple(faces)


@given(st.one_of(st.text(max_size=100), digits, digits.map(lambda d: d + " min")))
@example("1" * 6000)
@example("9" * 5000 + " s")
def test_any_typed_turn_time_is_within_the_rules_bounds_or_refused(text: str) -> None:
    try:
        value = inputs.seconds(text)
    except Refused as refused:
        assert refused.code == "pegaz_bad_timeout"
    else:
        assert MIN_TURN_TIMEOUT <= value <= MAX_TURN_TIMEOUT
        assert len(text) <= inputs.DURATION_TEXT_MAX


@given(st.integers(MIN_TURN_TIMEOUT, MAX_TURN_TIMEOUT))
def test_seconds_read_back(value: int) -> None:
    assert inputs.seconds(f"{value} s") == value
    assert inputs.seconds(f"{value}s") == value
