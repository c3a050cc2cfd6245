"""Pazaak's cards, numbers and table options in words: the pieces every Pazaak text is made of."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import discord

from bot.i18n import Lang, t
from bot.render.icons import NO_ICONS, Icons, card_icon
from bot.rules import pazaak
from bot.rules.money import CREDITS, format_amount
from bot.rules.pazaak import SideCard, TableCard

Names = Mapping[int, str]
"""Character id -> name, for both players of a match."""

COLOUR = discord.Colour.dark_teal()
MINUS = "\u2212"
DASH = "\u2013"


# --- cards --------------------------------------------------------------------------------------


def signed(value: int) -> str:
    """``+3``, ``0``, or the value after a real minus sign (U+2212) for a negative one."""
    if value > 0:
        return f"+{value}"
    return f"{MINUS}{-value}" if value < 0 else "0"


def number(value: int) -> str:
    """A total: ``17``, or with a real minus sign when a flip made it negative."""
    return str(value) if value >= 0 else f"{MINUS}{-value}"


def card_label(card: SideCard, lang: Lang) -> str:
    """How a side card is named on buttons and boards: its code (with a real minus sign), or the
    flip's name (``Flip 2&4``)."""
    if card.kind in ("flip24", "flip36"):
        return t(lang, f"pazaak.card.{card.kind}")
    return card.code.replace("-", MINUS)


def is_choice(card: SideCard) -> bool:
    """Whether the player chooses the value when playing the card (±N, T, ±1/2)."""
    return len(card.values) > 1


def table_card(card: TableCard, lang: Lang, icons: Icons = NO_ICONS) -> str:
    """A drawn card as its value (negative once flipped); a side card in brackets, with the value
    it counts when that is not plain from its face: ``[+3]``, ``[±4 +4]``, ``[D +6]`` (after its
    kind's emoji, where ``icons`` has it)."""
    if card.side is None:
        return number(card.value)
    label = card_label(card.side, lang)
    icon = card_icon(icons, card.side.kind)
    if card.side.values == (card.value,):
        return f"{icon}[{label}]"
    return f"{icon}[{label} {signed(card.value)}]"


def table_text(table: Sequence[TableCard], lang: Lang, icons: Icons = NO_ICONS) -> str:
    shown = " · ".join(table_card(card, lang, icons) for card in table)
    return shown or t(lang, "pazaak.board.empty")


def cards_text(cards: Iterable[SideCard], lang: Lang, icons: Icons = NO_ICONS) -> str:
    """Side cards by label (each after its kind's emoji, where ``icons`` has it)."""
    return " · ".join(f"{card_icon(icons, card.kind)}{card_label(card, lang)}" for card in cards)


def played_text(card: SideCard, value: int, lang: Lang) -> str:
    """A played card with the value chosen: ``+3``, ``±4 as +4``, ``D as +6``, ``Flip 2&4``."""
    label = card_label(card, lang)
    if card.values == (value,):
        return label
    return t(lang, "pazaak.card.as", card=label, value=signed(value))


def duration(seconds: int, lang: Lang) -> str:
    if seconds % 60 == 0:
        return t(lang, "pazaak.turn.minutes", n=seconds // 60)
    return t(lang, "pazaak.turn.seconds", n=seconds)


def credits(amount: int, lang: Lang) -> str:
    return format_amount(amount, CREDITS, lang)


def table_options(settings: pazaak.PazaakSettings, lang: Lang) -> str | None:
    """The table's options that differ from the defaults, as one phrase (None if none do)."""
    keys = [
        key
        for key, changed in (
            ("infinite", settings.main_deck == "infinite"),
            ("no_kotor2", not settings.kotor2_cards),
            ("no_nine", not settings.nine_card_win),
            ("loser", settings.starter == "loser"),
        )
        if changed
    ]
    phrases = [t(lang, f"pazaak.option.{key}") for key in keys]
    if settings.skills:
        ruling = t(lang, f"pazaak.option.ruling.{settings.cheat_ruling}")
        modifier = signed(settings.detection_modifier)
        phrases.append(t(lang, "pazaak.option.skills", modifier=modifier, ruling=ruling))
    if settings.side_bets:
        phrases.append(t(lang, "side_bets.option"))
    return ", ".join(phrases) if phrases else None


def score(state: pazaak.PazaakState, names: Names) -> str:
    a, b = state.players
    return f"{names[a.id]} {a.sets_won}{DASH}{b.sets_won} {names[b.id]}"
