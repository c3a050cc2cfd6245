"""Pazaak (Star Wars: KOTOR): the pure rules core. The rules are ``shared/rules/pazaak.md``.

A match begins with :func:`new_match`; every later move is an action passed to :func:`apply`. An
action is validated, turned into events (drawing any randomness from the injected RNG), and the
events are folded with the same reducer :func:`replay` uses, so a replayed log equals the live
match by construction. This package's face; the code lives in its modules, shaped as Pegaz's:
cards (side cards, selections), state (settings, errors, state), actions, events, reducer,
queries (read-only questions such as ``legal_actions`` and ``play_terms``) and engine
(``new_match``, ``apply``).

[house] decisions (beyond the ones marked in the rules page):

- Timing of the checks: the bust check, then the nine-card check, then the auto-stand at 20 are
  made at the end of the player's own turn (End turn, Stand or Timeout), in that order. So a minus
  card played in the same turn saves a bust, nine cards over 20 are a bust, and nine cards that
  total exactly 20 win the set rather than stand.
- Nine cards means nine or more cards of any origin on the table (a hand card may be the tenth).
- A Flip changes the sign of every card *counting* ±2/±4 (resp. ±3/±6) on the player's own table
  right now: main-deck cards and side cards alike (a D that counts 4 is flipped too). The flip card
  itself counts 0 and is not flipped by later flips.
- D copies the value the last card on one's own table counts now. As the turn's draw comes first,
  in play that is the card just drawn; D on an empty table is refused anyway.
- A T wins a tie whether it was played as +1 or -1; only T cards played in this set count.
- Starter: set 1 is random. With ``starter="loser"``, the loser of the last set starts the next;
  after a tied set the other player starts (as with ``alternate``), so nobody starts twice in a row
  on a tie.
- A standing player takes no more turns this set; the other keeps taking turns (drawing each time)
  until they stand, bust, reach 20 or fill nine cards. Then both stand and the totals compare.
- Timeout: the player stands (and a bust at that moment still loses). Timeouts count per player in
  a row; any real action of that player (playing a card, End turn, Stand) resets the count. The
  ``timeouts_to_forfeit``-th timeout in a row forfeits the match instead of standing.
- Forfeit is allowed to either player at any time during the match, also while standing or out of
  turn; the other player wins the pot.
- A player who is standing and presses End turn / Stand / plays a card gets ``AlreadyStanding``
  (clearer than ``NotYourTurn``).
- For a card with one value (``+N``, ``-N``, flips, D) ``PlayCard.value`` may be None or that very
  value; for a card with a choice (``±N``, T, ``±1/2``) it is required.
- The hand keeps its deal order; playing a card closes the gap, so later indices shift down.
- ``legal_actions`` leaves out ``Timeout``: only the service's turn timer sends it.
- The pot is exactly both wagers and goes whole to the winner; a wager of 0 moves no money.
- Sets are not capped: ties score nothing, so a match lasts until someone wins ``sets_to_win``.
- The 80-card pool cannot run out within a set, so it is never reshuffled mid-set: tables stay
  at most 20 between turns, and minus cards (at most 4 x 6 each) and flips (at most the pool's
  2s, 3s, 4s and 6s, 120 in all) can take back little, so one set's draws total at most
  56 + 48 + 2 x 120 = 344, less than the pool's 440.
"""

from __future__ import annotations

from bot.rules.pazaak.actions import Action, EndTurn, Forfeit, PlayCard, Stand, Timeout
from bot.rules.pazaak.cards import (
    ALL_SIDE_CARDS,
    HAND_SIZE,
    SELECTION_SIZE,
    STARTER_COLLECTION,
    InvalidSelection,
    SideCard,
    UnknownSideCard,
    parse_side_card,
    parse_side_cards,
    validate_selection,
)
from bot.rules.pazaak.engine import apply, new_match
from bot.rules.pazaak.events import (
    CardDrawn,
    CardPlayed,
    Event,
    HandDealt,
    MatchEnded,
    MatchStarted,
    SetEnded,
    SetStarted,
    Stood,
    TurnEnded,
    TurnStarted,
    dump_events,
    load_events,
    transfers,
)
from bot.rules.pazaak.queries import (
    PazaakView,
    SeatView,
    card_value,
    is_over,
    legal_actions,
    play_terms,
    seat_index,
    view,
)
from bot.rules.pazaak.reducer import CorruptEventLog, fold, replay
from bot.rules.pazaak.state import (
    MAIN_POOL,
    AlreadyStanding,
    CardAlreadyPlayedThisTurn,
    DoubleOnEmptyTable,
    IllegalCardValue,
    NoSuchCard,
    PazaakSettings,
    PazaakState,
    Phase,
    PlayerState,
    SetResult,
    TableCard,
    table_total,
)

__all__ = [
    "ALL_SIDE_CARDS",
    "GAME",
    "HAND_SIZE",
    "MAIN_POOL",
    "SELECTION_SIZE",
    "STARTER_COLLECTION",
    "Action",
    "AlreadyStanding",
    "CardAlreadyPlayedThisTurn",
    "CardDrawn",
    "CardPlayed",
    "CorruptEventLog",
    "DoubleOnEmptyTable",
    "EndTurn",
    "Event",
    "Forfeit",
    "HandDealt",
    "IllegalCardValue",
    "InvalidSelection",
    "MatchEnded",
    "MatchStarted",
    "NoSuchCard",
    "PazaakSettings",
    "PazaakState",
    "PazaakView",
    "Phase",
    "PlayCard",
    "PlayerState",
    "SeatView",
    "SetEnded",
    "SetResult",
    "SetStarted",
    "SideCard",
    "Stand",
    "Stood",
    "TableCard",
    "Timeout",
    "TurnEnded",
    "TurnStarted",
    "UnknownSideCard",
    "apply",
    "card_value",
    "dump_events",
    "fold",
    "is_over",
    "legal_actions",
    "load_events",
    "new_match",
    "parse_side_card",
    "parse_side_cards",
    "play_terms",
    "replay",
    "seat_index",
    "table_total",
    "transfers",
    "validate_selection",
    "view",
]

GAME = "pazaak"
