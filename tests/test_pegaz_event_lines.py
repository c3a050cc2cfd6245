"""Three-Card Pegasus events in words, pinned: the channel's lines, the GM's lines and a caught
cheater's note, for real games in both languages, equal to what
``tests/data/pegaz_event_lines.json`` recorded. The fixture holds the games' events as well as
their lines, so the test renders exactly the recorded steps whatever the rules' use of the RNG
becomes.

The fixture was recorded from seeded random games (``legal_actions`` plus the odd timeout, funds
sync and cancel), keeping only the games that showed something new, until every event type and
every branch of its text was shown. A change meant to alter the texts re-records it with
``python -m tests.test_pegaz_event_lines``; review the diff of the fixture like code.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, get_args

import pytest

from bot import i18n
from bot.i18n import LANGS, Lang
from bot.render.pegaz import Who
from bot.render.pegaz import events as pegaz_events
from bot.rules import pegaz

FIXTURE = Path(__file__).parent / "data" / "pegaz_event_lines.json"
TABLE_ID = 7
ROSTER = {
    1: Who("Anka", 1001),
    2: Who("Bożydar", 1002),
    3: Who("Cyryl", 1003, npc=True),
    5: Who("Eryka", 1005),
}
"""Player 4 has no roster entry, so the fallbacks for a missing seat are pinned too."""

Step = list[pegaz.Event]


def render(steps: Sequence[Step], lang: Lang) -> list[dict[str, Any]]:
    """Every text the events of each step give, the empty ones left out."""
    out: list[dict[str, Any]] = []
    state: pegaz.PegazState | None = None
    for events in steps:
        state = pegaz.replay(events) if state is None else _fold(state, events)
        texts: dict[str, Any] = {}
        public = pegaz_events.public_lines(events, state, ROSTER, lang)
        if public:
            texts["public"] = public
        gm = pegaz_events.gm_lines(events, ROSTER, lang, table_id=TABLE_ID)
        if gm:
            texts["gm"] = gm
        notes = {
            str(s.player): pegaz_events.caught_note(events, s.player, lang) for s in state.seats
        }
        caught = {player: note for player, note in notes.items() if note is not None}
        if caught:
            texts["caught"] = caught
        out.append(texts)
    return out


def _fold(state: pegaz.PegazState, events: Step) -> pegaz.PegazState:
    for event in events:
        state = pegaz.fold(state, event)
    return state


def features(events: Sequence[pegaz.Event]) -> set[str]:
    """The event types and the branches of their texts these events show."""
    found: set[str] = set()
    for e in events:
        found.add(type(e).__name__)
        if isinstance(e, pegaz.ModifierChosen):
            found.add(f"ModifierChosen.timeout={e.timeout}")
        elif isinstance(e, pegaz.Detection):
            found.add(f"Detection.rolls={bool(e.rolls)}")
            found.update(f"DetectionRoll.success={r.success}" for r in e.rolls)
        elif isinstance(e, pegaz.Caught):
            found.add(f"Caught.by={min(len(e.caught_by), 3)}")
        elif isinstance(e, pegaz.Ruled):
            found.add(f"Ruled.expel={e.expel}")
        elif isinstance(e, pegaz.TurnStarted):
            found.add(f"TurnStarted.{e.phase}")
        elif isinstance(e, pegaz.Exchanged):
            found.add(f"Exchanged.{len(e.cards)}")
        elif isinstance(e, pegaz.Checked):
            found.add(f"Checked.out={len(e.out)}")
        elif isinstance(e, pegaz.Folded):
            found.add(f"Folded.{e.reason}")
        elif isinstance(e, pegaz.GameEnded):
            found.add(f"GameEnded.{_ending(e)}")
        elif isinstance(e, pegaz.Offered):
            found.add(f"Offered.{'timeout' if e.timeout else e.accepted}")
        elif isinstance(e, pegaz.Cancelled):
            found.add(f"Cancelled.refunds={bool(e.refunds)}")
    return found


def _ending(e: pegaz.GameEnded) -> str:
    if e.expelled:
        return "expelled"
    if e.rolled_over or not any(e.amounts):
        return "rollover"
    return "won" if len(e.players) == 1 else "split"


EVENT_TYPES = {cls.__name__ for cls in get_args(get_args(pegaz.Event)[0])}
WANTED = EVENT_TYPES | {
    "ModifierChosen.timeout=True",
    "ModifierChosen.timeout=False",
    "Detection.rolls=True",
    "Detection.rolls=False",
    "DetectionRoll.success=True",
    "DetectionRoll.success=False",
    "Caught.by=1",
    "Caught.by=2",
    "Ruled.expel=True",
    "Ruled.expel=False",
    "TurnStarted.exchange",
    "TurnStarted.checks",
    *(f"Exchanged.{k}" for k in range(4)),
    "Checked.out=1",
    "Checked.out=2",
    *(f"Folded.{reason}" for reason in ("fold", "timeout", "broke", "cannot_check")),
    *(f"GameEnded.{how}" for how in ("expelled", "rollover", "won", "split")),
    "Offered.timeout",
    "Offered.True",
    "Offered.False",
    "Cancelled.refunds=True",
    "Cancelled.refunds=False",
}


# --- the test -----------------------------------------------------------------------------------


def _games() -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))["games"]
    return games


def _steps(game: dict[str, Any]) -> list[Step]:
    return [pegaz.load_events(json.dumps(step).encode()) for step in game["steps"]]


def test_the_fixture_shows_every_event_and_branch() -> None:
    shown = set().union(*(features([e for s in _steps(g) for e in s]) for g in _games()))
    assert shown >= WANTED, sorted(WANTED - shown)
    assert FIXTURE.stat().st_size < 200_000


@pytest.mark.parametrize("lang", LANGS)
def test_lines_are_as_recorded(lang: Lang) -> None:
    for index, game in enumerate(_games()):
        assert (index, render(_steps(game), lang)) == (index, game["lines"][lang])


@dataclass(frozen=True, slots=True)
class Unknown:
    """An event of a type the renderer has never heard of."""

    player: int = 1
    cheater: int = 1
    kind: str = "unknown"


@pytest.mark.parametrize("lang", LANGS)
def test_an_unknown_event_says_nothing(lang: Lang) -> None:
    steps = _steps(_games()[0])
    state = pegaz.replay([e for s in steps for e in s])
    for events in steps:
        mixed: list[Any] = [Unknown(), *events, Unknown()]
        assert pegaz_events.public_lines(mixed, state, ROSTER, lang) == (
            pegaz_events.public_lines(events, state, ROSTER, lang)
        )
        assert pegaz_events.gm_lines(mixed, ROSTER, lang, table_id=TABLE_ID) == (
            pegaz_events.gm_lines(events, ROSTER, lang, table_id=TABLE_ID)
        )
    alone: list[Any] = [Unknown()]
    assert pegaz_events.public_lines(alone, state, ROSTER, lang) == []
    assert pegaz_events.gm_lines(alone, ROSTER, lang, table_id=TABLE_ID) == []
    assert pegaz_events.caught_note(alone, 1, lang) is None


# --- recording the fixture ----------------------------------------------------------------------


def _table(rng: random.Random) -> pegaz.PegazSettings:
    return pegaz.PegazSettings(
        stake=rng.choice([1, 12, 30]),
        exchanges=rng.choice([1, 2, None]),
        raise_limit=rng.choice([0, 1, None]),
        die=rng.choice(pegaz.DICE),
        source=rng.choice(["dice", "deck"]),
        detection_modifier=rng.choice([-30, 0, 60]),
        cheat_ruling=rng.choice(["expel", "gm"]),
        tie=rng.choice(["split", "rollover"]),
        carried_pot=rng.choice([0, 7]),
    )


def play(seed: int) -> list[Step]:
    """One seeded game, step by step: joins, then random legal moves to its end."""
    rng = random.Random(seed)
    config = _table(rng)
    state, opened = pegaz.new_table(config)
    steps: list[Step] = [opened]

    def do(action: pegaz.Action) -> None:
        nonlocal state
        state, events = pegaz.apply(state, action, rng)
        steps.append(events)

    for player in range(1, rng.randrange(2, 6) + 1):
        funds = rng.randrange(config.stake, config.stake * 15)
        do(pegaz.Join(player, rng.random() < 0.6, rng.random() < 0.6, rng.randrange(101), funds))
    while not pegaz.is_over(state) and len(steps) < 80:
        legal = pegaz.legal_actions(state)
        cheats = [a for a in legal if isinstance(a, pegaz.Cheat)]
        roll = rng.random()
        sync = pegaz.funds_sync(state, {s.player: s.funds + 5 for s in state.seats[:1]})
        if roll < 0.015 or not legal:
            do(pegaz.Cancel())
        elif roll < 0.08 and pegaz.to_act(state):
            do(pegaz.Timeout(rng.choice(pegaz.to_act(state))))
        elif roll < 0.09 and sync is not None:
            do(sync)
        elif cheats and roll < 0.4:
            do(rng.choice(cheats))
        else:
            do(rng.choice(legal))
    return steps


BY_HAND: Step = [pegaz.Detection(1, ())]
"""A cheat nobody else could watch: random play does not get there (it needs every other player
out while the game goes on), but the GM has a text for it, so one step shows it."""


def games() -> Iterator[list[Step]]:
    """Seeded games that each show something new, until everything wanted has been shown, and
    the table and seats of the first with :data:`BY_HAND` as one more step."""
    shown = features(BY_HAND)
    first: list[Step] | None = None
    for seed in range(5000):
        steps = play(seed)
        new = features([e for s in steps for e in s]) - shown
        if new & WANTED:
            shown |= new
            first = first or steps
            yield steps
        if shown >= WANTED:
            break
    else:
        raise AssertionError(f"never shown: {sorted(WANTED - shown)}")
    assert first is not None
    seated = next(
        i for i, step in enumerate(first) if any(isinstance(e, pegaz.Started) for e in step)
    )
    yield [*first[:seated], BY_HAND]


def record() -> None:
    i18n.STRICT = True
    data = {
        "games": [
            {
                "steps": [json.loads(pegaz.dump_events(events)) for events in steps],
                "lines": {lang: render(steps, lang) for lang in LANGS},
            }
            for steps in games()
        ]
    }
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    FIXTURE.parent.mkdir(exist_ok=True)
    FIXTURE.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    record()
