"""Pazaak events: what happened in a match, their JSON form, the money they move and who may
see them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from bot.rules.common import POT, Transfer
from bot.rules.pazaak.cards import SideCard
from bot.rules.pazaak.state import (
    MatchEndReason,
    PazaakSettings,
    SetEndReason,
    StandReason,
    Traits,
    TurnEnd,
    Verdict,
)

Audience = Literal["public", "private", "gm"]
"""Who may see an event: everyone; only ``event.player`` and the GM; only the GM."""

# --- events -------------------------------------------------------------------------------------
# ``kind`` comes last, with a default, so events can be built positionally.


@dataclass(frozen=True, slots=True)
class MatchStarted:
    """The match begins; both wagers go into the pot (see ``transfers``)."""

    settings: PazaakSettings
    players: tuple[int, int]
    selections: tuple[tuple[SideCard, ...], tuple[SideCard, ...]]
    traits: tuple[Traits, Traits] = (Traits(), Traits())
    """In seat order; logs from before skills existed have none."""
    kind: Literal["match_started"] = "match_started"


@dataclass(frozen=True, slots=True)
class HandDealt:
    """Four of the player's selection, dealt at random. Secret: send it by DM."""

    player: int
    cards: tuple[SideCard, ...]
    kind: Literal["hand_dealt"] = "hand_dealt"


@dataclass(frozen=True, slots=True)
class SetStarted:
    set_number: int
    starter: int
    pool: tuple[int, ...]
    """The shuffled 80-card pool, next card first; empty when the main deck is infinite."""
    kind: Literal["set_started"] = "set_started"


@dataclass(frozen=True, slots=True)
class TurnStarted:
    player: int
    kind: Literal["turn_started"] = "turn_started"


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """The automatic draw from the main deck at the start of a turn."""

    player: int
    value: int
    kind: Literal["card_drawn"] = "card_drawn"


@dataclass(frozen=True, slots=True)
class CardPlayed:
    player: int
    hand_index: int
    card: SideCard
    value: int
    """What the card counts as when played (0 for a flip, the copied value for D)."""
    kind: Literal["card_played"] = "card_played"


@dataclass(frozen=True, slots=True)
class TurnEnded:
    player: int
    how: TurnEnd
    kind: Literal["turn_ended"] = "turn_ended"


@dataclass(frozen=True, slots=True)
class Stood:
    player: int
    reason: StandReason
    kind: Literal["stood"] = "stood"


@dataclass(frozen=True, slots=True)
class SetEnded:
    set_number: int
    winner: int | None
    reason: SetEndReason
    totals: tuple[int, int]
    kind: Literal["set_ended"] = "set_ended"


@dataclass(frozen=True, slots=True)
class Redrawn:
    """Luck: the turn's draw ``value`` went back into the main deck; a :class:`CardDrawn` follows.

    ``pool`` is the whole main deck reshuffled with it, next card first (empty when infinite).
    """

    player: int
    value: int
    pool: tuple[int, ...]
    kind: Literal["redrawn"] = "redrawn"


@dataclass(frozen=True, slots=True)
class Swapped:
    """Gamble, secret: the hand card ``out`` at ``hand_index`` was swapped for ``card``."""

    player: int
    hand_index: int
    out: SideCard
    card: SideCard
    kind: Literal["swapped"] = "swapped"


@dataclass(frozen=True, slots=True)
class DetectionRoll:
    """GM only: ``player``'s test against ``cheater``'s swap, caught when ``roll <= target``."""

    player: int
    cheater: int
    roll: int
    """d100, 1..100."""
    target: int
    """Perception plus the table's detection modifier."""
    kind: Literal["detection_roll"] = "detection_roll"

    @property
    def success(self) -> bool:
        return self.roll <= self.target


@dataclass(frozen=True, slots=True)
class Caught:
    """Public: ``by`` caught ``cheater`` swapping. A :class:`MatchEnded` or a
    :class:`RulingRequested` follows, by the option ``cheat_ruling``."""

    cheater: int
    by: int
    kind: Literal["caught"] = "caught"


@dataclass(frozen=True, slots=True)
class RulingRequested:
    """The GM must rule on ``cheater``'s caught swap (what it was is in the state, not here)."""

    cheater: int
    kind: Literal["ruling_requested"] = "ruling_requested"


@dataclass(frozen=True, slots=True)
class Ruled:
    """The GM's verdict. ``pardon`` and ``lose_set`` undo the swap; ``lose_set`` is followed by
    a :class:`SetEnded` (reason ``cheat``), ``forfeit`` by a :class:`MatchEnded` (``caught``)."""

    cheater: int
    verdict: Verdict
    kind: Literal["ruled"] = "ruled"


@dataclass(frozen=True, slots=True)
class MatchEnded:
    """The winner takes the pot (see ``transfers``)."""

    winner: int
    pot: int
    reason: MatchEndReason
    kind: Literal["match_ended"] = "match_ended"


Event = (
    MatchStarted
    | HandDealt
    | SetStarted
    | TurnStarted
    | CardDrawn
    | CardPlayed
    | TurnEnded
    | Stood
    | SetEnded
    | MatchEnded
    | Redrawn
    | Swapped
    | DetectionRoll
    | Caught
    | RulingRequested
    | Ruled
)


@cache
def _adapter() -> TypeAdapter[list[Event]]:
    """Built when first used, not at import (it costs some 60 ms of the bot's start)."""
    return TypeAdapter(list[Annotated[Event, Field(discriminator="kind")]])


def dump_events(events: Sequence[Event]) -> bytes:
    """The events as JSON (side cards as their codes)."""
    return _adapter().dump_json(list(events))


def load_events(data: bytes) -> list[Event]:
    """The inverse of :func:`dump_events`."""
    return _adapter().validate_json(data)


def transfers(event: Event) -> tuple[Transfer, ...]:
    """The money an event moves: the escrow at the start, the payout at the end (whatever ended
    the match: sets, a forfeit, timeouts, a caught swap)."""
    if isinstance(event, MatchStarted):
        wager = event.settings.wager
        if not wager:
            return ()
        return tuple(Transfer(player, POT, wager, "escrow") for player in event.players)
    if isinstance(event, MatchEnded) and event.pot:
        return (Transfer(POT, event.winner, event.pot, "payout"),)
    return ()


_PRIVATE = (HandDealt, Swapped)


def audience(event: Event) -> Audience:
    """Who may see an event's content: ``private`` is ``event.player`` and the GM (a hand, a
    swap), ``gm`` the GM alone (a detection roll, also a missed one). Everything else is public,
    such as :class:`Caught` and :class:`Ruled`."""
    if isinstance(event, _PRIVATE):
        return "private"
    if isinstance(event, DetectionRoll):
        return "gm"
    return "public"
