"""Whole games at the longest inputs render within Discord's limits (issue 11, item 7): eight
seats with the longest names, the biggest amounts, random legal moves (Hypothesis), both
languages; every step's board, hands and posts go through the fake Discord's own checks."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.i18n import LANGS, Lang
from bot.render import limits
from bot.render import pazaak as render_pazaak
from bot.render import pegaz as render_pegaz
from bot.render.pazaak import text as pazaak_text
from bot.render.pegaz import events as pegaz_events
from bot.rules import pazaak, pegaz
from bot.rules.money import WARHAMMER
from tests.test_message_limits import BIG_CR, BIG_WH, SEATS, USER, fits, name

# --- Three-Card Pegasus: whole games at the longest ---------------------------------------------


def _pegaz_roster(npc_every: int = 3) -> dict[int, render_pegaz.Who]:
    return {
        p: render_pegaz.Who(name(p), USER + p, npc=p % npc_every == 0) for p in range(1, SEATS + 1)
    }


def _pegaz_check(state: pegaz.PegazState, events: list[Any], lang: Lang) -> None:
    roster = _pegaz_roster()
    embed = render_pegaz.table_embed(
        state, table_id=10**9, roster=roster, lang=lang, deadline=2**45
    )
    fits(embed=embed)
    for seat in state.seats:
        fits(
            embed=render_pegaz.hand_embed(
                state, seat.player, table_id=10**9, channel_id=USER, roster=roster, lang=lang
            )
        )
        if seat.hand:
            die = state.settings.die
            shifts = [(0, 2), (1, -2), (2, 1)]
            assert len(render_pegaz.modifier_label(die, seat.hand, shifts, lang)) <= 100
    public = "\n".join(pegaz_events.public_lines(events, state, roster, lang))
    assert len(public) <= limits.CONTENT_MAX, len(public)  # whole, not clipped
    gm = "\n".join(pegaz_events.gm_lines(events, roster, lang, table_id=10**9))
    assert len(gm) <= limits.CONTENT_MAX
    caught = pegaz_events.caught_note(events, 1, lang)
    if caught is not None:
        fits(caught)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=False
)
@given(
    seed=st.integers(0, 2**32),
    source=st.sampled_from(["dice", "deck"]),
    ruling=st.sampled_from(["expel", "gm"]),
    tie=st.sampled_from(["split", "rollover"]),
    lang=st.sampled_from(LANGS),
)
def test_every_pegaz_step_renders_within_limits(
    seed: int, source: str, ruling: str, tie: str, lang: Lang
) -> None:
    rng = random.Random(seed)
    stake = WARHAMMER.cap // 1000 + 12 * 20 + 12 + 1  # every coin in it
    table_settings = pegaz.PegazSettings(
        stake=stake,
        exchanges=None,
        raise_limit=None,
        die=8 if source == "deck" else 20,
        source=source,  # type: ignore[arg-type]
        detection_modifier=-100 + 50,
        cheat_ruling=ruling,  # type: ignore[arg-type]
        tie=tie,  # type: ignore[arg-type]
        carried_pot=BIG_WH,
        max_stake=None,
        turn_timeout=24 * 3600 - 1,
    )
    state, events = pegaz.new_table(table_settings)
    _pegaz_check(state, events, lang)
    for player in range(1, SEATS + 1):
        join = pegaz.Join(player, True, True, 100 if player % 2 else 0, WARHAMMER.cap)
        state, events = pegaz.apply(state, join, rng)
        _pegaz_check(state, events, lang)
    for _ in range(400):
        if pegaz.is_over(state):
            break
        actions = pegaz.legal_actions(state)
        if not actions:  # only a timeout or a cancel is left
            break
        cheats = [a for a in actions if isinstance(a, pegaz.Cheat)]
        action = rng.choice(cheats if cheats and rng.random() < 0.5 else actions)
        state, events = pegaz.apply(state, action, rng)
        _pegaz_check(state, events, lang)
    cancelled, events = (
        pegaz.apply(state, pegaz.Cancel(), rng)
        if not pegaz.is_over(state)
        else (
            state,
            [],
        )
    )
    _pegaz_check(cancelled, events, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_pegaz_odds_fit(lang: Lang) -> None:
    for die in pegaz.DICE:
        for source in ("dice", "deck"):
            fits(embed=render_pegaz.odds_embed((1, 1, die), die, source, lang))
            fits(embed=render_pegaz.odds_embed(None, die, source, lang))


# --- Pazaak: whole matches at the longest -------------------------------------------------------

A, B = 1, 2
PAZAAK_NAMES = {A: name(A), B: name(B)}


def _pazaak_check(
    state: pazaak.PazaakState, events: list[Any], history: list[Any], lang: Lang
) -> None:
    content, embed = render_pazaak.board(
        state, 10**9, PAZAAK_NAMES, lang, events=events, mention=f"<@{USER}>"
    )
    fits(content, embed)
    for player in (A, B):
        fits(embed=render_pazaak.hand(state, player, PAZAAK_NAMES, lang))
        fits(embed=render_pazaak.hand_dm(state, player, 10**9, PAZAAK_NAMES, lang))
    for event in events:
        if isinstance(event, pazaak.SetEnded):
            fits(render_pazaak.set_result(event, state, PAZAAK_NAMES, lang))
        if isinstance(event, pazaak.MatchEnded):
            fits(render_pazaak.match_result(event, state, PAZAAK_NAMES, lang))
    if pazaak.is_over(state):
        fits(embed=pazaak_text.summary(state, 10**9, PAZAAK_NAMES, lang, history))
    fits(embed=pazaak_text.cancelled(state, 10**9, PAZAAK_NAMES, lang))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), lang=st.sampled_from(LANGS), sets=st.sampled_from([3, 9]))
def test_every_pazaak_step_renders_within_limits(seed: int, lang: Lang, sets: int) -> None:
    rng = random.Random(seed)
    from bot.rules.pazaak import state as pazaak_state

    wager = min(BIG_CR, getattr(pazaak_state, "MAX_WAGER", BIG_CR))
    match_settings = pazaak.PazaakSettings(
        wager=wager,
        sets_to_win=min(sets, getattr(pazaak_state, "MAX_SETS_TO_WIN", sets)),
        turn_timeout=59,
        main_deck="infinite",
        kotor2_cards=False,
        nine_card_win=False,
        starter="loser",
    )
    plain = [c for c in pazaak.ALL_SIDE_CARDS if not c.is_kotor2]
    picks = [tuple(rng.choice(plain) for _ in range(pazaak.SELECTION_SIZE)) for _ in (A, B)]
    state, events = pazaak.new_match(match_settings, A, picks[0], B, picks[1], rng)
    history = list(events)
    _pazaak_check(state, events, history, lang)
    for _ in range(600):
        if pazaak.is_over(state):
            break
        state, events = pazaak.apply(state, rng.choice(pazaak.legal_actions(state)), rng)
        history += events
        _pazaak_check(state, events, history, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_pazaak_texts_around_the_match_fit(lang: Lang) -> None:
    every = [c.code for c in pazaak.ALL_SIDE_CARDS] * 1000
    fits(embed=pazaak_text.collection(lang, name=name(1), side_cards=every, selection=every))
    fits(embed=pazaak_text.rules(lang))
    fits(pazaak_text.counted(every, lang))
    full = pazaak.PazaakSettings(main_deck="infinite", kotor2_cards=False, nine_card_win=False)
    for wager in (0, BIG_CR):
        fits(
            pazaak_text.challenge(
                lang,
                mention=f"<@{USER}>",
                challenger=name(1),
                opponent=name(2),
                wager=wager,
                turn=3599,
                expires=2**40,
                settings=full,
            )
        )
    for how in ("accepted", "declined", "withdrawn", "expired"):
        fits(pazaak_text.challenge_closed(lang, how, name(1), name(2), wager=BIG_CR))
    fits(pazaak_text.turn_warning(lang, mention=f"<@{USER}>", name=name(1), deadline_ms=2**45))
    fits(render_pazaak.dm_closed(lang, mention=f"<@{USER}>", name=name(1)))
