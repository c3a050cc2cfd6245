"""The hand history's copies: who reads what, on the recorded games of the event-line tests
(``tests/data/*_event_lines.json``, which show every event type and branch).

The leak tests are differential: a viewer's copy rendered from the real events must equal the copy
rendered from events whose secrets (cards dealt or drawn, modifier choices, detection rolls) were
changed, for every secret the viewer may not read; and the copy of a viewer who may read it must
change, so the perturbation is known to reach the text.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import pytest

from bot.i18n import LANGS, Lang, t
from bot.render.history import Viewer, may_see, page_embed, paginate
from bot.render.limits import DESCRIPTION_MAX, EMBED_TOTAL_MAX, size
from bot.render.pazaak.cards import card_label
from bot.render.pazaak.history import history_lines as pazaak_lines
from bot.render.pegaz.history import history_lines as pegaz_lines
from bot.rules import pazaak, pegaz
from tests import test_pazaak_event_lines as pazaak_fixture
from tests import test_pegaz_event_lines as pegaz_fixture

PEGAZ_GAMES = [pegaz_fixture._steps(g) for g in pegaz_fixture._games()]
PAZAAK_MATCHES = [pazaak_fixture._steps(m) for m in pazaak_fixture._matches()]
ROSTER = pegaz_fixture.ROSTER
NAMES = pazaak_fixture.NAMES
GM = Viewer(gm=True)
PUBLIC = Viewer()


def numbered(steps: Sequence[list[Any]]) -> list[tuple[int, list[Any]]]:
    return [(version, list(events)) for version, events in enumerate(steps, start=1)]


def pegaz_players(steps: Sequence[list[Any]]) -> list[int]:
    return sorted({e.player for step in steps for e in step if isinstance(e, pegaz.Joined)})


def pegaz_secret_changed(event: Any, die: int, keep: int | None) -> Any:
    """The event with its secret changed, unless it is ``keep``'s own (None: change all)."""
    if getattr(event, "player", None) == keep and keep is not None:
        return event
    if isinstance(event, pegaz.Dealt):
        return dataclasses.replace(event, cards=tuple(f % die + 1 for f in event.cards))
    if isinstance(event, pegaz.Drew):
        return dataclasses.replace(event, faces=tuple(f % die + 1 for f in event.faces))
    if isinstance(event, pegaz.ModifierChosen):
        return dataclasses.replace(event, shifts=tuple((c, -d) for c, d in event.shifts))
    if isinstance(event, pegaz.Detection):
        rolls = tuple(dataclasses.replace(r, roll=101 - r.roll) for r in event.rolls)
        return dataclasses.replace(event, rolls=rolls)
    return event


def pegaz_perturbed(steps: Sequence[list[Any]], keep: int | None) -> list[list[Any]]:
    die = steps[0][0].settings.die
    return [[pegaz_secret_changed(e, die, keep) for e in step] for step in steps]


def pegaz_copy(steps: Sequence[list[Any]], viewer: Viewer, lang: Lang = "en") -> list[str]:
    return pegaz_lines(numbered(steps), ROSTER, viewer, lang, table_id=9)


# --- who may see what ----------------------------------------------------------------------------


def test_an_audience_decides_who_reads_an_event() -> None:
    me = Viewer(frozenset({1}))
    assert may_see("public", None, PUBLIC) and may_see("public", 2, me)
    assert may_see("player", 1, me) and may_see("private", 1, me)
    assert not may_see("player", 2, me) and not may_see("private", None, me)
    assert not may_see("player", 1, PUBLIC)
    assert not may_see("gm", 1, me) and not may_see("gm", None, PUBLIC)
    assert may_see("gm", None, GM) and may_see("player", 2, GM) and may_see("private", 2, GM)
    assert (GM.copy, me.copy, PUBLIC.copy) == ("gm", "player", "public")


@pytest.mark.parametrize("game", range(len(PEGAZ_GAMES)))
def test_no_pegaz_secret_reaches_a_copy_that_may_not_read_it(game: int) -> None:
    steps = PEGAZ_GAMES[game]
    everything = pegaz_perturbed(steps, keep=None)
    assert pegaz_copy(everything, PUBLIC) == pegaz_copy(steps, PUBLIC)
    for player in pegaz_players(steps):
        me = Viewer(frozenset({player}))
        assert pegaz_copy(pegaz_perturbed(steps, keep=player), me) == pegaz_copy(steps, me)
    changed = (pegaz.Dealt, pegaz.Drew)
    secrets = any(
        isinstance(e, changed) or (isinstance(e, pegaz.Detection) and e.rolls)
        for step in steps
        for e in step
    )
    if secrets:  # the GM reads every secret, so the change shows in the GM's copy
        assert pegaz_copy(everything, GM) != pegaz_copy(steps, GM)


def test_a_pegaz_player_reads_their_own_deal_and_nobody_else_does() -> None:
    steps = next(s for s in PEGAZ_GAMES if any(isinstance(e, pegaz.Dealt) for x in s for e in x))
    deal = next(e for step in steps for e in step if isinstance(e, pegaz.Dealt))
    mine = pegaz_copy(steps, Viewer(frozenset({deal.player})))
    others = [p for p in pegaz_players(steps) if p != deal.player]
    assert sum(line.startswith("🂠") for line in mine) >= 1
    dealt_to = f"🂠 **{ROSTER[deal.player].name}** is dealt"
    assert any(line.startswith(dealt_to) for line in mine)
    assert not any(line.startswith(dealt_to) for line in pegaz_copy(steps, PUBLIC))
    for other in others:
        theirs = pegaz_copy(steps, Viewer(frozenset({other})))
        assert not any(line.startswith(dealt_to) for line in theirs)
    assert any(line.startswith(dealt_to) for line in pegaz_copy(steps, GM))


def test_only_the_gm_reads_the_pegaz_detection_rolls() -> None:
    steps = next(
        s for s in PEGAZ_GAMES if any(isinstance(e, pegaz.Detection) for x in s for e in x)
    )
    cheater = next(e.cheater for x in steps for e in x if isinstance(e, pegaz.Detection))
    header = f"Table 9: **{ROSTER[cheater].name}** cheated."
    assert any(line.startswith(header) for line in pegaz_copy(steps, GM))
    for viewer in [PUBLIC, *(Viewer(frozenset({p})) for p in pegaz_players(steps))]:
        assert not any("Detection tests" in line for line in pegaz_copy(steps, viewer))


def test_a_pegaz_history_tells_rounds_exchanges_checks_and_the_winner() -> None:
    def shows(steps: Sequence[list[Any]], kind: type[Any]) -> bool:
        return any(isinstance(e, kind) for x in steps for e in x)

    steps = next(
        s
        for s in PEGAZ_GAMES
        if all(shows(s, k) for k in (pegaz.Exchanged, pegaz.Checked, pegaz.GameEnded))
    )
    lines = pegaz_copy(steps, PUBLIC)
    assert "sits down and pays the ante of" in lines[0]
    assert "— Round 1 —" in lines
    assert any(" and exchanges " in line or " keeps the cards " in line for line in lines)
    assert any(line.startswith("🔍 ") for line in lines)  # a check, with both hands shown
    assert not any("<@" in line for line in lines)  # no pings of a live table's turns
    assert any(line.startswith(("🏆", "🤝", "🚫")) for line in lines)


# --- Pazaak -------------------------------------------------------------------------------------


def pazaak_copy(steps: Sequence[list[Any]], viewer: Viewer, lang: Lang = "en") -> list[str]:
    return pazaak_lines(numbered(steps), NAMES, viewer, lang, table_id=9)


def hand_lines(steps: Sequence[list[Any]], lang: Lang = "en") -> dict[int, str]:
    found = {}
    for event in (e for step in steps for e in step if isinstance(e, pazaak.HandDealt)):
        cards = " · ".join(card_label(c, lang) for c in event.cards)
        found[event.player] = t(lang, "history.pazaak.hand", name=NAMES[event.player], cards=cards)
    return found


@pytest.mark.parametrize("match", range(len(PAZAAK_MATCHES)))
def test_a_pazaak_hand_and_swap_reach_only_their_player_and_the_gm(match: int) -> None:
    steps = PAZAAK_MATCHES[match]
    hands = hand_lines(steps)
    assert len(hands) == 2
    public = pazaak_copy(steps, PUBLIC)
    assert not set(hands.values()) & set(public)
    assert set(hands.values()) <= set(pazaak_copy(steps, GM))
    swaps = [e for step in steps for e in step if isinstance(e, pazaak.Swapped)]
    for player, line in hands.items():
        mine = pazaak_copy(steps, Viewer(frozenset({player})))
        assert line in mine
        assert not (set(hands.values()) - {line}) & set(mine)
        told = [s for s in mine if "secretly swaps" in s]
        assert len(told) == sum(1 for s in swaps if s.player == player)
    assert not any("secretly swaps" in s or "rolled" in s for s in public)


def test_only_the_gm_reads_a_pazaak_swap_and_its_roll() -> None:
    steps = next(
        s for s in PAZAAK_MATCHES if any(isinstance(e, pazaak.DetectionRoll) for x in s for e in x)
    )
    changed = [
        [dataclasses.replace(e, roll=101 - e.roll) if e.kind == "detection_roll" else e for e in x]
        for x in steps
    ]
    gm = pazaak_copy(steps, GM)
    assert any(line.startswith("Table 9: **") and "rolled" in line for line in gm)
    assert pazaak_copy(changed, GM) != gm
    for viewer in (
        PUBLIC,
        Viewer(frozenset({pazaak_fixture.A})),
        Viewer(frozenset({pazaak_fixture.B})),
    ):
        assert pazaak_copy(changed, viewer) == pazaak_copy(steps, viewer)


def test_a_pazaak_history_tells_each_set_and_the_match() -> None:
    steps = PAZAAK_MATCHES[0]
    lines = pazaak_copy(steps, PUBLIC)
    assert lines[0].startswith(f"{NAMES[pazaak_fixture.A]} against {NAMES[pazaak_fixture.B]}")
    assert lines[1].startswith("— Set 1: ")
    assert any(line.startswith("**Set 1**") for line in lines)
    if any(isinstance(e, pazaak.MatchEnded) for x in steps for e in x):
        assert "wins the match" in " ".join(lines)
    assert pazaak_copy(steps, PUBLIC)[-1] != t("en", "history.cancelled")
    cancelled = pazaak_lines(numbered(steps), NAMES, PUBLIC, "en", table_id=9, cancelled=True)
    assert cancelled[-1] == t("en", "history.cancelled")


@pytest.mark.parametrize("lang", LANGS)
def test_every_recorded_history_renders_in_each_language(lang: Lang) -> None:
    for steps in PEGAZ_GAMES:
        assert pegaz_copy(steps, GM, lang)
    for steps in PAZAAK_MATCHES:
        assert pazaak_copy(steps, GM, lang)


# --- pages ---------------------------------------------------------------------------------------


def test_pages_keep_every_line_whole_and_in_order() -> None:
    lines = [f"line {n} " + "x" * (n % 50) for n in range(400)] + ["a\nb"]
    pages = paginate(lines, limit=500)
    assert len(pages) > 1 and all(len(page) <= 500 for page in pages)
    assert "\n".join(pages).split("\n") == "\n".join(lines).split("\n")
    assert paginate([]) == [""]
    assert paginate(["y" * 600], limit=500) == ["y" * 499 + "…"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_longest_history_pages_fit_discord(lang: Lang) -> None:
    lines = [line for steps in PEGAZ_GAMES for line in pegaz_copy(steps, GM, lang)] * 3
    pages = paginate(lines)
    assert len(pages) > 1
    for number, text in enumerate(pages):
        embed = page_embed(
            lang, table_id=2**53 - 1, game="Pegaz" * 60, viewer=GM, text=text,
            page=number, pages=len(pages),
        )  # fmt: skip
        assert len(embed.description or "") <= DESCRIPTION_MAX
        assert size(embed) <= EMBED_TOTAL_MAX
        assert embed.description == text  # the page's text is never clipped by the embed
