"""NPC personalities: the data loads, says the same things in both languages, and gives nothing
away (no card, no creature, no number) in words the Polish rules allow."""

from __future__ import annotations

import copy
import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any, get_args

import pytest

from bot.ai.personalities import (
    LANGS,
    LEVELS,
    MAX_LINE,
    MOMENTS,
    Moment,
    Personality,
    UnknownPersonality,
    _parse,
    line,
    personalities,
    personality,
)
from bot.i18n import LANGS as I18N_LANGS
from bot.rules.pazaak import ALL_SIDE_CARDS
from tests.test_polish import gendered

ALL = personalities()
IDS = [p.id for p in ALL]
CREATURES = Path(__file__).parents[2] / "bot" / "rules" / "pegaz" / "data" / "creatures.json"


def every_line() -> list[tuple[str, str, str, str]]:
    """(personality, moment, language, line) for every line in the data."""
    return [
        (p.id, moment, lang, text)
        for p in ALL
        for lang in LANGS
        for moment, texts in p.lines[lang].items()
        for text in texts
    ]


def creature_names() -> set[str]:
    dice = json.loads(CREATURES.read_text(encoding="utf-8"))["dice"]
    return {c[lang] for faces in dice.values() for c in faces for lang in LANGS}


def card_codes_in(text: str) -> list[str]:
    """The side-card codes in a text, as words of their own (``D`` and ``T`` are letters too)."""
    codes = {card.code for card in ALL_SIDE_CARDS}
    return [w for w in re.findall(r"(?<!\w)[+\-±]?\w+(?:/\w+)?", text) if w in codes]


def test_the_languages_are_the_bots_and_the_moments_the_games() -> None:
    assert LANGS == I18N_LANGS
    assert set(get_args(Moment)) == {m for moments in MOMENTS.values() for m in moments}


def test_the_cast_of_the_brief_is_there() -> None:
    expected = {
        "bretonnian_cardsharp": ("pegaz", "bold", 0.35),
        "nervous_halfling": ("pegaz", "cautious", 0.05),
        "dwarf_veteran": ("pegaz", "solid", 0.0),
        "tilean_moneylender": ("pegaz", "solid", 0.1),
        "rodian_hustler": ("pazaak", "regular", True),
        "twilek_dealer": ("pazaak", "master", False),
        "nervous_protocol_droid": ("pazaak", "novice", False),
        "mandalorian_veteran": ("pazaak", "master", False),
    }
    assert {p.id: (p.game, p.level, p.cheats) for p in ALL} == expected
    assert len(set(IDS)) == len(IDS)
    assert personality("nervous_halfling").pause < 1 < personality("dwarf_veteran").pause


@pytest.mark.parametrize("game", list(MOMENTS))
def test_a_game_lists_only_its_own_personalities(game: str) -> None:
    mine = personalities(game)
    assert mine and all(p.game == game for p in mine)
    assert {p.level for p in mine} == set(LEVELS[mine[0].game])


@pytest.mark.parametrize("pid", IDS)
def test_every_moment_of_its_game_is_said_in_both_languages(pid: str) -> None:
    p = personality(pid)
    for lang in LANGS:
        assert set(p.lines[lang]) == set(MOMENTS[p.game]), lang
        assert all(2 <= len(texts) <= 4 for texts in p.lines[lang].values()), lang
        assert p.names[lang]
    assert p.lines["en"].keys() == p.lines["pl"].keys()
    en, pl = ({m: len(t) for m, t in p.lines[lang].items()} for lang in LANGS)
    assert en == pl  # a translation, line for line
    assert (type(p.cheats) is bool) == (p.game == "pazaak")


def test_lines_are_short_and_distinct() -> None:
    lines = every_line()
    assert len(lines) >= 8 * 7 * 2 * 2
    assert [text for *_, text in lines if len(text) > MAX_LINE] == []
    for lang in LANGS:
        counts = Counter(text for _, _, lang_, text in lines if lang_ == lang)
        assert [text for text, n in counts.items() if n > 1] == [], lang


def test_the_secrecy_scanners_find_what_they_look_for() -> None:
    assert card_codes_in("Ha, a D and a +3, and ±1/2 to spare.") == ["D", "+3", "±1/2"]
    assert card_codes_in("Don't Tell: I'd rather not.") == []
    assert "Dragon" in creature_names() and "Wąż" in creature_names()


def test_no_line_names_a_card_a_creature_or_a_number() -> None:
    """A line is said at any moment of its kind, so a number would be wrong and a card or a
    creature (Pegaz's cards) might give a hand away."""
    creatures = re.compile(
        r"\b(?:" + "|".join(map(re.escape, sorted(creature_names()))) + r")", re.IGNORECASE
    )
    found = [
        (pid, moment, lang, text)
        for pid, moment, lang, text in every_line()
        if card_codes_in(text) or creatures.search(text) or re.search(r"\d", text)
    ]
    assert found == []


def test_no_polish_line_is_gendered() -> None:
    """An NPC's gender is fixed, but its listener's is not, and the catalogue's rule (no gendered
    form) is the simplest to keep for both; the scanner is ``tests/test_polish.py``'s."""
    assert gendered("Przegrałem, ale wrócę.") and gendered("Widziałaś to?")
    found = [
        (pid, moment, text)
        for pid, moment, lang, text in every_line()
        if lang == "pl" and gendered(text)
    ]
    assert found == []
    assert [p.names["pl"] for p in ALL if gendered(p.names["pl"])] == []


def test_line_is_one_of_its_moments_lines_and_follows_the_seed() -> None:
    p = personality("bretonnian_cardsharp")
    said = [line(p, "win", "pl", random.Random(7)) for _ in range(3)]
    assert said[0] == said[1] == said[2]
    rng = random.Random(11)
    drawn = [line(p, "win", "en", rng) for _ in range(60)]
    again = random.Random(11)
    assert drawn == [line(p, "win", "en", again) for _ in range(60)]
    assert set(drawn) == set(p.lines["en"]["win"])


def test_a_moment_outside_its_game_has_no_line() -> None:
    rng = random.Random(1)
    assert line(personality("dwarf_veteran"), "bust", "en", rng) is None
    assert line(personality("twilek_dealer"), "big_raise", "pl", rng) is None
    assert line(personality("twilek_dealer"), "stand", "pl", rng) is not None


def test_a_moment_or_a_game_that_does_not_exist_is_an_error() -> None:
    with pytest.raises(ValueError, match="big_rasie"):
        line(personality("dwarf_veteran"), "big_rasie", "en", random.Random(1))
    with pytest.raises(ValueError, match="pegasus"):
        personalities("pegasus")


def test_an_unknown_id_raises_a_clear_error() -> None:
    with pytest.raises(UnknownPersonality, match="no_such_npc") as caught:
        personality("no_such_npc")
    assert isinstance(caught.value, ValueError)
    assert caught.value.id == "no_such_npc"
    assert "dwarf_veteran" in str(caught.value)


def test_personalities_are_values() -> None:
    p = personality("rodian_hustler")
    assert personality("rodian_hustler") is p
    assert {p: 1}[personality("rodian_hustler")] == 1
    assert isinstance(p, Personality)
    with pytest.raises(TypeError):
        p.lines["en"]["win"] = ()  # type: ignore[index]


def raw_entry(pid: str) -> dict[str, Any]:
    path = Path(__file__).parents[2] / "bot" / "ai" / "data" / "personalities.json"
    raw = json.loads(path.read_text(encoding="utf-8"))["personalities"]
    return copy.deepcopy(next(e for e in raw if e["id"] == pid))


def break_pl_win(e: dict[str, Any]) -> None:
    del e["lines"]["win"]["pl"]


def break_moment(e: dict[str, Any]) -> None:
    e["lines"]["bust"] = e["lines"]["win"]


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda e: e.update(id="Dwarf Veteran"), "snake_case"),
        (lambda e: e.update(level="master"), "level"),
        (lambda e: e.update(cheats=True), "chance"),
        (lambda e: e.update(cheats=1.5), "chance"),
        (lambda e: e.update(pause=3), "pause"),
        (lambda e: e.update(pasue=1), "fields"),
        (lambda e: e["name"].pop("pl"), "name"),
        (break_pl_win, "win"),
        (break_moment, "moments"),
        (lambda e: e["lines"]["win"]["en"].append("x" * (MAX_LINE + 1)), "win/en"),
        (lambda e: e["lines"]["lose"].update(en=[]), "lose/en"),
    ],
)
def test_the_loader_refuses_a_broken_entry(change: Any, problem: str) -> None:
    entry = raw_entry("dwarf_veteran")
    assert _parse(copy.deepcopy(entry)) == personality("dwarf_veteran")
    change(entry)
    with pytest.raises(ValueError, match=problem):
        _parse(entry)


def test_a_pazaak_entry_cheats_yes_or_no() -> None:
    entry = raw_entry("rodian_hustler")
    entry["cheats"] = 0.5
    with pytest.raises(ValueError, match="true or false"):
        _parse(entry)
