"""Every button row and menu the games show fits Discord's limits at the longest inputs (issue 11,
item 7): eight seats with the longest names, the biggest table and version numbers, whole games
of random legal moves, both languages. Checked with the fake Discord's own checks."""

from __future__ import annotations

import random

import discord
import pytest

from bot.i18n import LANGS, Lang
from bot.render import pegaz as render_pegaz
from bot.rules import pazaak, pegaz
from bot.rules.money import WARHAMMER
from cogs.pazaak import views as pazaak_views
from cogs.pegaz import views as pegaz_views
from tests.fakediscord import limits as discord_limits
from tests.test_message_limits import USER, _character, name

TABLE = 10**12
VERSION = 10**9


def check(view: discord.ui.View | discord.ui.LayoutView | None) -> None:
    if view is None:
        return
    body: dict[str, object] = {"components": view.to_components()}
    if isinstance(view, discord.ui.LayoutView):
        body["flags"] = discord_limits.COMPONENTS_V2
    found = list(discord_limits.check_message(body))
    assert not found, found


def check_modal(modal: discord.ui.Modal) -> None:
    found = list(discord_limits.check_modal(modal.to_dict(), "data"))
    assert not found, found


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("seed", range(6))
async def test_every_pegaz_view_fits(seed: int, lang: Lang) -> None:
    rng = random.Random(seed)
    roster = {
        p: render_pegaz.Who(name(p), USER + p, npc=p % 3 == 0)
        for p in range(1, pegaz.MAX_SEATS + 1)
    }
    settings = pegaz.PegazSettings(
        stake=WARHAMMER.cap // 1000 + 253,
        exchanges=None,
        raise_limit=None,
        die=20,
        cheat_ruling="gm" if seed % 2 else "expel",
    )
    state, _ = pegaz.new_table(settings)
    check(pegaz_views.table_view(state, TABLE, VERSION, roster, lang))
    for player in roster:
        join = pegaz.Join(player, True, True, 100 if player % 2 else 0, WARHAMMER.cap)
        state, _ = pegaz.apply(state, join, rng)
    characters = [_character(i) for i in range(30)]
    check(pegaz_views.character_pick_view(TABLE, VERSION, characters, lang))
    for _ in range(300):
        check(pegaz_views.table_view(state, TABLE, VERSION, roster, lang))
        for seat in state.seats:
            check(pegaz_views.choices_view(state, seat.player, TABLE, lang))
        turn = pegaz.whose_turn(state)
        if turn is not None:
            check_modal(pegaz_views.exchange_modal(state, turn, TABLE, VERSION, lang))
            ask = "x" * 4001  # clipped to fit
            check(pegaz_views.check_view(state, turn, TABLE, VERSION, roster, ask, lang))
            terms = ((0, 1, 2), WARHAMMER.cap, WARHAMMER.cap)
            text = "x" * 4000  # a preview's text clipped to fit beside the hand
            preview = pegaz_views.confirm_view(state, turn, TABLE, VERSION, terms, text, lang)
            check(preview)
            assert preview.content_length() == 4000
        actions = pegaz.legal_actions(state)
        if pegaz.is_over(state) or not actions:
            break
        cheats = [a for a in actions if isinstance(a, pegaz.Cheat)]
        state, _ = pegaz.apply(
            state, rng.choice(cheats if cheats and rng.random() < 0.5 else actions), rng
        )
    check(pegaz_views.table_view(state, TABLE, VERSION, roster, lang))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("seed", range(6))
async def test_every_pazaak_view_fits(seed: int, lang: Lang) -> None:
    rng = random.Random(seed)
    cards = list(pazaak.ALL_SIDE_CARDS)
    picks = [tuple(rng.sample(cards, pazaak.SELECTION_SIZE)) for _ in range(2)]
    settings = pazaak.PazaakSettings(skills=True, cheat_ruling="gm")
    traits = (pazaak.Traits(True, True, 50), pazaak.Traits(True, True, 50))
    state, _ = pazaak.new_match(settings, 1, picks[0], 2, picks[1], rng, traits=traits)
    check(pazaak_views.challenge_view(VERSION, lang))
    check(pazaak_views.values_view(TABLE, VERSION, 3, [-2, -1, 1, 2]))
    for player in (1, 2):
        check(pazaak_views.forfeit_view(TABLE, player, lang))
    for _ in range(400):
        check(pazaak_views.board_view(TABLE, VERSION, state, lang))
        for player in (1, 2):
            check(pazaak_views.hand_view(TABLE, VERSION, state, player, lang))
            check(pazaak_views.hand_dm_view(TABLE, state, player, lang))
            check(pazaak_views.swap_menu(TABLE, state, player, lang))
        if pazaak.is_over(state):
            break
        state, _ = pazaak.apply(state, rng.choice(pazaak.legal_actions(state)), rng)
