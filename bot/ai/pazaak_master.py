"""Pazaak's Master: expectimax over the rest of the set, with a set's result valued as the
chance to win the match (see :mod:`bot.ai.pazaak`, whose :func:`~bot.ai.pazaak.decide` calls
:func:`master`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from bot.ai.pazaak_turn import LUCK_WORTH, STAND_AT, Style, Turn, match_value, plays, wanted, worth
from bot.rules import pazaak
from bot.rules.pazaak.cards import ALL_SIDE_CARDS, FLIPPED_VALUES, SideCard
from bot.rules.pazaak.state import NINE_CARDS, TARGET

# --- Master: the opponent it imagines -----------------------------------------------------------
# The opponent plays as most players do (as Novice does): it saves a bust with a hand card at the
# highest total it can, takes a 20 when a card gives one, and stands on 17 or more, or as soon as
# it is ahead of the viewer's stand. Measured against Novice and Regular, this model won 2 points
# more than one that chases a stand with every card it may hold.

Move = tuple[float, int, int]
"""``(chance, total after, cards after)``: how an opponent's card play may end."""


@cache
def _prior(kotor2: bool) -> tuple[tuple[int, ...], ...]:
    """The values each side card there is may add: the opponent's hand cards are any of them,
    alike likely (a D or a flip counts as no help)."""
    return tuple(
        () if card.kind in FLIPPED_VALUES else card.values
        for card in ALL_SIDE_CARDS
        if kotor2 or not card.is_kotor2
    )


@cache
def opp_moves(total: int, cards: int, kotor2: bool) -> tuple[Move, ...]:
    """How an opponent holding ``cards`` unknown hand cards plays a card after a draw to
    ``total``. The chances are exact over its hand, each card any side card alike likely."""
    prior = _prior(kotor2)
    if not cards:
        return ((1.0, total, cards),)
    if total > TARGET:
        best = [max((total + v for v in vs if total + v <= TARGET), default=0) for vs in prior]
        none = best.count(0) / len(prior)
        moves: list[Move] = [(none**cards, total, cards)]
        below = none
        for after in sorted(set(best) - {0}):  # the best of its cards is the highest one
            at_most = below + best.count(after) / len(prior)
            moves.append((at_most**cards - below**cards, after, cards - 1))
            below = at_most
        return tuple(moves)
    one = sum(TARGET - total in vs for vs in prior) / len(prior)
    if not one:
        return ((1.0, total, cards),)
    hit = 1 - (1 - one) ** cards
    return ((hit, TARGET, cards - 1), (1 - hit, total, cards))


# --- Master: the search ---------------------------------------------------------------------------

Table = list[list[float]]
"""``[mask][cards]``: a match value by the viewer's hand cards left and the opponent's count."""


class _Search:
    """Expectimax over the rest of one set from the viewer's seat, after this turn's draw.

    A node holds both totals, the viewer's hand cards left (a bit mask over ``hand``), whether
    the viewer played a T this set, and how many hand cards the opponent holds. Every draw
    follows the pool as it is now. The viewer plays at most one more hand card this set, one
    that saves a bust or reaches 17..20 (a D doubles the draw; a flip is played only now, when
    its effect is known). The opponent plays its cards as :func:`opp_moves` imagines and stands
    on 17 or more, or as soon as it is ahead of the viewer's stand.
    """

    def __init__(self, turn: Turn, hand: Sequence[SideCard], counts: Sequence[int]) -> None:
        settings = turn.view.settings
        self.kotor2 = settings.kotor2_cards
        self.opp_tiebreaker = turn.opp.played_tiebreaker
        pool = sum(counts)
        self.draws = tuple((d, n / pool) for d, n in enumerate(counts, start=1) if n)
        size = 1 << len(hand)
        self.moves = [
            _moves(hand, mask) if mask.bit_count() + 1 >= len(hand) else () for mask in range(size)
        ]
        need, a, b = settings.sets_to_win, turn.me.sets_won, turn.opp.sets_won
        keep = [sum(worth(c) for i, c in enumerate(hand) if mask >> i & 1) for mask in range(size)]
        cards = range(turn.opp.hand_size + 1)

        def values(a: int, b: int) -> Table:
            return [[match_value(need, a, b, kept, k) for k in cards] for kept in keep]

        self.win, self.lose, self.tie = values(a + 1, b), values(a, b + 1), values(a, b)
        self._mine: dict[tuple[int, int, bool, int, int], float] = {}
        self._theirs: dict[tuple[int, int, bool, int, int], float] = {}
        self._alone: dict[tuple[int, int, bool, int, int], float] = {}
        self._waiting: dict[tuple[int, int, int, int, bool], float] = {}
        self._answers: dict[tuple[int, int, int], Answer] = {}

    def result(self, mine: int, theirs: int, tiebreaker: bool) -> Table:
        if mine != theirs:
            return self.win if mine > theirs else self.lose
        if tiebreaker != self.opp_tiebreaker:
            return self.win if tiebreaker else self.lose
        return self.tie

    # The viewer's end of a turn: with nobody standing, and against a stand.

    def ends(self, total: int, mask: int, tb: bool, to: int, ko: int) -> tuple[float, float]:
        """(End turn, Stand) with nobody standing, ``to`` the opponent's total."""
        if total > TARGET:
            return self.lose[mask][ko], self.lose[mask][ko]
        stand = self.waiting(to, ko, total, mask, tb)
        return (stand if total == TARGET else self.theirs(total, mask, tb, to, ko)), stand

    def ends_alone(
        self, total: int, mask: int, tb: bool, stand: int, ko: int
    ) -> tuple[float, float]:
        """(End turn, Stand) against the opponent's stand on ``stand``."""
        if total > TARGET:
            return self.lose[mask][ko], self.lose[mask][ko]
        now = self.result(total, stand, tb)[mask][ko]
        return (now if total == TARGET else self.alone(total, mask, tb, stand, ko)), now

    def after_draw(
        self, total: int, draw: int, mask: int, tb: bool, to: int, ko: int, standing: bool
    ) -> float:
        """The viewer's best after a draw to ``total``: a card or none, then end or stand.
        ``to`` is the opponent's total, on which they stand if ``standing``."""
        ends = self.ends_alone if standing else self.ends
        low = min(STAND_AT, to) if standing else STAND_AT
        end, stand = ends(total, mask, tb, to, ko)
        best = end if end > stand else stand
        for left, deltas, is_tb in self.moves[mask]:
            for delta in (draw,) if deltas is None else deltas:
                after = total + delta
                if after <= TARGET and (total > TARGET or (after > total and after >= low)):
                    end, stand = ends(after, left, tb or is_tb, to, ko)
                    best = max(best, end, stand)
        return best

    # The nodes, each a turn about to draw.

    def mine(self, tm: int, mask: int, tb: bool, to: int, ko: int) -> float:
        """The viewer's turn, nobody standing."""
        key = (tm, mask, tb, to, ko)
        found = self._mine.get(key)
        if found is None:
            found = 0.0
            for d, p in self.draws:
                found += p * self.after_draw(tm + d, d, mask, tb, to, ko, False)
            self._mine[key] = found
        return found

    def alone(self, tm: int, mask: int, tb: bool, stand: int, ko: int) -> float:
        """The viewer's turn against the opponent's stand."""
        key = (tm, mask, tb, stand, ko)
        found = self._alone.get(key)
        if found is None:
            found = 0.0
            for d, p in self.draws:
                found += p * self.after_draw(tm + d, d, mask, tb, stand, ko, True)
            self._alone[key] = found
        return found

    def theirs(self, tm: int, mask: int, tb: bool, to: int, ko: int) -> float:
        """The opponent's turn, nobody standing."""
        key = (tm, mask, tb, to, ko)
        found = self._theirs.get(key)
        if found is None:
            found = 0.0
            win = self.win[mask]
            for d, p in self.draws:
                for chance, after, k in opp_moves(to + d, ko, self.kotor2):
                    if after > TARGET:
                        value = win[k]
                    elif after >= STAND_AT:
                        value = self.alone(tm, mask, tb, after, k)
                    else:
                        value = self.mine(tm, mask, tb, after, k)
                    found += p * chance * value
            self._theirs[key] = found
        return found

    def waiting(self, to: int, ko: int, stand: int, mask: int, tb: bool) -> float:
        """The opponent's turns against the viewer's stand on ``stand``."""
        key = (to, ko, stand, mask, tb)
        found = self._waiting.get(key)
        if found is None:
            won, lost, tied = self.answers(to, ko, stand)
            tie = self.result(stand, stand, tb)[mask]
            win, lose = self.win[mask], self.lose[mask]
            found = 0.0
            for k in range(len(won)):
                found += won[k] * win[k] + lost[k] * lose[k] + tied[k] * tie[k]
            self._waiting[key] = found
        return found

    def answers(self, to: int, ko: int, stand: int) -> Answer:
        """How the opponent's turns against a stand on ``stand`` end, by the cards it keeps:
        the chances that the viewer wins (a bust, or a stand behind), loses, ties."""
        key = (to, ko, stand)
        found = self._answers.get(key)
        if found is None:
            won, lost, tied = [0.0] * (ko + 1), [0.0] * (ko + 1), [0.0] * (ko + 1)
            for d, p in self.draws:
                for chance, after, k in opp_moves(to + d, ko, self.kotor2):
                    weight = p * chance
                    if after > TARGET:
                        won[k] += weight
                    elif after > stand:
                        lost[k] += weight
                    elif after >= STAND_AT:  # it stands on a tie or behind
                        (tied if after == stand else won)[k] += weight
                    else:
                        for into, came in zip(
                            (won, lost, tied), self.answers(after, k, stand), strict=True
                        ):
                            for i, share in enumerate(came):
                                into[i] += weight * share
            found = (tuple(won), tuple(lost), tuple(tied))
            self._answers[key] = found
        return found


Answer = tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]
"""Chances by the opponent's cards left: (the viewer wins, loses, ties)."""


def _moves(
    hand: Sequence[SideCard], mask: int
) -> tuple[tuple[int, tuple[int, ...] | None, bool], ...]:
    """The cards of ``mask`` the search may play later: ``(mask left, values or None for a D,
    is a T)``, one of each kind of card (copies play alike); no flips."""
    found = []
    seen: set[SideCard] = set()
    for i, card in enumerate(hand):
        if mask >> i & 1 and card not in seen and card.kind not in FLIPPED_VALUES:
            seen.add(card)
            values = None if card.kind == "double" else card.values
            found.append((mask & ~(1 << i), values, card.kind == "tiebreaker"))
    return tuple(found)


SWAP_GAIN = 0.05
"""How much a swap must add to the chance to win the match to be worth its risk."""


def master(turn: Turn, style: Style, rng: random.Random) -> pazaak.PlayerAction:
    view, total, stand = turn.view, turn.total, turn.opp_stand
    if stand is not None and stand < total <= TARGET:
        return turn.end(True)  # a sure win
    if stand is None and total <= 10 and len(turn.me.table) < 8:
        return turn.end(False)  # no draw can bust yet, and no stand or card is worth it
    counts = pazaak.unseen_pool(view)
    search = _Search(turn, view.hand, counts)
    value, action = _best(turn, search, view.hand, rng)
    if view.may_redraw and _redraw_value(turn, search, counts) > value + LUCK_WORTH:
        return pazaak.Redraw(turn.player)
    if style.cheats and view.may_swap and turn.plays:
        swap = _master_swap(turn, counts, value, rng)
        if swap is not None:
            return swap
    return action


def _redraw_value(turn: Turn, search: _Search, counts: Sequence[int]) -> float:
    """The chance to win the match after a redraw: the draw goes back to the pool (the infinite
    deck needs no putting back) and a new one comes, then the viewer plays its best."""
    drawn = turn.me.table[-1].chosen
    again = list(counts)
    if turn.view.settings.main_deck == "pool":
        again[drawn - 1] += 1
    stand = turn.opp_stand
    to = turn.opp.total if stand is None else stand
    full = (1 << len(turn.view.hand)) - 1
    tb, ko, pool = turn.me.played_tiebreaker, turn.opp.hand_size, sum(again)
    return sum(
        n / pool * search.after_draw(turn.total - drawn + d, d, full, tb, to, ko, stand is not None)
        for d, n in enumerate(again, start=1)
        if n
    )


def _best(
    turn: Turn, search: _Search, hand: Sequence[SideCard], rng: random.Random
) -> tuple[float, pazaak.PlayerAction]:
    """The best action now and its value; equally good ones are picked at random, a card
    only when no action keeps it as well."""
    settings, stand = turn.view.settings, turn.opp_stand
    to, ko = turn.opp.total, turn.opp.hand_size
    cards = len(turn.me.table)
    tb = turn.me.played_tiebreaker

    def ends(total: int, mask: int, tiebreaker: bool, count: int) -> tuple[float, float]:
        if total <= TARGET and settings.nine_card_win and count >= NINE_CARDS:
            return search.win[mask][ko], search.win[mask][ko]
        if stand is None:
            return search.ends(total, mask, tiebreaker, to, ko)
        return search.ends_alone(total, mask, tiebreaker, stand, ko)

    full = (1 << len(hand)) - 1
    end, stay = ends(turn.total, full, tb, cards)
    options: list[tuple[float, bool, pazaak.PlayerAction]] = [
        (end, True, turn.end(False)),
        (stay, True, turn.end(True)),
    ]
    if not turn.me.played_card_this_turn:
        for play in plays(hand, turn.me.table):
            mask = full & ~(1 << play.index)
            is_tb = tb or play.card.kind == "tiebreaker"
            value = max(ends(play.total, mask, is_tb, cards + 1))
            options.append((value, False, turn.play(play)))
    top = max(options, key=lambda o: (o[0], o[1]))
    equal = [o for o in options if o[0] >= top[0] - 1e-12 and o[1] == top[1]]
    return top[0], rng.choice(equal)[2]


def _master_swap(
    turn: Turn, counts: Sequence[int], value: float, rng: random.Random
) -> pazaak.Swap | None:
    """The swap that adds most to the chance to win, if it adds ``SWAP_GAIN``: for each side
    card a turn could use, given for the hand card worth least."""
    hand = turn.view.hand
    give = min(range(len(hand)), key=lambda i: worth(hand[i]))
    best: tuple[float, pazaak.Swap] | None = None
    for card in turn.view.side_deck:
        if card in hand or wanted(turn, plays((card,), turn.me.table)) is None:
            continue
        swapped = (*hand[:give], card, *hand[give + 1 :])
        gain = _best(turn, _Search(turn, swapped, counts), swapped, rng)[0] - value
        if gain >= SWAP_GAIN and (best is None or gain > best[0]):
            best = (gain, pazaak.Swap(turn.player, give, card))
    return None if best is None else best[1]
