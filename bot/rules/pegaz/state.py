"""Three-Card Pegasus: table settings, typed errors and the immutable state.

See :mod:`bot.rules.pegaz` for the rules and the public entry points.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Literal, Self

from pydantic import Field, model_validator

from bot.rules.common import KEEP, InvalidSettings, Keep, RulesError, TableSettings
from bot.rules.money import WARHAMMER
from bot.rules.pegaz.cards import DICE

MAX_SEATS = 8
"""The most players at one table (8 x 3 cards is a whole d6 deck)."""

SHILLING = 12
"""Pennies in a silver shilling: the default stake."""

# The bounds of every numeric setting (the slash commands import them too).
MAX_EXCHANGES = 20
"""The most exchange rounds a table may set (``None`` = unlimited is allowed besides)."""
MIN_TURN_TIMEOUT = 1
MAX_TURN_TIMEOUT = 24 * 3600
"""Seconds a turn may last: from 1 s (tests and quick tables) to a day (play by post)."""
MAX_STAKE = WARHAMMER.cap
"""The highest starting stake and the highest ``max_stake``: the money cap, in pennies."""
MAX_RAISE_LIMIT = WARHAMMER.cap
MAX_DETECTION_MODIFIER = 100
"""The detection modifier is -100..100."""

RULES_VERSION = 2
"""The version of the rules a new table plays by, recorded in its ``TableOpened`` event, so a
table opened under older rules replays (and goes on) exactly as it was played.

1. The first rules.
2. Deck source: a card moved by Luck, Gamble or a cheat goes to the discard pile as the card
   that was dealt, not as its moved face; an exchange draws only other cards (the ones given
   up go to the discard pile after the draw), and may take no more cards than there are.
"""


class PegazSettings(TableSettings):
    """The settings of one table. Amounts are in pennies. ``None`` means no limit."""

    stake: int = Field(default=SHILLING, ge=1)
    exchanges: Annotated[int, Field(ge=1)] | None = 2
    raise_limit: Annotated[int, Field(ge=0)] | None = 1
    max_stake: Annotated[int, Field(ge=1)] | None = None
    die: int = 6
    source: Literal["dice", "deck"] = "dice"
    turn_timeout: int = Field(default=600, ge=MIN_TURN_TIMEOUT)
    detection_modifier: int = Field(
        default=0, ge=-MAX_DETECTION_MODIFIER, le=MAX_DETECTION_MODIFIER
    )
    cheat_ruling: Literal["expel", "gm"] = "expel"
    tie: Literal["split", "rollover"] = "split"
    carried_pot: int = Field(default=0, ge=0)

    @model_validator(mode="after")
    def _validate(self) -> Self:
        """The invariants no single field's bound can say."""
        if self.max_stake is not None and self.max_stake < self.stake:
            raise InvalidSettings(field="max_stake", reason="out_of_range")
        if self.die not in DICE:
            raise InvalidSettings(field="die", reason="out_of_range")
        return self

    def upper_bounds(self) -> tuple[tuple[str, int | None, int], ...]:
        return (
            ("stake", self.stake, MAX_STAKE),
            ("exchanges", self.exchanges, MAX_EXCHANGES),
            ("raise_limit", self.raise_limit, MAX_RAISE_LIMIT),
            ("max_stake", self.max_stake, MAX_STAKE),
            ("turn_timeout", self.turn_timeout, MAX_TURN_TIMEOUT),
        )

    @classmethod
    def wild(cls, stake: int = SHILLING, **values: object) -> PegazSettings:
        """The "wild pegasus" preset: unlimited exchanges, no raise limit, no max stake."""
        data: dict[str, object] = {**values, "stake": stake}
        data.update(exchanges=None, raise_limit=None, max_stake=None)
        return cls.parse(data)


# --- errors -------------------------------------------------------------------------------------


class IllegalExchange(RulesError):
    """Bad card indexes, or a new stake below the current one. ``reason`` says which."""

    code = "illegal_exchange"


class RaiseTooHigh(RulesError):
    """A raise adds more than the table's ``raise_limit``."""

    code = "raise_too_high"


class StakeOverMax(RulesError):
    """A raise goes over the table's ``max_stake``."""

    code = "stake_over_max"


class CheckNotAllowed(RulesError):
    """A check in round 1, or on a target that is not an opponent still in the game."""

    code = "check_not_allowed"


class IllegalModifier(RulesError):
    """A modifier choice the character may not make. ``reason`` is one of: ``count`` (not one
    or two shifts), ``size`` (not +-1, or a cheat not +-2), ``card`` (not a card just dealt),
    ``same_card``, ``needs_both`` (two shifts need Luck and Gamble), ``needs_gamble`` (a cheat),
    ``no_trait``."""

    code = "illegal_modifier"


class NoCardsToDraw(RulesError):
    """Deck source: an exchange of more cards than there are other cards to draw (the deck plus
    the discard pile, without the cards being given up). ``left`` is how many there are; it is
    public, as a real deck's size would be."""

    code = "no_cards_to_draw"


class TableFull(RulesError):
    code = "table_full"


class NotEnoughPlayers(RulesError):
    code = "not_enough_players"


class InvalidPlayer(RulesError):
    """A player's traits are out of range (Perception outside 0..100)."""

    code = "invalid_player"


# --- state --------------------------------------------------------------------------------------


class Phase(StrEnum):
    SEATING = "seating"
    MODIFIERS = "modifiers"
    """After the deal, everyone with Luck or Gamble chooses in secret."""
    EXCHANGE = "exchange"
    CHECKS = "checks"
    OFFERING = "offering"
    """The pot is paid out; winners decide on Ranald's tenth."""
    FINISHED = "finished"
    CANCELLED = "cancelled"


class SeatStatus(StrEnum):
    ACTIVE = "active"
    FOLDED = "folded"
    """Folded by choice or by a turn timeout."""
    BROKE = "broke"
    """Forced out: could not pay the stake (or, in the check phase, a check)."""
    CHECKED = "checked"
    """Lost a check (or tied one)."""
    EXPELLED = "expelled"
    """Caught cheating and expelled."""


@dataclass(frozen=True, slots=True)
class Seat:
    """One player at the table. ``funds`` is what is left of the purse the game may spend."""

    player: int
    luck: bool
    gamble: bool
    perception: int
    funds: int
    paid: int = 0
    hand: tuple[int, ...] = ()
    status: SeatStatus = SeatStatus.ACTIVE
    pending: bool = False
    """Owes a modifier choice."""
    fresh: tuple[int, ...] = ()
    """Card indexes the pending modifier choice may touch (the cards just dealt)."""
    cheat: tuple[int, int] | None = None
    """``(card, delta)`` of a cheat awaiting the GM's ruling, to undo it on a pardon."""
    won: int = 0
    dealt: tuple[int, ...] = ()
    """Deck source: the cards as dealt (``hand`` shows them after any Luck, Gamble or cheat), so
    a card that leaves the hand goes to the discard pile as the card it is."""
    swaps: tuple[int, ...] = ()
    """Public: how many cards each of this seat's exchanges gave up, in order, as the table
    saw them paid. What the others may infer about the hand comes from here and ``shown``."""
    shown: tuple[int, ...] = ()
    """Public: the hand as the table saw it in this seat's last check, with 0 for each card
    exchanged since (empty if it was never shown)."""

    @property
    def offering(self) -> int:
        """Ranald's tenth of what this seat won (rounded down) [house]."""
        return self.won // 10


@dataclass(frozen=True, slots=True)
class PegazState:
    """The whole table. Immutable: every action returns a new one."""

    settings: PegazSettings
    phase: Phase = Phase.SEATING
    seats: tuple[Seat, ...] = ()
    pot: int = 0
    stake: int = 0
    round: int = 0
    turn: int | None = None
    """Index into ``seats`` of the player whose turn it is."""
    deck: tuple[int, ...] = ()
    """Deck source: how many copies of each face (index face-1) are left to draw."""
    discard: tuple[int, ...] = ()
    rulings: tuple[int, ...] = ()
    """Caught cheaters awaiting the GM's ruling."""
    swapped: bool = False
    """Somebody exchanged at least one card in this round."""
    last_out: tuple[int, ...] = ()
    """Players who went out since two or more were last left: they share a pot nobody keeps."""
    winners: tuple[int, ...] = ()
    offers: tuple[int, ...] = ()
    """Winners who have not yet decided on Ranald's offering."""
    offered: int = 0
    rolled_over: int = 0
    rules_version: int = 1
    """See :data:`RULES_VERSION`."""


# --- fast copies ------------------------------------------------------------------------------
# ``dataclasses.replace`` is generic and slow: with it bench/rules.py's playouts took 15-30% longer.
# NPC players replay thousands of games per decision, so the reducer copies through these typed,
# explicit helpers instead (Pazaak's reducer has the same two).


def seat_with(
    s: Seat,
    *,
    funds: int | Keep = KEEP,
    paid: int | Keep = KEEP,
    hand: tuple[int, ...] | Keep = KEEP,
    status: SeatStatus | Keep = KEEP,
    pending: bool | Keep = KEEP,
    fresh: tuple[int, ...] | Keep = KEEP,
    cheat: tuple[int, int] | Keep | None = KEEP,
    won: int | Keep = KEEP,
    dealt: tuple[int, ...] | Keep = KEEP,
    swaps: tuple[int, ...] | Keep = KEEP,
    shown: tuple[int, ...] | Keep = KEEP,
) -> Seat:
    """A copy of ``s`` with the given fields changed."""
    return Seat(
        s.player,
        s.luck,
        s.gamble,
        s.perception,
        s.funds if funds is KEEP else funds,
        s.paid if paid is KEEP else paid,
        s.hand if hand is KEEP else hand,
        s.status if status is KEEP else status,
        s.pending if pending is KEEP else pending,
        s.fresh if fresh is KEEP else fresh,
        s.cheat if cheat is KEEP else cheat,
        s.won if won is KEEP else won,
        s.dealt if dealt is KEEP else dealt,
        s.swaps if swaps is KEEP else swaps,
        s.shown if shown is KEEP else shown,
    )


def state_with(
    st: PegazState,
    *,
    phase: Phase | Keep = KEEP,
    seats: tuple[Seat, ...] | Keep = KEEP,
    pot: int | Keep = KEEP,
    stake: int | Keep = KEEP,
    round: int | Keep = KEEP,
    turn: int | Keep | None = KEEP,
    deck: tuple[int, ...] | Keep = KEEP,
    discard: tuple[int, ...] | Keep = KEEP,
    rulings: tuple[int, ...] | Keep = KEEP,
    swapped: bool | Keep = KEEP,
    last_out: tuple[int, ...] | Keep = KEEP,
    winners: tuple[int, ...] | Keep = KEEP,
    offers: tuple[int, ...] | Keep = KEEP,
    offered: int | Keep = KEEP,
    rolled_over: int | Keep = KEEP,
) -> PegazState:
    """A copy of ``st`` with the given fields changed."""
    return PegazState(
        st.settings,
        st.phase if phase is KEEP else phase,
        st.seats if seats is KEEP else seats,
        st.pot if pot is KEEP else pot,
        st.stake if stake is KEEP else stake,
        st.round if round is KEEP else round,
        st.turn if turn is KEEP else turn,
        st.deck if deck is KEEP else deck,
        st.discard if discard is KEEP else discard,
        st.rulings if rulings is KEEP else rulings,
        st.swapped if swapped is KEEP else swapped,
        st.last_out if last_out is KEEP else last_out,
        st.winners if winners is KEEP else winners,
        st.offers if offers is KEEP else offers,
        st.offered if offered is KEEP else offered,
        st.rolled_over if rolled_over is KEEP else rolled_over,
        st.rules_version,
    )
