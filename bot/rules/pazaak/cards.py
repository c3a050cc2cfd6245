"""Pazaak side cards as data: the card type, its storage code, parsing and the match selection.

Every side card has a short, stable code used in storage, in select menus and in the event log:

=========  ===========================================  ===================
code       card                                         played as
=========  ===========================================  ===================
``+3``     plus N (N = 1..6)                            +N
``-3``     minus N                                      -N
``±3``     plus/minus N (``+-3`` is accepted too)       +N or -N
``D``      double                                       the last card on one's own table again
``T``      tiebreaker                                   +1 or -1; wins a tie
``F24``    Flip 2&4 (KOTOR II)                          0; flips every ±2 and ±4 on one's table
``F36``    Flip 3&6 (KOTOR II)                          0; flips every ±3 and ±6 on one's table
``±1/2``   plus/minus 1 or 2 (KOTOR II, ``+-1/2`` too)  +1, -1, +2 or -2
=========  ===========================================  ===================
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import GetCoreSchemaHandler
from pydantic_core import CoreSchema, core_schema

from bot.rules.common import RulesError

CardKind = Literal[
    "plus", "minus", "plus_minus", "double", "tiebreaker", "flip24", "flip36", "pm12"
]

SELECTION_SIZE = 10
"""How many side cards a player picks from their collection for one match."""
HAND_SIZE = 4
"""How many of the selected cards are dealt at random as the player's hand."""
KOTOR2_KINDS: frozenset[CardKind] = frozenset({"flip24", "flip36", "pm12"})
FLIPPED_VALUES: dict[CardKind, frozenset[int]] = {
    "flip24": frozenset({2, -2, 4, -4}),
    "flip36": frozenset({3, -3, 6, -6}),
}
"""For each flip card, the values on the table whose sign it changes."""


class UnknownSideCard(RulesError):
    """The text is not the code of any side card."""

    code = "pazaak_unknown_side_card"


class InvalidSelection(RulesError):
    """A match selection was refused. ``params["reason"]`` says why:

    ``wrong_size`` (with ``count`` and ``required``), ``not_owned`` (with ``card``, ``selected``
    and ``owned``) or ``kotor2_disabled`` (with ``card``).
    """

    code = "pazaak_invalid_selection"


@dataclass(frozen=True, slots=True)
class SideCard:
    """One side card. ``n`` is the card's number for ``plus``, ``minus`` and ``plus_minus``, else 0.

    Build cards with :func:`parse_side_card`; the instances it returns are shared, so comparing
    and hashing are cheap. In pydantic models and the event log a card is stored as its code.
    """

    kind: CardKind
    n: int = 0

    @property
    def code(self) -> str:
        """The stable short code: ``+3``, ``-2``, ``±4``, ``D``, ``T``, ``F24``, ``F36``, ``±1/2``.

        Codes never change: they are stored in collections, selections and event logs.
        """
        return _CODE_OF[self]

    @property
    def values(self) -> tuple[int, ...]:
        """The values the card may be played as; empty for D, whose value comes from the table."""
        return _VALUES_OF[self]

    @property
    def is_kotor2(self) -> bool:
        return self.kind in KOTOR2_KINDS

    def __str__(self) -> str:
        return self.code

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        from_code = core_schema.no_info_after_validator_function(
            _card_from_code, core_schema.str_schema()
        )
        return core_schema.json_or_python_schema(
            json_schema=from_code,
            python_schema=core_schema.union_schema(
                [core_schema.is_instance_schema(cls), from_code]
            ),
            serialization=core_schema.plain_serializer_function_ser_schema(
                _card_code, when_used="always"
            ),
        )


def _card_code(card: SideCard) -> str:
    return card.code


def _card_from_code(code: str) -> SideCard:
    try:
        return parse_side_card(code)
    except UnknownSideCard as error:
        raise ValueError(str(error)) from None


def _build_catalogue() -> tuple[
    dict[str, SideCard], dict[SideCard, str], dict[SideCard, tuple[int, ...]]
]:
    by_code: dict[str, SideCard] = {}
    code_of: dict[SideCard, str] = {}
    values_of: dict[SideCard, tuple[int, ...]] = {}

    def add(card: SideCard, code: str, values: tuple[int, ...]) -> None:
        by_code[code] = card
        code_of[card] = code
        values_of[card] = values

    for n in range(1, 7):
        add(SideCard("plus", n), f"+{n}", (n,))
    for n in range(1, 7):
        add(SideCard("minus", n), f"-{n}", (-n,))
    for n in range(1, 7):
        add(SideCard("plus_minus", n), f"±{n}", (n, -n))
    add(SideCard("double"), "D", ())
    add(SideCard("tiebreaker"), "T", (1, -1))
    add(SideCard("flip24"), "F24", (0,))
    add(SideCard("flip36"), "F36", (0,))
    add(SideCard("pm12"), "±1/2", (1, -1, 2, -2))
    return by_code, code_of, values_of


_BY_CODE, _CODE_OF, _VALUES_OF = _build_catalogue()

ALL_SIDE_CARDS: tuple[SideCard, ...] = tuple(_BY_CODE.values())
"""Every side card there is, in catalogue order (for select menus and GM loot)."""

_ALIASES = (("\u2212", "-"), ("\u2013", "-"), ("+/-", "±"), ("+-", "±"))
"""Spellings accepted besides the codes: a Unicode minus or en dash, and ``+-`` or ``+/-`` for ±."""


def parse_side_card(code: str) -> SideCard:
    """The side card for ``code``; also accepts ``+-4``, ``+/-4``, a Unicode minus, ``d``, ``f24``.

    Raises :class:`UnknownSideCard` for anything else.
    """
    text = code.strip().upper().replace(" ", "")
    for alias, canonical in _ALIASES:
        text = text.replace(alias, canonical)
    card = _BY_CODE.get(text)
    if card is None:
        raise UnknownSideCard(code=code)
    return card


def parse_side_cards(codes: Iterable[str]) -> tuple[SideCard, ...]:
    """Parse several codes at once, e.g. a stored selection."""
    return tuple(parse_side_card(code) for code in codes)


STARTER_COLLECTION: tuple[SideCard, ...] = parse_side_cards(
    [f"+{n}" for n in range(1, 6) for _ in range(2)]
)
"""A new character's collection and default selection: two each of +1 to +5 [house]."""


def check_selection(selection: Sequence[SideCard], *, kotor2_cards: bool = True) -> None:
    """Check what a selection must be whatever the collection: 10 cards, KOTOR II ones allowed."""
    if len(selection) != SELECTION_SIZE:
        raise InvalidSelection(reason="wrong_size", count=len(selection), required=SELECTION_SIZE)
    if not kotor2_cards:
        for side in selection:
            if side.is_kotor2:
                raise InvalidSelection(reason="kotor2_disabled", card=side.code)


def validate_selection(
    selection: Sequence[SideCard],
    collection: Mapping[SideCard, int] | Iterable[SideCard],
    *,
    kotor2_cards: bool = True,
) -> None:
    """Refuse a match selection that is not exactly 10 cards owned in ``collection``.

    ``collection`` is either the owned cards (one entry per copy) or a mapping card -> copies.
    Copies count: selecting three ``+1`` needs three owned. Raises :class:`InvalidSelection`.
    """
    check_selection(selection, kotor2_cards=kotor2_cards)
    owned: Counter[SideCard] = (
        Counter(dict(collection)) if isinstance(collection, Mapping) else Counter(collection)
    )
    for side, selected in Counter(selection).items():
        if selected > owned[side]:
            raise InvalidSelection(
                reason="not_owned", card=side.code, selected=selected, owned=owned[side]
            )
