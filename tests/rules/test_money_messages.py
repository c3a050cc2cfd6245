"""Amount refusals as players read them, in both languages (issue 11, items 2 and 16): coins
named in the reader's own symbols, and an ambiguous number shown with both readings."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.i18n import Lang
from bot.render.errors import error_text
from bot.rules.money import CREDITS, WARHAMMER, AmountError, parse_amount, parse_money


def refusal(read: object) -> AmountError:
    with pytest.raises(AmountError) as caught:
        read()  # type: ignore[operator]
    return caught.value


@pytest.mark.parametrize(
    ("read", "english", "polish"),
    [
        (lambda: parse_amount("lots", WARHAMMER), "(units: GC, s, p)", "(jednostki: zk, s, p)"),
        (lambda: parse_money("lots"), "(units: GC, s, p, cr)", "(jednostki: zk, s, p, cr)"),
        (lambda: parse_money("15"), "add one of GC, s, p, cr", "jedno z: zk, s, p, cr"),
        (lambda: parse_amount("5 denarii", WARHAMMER), "Use GC, s, p.", "Użyj: zk, s, p."),
        (lambda: parse_money("1 GC 5 cr"), "(GC, s, p, cr)", "(zk, s, p, cr)"),
        (lambda: parse_amount("1 GC 10", WARHAMMER), "one of GC, s, p", "jedno z: zk, s, p"),
        (lambda: parse_amount("2 50", WARHAMMER), "each number (GC, s, p)", "liczbie (zk, s, p)"),
    ],
)
def test_polish_amount_errors_name_polish_coins(read: object, english: str, polish: str) -> None:
    error = refusal(read)
    assert english in str(error_text("en", error))
    shown = str(error_text("pl", error))
    assert polish in shown
    if "GC" not in str(error.params.get("text", "")):
        assert "GC" not in shown  # the example says `1 zk 10 s`, and so does the list


@pytest.mark.parametrize(
    ("text", "english", "polish"),
    [
        ("1,000 cr", '"1,000" could mean 1 000 or 1,', '"1,000" może znaczyć 1 000 albo 1,'),
        ("2,500 cr", '"2,500" could mean 2 500 or 2.5,', '"2,500" może znaczyć 2 500 albo 2,5,'),
        ("1.000 GC", '"1.000" could mean 1 000 or 1,', '"1.000" może znaczyć 1 000 albo 1,'),
        (
            "1.125 GC",
            '"1.125" could mean 1 125 or 1.125,',
            '"1.125" może znaczyć 1 125 albo 1,125,',
        ),
    ],
)
def test_an_ambiguous_amount_shows_both_readings(text: str, english: str, polish: str) -> None:
    error = refusal(lambda: parse_money(text))
    assert str(error_text("en", error)).startswith(english)
    assert str(error_text("pl", error)).startswith(polish)


@given(
    st.integers(min_value=1, max_value=999),
    st.integers(min_value=0, max_value=999),
    st.sampled_from([",", "."]),
    st.sampled_from(["en", "pl"]),
    st.sampled_from([" cr", " GC", ""]),
)
def test_every_ambiguous_number_shows_both_readings(
    whole: int, decimals: int, mark: str, lang: Lang, unit: str
) -> None:
    typed = f"{whole}{mark}{decimals:03d}"
    error = refusal(lambda: parse_amount(typed + unit, WARHAMMER if "GC" in unit else CREDITS))
    shown = str(error_text(lang, error))
    thousands = f"{whole} {decimals:03d}"
    kept = f"{decimals:03d}".rstrip("0")
    decimal = f"{whole}{',' if lang == 'pl' else '.'}{kept}" if kept else str(whole)
    assert f'"{typed}"' in shown and f" {thousands} " in shown and f" {decimal}," in shown
