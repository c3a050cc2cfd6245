import logging

import pytest

from bot import i18n
from bot.i18n import LANGS, MissingText, catalogue, placeholders, t

UNKNOWN_KEY = "test.no_such_message"


def test_catalogues_have_the_same_keys() -> None:
    en, pl = set(catalogue("en")), set(catalogue("pl"))
    assert en - pl == set(), f"missing in pl: {sorted(en - pl)}"
    assert pl - en == set(), f"missing in en: {sorted(pl - en)}"


@pytest.mark.parametrize("key", sorted(catalogue("en")))
def test_translations_use_the_same_placeholders(key: str) -> None:
    assert placeholders(catalogue("en")[key]) == placeholders(catalogue("pl")[key]), key


@pytest.mark.parametrize("lang", LANGS)
def test_t_fills_placeholders(lang: str) -> None:
    text = t(lang, "error.amount_unknown_unit", unit="denarii", units="GC, s, p")  # type: ignore[arg-type]
    assert "denarii" in text and "{" not in text


def test_strict_mode_is_on_in_the_tests() -> None:
    assert i18n.STRICT


def test_strict_mode_raises_for_a_missing_key() -> None:
    with pytest.raises(MissingText, match=rf"'{UNKNOWN_KEY}' in pl or en"):
        t("pl", UNKNOWN_KEY)


def test_strict_mode_raises_for_a_key_missing_in_one_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    polish = dict(catalogue("pl"))
    del polish["error.no_character"]
    monkeypatch.setattr(i18n, "catalogue", {"en": catalogue("en"), "pl": polish}.__getitem__)
    with pytest.raises(MissingText, match=r"'error\.no_character' in pl"):
        t("pl", "error.no_character")


def test_strict_mode_raises_for_a_missing_placeholder() -> None:
    with pytest.raises(MissingText, match=r"'error\.amount_unknown_unit' \(pl\).*\{units\}"):
        t("pl", "error.amount_unknown_unit", unit="denarii")


def test_a_command_placeholder_needs_no_value() -> None:
    assert "/postać utwórz" in t("pl", "error.no_character")


@pytest.fixture
def lenient(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot's own mode, with no gap logged yet."""
    monkeypatch.setattr(i18n, "STRICT", False)
    monkeypatch.setattr(i18n, "_WARNED", set())


@pytest.mark.usefixtures("lenient")
def test_a_missing_key_falls_back_to_the_key_and_warns_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="bot.i18n"):
        assert t("pl", UNKNOWN_KEY) == UNKNOWN_KEY
        assert t("pl", UNKNOWN_KEY) == UNKNOWN_KEY
    assert [(r.levelno, r.getMessage()) for r in caplog.records] == [
        (logging.WARNING, f"i18n: no text for message {UNKNOWN_KEY!r} in pl or en")
    ]


@pytest.mark.usefixtures("lenient")
def test_a_key_missing_in_one_language_falls_back_to_english(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    polish = dict(catalogue("pl"))
    del polish["error.no_character"]
    monkeypatch.setattr(i18n, "catalogue", {"en": catalogue("en"), "pl": polish}.__getitem__)
    with caplog.at_level(logging.WARNING, logger="bot.i18n"):
        text = t("pl", "error.no_character")
    assert text == catalogue("en")["error.no_character"].replace(
        "{/character create}", "/postać utwórz"
    )
    assert [r.getMessage() for r in caplog.records] == [
        "i18n: no text for message 'error.no_character' in pl"
    ]


@pytest.mark.usefixtures("lenient")
def test_a_missing_placeholder_shows_as_a_question_mark_and_warns_without_values(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="bot.i18n"):
        text = t("en", "error.amount_unknown_unit", unit="denarii")
        t("pl", "error.amount_unknown_unit", unit="sestertii")
    assert "denarii" in text and "?" in text and "{" not in text
    assert [(r.levelno, r.getMessage()) for r in caplog.records] == [
        (logging.WARNING, "i18n: message 'error.amount_unknown_unit' (en) has no value for {units}")
    ]


def _subclasses(cls: type[Exception]) -> list[type[Exception]]:
    found: list[type[Exception]] = []
    for sub in cls.__subclasses__():
        found.append(sub)
        found.extend(_subclasses(sub))
    return found


def test_every_domain_error_has_a_message() -> None:
    import bot.rules.money
    import bot.rules.pazaak
    import bot.rules.pegaz  # noqa: F401
    from bot.rules.common import RulesError
    from bot.services.errors import ServiceError

    codes = {str(cls.code) for cls in _subclasses(RulesError) + _subclasses(ServiceError)}
    missing = sorted(code for code in codes if f"error.{code}" not in catalogue("en"))
    assert missing == []
