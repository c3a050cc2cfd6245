"""Three-Card Pegasus events: what happened, as data, with their money and their audience.

Every random outcome (each card, each d100) lives in an event, so a replay needs nothing but the
events (:mod:`bot.rules.pegaz.reducer` folds them). Events serialise to JSON and back exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from bot.rules.common import OFFERING, POT, Transfer
from bot.rules.pegaz.state import PegazSettings

Audience = Literal["public", "player", "gm"]
"""Who may see an event: everyone; only ``event.player`` (and the GM); only the GM."""


@dataclass(frozen=True, slots=True)
class TableOpened:
    settings: PegazSettings
    rules_version: int = 1
    """The rules the table plays by (:data:`~bot.rules.pegaz.state.RULES_VERSION`); logs from
    before the field existed are version 1."""
    kind: Literal["table_opened"] = "table_opened"


@dataclass(frozen=True, slots=True)
class Joined:
    player: int
    luck: bool
    gamble: bool
    perception: int
    funds: int
    """The purse the player brought, before the ante."""
    ante: int
    kind: Literal["joined"] = "joined"


@dataclass(frozen=True, slots=True)
class Left:
    player: int
    refund: int
    kind: Literal["left"] = "left"


@dataclass(frozen=True, slots=True)
class Started:
    player: int
    kind: Literal["started"] = "started"


@dataclass(frozen=True, slots=True)
class Dealt:
    """Private: the three cards a player was dealt."""

    player: int
    cards: tuple[int, ...]
    kind: Literal["dealt"] = "dealt"


@dataclass(frozen=True, slots=True)
class ModifierChosen:
    """Private: a modifier choice. ``shifts`` empty = kept; a single +-2 shift is a cheat."""

    player: int
    shifts: tuple[tuple[int, int], ...]
    timeout: bool = False
    kind: Literal["modifier_chosen"] = "modifier_chosen"

    @property
    def cheat(self) -> bool:
        return any(abs(d) == 2 for _, d in self.shifts)


@dataclass(frozen=True, slots=True)
class DetectionRoll:
    player: int
    roll: int
    """d100, 1..100."""
    target: int
    """Perception plus the table's modifier: the roll succeeds when ``roll <= target``."""

    @property
    def success(self) -> bool:
        return self.roll <= self.target


@dataclass(frozen=True, slots=True)
class Detection:
    """GM only: every watcher's test against one cheat (announce only a :class:`Caught`)."""

    cheater: int
    rolls: tuple[DetectionRoll, ...]
    kind: Literal["detection"] = "detection"


@dataclass(frozen=True, slots=True)
class Caught:
    """Public: who caught whom."""

    cheater: int
    caught_by: tuple[int, ...]
    kind: Literal["caught"] = "caught"


@dataclass(frozen=True, slots=True)
class Expelled:
    player: int
    kind: Literal["expelled"] = "expelled"


@dataclass(frozen=True, slots=True)
class RulingRequested:
    cheater: int
    card: int
    delta: int
    kind: Literal["ruling_requested"] = "ruling_requested"


@dataclass(frozen=True, slots=True)
class Ruled:
    """The GM's ruling. A pardon undoes the cheat; an expulsion follows as :class:`Expelled`."""

    cheater: int
    expel: bool
    kind: Literal["ruled"] = "ruled"


@dataclass(frozen=True, slots=True)
class TurnStarted:
    player: int
    round: int
    phase: Literal["exchange", "checks"]
    kind: Literal["turn"] = "turn"


@dataclass(frozen=True, slots=True)
class Exchanged:
    """Public: a payment of ``price`` at stake ``stake``, giving up the cards at these indexes."""

    player: int
    cards: tuple[int, ...]
    stake: int
    price: int
    kind: Literal["exchanged"] = "exchanged"


@dataclass(frozen=True, slots=True)
class Drew:
    """Private: new faces for the given card indexes."""

    player: int
    cards: tuple[int, ...]
    faces: tuple[int, ...]
    kind: Literal["drew"] = "drew"


@dataclass(frozen=True, slots=True)
class Reshuffled:
    """The discard pile (``count`` cards) became the deck."""

    count: int
    kind: Literal["reshuffled"] = "reshuffled"


@dataclass(frozen=True, slots=True)
class Checked:
    """Public: both hands are shown; ``out`` lists who went out (both on a tie)."""

    player: int
    target: int
    price: int
    player_hand: tuple[int, ...]
    target_hand: tuple[int, ...]
    out: tuple[int, ...]
    kind: Literal["checked"] = "checked"


@dataclass(frozen=True, slots=True)
class Folded:
    player: int
    reason: Literal["fold", "timeout", "broke", "cannot_check"]
    kind: Literal["folded"] = "folded"


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The last one standing takes the pot, or the last ones out together share it.

    ``amounts[i]`` goes to ``players[i]``; with a rollover every amount is 0 and
    ``rolled_over`` stays in the pot for the next game at this table.
    """

    players: tuple[int, ...]
    amounts: tuple[int, ...]
    rolled_over: int = 0
    expelled: bool = False
    """Everyone still in was expelled for cheating: nobody takes the pot, which rolls over to
    the next game at this table whatever the ``tie`` setting (rules version 2)."""
    kind: Literal["game_ended"] = "game_ended"


@dataclass(frozen=True, slots=True)
class Offered:
    """A winner's decision on Ranald's tenth (``amount`` moves only when ``accepted``)."""

    player: int
    amount: int
    accepted: bool
    timeout: bool = False
    kind: Literal["offered"] = "offered"


@dataclass(frozen=True, slots=True)
class Cancelled:
    refunds: tuple[tuple[int, int], ...]
    """``(player, amount)``: each stake still in the pot goes back to whoever paid it."""
    kind: Literal["cancelled"] = "cancelled"


@dataclass(frozen=True, slots=True)
class FundsSynced:
    """A seat's funds follow its purse, changed outside the game (no money moves here)."""

    player: int
    funds: int
    kind: Literal["funds_synced"] = "funds_synced"


Event = Annotated[
    TableOpened
    | Joined
    | Left
    | Started
    | Dealt
    | ModifierChosen
    | Detection
    | Caught
    | Expelled
    | RulingRequested
    | Ruled
    | TurnStarted
    | Exchanged
    | Drew
    | Reshuffled
    | Checked
    | Folded
    | GameEnded
    | Offered
    | Cancelled
    | FundsSynced,
    Field(discriminator="kind"),
]


# --- money and visibility -----------------------------------------------------------------------


def transfers(event: Event) -> tuple[Transfer, ...]:
    """The money movements an event causes (empty for most events)."""
    if isinstance(event, Joined):
        return (Transfer(event.player, POT, event.ante, "ante"),)
    if isinstance(event, Left):
        return (Transfer(POT, event.player, event.refund, "refund"),) if event.refund else ()
    if isinstance(event, Exchanged):
        return (Transfer(event.player, POT, event.price, "exchange"),)
    if isinstance(event, Checked):
        return (Transfer(event.player, POT, event.price, "check"),)
    if isinstance(event, GameEnded):
        reason = "payout" if len(event.players) == 1 else "split"
        return tuple(
            Transfer(POT, p, a, reason)
            for p, a in zip(event.players, event.amounts, strict=True)
            if a
        )
    if isinstance(event, Offered):
        return (
            (Transfer(event.player, OFFERING, event.amount, "offering"),) if event.accepted else ()
        )
    if isinstance(event, Cancelled):
        return tuple(Transfer(POT, p, a, "refund") for p, a in event.refunds if a)
    return ()


_PRIVATE = (Dealt, Drew, ModifierChosen)
_GM_ONLY = (Detection, RulingRequested)


def audience(event: Event) -> Audience:
    """Who may see an event's content.

    ``"player"``: only ``event.player`` (the UI may still say publicly that the player has
    decided or drawn). ``"gm"``: the GM alone (every detection roll, the cheat under ruling).
    Everything else is public, such as :class:`Caught` (who caught whom) and :class:`Checked`.
    """
    if isinstance(event, _PRIVATE):
        return "player"
    if isinstance(event, _GM_ONLY):
        return "gm"
    return "public"


@cache
def _adapter() -> TypeAdapter[list[Event]]:
    return TypeAdapter(list[Event])


def dump_events(events: Sequence[Event]) -> bytes:
    """Events as JSON bytes (a list of objects with a ``kind``)."""
    return _adapter().dump_json(list(events))


def load_events(data: bytes) -> list[Event]:
    """The inverse of :func:`dump_events`: equal events, tuples as tuples."""
    return _adapter().validate_json(data)
