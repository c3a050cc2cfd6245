"""The stats projection: per-table results, per-character totals, Pazaak head to head.

A finished table's results (``stat_results``, one row per character at it) are read off that
table's own events and movements by the service layer, which knows the games, and recorded here
in the step's transaction. The totals (``stats``) and the head to head (``stat_rivals``) are a
fold of the results of the tables no GM voided, in the order the tables closed: recording a
table adds it to the totals of its characters alone, and :func:`refresh_characters` or
:func:`rebuild` fold them again from the results, which the tests hold equal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import astuple, dataclass, fields, replace
from typing import Literal

from bot.storage.db import LOCK_STATS, Row, Tx

Outcome = Literal["won", "lost", "drawn"]
Board = Literal["net", "pots", "pazaak"]


@dataclass(frozen=True, slots=True)
class Result:
    """What one finished table did for one character at it."""

    table_id: int
    character_id: int
    guild_id: int
    game: str
    currency: str
    closed_at: int
    outcome: Outcome
    net: int
    """Everything the table's movements did to the character's purse (stakes out, winnings
    and refunds in, an offering out)."""
    pot: int
    """What the character took out of the table's pot as winnings (0: nothing)."""
    caught: int
    opponent: int | None = None
    """Pazaak: the other player."""


@dataclass(frozen=True, slots=True)
class Totals:
    """One character's totals in one game, folded from its results in closing order."""

    character_id: int
    game: str
    guild_id: int
    currency: str
    played: int = 0
    won: int = 0
    lost: int = 0
    drawn: int = 0
    net: int = 0
    pots: int = 0
    biggest_pot: int = 0
    streak: int = 0
    """The current run: > 0 games won in a row, < 0 lost in a row, 0 after a draw."""
    win_streak: int = 0
    loss_streak: int = 0
    caught: int = 0
    last_at: int = 0
    last_table: int = 0

    @classmethod
    def start(cls, result: Result) -> Totals:
        return cls(result.character_id, result.game, result.guild_id, result.currency)

    def follows(self, result: Result) -> bool:
        """Whether ``result`` closed after every table folded here (else fold again)."""
        return (result.closed_at, result.table_id) > (self.last_at, self.last_table)

    def plus(self, result: Result) -> Totals:
        """These totals with one more table, which closed after all of theirs."""
        streak = _next_streak(self.streak, result.outcome)
        return replace(
            self,
            currency=result.currency,
            played=self.played + 1,
            won=self.won + (result.outcome == "won"),
            lost=self.lost + (result.outcome == "lost"),
            drawn=self.drawn + (result.outcome == "drawn"),
            net=self.net + result.net,
            pots=self.pots + (result.pot > 0),
            biggest_pot=max(self.biggest_pot, result.pot),
            streak=streak,
            win_streak=max(self.win_streak, streak),
            loss_streak=max(self.loss_streak, -streak),
            caught=self.caught + result.caught,
            last_at=result.closed_at,
            last_table=result.table_id,
        )


def _next_streak(streak: int, outcome: Outcome) -> int:
    if outcome == "won":
        return streak + 1 if streak > 0 else 1
    if outcome == "lost":
        return streak - 1 if streak < 0 else -1
    return 0


@dataclass(frozen=True, slots=True)
class Rival:
    """A character's Pazaak record against one opponent."""

    opponent_id: int
    name: str
    won: int
    lost: int


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of a leaderboard."""

    name: str
    totals: Totals


_RESULT_COLUMNS = ", ".join(f.name for f in fields(Result))
_TOTALS_COLUMNS = ", ".join(f.name for f in fields(Totals))
_TOTALS_UPDATE = ", ".join(
    f"{f.name} = excluded.{f.name}"
    for f in fields(Totals)
    if f.name not in ("character_id", "game")
)
_COUNTED = "JOIN tables t ON t.id = r.table_id AND t.voided_at IS NULL"
"""Results of the tables no GM has voided."""


def _result(row: Row) -> Result:
    return Result(*row)


def _totals(row: Row) -> Totals:
    return Totals(*row)


async def table_money(tx: Tx, table_id: int) -> dict[int, tuple[int, int]]:
    """``character -> (net, winnings)``: what the table's movements did to each purse, and what
    its payouts gave each. Reads that table's movements only (an indexed range)."""
    rows = await tx.fetchall(
        "SELECT a.character_id, SUM(e.amount), "
        "SUM(CASE WHEN m.kind = 'payout' AND e.amount > 0 THEN e.amount ELSE 0 END) "
        "FROM movements m JOIN ledger_entries e ON e.movement_id = m.id "
        "JOIN accounts a ON a.id = e.account_id AND a.kind = 'purse' "
        "WHERE m.table_id = ? GROUP BY a.character_id",
        (table_id,),
    )
    return {int(c): (int(net), int(pot)) for c, net, pot in rows}


async def record(tx: Tx, results: Sequence[Result]) -> None:
    """Record one finished table's results and add them to its characters' totals and head to
    head. A table recorded before is left as it is (nothing is counted twice)."""
    if not results:
        return
    await tx.lock(LOCK_STATS, (r.character_id for r in results))
    table_ids = {r.table_id for r in results}
    marks = ",".join("?" * len(table_ids))
    if await tx.fetchval(
        f"SELECT 1 FROM stat_results WHERE table_id IN ({marks}) LIMIT 1", tuple(table_ids)
    ):
        return
    await _insert_results(tx, results)
    late: set[int] = set()
    for result in results:
        row = await tx.fetchone(
            f"SELECT {_TOTALS_COLUMNS} FROM stats WHERE character_id = ? AND game = ?",
            (result.character_id, result.game),
        )
        before = Totals.start(result) if row is None else _totals(row)
        if not before.follows(result):
            late.add(result.character_id)
            continue
        await _put_totals(tx, [before.plus(result)])
        if result.opponent is not None:
            await tx.execute(
                "INSERT INTO stat_rivals (character_id, opponent_id, won, lost) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (character_id, opponent_id) DO UPDATE SET "
                "won = stat_rivals.won + excluded.won, lost = stat_rivals.lost + excluded.lost",
                (
                    result.character_id,
                    result.opponent,
                    int(result.outcome == "won"),
                    int(result.outcome == "lost"),
                ),
            )
    if late:  # a table that closed before one already counted: fold those characters again
        await refresh_characters(tx, late)


async def refresh_characters(tx: Tx, character_ids: Iterable[int]) -> None:
    """Fold these characters' totals and head to head (both ways round) again from the results
    of their finished tables that are not voided (after a GM voided one of them)."""
    wanted = tuple(sorted(set(character_ids)))
    if not wanted:
        return
    await tx.lock(LOCK_STATS, wanted)
    marks = ",".join("?" * len(wanted))
    await tx.execute(f"DELETE FROM stats WHERE character_id IN ({marks})", wanted)
    await tx.execute(
        f"DELETE FROM stat_rivals WHERE character_id IN ({marks}) OR opponent_id IN ({marks})",
        wanted * 2,
    )
    await _fold(tx, f"r.character_id IN ({marks})", wanted)
    await _count_rivals(tx, f"r.character_id IN ({marks}) OR r.opponent IN ({marks})", wanted * 2)


async def rebuild(tx: Tx) -> None:
    """Fold every character's totals and head to head again from all the recorded results."""
    await tx.execute("DELETE FROM stats")
    await tx.execute("DELETE FROM stat_rivals")
    await _fold(tx, "1 = 1", ())
    await _count_rivals(tx, "1 = 1", ())


async def replace_results(tx: Tx, results: Iterable[Result]) -> None:
    """Forget every recorded result and record these instead (the totals are then rebuilt)."""
    await tx.execute("DELETE FROM stat_results")
    await _insert_results(tx, list(results))
    await rebuild(tx)


async def _insert_results(tx: Tx, results: Sequence[Result]) -> None:
    marks = ",".join("?" * len(fields(Result)))
    await tx.executemany(
        f"INSERT INTO stat_results ({_RESULT_COLUMNS}) VALUES ({marks})",
        [astuple(r) for r in results],
    )


async def _put_totals(tx: Tx, totals: Sequence[Totals]) -> None:
    marks = ",".join("?" * len(fields(Totals)))
    await tx.executemany(
        f"INSERT INTO stats ({_TOTALS_COLUMNS}) VALUES ({marks}) "
        f"ON CONFLICT (character_id, game) DO UPDATE SET {_TOTALS_UPDATE}",
        [astuple(t) for t in totals],
    )


async def _fold(tx: Tx, where: str, params: tuple[int, ...]) -> None:
    columns = ", ".join(f"r.{f.name}" for f in fields(Result))
    rows = await tx.fetchall(
        f"SELECT {columns} FROM stat_results r {_COUNTED} WHERE {where} "
        "ORDER BY r.character_id, r.game, r.closed_at, r.table_id",
        params,
    )
    folded: dict[tuple[int, str], Totals] = {}
    for row in rows:
        result = _result(row)
        key = (result.character_id, result.game)
        folded[key] = folded.get(key, Totals.start(result)).plus(result)
    await _put_totals(tx, list(folded.values()))


async def _count_rivals(tx: Tx, where: str, params: tuple[int, ...]) -> None:
    await tx.execute(
        "INSERT INTO stat_rivals (character_id, opponent_id, won, lost) "
        "SELECT r.character_id, r.opponent, "
        "SUM(CASE WHEN r.outcome = 'won' THEN 1 ELSE 0 END), "
        "SUM(CASE WHEN r.outcome = 'lost' THEN 1 ELSE 0 END) "
        f"FROM stat_results r {_COUNTED} WHERE r.opponent IS NOT NULL AND ({where}) "
        "GROUP BY r.character_id, r.opponent",
        params,
    )


# --- reading ------------------------------------------------------------------------------------


async def totals_of(tx: Tx, character_id: int) -> list[Totals]:
    """The character's totals in every game it played, by game."""
    rows = await tx.fetchall(
        f"SELECT {_TOTALS_COLUMNS} FROM stats WHERE character_id = ? ORDER BY game",
        (character_id,),
    )
    return [_totals(r) for r in rows]


async def rivals_of(tx: Tx, character_id: int, *, limit: int = 10) -> list[Rival]:
    """The character's Pazaak records against its most frequent opponents still here."""
    rows = await tx.fetchall(
        "SELECT v.opponent_id, c.name, v.won, v.lost FROM stat_rivals v "
        "JOIN characters c ON c.id = v.opponent_id AND c.deleted_at IS NULL "
        "WHERE v.character_id = ? ORDER BY v.won + v.lost DESC, c.name_key LIMIT ?",
        (character_id, limit),
    )
    return [Rival(int(o), str(n), int(w), int(lost)) for o, n, w, lost in rows]


_ORDER: dict[Board, str] = {
    "net": "s.net DESC",
    "pots": "s.pots DESC, s.biggest_pot DESC",
    "pazaak": "s.won - s.lost DESC, s.won DESC",
}
"""Each board's order: the order of its index (``stats_net``, ``stats_pots``,
``stats_record``), then the character id, so equal lines always come in one order."""


async def leaderboard(
    tx: Tx, guild_id: int, game: str, board: Board, *, limit: int = 10
) -> list[Standing]:
    """The first ``limit`` characters of the guild still here, in the board's order."""
    columns = ", ".join(f"s.{f.name}" for f in fields(Totals))
    rows = await tx.fetchall(
        f"SELECT c.name, {columns} FROM stats s "
        "JOIN characters c ON c.id = s.character_id AND c.deleted_at IS NULL "
        f"WHERE s.guild_id = ? AND s.game = ? ORDER BY {_ORDER[board]}, s.character_id LIMIT ?",
        (guild_id, game, limit),
    )
    return [Standing(str(r[0]), _totals(r[1:])) for r in rows]


async def all_results(tx: Tx) -> list[Result]:
    """Every recorded result, in closing order (for the tests and the rebuild's check)."""
    rows = await tx.fetchall(
        f"SELECT {_RESULT_COLUMNS} FROM stat_results ORDER BY closed_at, table_id, character_id"
    )
    return [_result(r) for r in rows]


async def all_totals(tx: Tx) -> tuple[list[Totals], list[tuple[int, int, int, int]]]:
    """Every totals row and every head-to-head row, in key order (to compare two projections)."""
    totals = await tx.fetchall(f"SELECT {_TOTALS_COLUMNS} FROM stats ORDER BY character_id, game")
    rivals = await tx.fetchall(
        "SELECT character_id, opponent_id, won, lost FROM stat_rivals "
        "ORDER BY character_id, opponent_id"
    )
    return [_totals(r) for r in totals], [(int(a), int(b), int(c), int(d)) for a, b, c, d in rivals]


async def finished_tables(tx: Tx) -> list[tuple[int, int, str, str, int]]:
    """``(id, guild_id, game, currency, closed_at)`` of every finished table, by id."""
    rows = await tx.fetchall(
        "SELECT id, guild_id, game, currency, closed_at FROM tables WHERE status = 'finished' "
        "ORDER BY id"
    )
    return [(int(i), int(g), str(game), str(c), int(at)) for i, g, game, c, at in rows]
