"""Every message kind fits Discord's limits at its longest inputs (issue 11, item 7).

Each render is called with the longest names a character may have (``MAX_NAME``), eight seats,
the biggest amounts the money allows, the longest reasons, every catalogue text, in both
languages; the results go through the fake Discord's own checks (``tests/fakediscord/limits``),
which are what a request to the fake is refused by. Whole games are checked step by step in
``tests/test_game_message_limits.py``; buttons and menus in ``tests/test_component_limits.py``.
"""

from __future__ import annotations

import copy
import re
import string
from typing import Any

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.i18n import LANGS, QUOTE_MAX, Lang, catalogue, placeholders, quote, t
from bot.render import characters as render_characters
from bot.render import limits
from bot.render import purse as render_purse
from bot.render import tables as render_tables
from bot.render.errors import error_text
from bot.rules import pazaak, pegaz
from bot.rules.common import DomainError, InsufficientFunds
from bot.rules.money import CREDITS, CURRENCIES, WARHAMMER
from bot.services.names import MAX_NAME
from bot.services.outcomes import Character, TableView
from bot.storage.ledger import LedgerLine
from tests.fakediscord import limits as discord_limits

USER = 123456789012345678901
"""A user id longer than any real snowflake (mentions at their longest)."""
BIG_WH = WARHAMMER.cap - 1  # every coin of the currency in the amount: 999 999 GC 19 s 11 p
BIG_CR = CREDITS.cap - 1
SEATS = pegaz.MAX_SEATS


def name(i: int) -> str:
    """A longest name (``MAX_NAME`` characters, wide letters), distinct per ``i``."""
    return ("Żółć" * MAX_NAME)[: MAX_NAME - 2] + f"{i:02d}"


def problems(content: str | None = None, embed: discord.Embed | None = None) -> list[Any]:
    body: dict[str, Any] = {}
    if content is not None:
        body["content"] = content
    if embed is not None:
        body["embeds"] = [embed.to_dict()]
    return list(discord_limits.check_message(body))


def fits(content: str | None = None, embed: discord.Embed | None = None) -> None:
    found = problems(content, embed)
    assert not found, found


def test_the_render_limits_are_the_fake_discords() -> None:
    """The numbers the bot clips to are the ones the fake refuses beyond."""
    assert problems("x" * limits.CONTENT_MAX) == []
    assert problems("x" * (limits.CONTENT_MAX + 1)) != []
    embed = discord.Embed(title="x" * limits.TITLE_MAX, description="x" * limits.DESCRIPTION_MAX)
    assert problems(embed=embed) == []
    embed.title = "x" * (limits.TITLE_MAX + 1)
    assert problems(embed=embed) != []


# --- the fitting helpers ------------------------------------------------------------------------


@given(st.text(), st.integers(min_value=0, max_value=3000))
def test_clip_keeps_the_limit_and_marks_a_cut(text: str, limit: int) -> None:
    from bot.i18n import clip

    clipped = clip(text, limit)
    assert len(clipped) <= limit
    if len(text) <= limit:
        assert clipped == text
    elif limit:
        assert clipped.endswith("…") and text.startswith(clipped[:-1])


@given(st.text(min_size=1))
def test_a_quote_is_short_and_on_one_line(text: str) -> None:
    quoted = quote(text)
    assert len(quoted) <= QUOTE_MAX
    assert "\n" not in quoted and "\r" not in quoted


_piece = st.text(alphabet=string.ascii_letters + "ż ", min_size=1, max_size=7000)


@settings(max_examples=60, deadline=None)
@given(
    title=_piece,
    description=_piece,
    footer=_piece,
    author=_piece,
    fields=st.lists(st.tuples(_piece, _piece), max_size=40),
)
def test_fit_makes_any_embed_acceptable(
    title: str, description: str, footer: str, author: str, fields: list[tuple[str, str]]
) -> None:
    embed = discord.Embed(title=title, description=description)
    embed.set_footer(text=footer)
    embed.set_author(name=author)
    for field_name, value in fields:
        embed.add_field(name=field_name, value=value)
    fitted = limits.fit(embed).to_dict()
    fits(embed=discord.Embed.from_dict(copy.deepcopy(fitted)))
    again = limits.fit(discord.Embed.from_dict(copy.deepcopy(fitted)))
    assert again.to_dict() == fitted  # what fits is left as it is


# --- the catalogues -----------------------------------------------------------------------------

LONG_PARAM = "x" * 100
"""What a placeholder holds at most when it is one value: a name, an amount, a mention, a quote."""
LISTS = {"cards", "names", "refunds", "shares", "users", "codes", "catchers", "tables", "lines"}
"""Placeholders that hold a list; :func:`test_lists_render_within_limits` covers those."""


@pytest.mark.parametrize("lang", LANGS)
def test_every_catalogue_text_fits_with_long_values(lang: Lang) -> None:
    for key, text in catalogue(lang).items():
        params = {p: "x" if p in LISTS else LONG_PARAM for p in placeholders(text)}
        filled = t(lang, key, **params)
        limit = limits.DESCRIPTION_MAX if key.endswith(".text") else limits.CONTENT_MAX
        assert len(filled) <= limit, (key, len(filled))
        if key.startswith("error.") or ".done." in key:
            assert len(filled) <= limits.CONTENT_MAX, key


# --- errors quote little of what was typed ------------------------------------------------------


def _error_classes() -> list[type[DomainError]]:
    import bot.rules.money
    import bot.rules.pazaak
    import bot.rules.pegaz
    import bot.services.errors
    import cogs.replies

    del bot, cogs  # the imports register the subclasses
    found: list[type[DomainError]] = []
    stack: list[type[DomainError]] = [DomainError]
    while stack:
        klass = stack.pop()
        found.append(klass)
        stack.extend(klass.__subclasses__())
    return found


HUGE = "Ż" * 6000


@pytest.mark.parametrize("lang", LANGS)
def test_every_error_fits_whatever_was_typed(lang: Lang) -> None:
    codes = {k.removeprefix("error.") for k in catalogue("en") if k.startswith("error.")}
    for code in sorted(codes):
        text = catalogue("en")[f"error.{code}"]
        params: dict[str, object] = {p: HUGE for p in placeholders(text)}
        error = DomainError(**params)
        error.code = code
        shown = error_text(lang, error)
        assert shown is not None
        fits(shown)
    for klass in _error_classes():
        own = placeholders(catalogue("en").get(f"error.{getattr(klass, 'code', '')}", ""))
        typed = dict.fromkeys(("card", "code", "name", "text", "unit", "char"), HUGE)
        try:
            error = klass(**(dict.fromkeys(own, 1) | typed))  # figures are not typed
        except TypeError:  # one that takes its code first (``Refused``)
            continue
        shown = error_text(lang, error)
        assert shown is not None and len(shown) <= limits.CONTENT_MAX
        assert "Ż" * (QUOTE_MAX + 1) not in shown, klass


def test_a_refusal_names_a_side_card_by_its_display_name() -> None:
    refusal = DomainError(name="Greta", card="F24")
    refusal.code = "pazaak_deck_kotor2_disabled"
    assert "Flip 2&4" in (error_text("en", refusal) or "")
    assert "F24" not in (error_text("en", refusal) or "")
    assert "Odwróć 2&4" in (error_text("pl", refusal) or "")


def test_a_shortage_says_what_it_costs_and_what_the_purse_holds() -> None:
    short = InsufficientFunds(needed=36, available=30, currency="wh")
    assert error_text("en", short) == (
        "Not enough coin for that: it costs 3 s, and the purse holds 2 s 6 p."
    )
    assert error_text("pl", short) == "Za mało monet: to kosztuje 3 s, a w sakiewce jest 2 s 6 p."
    # without a currency the figures would be bare numbers: the short sentence instead
    assert error_text("en", InsufficientFunds(needed=36)) == "Not enough coin for that."


# --- tables, characters, purses -----------------------------------------------------------------


def _table(i: int, game: str = "pegaz", status: str = "running") -> TableView:
    return TableView(
        table_id=10**9 + i,
        guild_id=USER,
        channel_id=USER + i,
        game=game,
        status=status,  # type: ignore[arg-type]
        version=1,
        seats=frozenset(range(SEATS)),
        state=None,
        deadline=None,
        currency="wh",
    )


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("count", [1, 10, 11, 25, 26, 250])
def test_every_page_of_the_table_list_fits(lang: Lang, count: int) -> None:
    tables = [_table(i, game=("pegaz", "pazaak")[i % 2]) for i in range(count)]
    pages = render_tables.page_count(count)
    shown: list[int] = []
    for page in range(pages):
        text = render_tables.listing(lang, tables, page)
        fits(text)
        shown += [table.table_id for table in tables if re.search(rf"\b{table.table_id}\b", text)]
    assert shown == [table.table_id for table in tables]  # every table, once, in order
    for table in tables:
        choice = render_tables.choice_name(lang, table, "k" * 100)
        assert 1 <= len(choice) <= limits.CHOICE_NAME_MAX


def _character(i: int, *, npc: bool = False) -> Character:
    return Character(
        id=i,
        guild_id=USER,
        owner_id=USER,
        name=name(i),
        is_npc=npc,
        luck=True,
        gamble=True,
        perception=100,
        side_cards=tuple(c.code for c in pazaak.ALL_SIDE_CARDS) * 10,
        selection=(),
        created_at=0,
    )


@pytest.mark.parametrize("lang", LANGS)
def test_character_texts_fit_at_the_longest(lang: Lang) -> None:
    many = [_character(i, npc=i % 2 == 0) for i in range(render_characters.MAX_LISTED)]
    listed = render_characters.listing(lang, many, active_id=1, more=False)
    fits(listed)
    assert listed.endswith(t(lang, "character.list.more"))  # some were left out, and it says so
    for character in many[:2]:
        fits(render_characters.card(lang, character, active=True))
        fits(render_characters.created(lang, character, for_other=True))


def _ledger_line(i: int, kind: str) -> LedgerLine:
    return LedgerLine(
        entry_id=i,
        movement_id=i,
        at=2**41,
        amount=-BIG_WH if i % 2 else BIG_WH,
        kind=kind,  # type: ignore[arg-type]
        reason="r" * 6000,
        actor_id=USER,
        table_id=10**9,
        event_seq=i,
        other_account_id=i,
        other_kind="purse",
        other_character_id=i,
    )


@pytest.mark.parametrize("lang", LANGS)
def test_purse_texts_fit_at_the_longest(lang: Lang) -> None:
    kinds = ["grant", "take", "transfer", "stake", "payout", "refund", "offering"]
    lines = [_ledger_line(i, kinds[i % len(kinds)]) for i in range(10)]
    names = {i: name(i) for i in range(10)}
    for currency in CURRENCIES:
        fits(embed=render_purse.history(lang, name(0), currency, lines, page=10**6, names=names))
        fits(render_purse.balances(lang, name(0), {code: BIG_WH for code in CURRENCIES}))
        for key, who in (
            ("purse.paid", {"payer": name(1), "payee": name(2)}),
            ("purse.given", {"name": name(1)}),
            ("purse.taken", {"name": name(1)}),
        ):
            text = render_purse.movement(
                lang, key, units=BIG_WH, currency=currency, reason="r" * 6000, **who
            )
            fits(text)


def test_a_settings_refusal_says_what_is_wrong_in_words() -> None:
    """The reason is a code (the rules' own, or pydantic's): it is told in words, never as
    the code or a "?"; an unknown one as "not allowed"."""
    from bot.rules import pazaak, pegaz
    from bot.rules.common import InvalidSettings

    with pytest.raises(InvalidSettings) as crossed:
        pegaz.PegazSettings.parse({"stake": 12, "max_stake": 6})
    assert error_text("en", crossed.value) == (
        "Those table settings don't work: max_stake is out of range."
    )
    with pytest.raises(InvalidSettings) as zero:
        pegaz.PegazSettings.parse({"stake": 0})
    assert error_text("en", zero.value) == "Those table settings don't work: stake is too low."
    with pytest.raises(InvalidSettings) as too_low:
        pazaak.PazaakSettings.parse({"sets_to_win": 0})
    assert error_text("pl", too_low.value) == (
        "Te ustawienia stołu nie działają: sets_to_win jest za niskie."
    )
    odd = InvalidSettings(field="ante", reason="extra_forbidden")
    assert error_text("en", odd) == "Those table settings don't work: ante is not allowed."
