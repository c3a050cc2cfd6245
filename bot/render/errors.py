"""Domain errors -> a sentence in the guild's language."""

from __future__ import annotations

from bot.i18n import Lang, has, t
from bot.rules.common import DomainError
from bot.rules.money import CURRENCIES, format_amount

AMOUNT_PARAMS = frozenset({"amount", "balance", "price", "stake", "need", "have", "cap"})


def error_text(lang: Lang, error: Exception) -> str | None:
    """The player-facing sentence for a domain error, or None when it is not one."""
    if not isinstance(error, DomainError):
        return None
    key = f"error.{error.code}"
    if not has(key):
        key = "error.refused"
    params = dict(error.params)
    currency = CURRENCIES.get(str(params.get("currency", "")))
    if currency is not None:
        for name in AMOUNT_PARAMS & params.keys():
            value = params[name]
            if isinstance(value, int):
                params[name] = format_amount(value, currency, lang)
    return t(lang, key, **params)
