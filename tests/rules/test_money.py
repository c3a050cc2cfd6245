import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.money import (
    CREDITS,
    WARHAMMER,
    AmountNegative,
    AmountNotExact,
    AmountSyntax,
    AmountTooLarge,
    MissingUnit,
    MixedCurrencies,
    UnknownUnit,
    format_amount,
    parse_amount,
    parse_money,
)


@pytest.mark.parametrize(
    ("text", "pennies"),
    [
        ("1 GC 10 s", 360),
        ("1zk 10s", 360),
        ("1.5 GC", 360),
        ("1,5 zk", 360),
        ("15p", 15),
        ("1 s", 12),
        ("2 korony 3 szylingi 4 pensy", 2 * 240 + 3 * 12 + 4),
        ("1 gold crown", 240),
        ("0.5 s", 6),
        ("  7 P ", 7),
    ],
)
def test_parse_warhammer(text: str, pennies: int) -> None:
    assert parse_amount(text, WARHAMMER) == pennies


def test_parse_credits() -> None:
    assert parse_amount("250 cr", CREDITS) == 250
    assert parse_amount("250 kredyty", CREDITS) == 250
    assert parse_amount("250", CREDITS) == 250


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("1.01 p", AmountNotExact),
        ("0.1 s", AmountNotExact),
        ("-5 s", AmountNegative),
        ("5 denarii", UnknownUnit),
        ("5", MissingUnit),
        ("", AmountSyntax),
        ("lots", AmountSyntax),
        ("2000000 GC", AmountTooLarge),
    ],
)
def test_parse_refuses(text: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        parse_amount(text, WARHAMMER)


def test_errors_name_what_was_wrong() -> None:
    with pytest.raises(UnknownUnit) as caught:
        parse_amount("5 denarii", WARHAMMER)
    assert caught.value.params["unit"] == "denarii"
    assert caught.value.code == "amount_unknown_unit"


def test_format() -> None:
    assert format_amount(360, WARHAMMER, "en") == "1 GC 10 s"
    assert format_amount(363, WARHAMMER, "pl") == "1 zk 10 s 3 p"
    assert format_amount(0, WARHAMMER, "en") == "0 p"
    assert format_amount(-12, WARHAMMER, "en") == "-1 s"
    assert format_amount(250, CREDITS, "pl") == "250 cr"


@given(st.integers(min_value=0, max_value=WARHAMMER.cap), st.sampled_from(["en", "pl"]))
def test_round_trip_warhammer(units: int, lang: str) -> None:
    assert parse_amount(format_amount(units, WARHAMMER, lang), WARHAMMER) == units  # type: ignore[arg-type]


@given(st.integers(min_value=0, max_value=CREDITS.cap), st.sampled_from(["en", "pl"]))
def test_round_trip_credits(units: int, lang: str) -> None:
    assert parse_amount(format_amount(units, CREDITS, lang), CREDITS) == units  # type: ignore[arg-type]


# --- parse_money: the currency is read off the coins ---------------------------------------------


@pytest.mark.parametrize(
    ("text", "currency", "units"),
    [
        ("1 GC 10 s", WARHAMMER, 360),
        ("15p", WARHAMMER, 15),
        ("2 korony 3 szylingi", WARHAMMER, 516),
        ("1 gold crown", WARHAMMER, 240),
        ("250 cr", CREDITS, 250),
        ("250 kredytów", CREDITS, 250),
        ("0 s", WARHAMMER, 0),
    ],
)
def test_parse_money_infers_the_currency(text: str, currency: object, units: int) -> None:
    assert parse_money(text) == (currency, units)


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("15", MissingUnit),
        (" 1.5 ", MissingUnit),
        ("-5 s", AmountNegative),
        ("\u22125 cr", AmountNegative),
        ("5 denarii", UnknownUnit),
        ("1 GC 5 cr", MixedCurrencies),
        ("", AmountSyntax),
        ("!!", AmountSyntax),
        ("lots", AmountSyntax),
        ("GC", AmountSyntax),
        ("1.01 p", AmountNotExact),
        ("1 GC 10", MissingUnit),
        ("2000000 GC", AmountTooLarge),
    ],
)
def test_parse_money_refuses(text: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        parse_money(text)


def test_parse_money_errors_list_every_coin() -> None:
    with pytest.raises(MissingUnit) as caught:
        parse_money("15")
    assert caught.value.params == {"text": "15", "units": "GC, s, p, cr"}


@given(
    st.sampled_from([WARHAMMER, CREDITS]),
    st.integers(min_value=0, max_value=CREDITS.cap),
    st.sampled_from(["en", "pl"]),
)
def test_parse_money_round_trip(currency: object, units: int, lang: str) -> None:
    assert isinstance(currency, type(WARHAMMER))
    units = min(units, currency.cap)
    shown = format_amount(units, currency, lang)  # type: ignore[arg-type]
    assert parse_money(shown) == (currency, units)


@given(st.integers(min_value=0, max_value=10**12))
def test_parse_money_never_guesses_a_bare_number(number: int) -> None:
    with pytest.raises(MissingUnit):
        parse_money(str(number))
