"""Three-Card Pegasus: a table as one seat may know it.

:func:`view` is the only door from a state to a computer player (``bot.ai.pegaz.decide``
takes a :class:`PegazView`, never a state), so what is left out here cannot leak: other
seats' cards, the deck's order and make-up, the discard pile's faces, any cheat or detection
roll but what the table saw (a :class:`~bot.rules.pegaz.events.Caught` expels a seat openly).
What checks showed is kept on each seat (``shown``), since the state keeps it.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.rules.common import NotSeated
from bot.rules.pegaz.actions import Action
from bot.rules.pegaz.queries import (
    check_price,
    checks_allowed,
    exchangeable,
    legal_actions,
    stake_bounds,
    whose_turn,
)
from bot.rules.pegaz.reducer import index_of
from bot.rules.pegaz.state import PegazSettings, PegazState, Phase, SeatStatus


@dataclass(frozen=True, slots=True)
class SeatView:
    """What everyone at the table knows of one seat."""

    player: int
    status: SeatStatus
    funds: int
    paid: int
    cards: int
    """How many cards the seat holds (3 while in, 0 once out)."""
    choosing: bool
    """The table waits for this seat's secret modifier choice (the table message says so)."""
    swaps: tuple[int, ...]
    """How many cards each of its exchanges gave up, in order."""
    shown: tuple[int, ...]
    """Its hand as its last check showed it, 0 for each card exchanged since; () if never."""
    won: int


@dataclass(frozen=True, slots=True)
class PegazView:
    """The table as ``viewer`` may know it (None: a spectator, who holds no cards)."""

    viewer: int | None
    settings: PegazSettings
    phase: Phase
    round: int
    pot: int
    stake: int
    turn: int | None
    """The player who must exchange, check or fold now (:func:`whose_turn`)."""
    seats: tuple[SeatView, ...]
    ruling: bool
    """Turns wait for the GM's ruling on a caught cheater."""
    deck_left: int | None
    """Deck source: how many cards are left to draw (a real deck's size is public); else None."""
    exchangeable: int
    stake_bounds: tuple[int, int | None]
    check_price: int
    checks_allowed: bool
    winners: tuple[int, ...]
    offers: tuple[int, ...]
    """Winners who have not yet decided on Ranald's offering."""
    hand: tuple[int, ...]
    """The viewer's own cards, as they show after any Luck, Gamble or cheat."""
    dealt: tuple[int, ...]
    """Deck source: the viewer's cards as dealt (what the deck lacks); else ()."""
    luck: bool
    gamble: bool
    perception: int
    pending: bool
    """The viewer owes a secret modifier choice on the cards at ``fresh``."""
    fresh: tuple[int, ...]
    legal: tuple[Action, ...]
    """The viewer's own legal actions now, as :func:`legal_actions` lists them."""

    def seat(self, player: int) -> SeatView:
        for s in self.seats:
            if s.player == player:
                return s
        raise NotSeated(player=player)


def view(state: PegazState, viewer: int | None) -> PegazView:
    """The state as ``viewer`` may know it. Raises :class:`NotSeated` for a stranger."""
    i = -1 if viewer is None else index_of(state, viewer)
    if viewer is not None and i < 0:
        raise NotSeated(player=viewer)
    seats = tuple(
        SeatView(
            s.player,
            s.status,
            s.funds,
            s.paid,
            len(s.hand),
            s.pending,
            s.swaps,
            s.shown,
            s.won,
        )
        for s in state.seats
    )
    own = state.seats[i] if i >= 0 else None
    legal = () if own is None else tuple(_own(legal_actions(state), own.player))
    return PegazView(
        viewer=viewer,
        settings=state.settings,
        phase=state.phase,
        round=state.round,
        pot=state.pot,
        stake=state.stake,
        turn=whose_turn(state),
        seats=seats,
        ruling=bool(state.rulings),
        deck_left=sum(state.deck) if state.deck else None,
        exchangeable=exchangeable(state),
        stake_bounds=stake_bounds(state),
        check_price=check_price(state),
        checks_allowed=checks_allowed(state),
        winners=state.winners,
        offers=state.offers,
        hand=() if own is None else own.hand,
        dealt=() if own is None else own.dealt,
        luck=own is not None and own.luck,
        gamble=own is not None and own.gamble,
        perception=0 if own is None else own.perception,
        pending=own is not None and own.pending,
        fresh=() if own is None else own.fresh,
        legal=legal,
    )


def _own(actions: list[Action], player: int) -> list[Action]:
    return [a for a in actions if getattr(a, "player", None) == player]
