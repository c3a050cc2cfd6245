"""Stats: a character's record per game, the server's leaderboards, and a rebuild.

The numbers are a projection kept in the step's transaction (``bot.storage.stats``; what counts
as won, net and a pot is in ``bot.services.stat_results``). :meth:`StatsService.rebuild` reads
every finished table's events and movements again and folds the projection from scratch.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.services.games import GameSpec, default_games
from bot.services.stat_results import GAMES, Finished, results_of
from bot.services.table_steps import decode
from bot.storage import stats, tables
from bot.storage.db import Database
from bot.storage.stats import Board, Rival, Standing, Totals

BOARD_SIZE = 10


@dataclass(frozen=True, slots=True)
class CharacterStats:
    """A character's totals in each game played (by game) and Pazaak head to head."""

    games: tuple[Totals, ...]
    rivals: tuple[Rival, ...]


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """One game's leaderboard, best first."""

    game: str
    currency: str
    standings: tuple[Standing, ...]


class StatsService:
    def __init__(self, db: Database, *, games: Mapping[str, GameSpec] | None = None) -> None:
        self._db = db
        self._games = dict(default_games() if games is None else games)

    async def character(self, character_id: int) -> CharacterStats:
        async with self._db.read() as tx:
            games = await stats.totals_of(tx, character_id)
            rivals = await stats.rivals_of(tx, character_id)
        return CharacterStats(tuple(games), tuple(rivals))

    async def top(
        self, guild_id: int, board: Board, *, limit: int = BOARD_SIZE
    ) -> list[Leaderboard]:
        """By ``net`` or ``pots``: one board per game; by ``pazaak``: the Pazaak match record."""
        games = ["pazaak"] if board == "pazaak" else sorted(GAMES & self._games.keys())
        async with self._db.read() as tx:
            return [
                Leaderboard(
                    game,
                    self._games[game].currency,
                    tuple(await stats.leaderboard(tx, guild_id, game, board, limit=limit)),
                )
                for game in games
            ]

    async def rebuild(self) -> int:
        """Fold the whole projection again from every finished table's own events and
        movements, in one transaction; return how many tables were read."""
        counted = 0
        async with self._db.transaction() as tx:
            results = []
            for table_id, guild_id, game, currency, closed_at in await stats.finished_tables(tx):
                spec = self._games.get(game)
                if spec is None or game not in GAMES:
                    continue
                events = decode(spec.rules, await tables.events(tx, table_id))
                money = await stats.table_money(tx, table_id)
                table = Finished(table_id, guild_id, game, currency, closed_at)
                results += results_of(table, events, money)
                counted += 1
            await stats.replace_results(tx, results)
        return counted
