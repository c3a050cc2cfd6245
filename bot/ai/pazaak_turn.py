"""What a Pazaak computer player sees of its turn: the hand cards it may play and what each
does, the style it plays in, and what a set is worth in the match (shared by
:mod:`bot.ai.pazaak` and its Master, :mod:`bot.ai.pazaak_master`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

from bot.rules import pazaak
from bot.rules.pazaak.cards import FLIPPED_VALUES, SideCard
from bot.rules.pazaak.state import TARGET

Level = Literal["stand17", "novice", "regular", "master"]

STAND_AT = 17
"""The baseline's stand, and the total the Master expects an opponent to stand on."""


@dataclass(frozen=True, slots=True)
class Style:
    level: Level
    cheats: bool = False
    """Uses Gamble's swap, a cheat, when it helps (only where the view allows a swap)."""


# --- what a turn looks like ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Play:
    """A hand card as it could be played now: the action's ``value`` and the total after it."""

    index: int
    value: int | None
    total: int
    card: SideCard


WORTH: dict[str, float] = {
    "plus_minus": 1.0,
    "tiebreaker": 1.0,
    "pm12": 0.9,
    "minus": 0.8,
    "plus": 0.7,
    "double": 0.6,
    "flip24": 0.4,
    "flip36": 0.4,
}
"""What keeping a card is worth for later sets, as a share of a card that can go either way."""


def worth(card: SideCard) -> float:
    return WORTH[card.kind]


def plays(hand: Sequence[SideCard], table: Sequence[pazaak.TableCard]) -> list[Play]:
    """Every way to play a hand card on ``table`` now, spelled as ``PlayCard`` wants it."""
    total = pazaak.table_total(table)
    found: list[Play] = []
    for index, card in enumerate(hand):
        flipped = FLIPPED_VALUES.get(card.kind)
        if flipped is not None:
            change = sum(c.value for c in table if c.value in flipped)
            found.append(Play(index, None, total - 2 * change, card))
        elif card.kind == "double":
            if table:
                found.append(Play(index, None, total + table[-1].value, card))
        elif len(card.values) == 1:
            found.append(Play(index, None, total + card.values[0], card))
        else:
            found.extend(Play(index, value, total + value, card) for value in card.values)
    return found


def cheapest(candidates: Sequence[Play]) -> Play | None:
    """The play that gives up the least (the lowest-worth card; the higher total on a tie)."""
    if not candidates:
        return None
    return min(candidates, key=lambda p: (worth(p.card), -p.total, p.index))


def best_save(candidates: Sequence[Play]) -> Play | None:
    """From a bust, the play to the highest total under it, with the cheapest card."""
    safe = [p for p in candidates if p.total <= TARGET]
    if not safe:
        return None
    top = max(p.total for p in safe)
    return cheapest([p for p in safe if p.total == top])


@dataclass(frozen=True, slots=True)
class Turn:
    """The viewer's turn, read off the view."""

    view: pazaak.PazaakView
    me: pazaak.SeatView
    opp: pazaak.SeatView
    plays: tuple[Play, ...]
    """Empty once a hand card was played this turn."""

    @classmethod
    def of(cls, view: pazaak.PazaakView) -> Turn:
        mine = 0 if view.seats[0].player == view.viewer else 1
        me, opp = view.seats[mine], view.seats[1 - mine]
        found = () if me.played_card_this_turn else tuple(plays(view.hand, me.table))
        return cls(view, me, opp, found)

    @property
    def player(self) -> int:
        return self.me.player

    @property
    def total(self) -> int:
        return self.me.total

    @property
    def opp_stand(self) -> int | None:
        """The opponent's total if they stand, else None."""
        return self.opp.total if self.opp.standing else None

    def play(self, play: Play) -> pazaak.PlayCard:
        return pazaak.PlayCard(self.player, play.index, play.value)

    def end(self, stand: bool) -> pazaak.Stand | pazaak.EndTurn:
        return pazaak.Stand(self.player) if stand else pazaak.EndTurn(self.player)

    def sets_left(self) -> tuple[int, int]:
        """Sets each player still needs to win the match."""
        need = self.view.settings.sets_to_win
        return need - self.me.sets_won, need - self.opp.sets_won


def wanted(turn: Turn, candidates: Sequence[Play]) -> Play | None:
    """The hand card Regular plays now, if any: a save, a win over a standing opponent, a 20,
    or an 18 or 19 when the match is short of sets."""
    total, stand = turn.total, turn.opp_stand
    if total > TARGET:
        return best_save(candidates)
    if stand is not None:
        if total > stand:
            return None
        beat = [p for p in candidates if stand < p.total <= TARGET]
        tie = [p for p in candidates if p.total == stand > total] if stand >= 18 else []
        return cheapest(beat) or cheapest(tie)
    twenty = cheapest([p for p in candidates if p.total == TARGET and total >= 14])
    if twenty is not None:
        return twenty
    mine, theirs = turn.sets_left()
    if min(mine, theirs) == 1 or len(turn.view.hand) > mine:
        return cheapest([p for p in candidates if p.total in (18, 19) and total < STAND_AT])
    return None


# --- what a set is worth in the match (the Master's yardstick) ----------------------------------

# The model's figures are fitted to the Master's sets against itself, as
# ``bench/ai_pazaak.py --calibrate master`` prints them (3,000 matches, the bench's side deck).
SET_EDGE = 0.11
"""How much each hand card more than the opponent's adds to one's chance to win a set that is
not tied."""
SET_TIE = 0.12
"""How often a set is tied when neither player holds a card..."""
TIE_PER_CARD = 0.036
"""...and how much more often for each card either holds."""
CARD_USE = (0.0, 0.29, 0.44, 0.52, 0.55)
"""How many hand cards a player spends in a set, on average, by how many it holds."""
LUCK_WORTH = 0.02
"""What an unused redraw is worth, in chances to win the match."""


@cache
def match_values(sets_to_win: int) -> tuple[tuple[tuple[tuple[float, ...], ...], ...], ...]:
    """``[a][b][mine][theirs]``: the chance to win the match from ``a`` sets to ``b``, holding
    ``mine`` hand cards against ``theirs``. A model of the sets to come (``SET_EDGE``, ``SET_TIE``,
    ``CARD_USE``), not a search: it prices a hand card against a set."""
    size = pazaak.HAND_SIZE + 1
    top = sets_to_win
    table = [[[[0.0] * size for _ in range(size)] for _ in range(top + 1)] for _ in range(top + 1)]

    def at(a: int, b: int, h: int, o: int) -> float:
        if a >= top:
            return 1.0
        if b >= top:
            return 0.0
        return table[a][b][h][o]

    for h in range(size):
        for o in range(size):
            tie = SET_TIE + TIE_PER_CARD * (h + o)
            win = min(0.95, max(0.05, 0.5 + SET_EDGE * (h - o))) * (1 - tie)
            lose = 1 - tie - win
            uses = [(ph * po, h - dh, o - do) for dh, ph in card_uses(h) for do, po in card_uses(o)]
            for a in range(top - 1, -1, -1):
                for b in range(top - 1, -1, -1):
                    rest, again = 0.0, 0.0
                    for p, h2, o2 in uses:
                        rest += p * (win * at(a + 1, b, h2, o2) + lose * at(a, b + 1, h2, o2))
                        if (h2, o2) == (h, o):
                            again += p * tie
                        else:
                            rest += p * tie * at(a, b, h2, o2)
                    table[a][b][h][o] = rest / (1 - again)
    return tuple(tuple(tuple(tuple(row) for row in m) for m in b) for b in table)


def card_uses(cards: int) -> tuple[tuple[int, float], ...]:
    """``(cards spent, chance)`` in a set: one, or none."""
    use = CARD_USE[cards]
    return ((0, 1 - use), (1, use)) if cards else ((0, 1.0),)


def match_value(sets_to_win: int, a: int, b: int, mine: float, theirs: int) -> float:
    """:func:`match_values` at a fractional number of own cards (their worth summed)."""
    if a >= sets_to_win:
        return 1.0
    if b >= sets_to_win:
        return 0.0
    row = match_values(sets_to_win)[a][b]
    low = min(int(mine), pazaak.HAND_SIZE)
    high = min(low + 1, pazaak.HAND_SIZE)
    part = min(mine - low, 1.0)
    return row[low][theirs] * (1 - part) + row[high][theirs] * part
