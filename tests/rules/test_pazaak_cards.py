from collections import Counter

import pytest
from pydantic import TypeAdapter, ValidationError

from bot.rules.common import RulesError
from bot.rules.pazaak.cards import (
    ALL_SIDE_CARDS,
    STARTER_COLLECTION,
    InvalidSelection,
    SideCard,
    UnknownSideCard,
    parse_side_card,
    parse_side_cards,
    validate_selection,
)


@pytest.mark.parametrize(
    ("code", "kind", "n", "values"),
    [
        ("+3", "plus", 3, (3,)),
        ("-2", "minus", 2, (-2,)),
        ("±4", "plus_minus", 4, (4, -4)),
        ("D", "double", 0, ()),
        ("T", "tiebreaker", 0, (1, -1)),
        ("F24", "flip24", 0, (0,)),
        ("F36", "flip36", 0, (0,)),
        ("±1/2", "pm12", 0, (1, -1, 2, -2)),
    ],
)
def test_parse_codes(code: str, kind: str, n: int, values: tuple[int, ...]) -> None:
    side = parse_side_card(code)
    assert (side.kind, side.n, side.values, side.code) == (kind, n, values, code)


@pytest.mark.parametrize(
    ("text", "code"),
    [("+-4", "±4"), ("+/-6", "±6"), (" d ", "D"), ("t", "T"), ("f36", "F36"), ("+-1/2", "±1/2")],
)
def test_parse_aliases(text: str, code: str) -> None:
    assert parse_side_card(text).code == code


def test_unicode_minus_is_a_minus() -> None:
    assert parse_side_card("\u22123") == SideCard("minus", 3)


@pytest.mark.parametrize("text", ["", "+0", "+7", "-7", "±7", "3", "F25", "DD", "±1/3", "x"])
def test_unknown_codes_are_refused(text: str) -> None:
    with pytest.raises(UnknownSideCard) as caught:
        parse_side_card(text)
    assert isinstance(caught.value, RulesError)
    assert caught.value.code == "pazaak_unknown_side_card"


def test_catalogue_round_trips_and_is_complete() -> None:
    codes = [side.code for side in ALL_SIDE_CARDS]
    assert len(codes) == len(set(codes)) == 6 * 3 + 5
    for side in ALL_SIDE_CARDS:
        assert parse_side_card(side.code) is side
        assert hash(side) == hash(SideCard(side.kind, side.n))
    assert {side.is_kotor2 for side in ALL_SIDE_CARDS if side.kind.startswith("flip")} == {True}
    assert not parse_side_card("±6").is_kotor2


def test_side_cards_are_stored_as_codes_in_pydantic() -> None:
    adapter = TypeAdapter(tuple[SideCard, ...])
    cards = parse_side_cards(["±3", "D", "±1/2"])
    data = adapter.dump_json(cards)
    assert data == '["±3","D","±1/2"]'.encode()
    assert adapter.validate_json(data) == cards
    with pytest.raises(ValidationError):
        adapter.validate_json(b'["+9"]')


def test_starter_collection_is_two_each_of_plus_one_to_five() -> None:
    assert Counter(side.code for side in STARTER_COLLECTION) == {
        "+1": 2,
        "+2": 2,
        "+3": 2,
        "+4": 2,
        "+5": 2,
    }
    validate_selection(STARTER_COLLECTION, STARTER_COLLECTION)


def test_selection_must_be_exactly_ten() -> None:
    with pytest.raises(InvalidSelection) as caught:
        validate_selection(STARTER_COLLECTION[:9], STARTER_COLLECTION)
    assert caught.value.params == {"reason": "wrong_size", "count": 9, "required": 10}
    with pytest.raises(InvalidSelection):
        validate_selection((*STARTER_COLLECTION, STARTER_COLLECTION[0]), STARTER_COLLECTION * 2)


def test_selection_counts_copies() -> None:
    collection = [*STARTER_COLLECTION, parse_side_card("T")]
    selection = (*parse_side_cards(["T", "T"]), *STARTER_COLLECTION[:8])
    with pytest.raises(InvalidSelection) as caught:
        validate_selection(selection, collection)
    assert caught.value.params == {"reason": "not_owned", "card": "T", "selected": 2, "owned": 1}
    validate_selection(selection, [*collection, parse_side_card("T")])


def test_selection_accepts_a_mapping_collection() -> None:
    owned = {parse_side_card("+1"): 9, parse_side_card("D"): 1}
    validate_selection(parse_side_cards(["+1"] * 9 + ["D"]), owned)
    with pytest.raises(InvalidSelection):
        validate_selection(parse_side_cards(["+1"] * 8 + ["D", "D"]), owned)


def test_kotor2_cards_can_be_switched_off() -> None:
    selection = parse_side_cards(["F24"] + ["+1"] * 9)
    validate_selection(selection, selection)
    with pytest.raises(InvalidSelection) as caught:
        validate_selection(selection, selection, kotor2_cards=False)
    assert caught.value.params == {"reason": "kotor2_disabled", "card": "F24"}
