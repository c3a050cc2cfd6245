"""Pazaak: table settings, typed errors and the immutable match state.

The state is made of frozen slotted dataclasses and tuples (no pydantic in the hot path). Only
the reducer (:mod:`bot.rules.pazaak.reducer`) builds new states.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from pydantic import Field

from bot.rules.common import KEEP, Keep, RulesError, TableSettings
from bot.rules.money import CREDITS
from bot.rules.pazaak.cards import SideCard

TARGET = 20
"""The total to reach; over it is a bust."""
NINE_CARDS = 9
"""Nine cards on a table without busting win the set (option ``nine_card_win``)."""
MAIN_COPIES = 8
"""Copies of each value 1..10 in the pool: four in each player's main deck."""
MAIN_POOL: tuple[int, ...] = tuple(value for value in range(1, 11) for _ in range(MAIN_COPIES))
"""Both players' main decks together: 80 cards, eight of each value 1..10 (four per deck)."""

# The bounds of every numeric setting (the slash commands import them too).
MAX_WAGER = CREDITS.cap
"""The highest wager: the money cap, in credits."""
MAX_SETS_TO_WIN = 50
MIN_TURN_TIMEOUT = 1
MAX_TURN_TIMEOUT = 24 * 3600
"""Seconds a turn may last: from 1 s to a day."""
MAX_TIMEOUTS_TO_FORFEIT = 10
MAX_DETECTION_MODIFIER = 100
"""The detection modifier is -100..100."""
MAX_PERCEPTION = 100
"""Perception is 0..100: the chance in percent, before the modifier, to catch a swap."""

TurnEnd = Literal["end_turn", "stand", "timeout"]
StandReason = Literal["stand", "timeout", "twenty"]
SetEndReason = Literal["bust", "nine_cards", "higher_total", "tiebreaker", "tie", "cheat"]
MatchEndReason = Literal["sets", "forfeit", "timeouts", "caught"]
Skill = Literal["redraw", "swap"]
"""Luck's redraw and Gamble's swap: each once per match, with the option ``skills``."""
Verdict = Literal["pardon", "lose_set", "forfeit"]
"""The GM's ruling on a caught swap (option ``cheat_ruling="gm"``)."""
VERDICTS: tuple[Verdict, ...] = ("pardon", "lose_set", "forfeit")


class Phase(StrEnum):
    DEALING = "dealing"
    PLAYING = "playing"
    OVER = "over"


class PazaakSettings(TableSettings):
    """The table settings of one match. Money is whole credits; times are seconds."""

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
    turn_timeout: int = Field(default=300, ge=MIN_TURN_TIMEOUT)
    """Seconds a player has for a turn; then the service sends a ``Timeout`` action."""
    timeouts_to_forfeit: int = Field(default=3, ge=1)
    """That many timeouts in a row by one player forfeit the match."""
    skills: bool = False
    """Whether the characters' Luck (a redraw) and Gamble (a hidden swap) may be used."""
    detection_modifier: int = Field(0, ge=-MAX_DETECTION_MODIFIER, le=MAX_DETECTION_MODIFIER)
    """Added to the opponent's Perception in the test against a swap."""
    cheat_ruling: Literal["forfeit", "gm"] = "forfeit"
    """A caught swap forfeits the match, or waits for the GM's :class:`RuleOnCheat`."""

    def upper_bounds(self) -> tuple[tuple[str, int | None, int], ...]:
        return (
            ("wager", self.wager, MAX_WAGER),
            ("sets_to_win", self.sets_to_win, MAX_SETS_TO_WIN),
            ("turn_timeout", self.turn_timeout, MAX_TURN_TIMEOUT),
            ("timeouts_to_forfeit", self.timeouts_to_forfeit, MAX_TIMEOUTS_TO_FORFEIT),
        )


@dataclass(frozen=True, slots=True)
class Traits:
    """A character's traits that count at the table when the option ``skills`` is on."""

    luck: bool = False
    """May redraw once per match."""
    gamble: bool = False
    """May swap a hand card in secret once per match."""
    perception: int = 0
    """0..100: the test against the opponent's swap is d100 <= this + the detection modifier."""


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
    """Timeouts in a row; playing a card, End turn and Stand reset it."""
    traits: Traits = Traits()
    played: tuple[SideCard, ...] = ()
    """The hand cards played this match, in order (they are out of the side deck until the end)."""
    redrew: bool = False
    """Luck's redraw was used this match."""
    swapped: bool = False
    """Gamble's swap was used this match (a pardon undoes the swap, not the use)."""

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
class PendingRuling:
    """A caught swap awaiting the GM's verdict, with what undoing it needs."""

    cheater: int
    hand_index: int
    card_out: SideCard
    """The hand card given up (back in the side deck)."""
    card_in: SideCard
    """The side-deck card taken into the hand at ``hand_index``."""


@dataclass(frozen=True, slots=True)
class PazaakState:
    settings: PazaakSettings
    players: tuple[PlayerState, PlayerState]
    pool: tuple[int, ...] = ()
    """The remaining main-deck order this set, next card first (empty when ``infinite``)."""
    set_number: int = 0
    turn_seat: int = 0
    """The seat (0 or 1) whose turn it is; see ``current_player`` for the id."""
    starter_seat: int = 0
    """The seat (0 or 1) that started the current set (``SetStarted.starter`` is its id)."""
    phase: Phase = Phase.DEALING
    pot: int = 0
    winner: int | None = None
    results: tuple[SetResult, ...] = ()
    ruling: PendingRuling | None = None
    """A caught swap the GM must rule on; meanwhile nobody's turn goes on."""
    last_swap: PendingRuling | None = None
    """The match's latest swap, secret, kept for a ``RulingRequested`` to become ``ruling``."""

    @property
    def current_player(self) -> int | None:
        """The id of the player who may act now, or None when nobody may (also while the GM
        rules on a swap, so the turn timer stops)."""
        if self.phase is not Phase.PLAYING or self.ruling is not None:
            return None
        return self.players[self.turn_seat].id


def table_total(table: Sequence[TableCard]) -> int:
    """What a table counts now."""
    total = 0
    for table_card in table:
        total += table_card.value
    return total


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


class InvalidTraits(RulesError):
    """A player's traits are out of range (``player``, ``field``, ``value``): Perception
    outside 0..100."""

    code = "pazaak_invalid_traits"


class SkillsOff(RulesError):
    """The table plays without the option ``skills``."""

    code = "pazaak_skills_off"


class NoSuchTrait(RulesError):
    """The player lacks the ``trait`` (``luck`` or ``gamble``) the skill needs."""

    code = "pazaak_no_such_trait"


class SkillUsed(RulesError):
    """The ``skill`` (``redraw`` or ``swap``) was already used this match."""

    code = "pazaak_skill_used"


class RedrawTooLate(RulesError):
    """A redraw comes right after the turn's draw: not once a hand card is played."""

    code = "pazaak_redraw_too_late"


class NotInSideDeck(RulesError):
    """The ``card`` asked for is not among the side deck's cards out of the hand and unplayed."""

    code = "pazaak_not_in_side_deck"


class RulingPending(RulesError):
    """The GM must rule on a caught swap first; only the ruling and a forfeit are taken."""

    code = "pazaak_ruling_pending"


class NoRulingPending(RulesError):
    """No caught swap of ``cheater`` awaits a ruling."""

    code = "pazaak_no_ruling_pending"


# --- fast copies ------------------------------------------------------------------------------
# As in Pegaz: ``dataclasses.replace`` made bench/rules.py's playouts 15-30% slower, and NPC
# players step matches thousands of times per decision.


def player_with(
    p: PlayerState,
    *,
    hand: tuple[SideCard, ...] | Keep = KEEP,
    table: tuple[TableCard, ...] | Keep = KEEP,
    standing: bool | Keep = KEEP,
    sets_won: int | Keep = KEEP,
    played_card_this_turn: bool | Keep = KEEP,
    timeouts: int | Keep = KEEP,
    played: tuple[SideCard, ...] | Keep = KEEP,
    redrew: bool | Keep = KEEP,
    swapped: bool | Keep = KEEP,
) -> PlayerState:
    """A copy of ``p`` with the given fields changed (the traits never change)."""
    return PlayerState(
        p.id,
        p.selection,
        p.hand if hand is KEEP else hand,
        p.table if table is KEEP else table,
        p.standing if standing is KEEP else standing,
        p.sets_won if sets_won is KEEP else sets_won,
        p.played_card_this_turn if played_card_this_turn is KEEP else played_card_this_turn,
        p.timeouts if timeouts is KEEP else timeouts,
        p.traits,
        p.played if played is KEEP else played,
        p.redrew if redrew is KEEP else redrew,
        p.swapped if swapped is KEEP else swapped,
    )


def state_with(
    s: PazaakState,
    *,
    players: tuple[PlayerState, PlayerState] | Keep = KEEP,
    pool: tuple[int, ...] | Keep = KEEP,
    set_number: int | Keep = KEEP,
    turn_seat: int | Keep = KEEP,
    starter_seat: int | Keep = KEEP,
    phase: Phase | Keep = KEEP,
    pot: int | Keep = KEEP,
    winner: int | Keep | None = KEEP,
    results: tuple[SetResult, ...] | Keep = KEEP,
    ruling: PendingRuling | Keep | None = KEEP,
    last_swap: PendingRuling | Keep | None = KEEP,
) -> PazaakState:
    """A copy of ``s`` with the given fields changed."""
    return PazaakState(
        s.settings,
        s.players if players is KEEP else players,
        s.pool if pool is KEEP else pool,
        s.set_number if set_number is KEEP else set_number,
        s.turn_seat if turn_seat is KEEP else turn_seat,
        s.starter_seat if starter_seat is KEEP else starter_seat,
        s.phase if phase is KEEP else phase,
        s.pot if pot is KEEP else pot,
        s.winner if winner is KEEP else winner,
        s.results if results is KEEP else results,
        s.ruling if ruling is KEEP else ruling,
        s.last_swap if last_swap is KEEP else last_swap,
    )
