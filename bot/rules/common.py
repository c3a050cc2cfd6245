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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, TypeVar

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
