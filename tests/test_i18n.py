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
