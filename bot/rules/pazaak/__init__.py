"""Pazaak (Star Wars: KOTOR): the pure rules core. The rules are ``shared/rules/pazaak.md``.

A match begins with :func:`new_match`; every later move is an action passed to :func:`apply`. An
action is validated, turned into events (drawing any randomness from the injected RNG), and the
events are folded with the same reducer :func:`replay` uses, so a replayed log equals the live
match by construction. This package's face; the code lives in its modules, shaped as Pegaz's:
cards (side cards, selections), state (settings, errors, state), actions, events, reducer,
queries (read-only questions such as ``legal_actions``, ``play_terms``, what a seat may see:
``view``, and what the pool may still deal: ``unseen_pool``) and engine
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
- One spelling per play, the one ``legal_actions`` lists: a card with one value (``+N``,
  ``-N``, flips, D) is played with ``PlayCard.value`` None, and even its own value is refused
  (``IllegalCardValue``); a card with a choice (``±N``, T, ``±1/2``) needs the value.
- The hand keeps its deal order; playing a card closes the gap, so later indices shift down.
- ``legal_actions`` leaves out ``Timeout``: only the service's turn timer sends it.
- The pot is exactly both wagers and goes whole to the winner; a wager of 0 moves no money.
- Sets are not capped: ties score nothing, so a match lasts until someone wins ``sets_to_win``.
- The 80-card pool cannot run out within a set, so it is never reshuffled mid-set: tables stay
  at most 20 between turns, and minus cards (at most 4 x 6 each) and flips (at most the pool's
  2s, 3s, 4s and 6s, 120 in all) can take back little, so one set's draws total at most
  56 + 48 + 2 x 120 = 344, less than the pool's 440. A redraw puts its card back first, so it
  changes nothing here.

Skills (option ``skills``; traits come with :func:`new_match`, in seat order):

- Each skill is once per match per player; a pardon undoes the swap but not the use.
- Redraw (Luck) is open from the turn's draw until a hand card is played: the last card on the
  table must be the turn's main-deck draw. It reruns nothing else: no new turn (the turn's
  timer goes on), no check; the bust, nine-card and 20 checks stay at the end of the turn.
  With the pool, the card goes back and the whole remaining pool is reshuffled before the new
  draw; with ``infinite`` the new draw is a fresh uniform 1..10.
- Swap (Gamble) is open on one's own turn, not standing, before a hand card is played (after a
  redraw too). It does not count as playing a hand card. The card taken comes from the side
  deck: the selection minus the hand minus the cards played, copies counted; the card given up
  goes back there (it is neither in the hand nor played any more) and keeps its hand index.
  A swap for a card equal to the one given up is allowed: copies are alike.
- Detection: the opponent rolls d100 (1..100) once per swap; caught when the roll is at most
  Perception + ``detection_modifier``, so a target of 0 or less never catches and 100 or more
  always does. A miss is told to nobody but the GM (:func:`audience`).
- Caught with ``cheat_ruling="forfeit"``: the opponent wins the match and the pot at once
  (``MatchEnded`` reason ``caught``); the swapped card stays in the hand. With ``"gm"``: the
  match waits for :class:`RuleOnCheat`; meanwhile ``current_player`` is None and every action
  but the ruling and ``Forfeit`` (by either player) gets :class:`RulingPending`. ``pardon``:
  the swap is undone and the cheater's turn goes on where it was (still before a hand card).
  ``lose_set``: undone too, and the opponent wins the set (``SetEnded`` reason ``cheat``); the
  match goes on as after any set. ``forfeit``: as with ``cheat_ruling="forfeit"``.
- Neither skill resets the timeout count: only a hand card, End turn and Stand do.
- A Perception outside 0..100 is refused at the start (:class:`InvalidTraits`); the traits are
  recorded in ``MatchStarted`` (older logs, which have none, load as no traits).
"""

from __future__ import annotations

from bot.rules.pazaak.actions import (
    Action,
    EndTurn,
    Forfeit,
    PlayCard,
    PlayerAction,
    Redraw,
    RuleOnCheat,
    Stand,
    Swap,
    Timeout,
)
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
    Audience,
    CardDrawn,
    CardPlayed,
    Caught,
    DetectionRoll,
    Event,
    HandDealt,
    MatchEnded,
    MatchStarted,
    Redrawn,
    Ruled,
    RulingRequested,
    SetEnded,
    SetStarted,
    Stood,
    Swapped,
    TurnEnded,
    TurnStarted,
    audience,
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
    may_redraw,
    may_swap,
    play_terms,
    require_redraw,
    require_swap,
    seat_index,
    swap_choices,
    unseen_pool,
    view,
)
from bot.rules.pazaak.reducer import CorruptEventLog, fold, replay
from bot.rules.pazaak.state import (
    MAIN_COPIES,
    MAIN_POOL,
    MAX_DETECTION_MODIFIER,
    VERDICTS,
    AlreadyStanding,
    CardAlreadyPlayedThisTurn,
    DoubleOnEmptyTable,
    IllegalCardValue,
    InvalidTraits,
    NoRulingPending,
    NoSuchCard,
    NoSuchTrait,
    NotInSideDeck,
    PazaakSettings,
    PazaakState,
    PendingRuling,
    Phase,
    PlayerState,
    RedrawTooLate,
    RulingPending,
    SetResult,
    Skill,
    SkillsOff,
    SkillUsed,
    TableCard,
    Traits,
    Verdict,
    table_total,
)

__all__ = [
    "ALL_SIDE_CARDS",
    "GAME",
    "HAND_SIZE",
    "MAIN_COPIES",
    "MAIN_POOL",
    "MAX_DETECTION_MODIFIER",
    "SELECTION_SIZE",
    "STARTER_COLLECTION",
    "VERDICTS",
    "Action",
    "AlreadyStanding",
    "Audience",
    "CardAlreadyPlayedThisTurn",
    "CardDrawn",
    "CardPlayed",
    "Caught",
    "CorruptEventLog",
    "DetectionRoll",
    "DoubleOnEmptyTable",
    "EndTurn",
    "Event",
    "Forfeit",
    "HandDealt",
    "IllegalCardValue",
    "InvalidSelection",
    "InvalidTraits",
    "MatchEnded",
    "MatchStarted",
    "NoRulingPending",
    "NoSuchCard",
    "NoSuchTrait",
    "NotInSideDeck",
    "PazaakSettings",
    "PazaakState",
    "PazaakView",
    "PendingRuling",
    "Phase",
    "PlayCard",
    "PlayerAction",
    "PlayerState",
    "Redraw",
    "RedrawTooLate",
    "Redrawn",
    "RuleOnCheat",
    "Ruled",
    "RulingPending",
    "RulingRequested",
    "SeatView",
    "SetEnded",
    "SetResult",
    "SetStarted",
    "SideCard",
    "Skill",
    "SkillUsed",
    "SkillsOff",
    "Stand",
    "Stood",
    "Swap",
    "Swapped",
    "TableCard",
    "Timeout",
    "Traits",
    "TurnEnded",
    "TurnStarted",
    "UnknownSideCard",
    "Verdict",
    "apply",
    "audience",
    "card_value",
    "dump_events",
    "fold",
    "is_over",
    "legal_actions",
    "load_events",
    "may_redraw",
    "may_swap",
    "new_match",
    "parse_side_card",
    "parse_side_cards",
    "play_terms",
    "replay",
    "require_redraw",
    "require_swap",
    "seat_index",
    "swap_choices",
    "table_total",
    "transfers",
    "unseen_pool",
    "validate_selection",
    "view",
]

GAME = "pazaak"
