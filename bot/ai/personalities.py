"""NPC gamblers' personalities: who sits in a computer seat, and what it says at the table.

A personality is data (``data/personalities.json``): its game, a strength (``level``) and a
cheating habit that the caller maps onto that game's AI style, a factor on the table's NPC pause,
and a name and table talk in every language. This module describes; it knows no AI and decides
nothing. The file is read and checked once, on first use, so a mistake in it fails the tests and
the bot's start, not a game in progress.

A line is said verbatim whenever its moment comes, so it names no card, no total and no number,
and a Polish line has no gendered form for the speaker or the listener (``tests/test_polish.py``).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, cast, get_args

Game = Literal["pegaz", "pazaak"]
Lang = Literal["en", "pl"]
Moment = Literal[
    "seated", "big_raise", "check", "caught", "caught_other", "win", "lose", "bust", "stand"
]
Level = Literal["cautious", "solid", "bold", "novice", "regular", "master"]

LANGS: tuple[Lang, ...] = ("en", "pl")
"""``bot.i18n.LANGS`` spelled out: ``bot.ai`` may import only ``bot.rules``, and ``bot.i18n``
imports discord."""

MOMENTS: dict[Game, tuple[Moment, ...]] = {
    "pegaz": ("seated", "big_raise", "check", "caught", "caught_other", "win", "lose"),
    "pazaak": ("seated", "caught", "caught_other", "win", "lose", "bust", "stand"),
}
"""The moments at which an NPC of each game speaks. Every personality has lines for each, even
for one its style makes rare (an honest dwarf caught cheating), so the table never meets a gap."""
_ALL_MOMENTS: tuple[Moment, ...] = get_args(Moment)

LEVELS: dict[Game, tuple[Level, ...]] = {
    "pegaz": ("cautious", "solid", "bold"),
    "pazaak": ("novice", "regular", "master"),
}
"""The strengths a personality may have. Pazaak's ``stand17`` style is a benchmark baseline,
not a character."""

MAX_LINE = 200
"""Table talk is a line of chat, not a speech."""
MAX_NAME = 80
"""Discord's limit on a webhook's username, under which an NPC may speak."""
PAUSE = (0.5, 2.0)
"""Bounds of the factor on the table's NPC pause: a quick halfling, a slow dwarf, never a stall."""

_DATA = Path(__file__).with_name("data") / "personalities.json"
_ID = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*")
_FIELDS = frozenset({"id", "game", "level", "cheats", "pause", "name", "lines"})

_Bad = Callable[[str], ValueError]
"""Builds the error for a problem in one entry, naming the entry."""


class UnknownPersonality(ValueError):
    """No personality has this id: a typo in a command, or a stored seat whose personality has
    since been removed from the data."""

    def __init__(self, id: str) -> None:
        super().__init__(f"no NPC personality {id!r}; known: {', '.join(_by_id())}")
        self.id = id


@dataclass(frozen=True, slots=True)
class Personality:
    """One NPC gambler.

    ``cheats`` is, for Pegaz, the chance (0..1) to cheat on a deal; for Pazaak, whether it ever
    cheats. ``pause`` multiplies the table's NPC pause. The texts take no part in comparing and
    hashing: an id names one personality, and mappings do not hash.
    """

    id: str
    game: Game
    level: Level
    cheats: float | bool
    pause: float
    names: Mapping[Lang, str] = field(compare=False)
    lines: Mapping[Lang, Mapping[Moment, tuple[str, ...]]] = field(compare=False)


def personalities(game: str | None = None) -> tuple[Personality, ...]:
    """Every personality in the file's order, or only those of ``game`` (the GM's choices).
    A game that does not exist is a bug, not an empty list: ValueError."""
    if game is not None and game not in MOMENTS:
        raise ValueError(f"no game {game!r}; games: {', '.join(MOMENTS)}")
    return tuple(p for p in _by_id().values() if game is None or p.game == game)


def personality(id: str) -> Personality:
    """The personality with this id; :class:`UnknownPersonality` if there is none."""
    try:
        return _by_id()[id]
    except KeyError:
        raise UnknownPersonality(id) from None


def line(p: Personality, moment: str, lang: Lang, rng: random.Random) -> str | None:
    """A random line of ``p`` for ``moment``, or None if its game has no such moment (a Pegaz
    NPC never busts, a Pazaak NPC never raises). A moment of no game is a typo: ValueError."""
    return line_at(p, moment, lang, rng.randrange(1 << 30))


def line_at(p: Personality, moment: str, lang: Lang, pick: int) -> str | None:
    """:func:`line`, the ``pick``-th (modulo their number): the same pick says the same line
    in every language."""
    if moment not in _ALL_MOMENTS:
        raise ValueError(f"no moment {moment!r}; moments: {', '.join(_ALL_MOMENTS)}")
    said = p.lines[lang].get(moment)
    return said[pick % len(said)] if said else None


@cache
def _by_id() -> dict[str, Personality]:
    raw = json.loads(_DATA.read_text(encoding="utf-8"))
    found: dict[str, Personality] = {}
    for entry in raw["personalities"]:
        p = _parse(entry)
        if p.id in found:
            raise ValueError(f"personalities.json: {p.id} appears twice")
        found[p.id] = p
    return found


def _parse(raw: Any) -> Personality:
    """One entry of the file, checked. The file groups lines by moment, with the languages side
    by side for whoever translates; a :class:`Personality` holds them by language, as it is
    asked."""
    pid = raw.get("id") if isinstance(raw, dict) else None
    if not isinstance(pid, str) or not _ID.fullmatch(pid):
        raise ValueError(f"personalities.json: {pid!r} is not a snake_case id")

    def bad(problem: str) -> ValueError:
        return ValueError(f"personalities.json: {pid}: {problem}")

    if set(raw) != _FIELDS:
        raise bad(f"fields must be exactly {sorted(_FIELDS)}")
    game = raw["game"]
    if game not in MOMENTS:
        raise bad(f"game {game!r} is not one of {list(MOMENTS)}")
    game = cast(Game, game)
    level = raw["level"]
    if level not in LEVELS[game]:
        raise bad(f"level {level!r} is not one of {LEVELS[game]}")
    cheats = raw["cheats"]
    if game == "pazaak" and not isinstance(cheats, bool):
        raise bad("a Pazaak NPC's cheats is true or false")
    if game == "pegaz" and not (_is_number(cheats) and 0 <= cheats <= 1):
        raise bad("a Pegaz NPC's cheats is a chance from 0 to 1")
    pause = raw["pause"]
    if not (_is_number(pause) and PAUSE[0] <= pause <= PAUSE[1]):
        raise bad(f"pause must be a factor from {PAUSE[0]} to {PAUSE[1]}")

    names = _by_lang(raw["name"], bad, "name")
    for lang, name in names.items():
        if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME or name != name.strip():
            raise bad(f"{lang} name must be 1 to {MAX_NAME} characters, not padded")
    lines = raw["lines"]
    if not isinstance(lines, dict) or set(lines) != set(MOMENTS[game]):
        raise bad(f"lines must be given for exactly the moments {MOMENTS[game]}")
    by_lang: dict[Lang, dict[Moment, tuple[str, ...]]] = {lang: {} for lang in LANGS}
    for moment, texts in lines.items():
        for lang, said in _by_lang(texts, bad, moment).items():
            by_lang[lang][moment] = _texts(said, bad, f"{moment}/{lang}")
    return Personality(
        id=pid,
        game=game,
        level=level,
        cheats=cheats if game == "pazaak" else float(cheats),
        pause=float(pause),
        names=MappingProxyType(names),
        lines=MappingProxyType({k: MappingProxyType(v) for k, v in by_lang.items()}),
    )


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _by_lang(value: object, bad: _Bad, where: str) -> dict[Lang, Any]:
    if not isinstance(value, dict) or set(value) != set(LANGS):
        raise bad(f"{where} must be given in exactly {LANGS}")
    return {lang: value[lang] for lang in LANGS}


def _texts(value: object, bad: _Bad, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not value:
        raise bad(f"{where} needs at least one line")
    for text in value:
        if not isinstance(text, str) or not 0 < len(text) <= MAX_LINE or text != text.strip():
            raise bad(f"{where}: every line is 1 to {MAX_LINE} characters, not padded: {text!r}")
    return tuple(value)
