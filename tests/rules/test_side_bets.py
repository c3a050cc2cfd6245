"""The pari-mutuel split of side bets: examples, and properties (no coin created or lost, each
winner at least their proportional share rounded down and at most one coin over it, the odd
coins to the largest stakes first, refunds when nobody backed a single winner)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.rules.side_bets import Stake, settle

SEATS = (1, 2, 3)


@st.composite
def books(draw: st.DrawFn) -> list[Stake]:
    amounts = draw(st.lists(st.integers(1, 10**9), max_size=12))
    seats = [draw(st.sampled_from(SEATS)) for _ in amounts]
    pairs = enumerate(zip(seats, amounts, strict=True))
    return [Stake(i + 1, seat, amount) for i, (seat, amount) in pairs]


winners = st.one_of(st.none(), st.sampled_from(SEATS))


def test_the_backers_of_the_winner_share_every_stake() -> None:
    done = settle([Stake(1, 1, 30), Stake(2, 2, 10), Stake(3, 1, 10)], winner=1)
    assert not done.refund
    assert done.paid == {1: 38, 2: 0, 3: 12}  # 37.5 and 12.5: the odd coin to the largest stake


def test_odd_coins_go_to_the_largest_stakes_then_the_earliest() -> None:
    done = settle([Stake(1, 1, 1), Stake(2, 1, 1), Stake(3, 1, 1), Stake(4, 2, 1)], winner=1)
    assert done.paid == {1: 2, 2: 1, 3: 1, 4: 0}  # 4 coins among 3 equal stakes: the first


def test_nobody_on_the_winner_or_no_single_winner_refunds() -> None:
    stakes = [Stake(1, 1, 5), Stake(2, 2, 7)]
    for winner in (3, None):
        done = settle(stakes, winner)
        assert done.refund and done.paid == {1: 5, 2: 7}


@given(books(), winners)
def test_no_coin_is_created_or_lost(stakes: list[Stake], winner: int | None) -> None:
    done = settle(stakes, winner)
    assert done.total == sum(s.amount for s in stakes)
    assert set(done.paid) == {s.bet for s in stakes}
    assert all(paid >= 0 for paid in done.paid.values())


@given(books(), winners)
def test_each_winner_gets_their_proportional_floor(stakes: list[Stake], winner: int | None) -> None:
    done = settle(stakes, winner)
    backers = [s for s in stakes if s.seat == winner]
    if not backers:
        assert done.refund and done.paid == {s.bet: s.amount for s in stakes}
        return
    pool = sum(s.amount for s in stakes)
    backed = sum(s.amount for s in backers)
    for s in stakes:
        paid = done.paid[s.bet]
        if s.seat != winner:
            assert paid == 0
            continue
        floor = pool * s.amount // backed
        assert floor <= paid <= floor + 1
        assert paid >= s.amount  # backing the winner never loses coins


@given(books(), st.sampled_from(SEATS))
def test_the_odd_coins_go_by_size_then_order(stakes: list[Stake], winner: int) -> None:
    done = settle(stakes, winner)
    backers = [s for s in stakes if s.seat == winner]
    if not backers:
        return
    pool = sum(s.amount for s in stakes)
    backed = sum(s.amount for s in backers)
    ranked = sorted(backers, key=lambda s: (-s.amount, s.bet))
    extra = [done.paid[s.bet] - pool * s.amount // backed for s in ranked]
    assert extra == sorted(extra, reverse=True)  # every coin over the floor comes first
