"""Three-Card Pegasus computer players: exchanges, raises, checks and folds weighed in coin.

:func:`decide` takes a seat's :class:`~bot.rules.pegaz.PegazView`, never the state, so it cannot
see another hand, the deck or a cheat. It values a hand by what it is worth at the checks: the
chance to beat every opponent still in, times the pot expected by then, less this seat's share
of the checks. Exchanges are weighed on the exact draws (:func:`~bot.rules.pegaz.deals`), with
the best Luck or Gamble move on the new cards, and up to ``DEPTH`` later exchange rounds of
this seat planned ahead; each costs its price. Checks weigh the chance to beat the one checked.

What an opponent holds is read from what the table saw of it (``swaps``, ``shown``), under a
mixture of two kinds of player (the reading and its constants are in :mod:`bot.ai.pegaz_hands`):

- *sensible*: keeps trips, exchanges the single beside a pair, and all three of three singles,
  with a ``SLIP`` chance of any other count (giving up its worst cards); its count of cards
  exchanged tells its hand;
- *careless*: exchanges with no regard to the cards (``CARELESS`` odds per count), so its hand
  is a fresh random hand, whose exact odds are :func:`~bot.rules.pegaz.hand_odds`.

Each opponent's counts weigh the two (``SENSIBLE`` before any), so one who never exchanges is
soon read as careless, not as a row of trips. Rounds it still has to play are forecast with the
sensible player's moves. Approximations, each small: opponents' Luck and Gamble are not
modelled; with a deck, an opponent's draws come from a deck that lacks only the cards it keeps
(a careless one's, this seat's hand), and cards shown in a check are not counted out of it.

Levels: ``solid`` takes the move worth most; ``cautious`` asks ``HURDLE`` stakes more of
anything that costs coin before it pays rather than folds, ``bold`` that much less, and raises
on thinner odds. A style with ``cheats`` cheats (Gamble's +-2) with that chance per deal in
which the cheat beats the best honest move; it faces the table's detection tests like anyone.
Ranald's offering: only the cautious give it. Measured by ``bench/ai_pegaz.py``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

from bot.ai import pegaz_hands as hands
from bot.rules import pegaz

Level = Literal["cautious", "solid", "bold"]

DEPTH = 2
"""Later exchange rounds of this seat planned ahead (unlimited exchanges: 1)."""
HURDLE: dict[Level, float] = {"cautious": 0.6, "solid": 0.0, "bold": -0.6}
"""Stakes a paying move must be worth more than folding, by level."""
RAISE_NERVE: dict[Level, float] = {"cautious": 0.85, "solid": 1.0, "bold": 1.2}
"""A factor on the chance to win when a raise is weighed."""


@dataclass(frozen=True, slots=True)
class Style:
    level: Level = "solid"
    cheats: float = 0.0
    """The chance, per deal in which a cheat would help, that a Gamble character cheats."""

    def __post_init__(self) -> None:
        if self.level not in HURDLE:
            raise ValueError(f"unknown level {self.level!r}")
        if not 0.0 <= self.cheats <= 1.0:
            raise ValueError("cheats is a chance, 0..1")


def decide(view: pegaz.PegazView, style: Style, rng: random.Random) -> pegaz.Action:
    """Whatever ``view.viewer`` owes now: an offering, a modifier choice or its turn.

    ``rng`` is drawn only to decide whether to cheat. Raises ValueError if the seat owes nothing.
    """
    me = view.viewer
    if me is not None and view.phase is pegaz.Phase.OFFERING and me in view.offers:
        return pegaz.Offer(me, style.level == "cautious")
    if me is None or not view.legal or (not view.pending and view.turn != me):
        raise ValueError("a computer player decides only what its seat owes")
    plan = _Plan(view)
    if view.pending:
        return _modifier(view, plan, style, rng)
    return _turn(view, plan, style)


# --- the plan: what each hand is worth from here ------------------------------------------------


class _Plan:
    """What this seat's hands are worth now, in coin, from the view alone."""

    def __init__(self, view: pegaz.PegazView) -> None:
        s = view.settings
        self.die, self.source, self.stake = s.die, s.source, view.stake
        me = view.viewer
        order = [seat.player for seat in view.seats]
        mine = order.index(me) if me in order else 0
        self.active = [x for x in view.seats if x.status is pegaz.SeatStatus.ACTIVE]
        self.rivals = [x for x in self.active if x.player != me]
        limit = s.exchanges
        exchanging = view.phase in (pegaz.Phase.MODIFIERS, pegaz.Phase.EXCHANGE)
        played = view.round if view.phase is pegaz.Phase.EXCHANGE else 0
        later = (1 if limit is None else limit - played) if exchanging else 0
        self.turns = max(0, min(DEPTH, later))
        """This seat's exchange turns still to come after the one in hand (if any)."""
        self.reads: dict[int, hands.Read] = {}
        units = 0.0
        for rival in self.rivals:
            behind = order.index(rival.player) > mine and view.phase is pegaz.Phase.EXCHANGE
            ahead = min(DEPTH, later + (1 if behind else 0)) if exchanging else 0
            read = hands.read_swaps(
                self.die, self.source, rival.swaps, hands.as_hand(rival.shown), ahead
            )
            self.reads[rival.player] = read
            units += read.units
        n = len(self.active)
        mine_units = 2.0 * (self.turns + (1 if exchanging else 0))
        self.pot = view.pot + self.stake * (units + mine_units + 3 * (n - 1))
        """The pot expected at the checks, and below this seat's share of the checks' cost."""
        self.check_share = 3 * self.stake * (n - 1) / max(n, 1)
        self.removed = hands.as_hand(view.dealt or view.hand) if self.source == "deck" else ()
        self._win: dict[hands.Hand, float] = {}
        self._values: dict[int, dict[hands.Hand, float]] = {}
        self._kept: dict[tuple[int, hands.Hand], float] = {}

    def win(self, hand: hands.Hand, skip: int | None = None) -> float:
        """The chance that ``hand`` beats every opponent at the checks (but ``skip``)."""
        if skip is None and hand in self._win:
            return self._win[hand]
        p = 1.0
        for player, read in self.reads.items():
            if player != skip:
                p *= hands.beats(read, hand, self.die, self.source, final=True)
        if skip is None:
            self._win[hand] = p
        return p

    def value(self, turns: int) -> dict[hands.Hand, float]:
        """Each hand's worth with ``turns`` exchange turns of this seat still to come."""
        if turns in self._values:
            return self._values[turns]
        if turns == 0:
            out = {
                h: max(0.0, self.win(h) * self.pot - self.check_share)
                for h in hands.all_hands(self.die)
            }
        else:
            before = self.value(turns - 1)
            out = {}
            for hand in hands.all_hands(self.die):
                best = before[hand] - self.stake
                for k in (1, 2, 3):
                    kept = hands.keep(hand, k)
                    best = max(best, self.kept(kept, turns - 1, ()) - (1 + k) * self.stake)
                out[hand] = max(0.0, best)
        self._values[turns] = out
        return out

    def kept(
        self,
        kept: hands.Hand,
        turns: int,
        removed: hands.Hand,
        luck: bool = False,
        gamble: bool = False,
    ) -> float:
        """The expected worth of filling ``kept`` with new cards, moved as best they may be."""
        key = (turns, kept) if not (removed or luck or gamble) else None
        if key is not None and key in self._kept:
            return self._kept[key]
        values = self.value(turns)
        total = 0.0
        moving = luck or gamble
        for hand, new, p in hands.after(kept, self.die, self.source, removed):
            if moving:
                total += p * max(values[h] for h in hands.moves(hand, new, self.die, luck, gamble))
            else:
                total += p * values[hand]
        if key is not None:
            self._kept[key] = total
        return total


# --- decisions ----------------------------------------------------------------------------------


def _modifier(view: pegaz.PegazView, plan: _Plan, style: Style, rng: random.Random) -> pegaz.Action:
    """The honest move worth most; a cheat instead when it is worth more and the style dares."""
    values = plan.value(plan.turns)
    hand = list(view.hand)

    def worth(action: pegaz.Action) -> float:
        moved = list(hand)
        shifts: tuple[tuple[int, int], ...] = ()
        if isinstance(action, pegaz.Modify):
            shifts = action.shifts
        elif isinstance(action, pegaz.Cheat):
            shifts = ((action.card, action.delta),)
        for card, delta in shifts:
            moved[card] = pegaz.shift(moved[card], delta, plan.die)
        return values[hands.as_hand(moved)]

    honest = [a for a in view.legal if isinstance(a, pegaz.Keep | pegaz.Modify)]
    best = max(honest, key=worth)  # max keeps the first of equals: Keep comes first
    cheats = [a for a in view.legal if isinstance(a, pegaz.Cheat)]
    if cheats and style.cheats > 0:
        cheat = max(cheats, key=worth)
        if worth(cheat) > worth(best) and rng.random() < style.cheats:
            return cheat
    return best


def _turn(view: pegaz.PegazView, plan: _Plan, style: Style) -> pegaz.Action:
    me = view.viewer
    assert me is not None
    hand = hands.as_hand(view.hand)
    hurdle = HURDLE[style.level] * view.stake
    options: list[tuple[float, pegaz.Action]] = [(0.0, pegaz.Fold(me))]
    exchanges = [a for a in view.legal if isinstance(a, pegaz.Exchange)]
    for cards in dict.fromkeys(a.cards for a in exchanges):
        top = max(a.stake for a in exchanges if a.cards == cards)
        options += _exchange(view, plan, style, hand, cards, top, hurdle)
    for check in (a for a in view.legal if isinstance(a, pegaz.Check)):
        options.append((_check(view, plan, hand, check.target) - hurdle, check))
    return max(options, key=lambda o: o[0])[1]


def _exchange(
    view: pegaz.PegazView,
    plan: _Plan,
    style: Style,
    hand: hands.Hand,
    cards: tuple[int, ...],
    top: int,
    hurdle: float,
) -> list[tuple[float, pegaz.Action]]:
    """Exchanging ``cards`` at the stake and, if it pays, at a raise (no more than ``top``)."""
    me, stake, k = view.viewer, view.stake, len(cards)
    assert me is not None
    kept = hands.as_hand(c for i, c in enumerate(view.hand) if i not in cards)
    if k:
        worth = plan.kept(kept, plan.turns, plan.removed or kept, view.luck, view.gamble)
        chance = sum(p * plan.win(h) for h, _, p in hands.after(kept, plan.die, plan.source, ()))
    else:
        worth = plan.value(plan.turns)[hand]
        chance = plan.win(hand)
    ev = worth - (1 + k) * stake - hurdle
    out: list[tuple[float, pegaz.Action]] = [(ev, pegaz.Exchange(me, cards, stake))]
    raised = min(top, 2 * stake)
    if raised > stake and view.seat(me).funds - (1 + k) * raised >= 3 * raised:
        # every later payment grows with the stake, this seat's and its rivals' alike
        later = (plan.pot - view.pot) / stake
        mine = (1 + k) + 2.0 * plan.turns + plan.check_share / stake
        nerve = RAISE_NERVE[style.level]
        gain = (raised - stake) * (min(1.0, nerve * chance) * later - mine)
        if gain > 0:
            out.append((ev + gain, pegaz.Exchange(me, cards, raised)))
    return out


def _check(view: pegaz.PegazView, plan: _Plan, hand: hands.Hand, target: int) -> float:
    """What checking ``target`` is worth: its price is paid whatever comes of it."""
    read = plan.reads[target]
    beat = hands.beats(read, hand, plan.die, plan.source, final=False)
    left = len(plan.active) - 2
    if left == 0:
        return beat * (view.pot + view.check_price) - view.check_price
    # the checks still to come, this one among them, are in the pot expected (but not what
    # the one checked out would have paid); in the check phase the next turn is another's
    rest = left - 1 if view.phase is pegaz.Phase.CHECKS else left
    share = 3 * view.stake * rest / (rest + 1)
    pot = plan.pot - read.units * view.stake  # what the one checked out would have paid
    then = max(0.0, plan.win(hand, skip=target) * pot - share)
    return beat * then - view.check_price
