"""Domain errors -> a sentence in the guild's language.

Whatever the user typed comes back only as a short, clipped quote (:func:`bot.i18n.quote`), and a
side card comes back by the name the boards and buttons give it (``Flip 2&4``, not ``F24``).
"""

from __future__ import annotations

from bot.i18n import Lang, clip, has, quote, t
from bot.render.limits import CONTENT_MAX
from bot.render.pazaak import card_label
from bot.rules import pazaak
from bot.rules.common import DomainError
from bot.rules.money import CURRENCIES, AmountError, format_amount

AMOUNT_PARAMS = frozenset(
    {"amount", "balance", "price", "stake", "need", "needed", "have", "available", "cap"}
)
CARD_PARAMS = frozenset({"card", "code"})
"""Params that hold a side card's code: shown by the card's name when it is one."""
QUOTED_PARAMS = frozenset({"card", "code", "name", "text", "unit", "char", "word"})
"""Params that may hold what a user typed (a card code, a name, an amount): always clipped."""
PARAM_MAX = 300
FIGURES = {"insufficient_funds": ("needed", "available")}
"""Codes with a fuller sentence (``error.<code>.figures``) when all these figures are known."""


def error_text(lang: Lang, error: Exception) -> str | None:
    """The player-facing sentence for a domain error, or None when it is not one."""
    if not isinstance(error, DomainError):
        return None
    key = f"error.{error.code}"
    if not has(key):
        key = "error.refused"
    params = error.params_in(lang) if isinstance(error, AmountError) else dict(error.params)
    currency = CURRENCIES.get(str(params.get("currency", "")))
    if currency is not None:
        for name in AMOUNT_PARAMS & params.keys():
            value = params[name]
            if isinstance(value, int) and not isinstance(value, bool):
                params[name] = format_amount(value, currency, lang)
    if error.code == "invalid_settings":  # the reason is a code (the rules', or pydantic's)
        reason = f"error.invalid_settings.{params.get('reason')}"
        params["reason"] = t(lang, reason if has(reason) else "error.invalid_settings.other")
    if error.code == "pazaak_no_such_trait" and params.get("trait") in ("luck", "gamble"):
        params["trait"] = t(lang, f"character.trait.{params['trait']}")
    figures = FIGURES.get(error.code)
    if currency is not None and figures and all(f in params for f in figures):
        key = f"error.{error.code}.figures"
    for name, value in params.items():
        if not isinstance(value, str):
            continue
        if name in CARD_PARAMS:
            params[name] = _card_name(value, lang)
        elif name in QUOTED_PARAMS:
            params[name] = quote(value)
        else:  # the bot's own words (a list of units, of tables): long, never unbounded
            params[name] = clip(value, PARAM_MAX)
    return clip(t(lang, key, **params), CONTENT_MAX)


def _card_name(code: str, lang: Lang) -> str:
    """A known side card's display name; anything else, as a clipped quote of the input."""
    try:
        return card_label(pazaak.parse_side_card(code), lang)
    except pazaak.UnknownSideCard:
        return quote(code)
