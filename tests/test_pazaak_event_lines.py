"""Pazaak moves in words, pinned: the board's log lines for real matches in both languages, equal
to what ``tests/data/pazaak_event_lines.json`` recorded. The fixture holds the matches' events
as well as their lines, so the test renders exactly the recorded steps whatever the rules' use of
the RNG becomes.

The fixture was recorded from seeded random matches (``legal_actions`` plus the odd timeout and
forfeit), keeping only the matches that showed something new, until every event type and every
branch of its line was shown. A change meant to alter the lines re-records it with
``python -m tests.test_pazaak_event_lines``; review the diff of the fixture like code.
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
from bot.render import pazaak as render
from bot.rules import pazaak
from bot.rules.pazaak import ALL_SIDE_CARDS

FIXTURE = Path(__file__).parent / "data" / "pazaak_event_lines.json"
A, B = 7, 8
NAMES = {A: "Anka", B: "Bastila"}

Step = list[pazaak.Event]


def lines(steps: Sequence[Step], lang: Lang) -> list[list[str]]:
    """The log lines of each step, rendered against the state after it."""
    out: list[list[str]] = []
    state: pazaak.PazaakState | None = None
    for events in steps:
        for event in events:
            state = pazaak.fold(state, event)
        assert state is not None
        out.append(render.log_lines(events, state, NAMES, lang))
    return out


def features(events: Sequence[pazaak.Event]) -> set[str]:
    """The event types and the branches of their lines these events show."""
    found: set[str] = set()
    for e in events:
        found.add(type(e).__name__)
        if isinstance(e, pazaak.CardPlayed):
            chosen = "face" if e.card.values == (e.value,) else "as"
            found.add(f"CardPlayed.{e.card.kind}.{chosen}")
        elif isinstance(e, pazaak.TurnEnded):
            found.add(f"TurnEnded.{e.how}")
        elif isinstance(e, pazaak.Stood):
            found.add(f"Stood.{e.reason}")
        elif isinstance(e, pazaak.SetEnded):
            found.add(f"SetEnded.{'tie' if e.winner is None else 'won'}")
        elif isinstance(e, pazaak.SetStarted):
            found.add(f"SetStarted.{'first' if e.set_number == 1 else 'later'}")
        elif isinstance(e, pazaak.MatchEnded):
            found.add(f"MatchEnded.{e.reason}")
        elif isinstance(e, pazaak.Ruled):
            found.add(f"Ruled.{e.verdict}")
    return found


EVENT_TYPES = {cls.__name__ for cls in get_args(pazaak.Event)}
WANTED = EVENT_TYPES | {
    *(f"CardPlayed.{kind}.face" for kind in ("plus", "minus", "flip24", "flip36")),
    *(f"CardPlayed.{kind}.as" for kind in ("plus_minus", "double", "tiebreaker", "pm12")),
    *(f"TurnEnded.{how}" for how in ("end_turn", "stand", "timeout")),
    *(f"Stood.{reason}" for reason in ("stand", "timeout", "twenty")),
    "SetEnded.tie",
    "SetEnded.won",
    "SetStarted.first",
    "SetStarted.later",
    *(f"MatchEnded.{reason}" for reason in ("sets", "forfeit", "timeouts", "caught")),
    *(f"Ruled.{verdict}" for verdict in ("pardon", "lose_set", "forfeit")),
}


# --- the test -----------------------------------------------------------------------------------


def _matches() -> list[dict[str, Any]]:
    matches: list[dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))["matches"]
    return matches


def _steps(match: dict[str, Any]) -> list[Step]:
    return [pazaak.load_events(json.dumps(step).encode()) for step in match["steps"]]


def test_the_fixture_shows_every_event_and_branch() -> None:
    shown = set().union(*(features([e for s in _steps(m) for e in s]) for m in _matches()))
    assert shown >= WANTED, sorted(WANTED - shown)
    assert FIXTURE.stat().st_size < 200_000


@pytest.mark.parametrize("lang", LANGS)
def test_lines_are_as_recorded(lang: Lang) -> None:
    for index, match in enumerate(_matches()):
        assert (index, lines(_steps(match), lang)) == (index, match["lines"][lang])


@dataclass(frozen=True, slots=True)
class Unknown:
    """An event of a type the renderer has never heard of."""

    player: int = A
    kind: str = "unknown"


@pytest.mark.parametrize("lang", LANGS)
def test_an_unknown_event_says_nothing(lang: Lang) -> None:
    steps = _steps(_matches()[0])
    state = pazaak.replay([e for s in steps for e in s])
    for events in steps:
        mixed: list[Any] = [Unknown(), *events, Unknown()]
        assert render.log_lines(mixed, state, NAMES, lang) == (
            render.log_lines(events, state, NAMES, lang)
        )
    assert render.log_lines([Unknown()], state, NAMES, lang) == []


# --- recording the fixture ----------------------------------------------------------------------


def play(seed: int, *, skills: bool = False) -> list[Step]:
    """One seeded match, step by step, to its end (a forfeit ends a long one). With ``skills``,
    both players have Luck and Gamble, and the GM rules on a caught swap at random; without,
    the RNG is drawn exactly as before skills existed, so the first matches recorded stay."""
    rng = random.Random(seed)
    options: dict[str, Any] = {}
    traits = (pazaak.Traits(), pazaak.Traits())
    if skills:
        ruling = rng.choice(["forfeit", "gm"])
        options = {"skills": True, "cheat_ruling": ruling, "detection_modifier": 20}
        traits = tuple(pazaak.Traits(True, True, rng.choice([0, 50, 100])) for _ in "ab")  # type: ignore[assignment]
    table = pazaak.PazaakSettings(
        wager=rng.choice([0, 25]),
        main_deck=rng.choice(["pool", "infinite"]),
        kotor2_cards=rng.random() < 0.7,
        nine_card_win=rng.random() < 0.7,
        starter=rng.choice(["alternate", "loser"]),
        sets_to_win=rng.choice([1, 2]),
        timeouts_to_forfeit=rng.choice([1, 2]),
        **options,
    )
    cards = [c for c in ALL_SIDE_CARDS if table.kotor2_cards or not c.is_kotor2]
    a, b = ([rng.choice(cards) for _ in range(10)] for _ in range(2))
    state, opened = pazaak.new_match(table, A, a, B, b, rng, traits=traits)
    steps: list[Step] = [opened]
    while not pazaak.is_over(state):
        if state.ruling is not None:
            verdict = rng.choice(pazaak.VERDICTS)
            state, events = pazaak.apply(
                state, pazaak.RuleOnCheat(state.ruling.cheater, verdict), rng
            )
            steps.append(events)
            continue
        player = state.current_player
        assert player is not None
        roll = rng.random()
        legal = [x for x in pazaak.legal_actions(state) if not isinstance(x, pazaak.Forfeit)]
        if roll < 0.01 or len(steps) > 60:
            action: pazaak.Action = pazaak.Forfeit(rng.choice((A, B)))
        elif roll < 0.08:
            action = pazaak.Timeout(player)
        elif roll < 0.5:
            action = rng.choice(legal)
        else:  # end the turn more often than a uniform pick would, so tables fill up
            action = pazaak.EndTurn(player)
        state, events = pazaak.apply(state, action, rng)
        steps.append(events)
    return steps


def matches() -> Iterator[list[Step]]:
    """Seeded matches that each show something new, until everything wanted has been shown."""
    shown: set[str] = set()
    for skills in (False, True):
        for seed in range(5000):
            steps = play(seed, skills=skills)
            new = features([e for s in steps for e in s]) - shown
            if new & WANTED:
                shown |= new
                yield steps
            if shown >= WANTED:
                return
    raise AssertionError(f"never shown: {sorted(WANTED - shown)}")


def record() -> None:
    i18n.STRICT = True
    data = {
        "matches": [
            {
                "steps": [json.loads(pazaak.dump_events(events)) for events in steps],
                "lines": {lang: lines(steps, lang) for lang in LANGS},
            }
            for steps in matches()
        ]
    }
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    FIXTURE.parent.mkdir(exist_ok=True)
    FIXTURE.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    record()
