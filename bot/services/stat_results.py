"""What a finished table did for each character at it, read off its own events and movements.

The definitions the stats keep (and the README gives players):

- Played: a Pegaz game that started with the character seated (a player who left before the
  start did not play); a Pazaak match, always both players.
- Won: Pegaz, named in ``GameEnded`` as taking the pot or a share of a split pot. Lost: every
  other player, those expelled for cheating included. Drawn: the last ones out together when
  the pot rolled over to the next game (nobody took it). A pot that rolls over because everyone
  left was expelled is no draw: they lost. Pazaak: the match winner won and the other lost,
  however it ended (sets, a forfeit, timeouts, a caught swap).
- Net: everything the table's movements did to the purse: stakes, exchanges and checks out,
  winnings and refunds in, an offering to Ranald out.
- Pot: what the character took out of the pot as winnings (a share when it was split).
- Caught: each time the table announced the character caught cheating (a pardon included).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.rules import pazaak, pegaz
from bot.storage import stats
from bot.storage.db import Tx
from bot.storage.stats import Outcome, Result

GAMES = frozenset({pegaz.GAME, pazaak.GAME})
"""The games the stats count."""


@dataclass(frozen=True, slots=True)
class Finished:
    """The finished table whose results are read."""

    id: int
    guild_id: int
    game: str
    currency: str
    closed_at: int


@dataclass(frozen=True, slots=True)
class _Seat:
    character_id: int
    outcome: Outcome
    caught: int
    opponent: int | None = None


def _pegaz(events: Sequence[Any]) -> list[_Seat]:
    seated: list[int] = []
    started = False
    ended: pegaz.GameEnded | None = None
    caught: Counter[int] = Counter()
    for event in events:
        if isinstance(event, pegaz.Joined):
            seated.append(event.player)
        elif isinstance(event, pegaz.Left) and event.player in seated:
            seated.remove(event.player)
        elif isinstance(event, pegaz.Started):
            started = True
        elif isinstance(event, pegaz.Caught):
            caught[event.cheater] += 1
        elif isinstance(event, pegaz.GameEnded):
            ended = event
    if not started or ended is None:
        return []
    last = set(ended.players)
    took = not ended.expelled and not ended.rolled_over
    seats = []
    for player in seated:
        outcome: Outcome = "lost"
        if player in last and took:
            outcome = "won"
        elif player in last and not ended.expelled:
            outcome = "drawn"
        seats.append(_Seat(player, outcome, caught[player]))
    return seats


def _pazaak(events: Sequence[Any]) -> list[_Seat]:
    players: tuple[int, int] | None = None
    winner: int | None = None
    caught: Counter[int] = Counter()
    for event in events:
        if isinstance(event, pazaak.MatchStarted):
            players = event.players
        elif isinstance(event, pazaak.Caught):
            caught[event.cheater] += 1
        elif isinstance(event, pazaak.MatchEnded):
            winner = event.winner
    if players is None or winner is None:
        return []
    a, b = players
    return [
        _Seat(p, "won" if p == winner else "lost", caught[p], opponent=o)
        for p, o in ((a, b), (b, a))
    ]


def results_of(
    table: Finished, events: Sequence[Any], money: dict[int, tuple[int, int]]
) -> list[Result]:
    """The results of one finished table, from its events (decoded) and ``money``
    (``bot.storage.stats.table_money``). None for a game the stats do not count."""
    if table.game == pegaz.GAME:
        seats = _pegaz(events)
    elif table.game == pazaak.GAME:
        seats = _pazaak(events)
    else:
        return []
    return [
        Result(
            table.id,
            seat.character_id,
            table.guild_id,
            table.game,
            table.currency,
            table.closed_at,
            seat.outcome,
            money.get(seat.character_id, (0, 0))[0],
            money.get(seat.character_id, (0, 0))[1],
            seat.caught,
            seat.opponent,
        )
        for seat in seats
    ]


async def record_table(tx: Tx, table: Finished, events: Sequence[Any]) -> None:
    """Add a table that has just finished to the stats, in the step's transaction."""
    results = results_of(table, events, await stats.table_money(tx, table.id))
    await stats.record(tx, results)
