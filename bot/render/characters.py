"""Characters as text: one line in a list, the full card, traits, and the owner."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.i18n import Lang, t
from bot.render.limits import CONTENT_MAX


class Character(Protocol):
    """What a character's card and line show (render knows no services: any such value does)."""

    @property
    def id(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def owner_id(self) -> int: ...
    @property
    def is_npc(self) -> bool: ...
    @property
    def luck(self) -> bool: ...
    @property
    def gamble(self) -> bool: ...
    @property
    def perception(self) -> int: ...
    @property
    def side_cards(self) -> tuple[str, ...]: ...
    @property
    def selection(self) -> tuple[str, ...]: ...


MAX_LISTED = 40


def traits(lang: Lang, character: Character) -> str:
    """``Luck, Gamble, Perception 40`` (only the talents it has; Perception always)."""
    parts = []
    if character.luck:
        parts.append(t(lang, "character.trait.luck"))
    if character.gamble:
        parts.append(t(lang, "character.trait.gamble"))
    parts.append(t(lang, "character.trait.perception", value=character.perception))
    return ", ".join(parts)


def owner(lang: Lang, character: Character) -> str:
    """Who plays it: a user mention (mentions never ping: every send disables them)."""
    key = "character.owner.npc" if character.is_npc else "character.owner.player"
    return t(lang, key, user=f"<@{character.owner_id}>")


def line(lang: Lang, character: Character, *, active_id: int | None = None) -> str:
    """One character in ``/character list``."""
    key = "character.line.active" if character.id == active_id else "character.line"
    return t(
        lang,
        key,
        name=character.name,
        owner=owner(lang, character),
        traits=traits(lang, character),
    )


def listing(
    lang: Lang, characters: Sequence[Character], *, active_id: int | None, more: bool
) -> str:
    if not characters:
        return t(lang, "character.list.empty")
    lines = [t(lang, "character.list.title", count=len(characters))]
    tail = t(lang, "character.list.more")
    room = CONTENT_MAX - len(lines[0]) - len(tail) - 1  # the "more" line always fits
    for character in characters[:MAX_LISTED]:
        text = line(lang, character, active_id=active_id)
        if len(text) + 1 > room:  # long names: fewer lines, and "more" says there are others
            more = True
            break
        lines.append(text)
        room -= len(text) + 1
    if more or len(characters) > MAX_LISTED:
        lines.append(tail)
    return "\n".join(lines)


def card(lang: Lang, character: Character, *, active: bool) -> str:
    """``/character show``: name, who plays it, traits, side cards."""
    title = "character.card.title.npc" if character.is_npc else "character.card.title"
    lines = [
        t(lang, title, name=character.name),
        owner(lang, character),
        t(
            lang,
            "character.card.traits",
            luck=t(lang, "character.yes" if character.luck else "character.no"),
            gamble=t(lang, "character.yes" if character.gamble else "character.no"),
            perception=character.perception,
        ),
        t(
            lang,
            "character.card.side_cards",
            owned=len(character.side_cards),
            selected=len(character.selection),
        ),
    ]
    if active:
        lines.append(t(lang, "character.card.active"))
    return "\n".join(lines)


def created(lang: Lang, character: Character, *, for_other: bool) -> str:
    if character.is_npc:
        key = "character.created.npc"
    elif for_other:
        key = "character.created.for"
    else:
        key = "character.created"
    return t(
        lang,
        key,
        name=character.name,
        user=f"<@{character.owner_id}>",
        traits=traits(lang, character),
    )
