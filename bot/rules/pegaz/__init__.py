"""Three-Card Pegasus (Trzykartowy Pegaz): the pure rules core.

The rules are ``shared/rules/pegaz.md``; this module implements them as an immutable state,
actions, and events. ``apply(state, action, rng)`` validates an action, builds its events (drawing
every card and d100 from ``rng`` into them) and folds them with the same reducer that
:func:`replay` uses. An illegal action raises a :class:`~bot.rules.common.RulesError` subclass
and changes nothing. This package's face; the code lives in its modules: cards (creatures,
ranking, odds), state (settings, errors, state), actions, events, reducer, queries (read-only
questions such as ``legal_actions``), steps (what every action shares), engine (``apply``) and
view (``view``: a table as one seat may know it, the only thing a computer player is given).

Decisions taken by the brief
----------------------------
- Modifier step: after the deal everyone with Luck or Gamble chooses in secret, simultaneously;
  round 1 starts when all have chosen (a timeout keeps). After a player's exchange, that player's
  step comes before the turn passes. Luck or Gamble: one +-1 shift, wrapping on the dN. Both: up
  to two +-1 shifts on different cards. Cheat (Gamble only): one +-2 shift and nothing else.
- Detection: each other player rolls d100 <= Perception + the table's modifier; one success
  catches. Caught: expelled (cards dead, stakes stay in the pot), or with ``cheat_ruling="gm"``
  the game waits for :class:`RuleOnCheat`.
- Exchange rounds 1..E in seat order: pay ``(1 + k) * S'`` with ``S <= S' <= S + raise_limit``
  and ``S' <= max_stake``; a raise sets S for later payments, nobody tops up. A player who cannot
  pay S when the turn comes is out (``Folded(reason="broke")``). Checks from round 2 on take the
  turn and cost 3S; the weaker hand goes out, equal hands both. After E rounds (or, unlimited, a
  full round in which nobody exchanged a card) each turn is check or fold; a player who cannot
  afford a check is out (``"cannot_check"``). Turn timeout = fold.
- One player left takes the pot. If the last ones go out together (a check tie, or everyone left
  expelled), they split it evenly, the odd pennies to the earlier seats, or with
  ``tie="rollover"`` the pot stays for the next game. Winners may then give 10% (floor) to Ranald.
- Deck source: N creatures x 4, drawn without replacement; exchanged cards and the cards of
  players who go out are discarded (as the cards that were dealt, whatever Luck, Gamble or a
  cheat showed on them); the discard pile is reshuffled when the deck runs out.
- One spelling per move: an :class:`Exchange` always names its stake (the current one, or a
  raise), as ``legal_actions`` lists it, so a payment agreed at one stake is refused rather
  than repriced if the stake moved.
- What the table saw stays on the seats (:attr:`Seat.swaps`, :attr:`Seat.shown`), so
  :func:`view` gives a seat all it may know without the event log.
- Every int in an action (ids, amounts, card indexes, shifts) must be an int, and every yes/no a
  bool: ``12.5``, ``2.0`` or ``True`` as an amount is refused (``InvalidValue``).
- Settings are bounded (``MAX_EXCHANGES``, ``MAX_STAKE``, ``MAX_RAISE_LIMIT``,
  ``MIN_TURN_TIMEOUT``..``MAX_TURN_TIMEOUT``), checked where a table opens (``new_table``)
  and by ``PegazSettings.parse``, not when a stored table is read back.

[house] decisions
-----------------
1. After an exchange the modifier step touches only the newly dealt cards (the source: "the
   exchange is a re-roll, with the same modifiers as before"), so two shifts need two new cards.
   Exchanging no cards gives no modifier step.
2. Only players still in the game (not folded or out) make detection tests.
3. A caught cheater the GM pardons (``RuleOnCheat(expel=False)``) stays in, but the cheat is
   undone: the card returns to its face before the +-2 shift. While a ruling is pending, turns
   wait (secret modifier choices do not), and the game cannot end.
4. At most 8 seats. Round 1 (and every round) runs in join order from the first seat still in.
5. A raise is allowed with any exchange, including exchanging no cards.
6. An exchange draws from the deck; if the deck runs short, the player takes what is left, the
   discard pile is reshuffled into the deck and the draw goes on. The cards given up go to the
   discard pile only after the draw, so they never come straight back. An exchange may take at
   most as many cards as there are to draw (``exchangeable``, else ``NoCardsToDraw``): with 8
   seats on a 24-card deck, an exchange of no cards only, until somebody goes out. (Rules
   version 1, kept for tables opened under it, discarded them first and let them come back.)
7. The offering is a tenth (floor) of what the winner took from the pot, own stakes included;
   a winner whose tenth is 0 is not asked. A timeout declines.
8. Cancel refunds what each player paid in this game; a carried pot stays in the pot. Once the
   pot is paid out, Cancel only declines the pending offerings (the game is then finished).
9. Leave is allowed only before the start, with the ante refunded. Who may start or cancel is
   the caller's business, not the rules'.
10. A check costs 3S even when the checker loses it.
11. A forced fold happens when the turn comes: ``TurnStarted`` then ``Folded("broke")``.
12. Everyone left expelled can only happen with GM rulings (otherwise the game ends as soon as one
    is left). No cheater takes a coin: the whole pot rolls over to the next game at the table,
    whatever the ``tie`` setting (``GameEnded(expelled=True)``), as a caught cheater's stakes
    stay in the pot. (Rules version 1 let them share it like a tie.) A tie share among more than
    two gives the odd pennies one each to the earliest seats.
13. A rolled-over pot has no winner, so nobody is asked for an offering.
14. Perception must be 0..100 at join (``InvalidPlayer``); the detection modifier -100..100.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.rules.common import GameRules
from bot.rules.pegaz.actions import (
    Action,
    Cancel,
    Cheat,
    Check,
    Exchange,
    Fold,
    Join,
    Keep,
    Leave,
    Modify,
    Offer,
    RuleOnCheat,
    Start,
    SyncFunds,
    Timeout,
)
from bot.rules.pegaz.cards import (
    DICE,
    Category,
    Comparison,
    Creature,
    HandOdds,
    HandRank,
    beat_probability,
    category_odds,
    compare,
    creature,
    creatures,
    deals,
    hand_odds,
    rank,
    rank_key,
    shift,
)
from bot.rules.pegaz.engine import (
    apply,
    new_table,
)
from bot.rules.pegaz.events import (
    Audience,
    Cancelled,
    Caught,
    Checked,
    Dealt,
    Detection,
    DetectionRoll,
    Drew,
    Event,
    Exchanged,
    Expelled,
    Folded,
    FundsSynced,
    GameEnded,
    Joined,
    Left,
    ModifierChosen,
    Offered,
    Reshuffled,
    Ruled,
    RulingRequested,
    Started,
    TableOpened,
    TurnStarted,
    audience,
    dump_events,
    load_events,
    transfers,
)
from bot.rules.pegaz.queries import (
    check_price,
    checks_allowed,
    exchange_price,
    exchange_terms,
    exchangeable,
    expelled_all,
    funds_sync,
    hand_of,
    is_over,
    is_settled,
    legal_actions,
    require_open_seat,
    seat_of,
    stake_bounds,
    to_act,
    whose_turn,
)
from bot.rules.pegaz.reducer import (
    fold,
    initial_state,
    replay,
)
from bot.rules.pegaz.state import (
    MAX_DETECTION_MODIFIER,
    MAX_EXCHANGES,
    MAX_RAISE_LIMIT,
    MAX_SEATS,
    MAX_STAKE,
    MAX_TURN_TIMEOUT,
    MIN_TURN_TIMEOUT,
    RULES_VERSION,
    CheckNotAllowed,
    IllegalExchange,
    IllegalModifier,
    InvalidPlayer,
    NoCardsToDraw,
    NotEnoughPlayers,
    PegazSettings,
    PegazState,
    Phase,
    RaiseTooHigh,
    Seat,
    SeatStatus,
    StakeOverMax,
    TableFull,
)
from bot.rules.pegaz.view import (
    PegazView,
    SeatView,
    view,
)

GAME = "pegaz"
"""The game key the storage and service layers file this game under."""

__all__ = [
    "DICE",
    "GAME",
    "MAX_DETECTION_MODIFIER",
    "MAX_EXCHANGES",
    "MAX_RAISE_LIMIT",
    "MAX_SEATS",
    "MAX_STAKE",
    "MAX_TURN_TIMEOUT",
    "MIN_TURN_TIMEOUT",
    "RULES_VERSION",
    "Action",
    "Audience",
    "Cancel",
    "Cancelled",
    "Category",
    "Caught",
    "Cheat",
    "Check",
    "CheckNotAllowed",
    "Checked",
    "Comparison",
    "Creature",
    "Dealt",
    "Detection",
    "DetectionRoll",
    "Drew",
    "Event",
    "Exchange",
    "Exchanged",
    "Expelled",
    "Fold",
    "Folded",
    "FundsSynced",
    "GameEnded",
    "HandOdds",
    "HandRank",
    "IllegalExchange",
    "IllegalModifier",
    "InvalidPlayer",
    "Join",
    "Joined",
    "Keep",
    "Leave",
    "Left",
    "ModifierChosen",
    "Modify",
    "NoCardsToDraw",
    "NotEnoughPlayers",
    "Offer",
    "Offered",
    "PegazSettings",
    "PegazState",
    "PegazView",
    "Phase",
    "RaiseTooHigh",
    "Reshuffled",
    "RuleOnCheat",
    "Ruled",
    "RulingRequested",
    "Seat",
    "SeatStatus",
    "SeatView",
    "StakeOverMax",
    "Start",
    "Started",
    "SyncFunds",
    "TableFull",
    "TableOpened",
    "Timeout",
    "TurnStarted",
    "apply",
    "audience",
    "beat_probability",
    "category_odds",
    "check_price",
    "checks_allowed",
    "compare",
    "creature",
    "creatures",
    "deals",
    "dump_events",
    "exchange_price",
    "exchange_terms",
    "exchangeable",
    "expelled_all",
    "fold",
    "funds_sync",
    "hand_odds",
    "hand_of",
    "initial_state",
    "is_over",
    "is_settled",
    "legal_actions",
    "load_events",
    "new_table",
    "rank",
    "rank_key",
    "replay",
    "require_open_seat",
    "seat_of",
    "shift",
    "stake_bounds",
    "to_act",
    "transfers",
    "view",
    "whose_turn",
]

if TYPE_CHECKING:  # mypy checks that this module is a GameRules
    from bot.rules import pegaz as _self

    _rules: GameRules[PegazState, Action, Event] = _self
