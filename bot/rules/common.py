"""The shape every game in the rules core shares.

A game is an immutable state plus actions. An action validates its input, draws any randomness it
needs from an injected ``random.Random``, and returns ``(new_state, events)``. Every random outcome
is written into an event, so folding the events from the start (``replay``) rebuilds the state
exactly, with no seed. An illegal action raises a :class:`RulesError` and changes nothing.

Money moves are read off events with ``transfers(event)``, so the storage layer can write one
ledger row per movement in the same transaction as the event that caused it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from enum import Enum
from types import NoneType, UnionType
from typing import (
    Any,
    Literal,
    Protocol,
    Self,
    TypeVar,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

from pydantic import BaseModel, ConfigDict, ValidationError

POT: Literal["pot"] = "pot"
OFFERING: Literal["offering"] = "offering"

Account = int | Literal["pot", "offering"]
"""Where coins sit: a player's purse (the player's id), the table's pot, or Ranald's offerings."""


@dataclass(frozen=True, slots=True)
class Transfer:
    """One movement of money caused by one event, in the currency's smallest unit."""

    source: Account
    target: Account
    amount: int
    reason: str


class DomainError(Exception):
    """A refusal a player can read; nothing was changed.

    ``code`` is a stable key for the message catalogues; ``params`` fill its placeholders. Never
    put a hidden card, a deck order or RNG state into ``params``: errors are shown to players.
    The rules' errors and the services' errors both take this shape.
    """

    code: str = "refused"

    def __init__(self, **params: object) -> None:
        self.params: dict[str, object] = params
        detail = ", ".join(f"{k}={v}" for k, v in params.items())
        super().__init__(f"{self.code}({detail})" if detail else self.code)


class RulesError(DomainError):
    """An illegal action. The state did not change."""

    code = "rules_error"


class NotSeated(RulesError):
    code = "not_seated"


class AlreadySeated(RulesError):
    code = "already_seated"


class NotYourTurn(RulesError):
    code = "not_your_turn"


class WrongPhase(RulesError):
    code = "wrong_phase"


class InsufficientFunds(RulesError):
    code = "insufficient_funds"


class InvalidSettings(RulesError):
    code = "invalid_settings"


class GameOver(RulesError):
    code = "game_over"


class InvalidValue(RulesError):
    """An action whose ``field`` holds a value of the wrong kind: an amount, a card, a shift or an
    id that is not a whole number (a float such as 12.5 or 2.0, a bool, a string), or a yes/no
    that is not a bool. Caught here so that no such value ever reaches an event or a coin."""

    code = "invalid_value"


class Keep(Enum):
    """The default of the reducers' copy helpers' arguments (``seat_with``...): keep the field."""

    KEEP = 0


KEEP = Keep.KEEP


class TableSettings(BaseModel):
    """What both games' table settings share, and how they are checked.

    A field's lower bound and its invariants (``Field(ge=...)``, a cross-field
    ``model_validator``) always hold, also for a table read back. The upper bounds
    (:meth:`upper_bounds`) are checked only where a table opens and by :meth:`parse`: a stored
    table was valid when it opened and goes on so, even if a later release lowers a bound.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    side_bets: bool = False
    """Spectators may back a seat with a side bet (``bot.services.side_bets``); the game's
    rules never read it."""

    def upper_bounds(self) -> tuple[tuple[str, int | None, int], ...]:
        """``(field, value, highest)`` for every bounded number (None: no limit set)."""
        return ()

    def check_bounds(self) -> Self:
        """These settings, or :class:`InvalidSettings` for the first one past its upper bound."""
        for field, value, high in self.upper_bounds():
            if value is not None and value > high:
                raise InvalidSettings(field=field, reason="less_than_equal")
        return self

    @classmethod
    def parse(cls, data: Mapping[str, object]) -> Self:
        """Settings from loose data, or :class:`InvalidSettings` with ``field`` and ``reason``
        (pydantic's error type, e.g. ``greater_than_equal``, ``int_type``, ``extra_forbidden``,
        or the rules' own ``out_of_range``)."""
        try:
            settings = cls.model_validate(dict(data))
        except ValidationError as error:
            first = error.errors()[0]
            field = str(first["loc"][0]) if first["loc"] else "settings"  # not "exchanges.int"
            raise InvalidSettings(field=field, reason=first["type"]) from None
        return settings.check_bounds()


_SHAPES: dict[type[Any], tuple[tuple[str, Any], ...]] = {}


def _shape(cls: type[Any]) -> tuple[tuple[str, Any], ...]:
    shape = _SHAPES.get(cls)
    if shape is None:
        hints = get_type_hints(cls)
        shape = _SHAPES[cls] = tuple((f.name, hints[f.name]) for f in fields(cls))
    return shape


def _fits(value: object, hint: Any) -> bool:
    if hint is int:
        return type(value) is int  # not a bool, not a float, not an int subclass
    if hint is bool:
        return type(value) is bool
    if hint is NoneType:
        return value is None
    origin = get_origin(hint)
    if origin is Union or origin is UnionType:
        return any(_fits(value, arg) for arg in get_args(hint))
    if origin is tuple:
        if type(value) is not tuple:
            return False
        args = get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_fits(v, args[0]) for v in value)
        return len(value) == len(args) and all(map(_fits, value, args))
    return True  # any other type (a side card, a literal) is checked by the action itself


def check_action(action: object) -> None:
    """Refuse an action (a dataclass) whose ints, bools or tuples of them are of another type.

    ``bool`` is an ``int`` subclass and ``2.0 == 2``, so without this ``True`` would pass as a
    penny and ``12.5`` as a stake. Raises :class:`InvalidValue` naming the first bad field.
    """
    for name, hint in _shape(type(action)):
        if not _fits(getattr(action, name), hint):
            raise InvalidValue(field=name)


S = TypeVar("S")
E = TypeVar("E")
A = TypeVar("A")


class GameRules(Protocol[S, A, E]):
    """What the storage and service layers need from a game module (``pegaz``, ``pazaak``).

    Actions are frozen dataclasses; ``apply`` dispatches on their type. ``legal_actions`` lists a
    finite, representative set of what may be done now (for NPC players, tests and benchmarks).
    """

    GAME: str

    def apply(self, state: S, action: A, rng: random.Random) -> tuple[S, list[E]]: ...

    def legal_actions(self, state: S) -> list[A]: ...

    def replay(self, events: Sequence[E]) -> S: ...

    def transfers(self, event: E) -> tuple[Transfer, ...]: ...

    def dump_events(self, events: Sequence[E]) -> bytes: ...

    def load_events(self, data: bytes) -> list[E]: ...

    def is_over(self, state: S) -> bool: ...
