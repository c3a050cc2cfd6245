"""How numbers are written in both languages (issue 11): Polish groups thousands with a space,
English with a comma; a lone ``,`` or ``.`` before three digits is read neither way but refused
with both readings; two numbers are never added up unless a coin stands between them."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.money import (
    CREDITS,
    WARHAMMER,
    AmountAmbiguous,
    AmountError,
    AmountNotExact,
    AmountSeparators,
    AmountTwoNumbers,
    Currency,
    parse_amount,
    parse_money,
)

GROUP_SEPARATORS = (" ", "\u00a0", "\u2009", "\u202f")  # space, no-break, thin, narrow no-break
CLIP = 24


def groups(number: int) -> list[str]:
    """``1234567`` -> ``["1", "234", "567"]``."""
    digits = str(number)
    head = len(digits) % 3 or 3
    return [digits[:head]] + [digits[i : i + 3] for i in range(head, len(digits), 3)]


@st.composite
def polish(draw: st.DrawFn, number: int) -> str:
    """``number`` as Polish writes it: its thousands grouped by any of the four spaces."""
    parts = groups(number)
    separators = draw(st.lists(st.sampled_from(GROUP_SEPARATORS), min_size=len(parts) - 1))
    return parts[0] + "".join(sep + part for sep, part in zip(separators, parts[1:], strict=False))


@pytest.mark.parametrize(
    ("text", "currency", "units"),
    [
        ("2 500 cr", CREDITS, 2500),
        ("2\u00a0500 cr", CREDITS, 2500),
        ("2\u2009500 cr", CREDITS, 2500),
        ("2\u202f500", CREDITS, 2500),
        ("1 000 000 cr", CREDITS, 1_000_000),
        ("1 000 000", CREDITS, 1_000_000),
        ("1 000 GC", WARHAMMER, 240_000),
        ("1 GC 10 s", WARHAMMER, 360),
        ("1 000 GC 2 500 p", WARHAMMER, 242_500),
        ("1,5 GC", WARHAMMER, 360),
        ("1.5 GC", WARHAMMER, 360),
        ("0,25 GC", WARHAMMER, 60),
        ("1.25 GC", WARHAMMER, 300),
        ("0,250 GC", WARHAMMER, 60),  # no thousands start with 0
        ("2500,125 GC", WARHAMMER, 600_030),  # nor come after four digits
        ("1 000,5 GC", WARHAMMER, 240_120),
        ("2500", CREDITS, 2500),
    ],
)
def test_numbers_as_either_language_writes_them(text: str, currency: Currency, units: int) -> None:
    assert parse_amount(text, currency) == units


@pytest.mark.parametrize(
    ("text", "currency", "quoted"),
    [
        ("2 50", CREDITS, "2 50"),
        ("2 50 cr", CREDITS, "2 50"),
        ("2 5000 cr", CREDITS, "2 5000"),
        ("1234 567 cr", CREDITS, "1234 567"),
        ("1 000 00 cr", CREDITS, "1 000 00"),
        ("10 5 s", WARHAMMER, "10 5"),
        ("1 GC 2 50 p", WARHAMMER, "2 50"),
        ("2  500 cr", CREDITS, "2  500"),  # two spaces are a gap between numbers, not a group
    ],
)
def test_two_numbers_without_a_coin_between_are_refused(
    text: str, currency: Currency, quoted: str
) -> None:
    with pytest.raises(AmountTwoNumbers) as caught:
        parse_amount(text, currency)
    assert caught.value.params["text"] == quoted


@pytest.mark.parametrize(
    ("text", "thousands", "en", "pl"),
    [
        ("1,000 cr", "1 000", "1", "1"),
        ("1.000 cr", "1 000", "1", "1"),
        ("2,500 cr", "2 500", "2.5", "2,5"),
        ("2.500", "2 500", "2.5", "2,5"),
        ("1,125 GC", "1 125", "1.125", "1,125"),
        ("999.001 GC", "999 001", "999.001", "999,001"),
        ("1 000,500 GC", "1 000 500", "1 000.5", "1 000,5"),
    ],
)
def test_a_mark_before_three_digits_is_refused_with_both_readings(
    text: str, thousands: str, en: str, pl: str
) -> None:
    with pytest.raises(AmountAmbiguous) as caught:
        parse_money(text) if text[-1].isalpha() else parse_amount(text, CREDITS)
    error = caught.value
    assert error.params["text"] == text.split(" GC")[0].split(" cr")[0]
    assert error.params_in("en")["thousands"] == error.params_in("pl")["thousands"] == thousands
    assert (error.params_in("en")["decimal"], error.params_in("pl")["decimal"]) == (en, pl)


@pytest.mark.parametrize(
    "text", ["1,000,000 cr", "1.000.000 cr", "1.000,5 GC", "1,000.50 GC", "2,5,0 cr", "1 000,5.5"]
)
def test_more_than_one_mark_is_refused(text: str) -> None:
    with pytest.raises(AmountSeparators):
        parse_amount(text, WARHAMMER if "GC" in text else CREDITS)


def test_a_long_number_is_quoted_clipped() -> None:
    with pytest.raises(AmountSeparators) as caught:
        parse_amount("1,000,000,000,000,000,000,000,000 cr", CREDITS)
    assert caught.value.params["text"] == "1,000,000,000,000,000,0…"


# --- properties -----------------------------------------------------------------------------


@given(st.data(), st.integers(min_value=0, max_value=CREDITS.cap))
def test_polish_grouping_is_one_number(data: st.DataObject, number: int) -> None:
    written = data.draw(polish(number))
    unit = data.draw(st.sampled_from(["", " cr", "cr", " kredytów"]))
    assert parse_amount(written + unit, CREDITS) == number
    if number <= 1_000_000:
        assert parse_money(written + " GC") == (WARHAMMER, number * 240)


@given(st.integers(min_value=1000, max_value=10**12), st.sampled_from([",", "."]))
def test_english_or_dotted_thousands_are_never_misread(number: int, mark: str) -> None:
    """``2,500`` / ``2.500`` are refused with both readings; ``1,000,000`` too: never a number."""
    written = mark.join(groups(number))
    with pytest.raises(AmountError) as caught:
        parse_amount(written + " cr", CREDITS)
    if number < 1_000_000:
        assert isinstance(caught.value, AmountAmbiguous)
        assert caught.value.params["thousands"] == " ".join(groups(number))
        whole, decimals = divmod(number, 1000)
        decimal = Fraction(whole) + Fraction(decimals, 1000)
        for lang, shown in (("en", "."), ("pl", ",")):
            reading = str(caught.value.params_in(lang)["decimal"])  # type: ignore[arg-type]
            assert reading.count(shown) == (decimal.denominator != 1)
            assert Fraction(reading.replace(" ", "").replace(",", ".")) == decimal
    else:
        assert isinstance(caught.value, AmountSeparators)


@given(
    st.integers(min_value=1, max_value=999),
    st.integers(min_value=0, max_value=999),
    st.sampled_from([",", "."]),
    st.sampled_from(["en", "pl"]),
)
def test_each_reading_of_an_ambiguous_number_can_be_typed_back(
    whole: int, decimals: int, mark: str, lang: str
) -> None:
    """The thousands reading, typed back, is exactly that number; the decimal reading, typed
    back in the reader's language, is that fraction (or refused when it could be misread)."""
    with pytest.raises(AmountAmbiguous) as caught:
        parse_amount(f"{whole}{mark}{decimals:03d} cr", CREDITS)
    params = caught.value.params_in(lang)  # type: ignore[arg-type]
    assert parse_amount(str(params["thousands"]) + " cr", CREDITS) == whole * 1000 + decimals
    pennies = (whole + Fraction(decimals, 1000)) * 240
    try:
        read = parse_amount(str(params["decimal"]) + " GC", WARHAMMER)
    except AmountNotExact:
        assert pennies.denominator != 1
    except AmountAmbiguous:
        assert len(f"{decimals:03d}".rstrip("0")) == 3  # 1,125 stays 1,125: still refused
    else:
        assert read == pennies


@given(
    st.data(),
    st.integers(min_value=0, max_value=999_999),
    st.from_regex(r"[0-9]{1,5}", fullmatch=True),
    st.sampled_from([",", "."]),
)
def test_a_decimal_that_cannot_be_thousands_is_exact(
    data: st.DataObject, whole: int, decimals: str, mark: str
) -> None:
    whole_text = data.draw(st.sampled_from([str(whole), data.draw(polish(whole))]))
    text = f"{whole_text}{mark}{decimals} GC"
    value = (whole + Fraction(int(decimals), 10 ** len(decimals))) * 240
    could_be_thousands = len(decimals) == 3 and whole != 0 and len(whole_text) <= 3
    could_be_thousands |= len(decimals) == 3 and whole != 0 and not whole_text.isdigit()
    if could_be_thousands:
        with pytest.raises(AmountAmbiguous):
            parse_amount(text, WARHAMMER)
    elif value.denominator != 1:
        with pytest.raises(AmountNotExact):
            parse_amount(text, WARHAMMER)
    else:
        assert parse_amount(text, WARHAMMER) == value


@given(st.from_regex(r"[0-9]{1,7}", fullmatch=True), st.from_regex(r"[0-9]{1,7}", fullmatch=True))
def test_two_numbers_are_never_summed(first: str, second: str) -> None:
    """``a b cr`` is one number when ``b`` is a group of three after a group of 1-3 digits;
    otherwise it is refused. It is never ``a + b``."""
    text = f"{first} {second} cr"
    if len(first) <= 3 and len(second) == 3:
        assert parse_amount(text, CREDITS) == int(first + second)
    else:
        with pytest.raises(AmountTwoNumbers) as caught:
            parse_amount(text, CREDITS)
        assert len(str(caught.value.params["text"])) <= CLIP


@given(st.data(), st.integers(0, 999), st.integers(0, 10**6), st.integers(0, 10**6))
def test_coins_between_numbers_still_add_up(
    data: st.DataObject, crowns: int, shillings: int, pennies: int
) -> None:
    penny = data.draw(st.sampled_from(["p", "pensów"]))
    coins = [(crowns, "GC"), (shillings, "s"), (pennies, penny)]
    text = " ".join(f"{data.draw(polish(number))} {unit}" for number, unit in coins)
    assert parse_amount(text, WARHAMMER) == crowns * 240 + shillings * 12 + pennies


@given(st.text(st.sampled_from("0123456789 ,.\u00a0\u2009\u202f-cr GCsp"), max_size=120))
def test_any_typing_is_a_number_or_a_short_refusal(text: str) -> None:
    """Nothing typed breaks the parser, and a refusal about one number quotes a short piece."""
    for read in (lambda: parse_amount(text, CREDITS), lambda: parse_money(text)):
        try:
            assert read() is not None
        except (AmountTwoNumbers, AmountSeparators, AmountAmbiguous) as refusal:
            for value in refusal.params_in("pl").values():
                assert len(str(value)) <= 40 and "GC" not in str(value)
            assert len(str(refusal.params["text"])) <= CLIP
            assert str(refusal.params["text"]).rstrip("…") in text
        except AmountError:
            pass
