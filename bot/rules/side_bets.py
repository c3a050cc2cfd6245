"""Side bets: how a pool of spectators' stakes is shared out at a table's end (pari-mutuel).

Pure and whole-numbered. The bettors on the winning seat share every side-bet stake of the table
in proportion to their own stakes, rounded down; the coins the rounding leaves go one each to
the largest winning stakes first (ties: the earliest bet). With no single winner (a cancel, a
split pot, a pot rolled over, nobody left), or with nobody on the winner, every stake goes back
as it was. Nothing is created or lost: what is paid out is exactly what was staked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Stake:
    """One bet: its id (the order bets were placed in), the seat it backs, its amount (> 0)."""

    bet: int
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class Settlement:
    """What each bet gets back (bet id -> coins; 0 for a losing bet), and whether that is a
    refund of every stake rather than a payout to the winner's backers."""

    paid: dict[int, int]
    refund: bool

    @property
    def total(self) -> int:
        return sum(self.paid.values())


def settle(stakes: Sequence[Stake], winner: int | None) -> Settlement:
    """Share the pool of ``stakes`` among the backers of ``winner`` (None: no single winner)."""
    backers = [s for s in stakes if s.seat == winner] if winner is not None else []
    if not backers:
        return Settlement({s.bet: s.amount for s in stakes}, refund=True)
    pool = sum(s.amount for s in stakes)
    backed = sum(s.amount for s in backers)
    paid = {s.bet: 0 for s in stakes}
    for s in backers:
        paid[s.bet] = pool * s.amount // backed
    left = pool - sum(paid.values())
    for s in sorted(backers, key=lambda s: (-s.amount, s.bet))[:left]:
        paid[s.bet] += 1
    return Settlement(paid, refund=False)
