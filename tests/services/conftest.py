"""Fixtures for the service tests: a real database (a SQLite file in tmp_path, and a PostgreSQL
database of its own when a server is given: ``tests.pg``), the services, a tiny game."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.services import CharacterService, GuildService, PurseService, TableService
from bot.services.games import GameSpec, Timer, default_games
from bot.storage.db import Database
from bot.storage.opening import open_database
from bot.storage.tables import Status
from tests import pg
from tests.services import dice_game

GUILD = 1000
GM = 1
ALICE_USER = 11
BOB_USER = 12
CAROL_USER = 13


def dice_spec(*, exclusive: bool = False, cancel: bool = True) -> GameSpec:
    def status(state: dice_game.DiceState) -> Status:
        return {"seating": "open", "rolling": "running", "over": "finished"}.get(
            state.phase, "cancelled"
        )  # type: ignore[return-value]

    def timer(state: dice_game.DiceState) -> Timer | None:
        turn = dice_game.whose_turn(state)
        return None if turn is None else Timer(60, (dice_game.Timeout(turn),))

    return GameSpec(
        rules=dice_game,
        currency="wh",
        exclusive_seats=exclusive,
        seated=lambda state: state.players,
        status=status,
        timer=timer,
        cancel=(lambda state: dice_game.Cancel()) if cancel else (lambda state: None),
        pot=lambda state: state.pot,
        settings_json=lambda state: f'{{"ante": {state.ante}}}',
        state_type=dice_game.DiceState,
    )


class FakeClock:
    def __init__(self, start: int = 1_700_000_000_000) -> None:
        self.now = start

    def __call__(self) -> int:
        return self.now


@dataclass
class World:
    path: Path | str
    """What ``Database.open`` takes: the SQLite file, or the PostgreSQL database's URL."""
    db: Database
    clock: FakeClock
    characters: CharacterService
    purses: PurseService
    tables: TableService
    guilds: GuildService

    async def reopen(self) -> None:
        """Close the database and open it again with fresh services (an empty cache)."""
        await self.db.close()
        fresh = await make_world(self.path, self.clock, self.tables_games)
        self.__dict__.update(fresh.__dict__)

    tables_games: dict[str, GameSpec]

    def use_game(self, spec: GameSpec) -> None:
        """Play ``spec`` from now on (a fresh table service: empty cache)."""
        self.tables_games = {**self.tables_games, spec.game: spec}
        self.tables = TableService(
            self.db, games=self.tables_games, rng_factory=seeded(), clock=self.clock
        )


def seeded() -> Callable[[], random.Random]:
    source = random.Random(1234)
    return lambda: random.Random(source.getrandbits(64))


async def make_world(path: Path | str, clock: FakeClock, games: dict[str, GameSpec]) -> World:
    db = await open_database(path)
    return World(
        path=path,
        db=db,
        clock=clock,
        characters=CharacterService(db, clock=clock),
        purses=PurseService(db, clock=clock),
        tables=TableService(db, games=games, rng_factory=seeded(), clock=clock),
        guilds=GuildService(db),
        tables_games=games,
    )


def all_games() -> dict[str, GameSpec]:
    games = dict(default_games())
    games["dice"] = dice_spec()
    return games


@pytest.fixture(params=pg.BACKENDS)
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Path | str]:
    """Where a test's data lives: a SQLite file, then a PostgreSQL database of its own."""
    if request.param == "sqlite":
        yield tmp_path / "szulernia.db"
        return
    async with pg.scratch() as url:
        yield url


@pytest.fixture
async def world(backend: Path | str) -> AsyncIterator[World]:
    w = await make_world(backend, FakeClock(), all_games())
    yield w
    await w.db.close()
