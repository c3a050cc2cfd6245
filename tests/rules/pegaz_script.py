"""A scripted table for the Three-Card Pegasus rules tests: an RNG that returns the given
results, players, and a game that checks its replay after every step."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

import pytest

from bot.rules import pegaz as pz
from bot.rules.common import (
    RulesError,
    Transfer,
)


class Script(random.Random):
    """An RNG that returns the given ``randrange`` results in order (dice: face - 1)."""

    def __init__(self, values: Iterable[int]) -> None:
        super().__init__(0)
        self.values = list(values)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:  # type: ignore[override]
        n = start if stop is None else stop - start
        v = self.values.pop(0)
        assert 0 <= v < n, (v, n)
        return v


def faces(*cards: int) -> list[int]:
    return [c - 1 for c in cards]


def rolls(*d100: int) -> list[int]:
    return [r - 1 for r in d100]


@dataclass
class P:
    id: int
    luck: bool = False
    gamble: bool = False
    perception: int = 0
    funds: int = 1000


class Game:
    """A live table plus its event log; every step also checks the replay."""

    def __init__(self, settings: pz.PegazSettings, players: list[P]) -> None:
        self.state, self.events = pz.new_table(settings)
        for p in players:
            self.do(pz.Join(p.id, p.luck, p.gamble, p.perception, p.funds))

    def do(self, action: pz.Action, rng: random.Random | None = None) -> list[pz.Event]:
        self.state, evs = pz.apply(self.state, action, rng or Script([]))
        self.events += evs
        assert pz.replay(self.events) == self.state
        return evs

    def start(self, *hands: tuple[int, int, int]) -> list[pz.Event]:
        return self.do(pz.Start(0), Script(faces(*(f for h in hands for f in h))))

    def fails(self, action: pz.Action, error: type[RulesError]) -> RulesError:
        before = self.state
        with pytest.raises(error) as info:
            pz.apply(self.state, action, Script([]))
        assert self.state == before
        return info.value

    def seat(self, player: int) -> pz.Seat:
        return pz.seat_of(self.state, player)

    def kinds(self, evs: list[pz.Event]) -> list[str]:
        return [e.kind for e in evs]


def transfers(evs: Iterable[pz.Event]) -> list[Transfer]:
    return [t for e in evs for t in pz.transfers(e)]
