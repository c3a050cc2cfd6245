"""Pazaak as data: the settings, the immutable match state, the actions and their errors.

The state is made of frozen slotted dataclasses and tuples (no pydantic in the hot path), so NPC
players can copy and step it thousands of times per decision. Only the reducer in
``pazaak.events`` builds new states; ``pazaak`` holds the actions' logic.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bot.rules.common import InvalidSettings, NotSeated, RulesError
from bot.rules.money import CREDITS
from bot.rules.pazaak.cards import SideCard

TARGET = 20
"""The total to reach; over it is a bust."""
NINE_CARDS = 9
"""Nine cards on a table without busting win the set (option ``nine_card_win``)."""
MAIN_POOL: tuple[int, ...] = tuple(value for value in range(1, 11) for _ in range(8))
"""Both players' main decks together: 80 cards, eight of each value 1..10 (four per deck)."""

# The bounds of every numeric setting (the slash commands import them too).
MAX_WAGER = CREDITS.cap
"""The highest wager: the money cap, in credits."""
MAX_SETS_TO_WIN = 50
MIN_TURN_TIMEOUT = 1
MAX_TURN_TIMEOUT = 24 * 3600
"""Seconds a turn may last: from 1 s to a day."""
MAX_TIMEOUTS_TO_FORFEIT = 10

Phase = Literal["dealing", "playing", "over"]
TurnEnd = Literal["end_turn", "stand", "timeout"]
StandReason = Literal["stand", "timeout", "twenty"]
SetEndReason = Literal["bust", "nine_cards", "higher_total", "tiebreaker", "tie"]
MatchEndReason = Literal["sets", "forfeit", "timeouts"]


class PazaakSettings(BaseModel):
    """The table settings of one match. Money is whole credits; times are seconds."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    wager: int = Field(default=0, ge=0)
    """Each player's stake in credits; both go into the pot at the start."""
    main_deck: Literal["pool", "infinite"] = "pool"
    """``pool``: 80 cards shuffled every set; ``infinite``: every draw is a uniform 1..10."""
    kotor2_cards: bool = True
    """Whether Flip 2&4, Flip 3&6 and ±1/2 may be selected."""
    nine_card_win: bool = True
    starter: Literal["alternate", "loser"] = "alternate"
    """Who starts sets after the first (which is random)."""
    sets_to_win: int = Field(default=3, ge=1)
    turn_timeout: int = Field(default=300, ge=1)
    """Seconds a player has for a turn; then the service sends a ``Timeout`` action."""
    timeouts_to_forfeit: int = Field(default=3, ge=1)
    """That many timeouts in a row by one player forfeit the match."""

    def check_bounds(self) -> Self:
        """These settings, or :class:`InvalidSettings` for the first one past its upper bound.

        Checked where a match starts (``new_match``) and by :func:`settings_from`, not when a
        stored match is read back: it was valid when it started, and goes on so.
        """
        bounds = (
            ("wager", self.wager, MAX_WAGER),
            ("sets_to_win", self.sets_to_win, MAX_SETS_TO_WIN),
            ("turn_timeout", self.turn_timeout, MAX_TURN_TIMEOUT),
            ("timeouts_to_forfeit", self.timeouts_to_forfeit, MAX_TIMEOUTS_TO_FORFEIT),
        )
        for field, value, high in bounds:
            if value > high:
                raise InvalidSettings(field=field, reason="less_than_equal")
        return self


def settings_from(values: Mapping[str, object]) -> PazaakSettings:
    """Validated settings, or :class:`InvalidSettings` with ``field`` and ``reason`` (pydantic's
    error type, e.g. ``greater_than_equal``, ``int_type``, ``extra_forbidden``)."""
    try:
        settings = PazaakSettings.model_validate(values)
    except ValidationError as error:
        first = error.errors()[0]
        field = ".".join(str(part) for part in first["loc"])
        raise InvalidSettings(field=field, reason=first["type"]) from None
    return settings.check_bounds()


@dataclass(frozen=True, slots=True)
class TableCard:
    """A card on a player's table this set.

    ``value`` is what it counts now (a flip may have changed its sign). ``side`` is the hand card
    it came from, or None for a card drawn from the main deck; ``chosen`` is the value it was
    drawn or played as (for a flip card 0, for D the value it copied).
    """

    value: int
    side: SideCard | None = None
    chosen: int = 0


@dataclass(frozen=True, slots=True)
class PlayerState:
    id: int
    """The character id."""
    selection: tuple[SideCard, ...]
    """The 10 side cards picked for this match."""
    hand: tuple[SideCard, ...]
    """The dealt side cards not yet played this match (secret to the other player)."""
    table: tuple[TableCard, ...] = ()
    standing: bool = False
    sets_won: int = 0
    played_card_this_turn: bool = False
    timeouts: int = 0
    """Timeouts in a row; any real action of the player resets it."""

    @property
    def total(self) -> int:
        return table_total(self.table)

    @property
    def played_tiebreaker(self) -> bool:
        """Whether a T card is on this player's table this set."""
        return any(c.side is not None and c.side.kind == "tiebreaker" for c in self.table)


@dataclass(frozen=True, slots=True)
class SetResult:
    set_number: int
    winner: int | None
    """The winner's id, or None for a tie (nobody scores)."""
    reason: SetEndReason
    totals: tuple[int, int]
    """Both totals at the end of the set, in seat order."""


@dataclass(frozen=True, slots=True)
class PazaakState:
    settings: PazaakSettings
    players: tuple[PlayerState, PlayerState]
    pool: tuple[int, ...] = ()
    """The remaining main-deck order this set, next card first (empty when ``infinite``)."""
    set_number: int = 0
    turn: int = 0
    """The seat (0 or 1) whose turn it is; see ``current_player`` for the id."""
    starter: int = 0
    """The seat that started the current set."""
    phase: Phase = "dealing"
    pot: int = 0
    winner: int | None = None
    results: tuple[SetResult, ...] = ()

    @property
    def current_player(self) -> int | None:
        """The id of the player who may act now, or None when nobody may."""
        return self.players[self.turn].id if self.phase == "playing" else None


def table_total(table: Sequence[TableCard]) -> int:
    """What a table counts now."""
    total = 0
    for table_card in table:
        total += table_card.value
    return total


def seat_index(state: PazaakState, player: int) -> int | None:
    """The seat (0 or 1) of ``player``, or None when they are not in this match."""
    players = state.players
    if players[0].id == player:
        return 0
    if players[1].id == player:
        return 1
    return None


# --- errors -------------------------------------------------------------------------------------


class NoSuchCard(RulesError):
    """No card at that index of the player's own hand (``hand_index``, ``hand_size``)."""

    code = "pazaak_no_such_card"


class CardAlreadyPlayedThisTurn(RulesError):
    code = "pazaak_card_already_played_this_turn"


class IllegalCardValue(RulesError):
    """The card cannot be played as that value (``card``, ``value``, ``allowed``)."""

    code = "pazaak_illegal_card_value"


class DoubleOnEmptyTable(RulesError):
    code = "pazaak_double_on_empty_table"


class AlreadyStanding(RulesError):
    code = "pazaak_already_standing"


# --- actions ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play the hand card at ``hand_index`` as ``value`` (required for ``±N``, T and ``±1/2``)."""

    player: int
    hand_index: int
    value: int | None = None


@dataclass(frozen=True, slots=True)
class EndTurn:
    player: int


@dataclass(frozen=True, slots=True)
class Stand:
    player: int


@dataclass(frozen=True, slots=True)
class Forfeit:
    player: int


@dataclass(frozen=True, slots=True)
class Timeout:
    """Sent by the service when the player's turn timer runs out: the player stands."""

    player: int


Action = PlayCard | EndTurn | Stand | Forfeit | Timeout


# --- what a player may see ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatView:
    """What anyone may see of one seat: the table is public, the hand only by its size."""

    player: int
    table: tuple[TableCard, ...]
    total: int
    standing: bool
    sets_won: int
    hand_size: int
    played_tiebreaker: bool


@dataclass(frozen=True, slots=True)
class PazaakView:
    """What ``viewer`` may see: their own hand, both tables, never the other hand or the pool."""

    viewer: int | None
    hand: tuple[SideCard, ...]
    """The viewer's own hand; empty for a spectator."""
    seats: tuple[SeatView, SeatView]
    current_player: int | None
    set_number: int
    phase: Phase
    pot: int
    winner: int | None
    results: tuple[SetResult, ...]
    pool_left: int
    """How many main-deck cards are left (0 when the main deck is infinite)."""


def view(state: PazaakState, viewer: int | None) -> PazaakView:
    """The state as ``viewer`` may see it (None: a spectator). Raises NotSeated for a stranger."""
    seat = None if viewer is None else seat_index(state, viewer)
    if viewer is not None and seat is None:
        raise NotSeated(player=viewer)
    a, b = (
        SeatView(p.id, p.table, p.total, p.standing, p.sets_won, len(p.hand), p.played_tiebreaker)
        for p in state.players
    )
    return PazaakView(
        viewer,
        () if seat is None else state.players[seat].hand,
        (a, b),
        state.current_player,
        state.set_number,
        state.phase,
        state.pot,
        state.winner,
        state.results,
        len(state.pool),
    )


def card_value(side: SideCard, value: int | None, table: Sequence[TableCard]) -> int:
    """What ``side`` counts as when played as ``value`` on ``table``, or a typed error."""
    if side.kind == "double":
        if not table:
            raise DoubleOnEmptyTable()
        allowed: tuple[int, ...] = (table[-1].value,)
    else:
        allowed = side.values
    if value is None:
        if len(allowed) == 1:
            return allowed[0]
    elif value in allowed:
        return value
    raise IllegalCardValue(card=side.code, value=value, allowed=allowed)
