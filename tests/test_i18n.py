import pytest

from bot.i18n import LANGS, catalogue, placeholders, t


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
