"""Character names: what is allowed, and the keys that make them unique per guild.

A name is shown in channel messages and embeds, so it must not be able to format, mention or
link anything. Allowed, after Unicode NFKC normalisation (which also folds look-alike full-width
letters) and trimming:

- letters and digits of any script (``str.isalnum``: Polish ą ę ł ż, Cyrillic, CJK...);
- spaces between words (any run of white space becomes one space);
- the marks ``'`` (and U+2019) ``-`` ``.`` inside a name (O'Reilly, Jean-Luc, St. Germain);
- 1 to 32 characters, beginning with a letter or digit.

Everything else is refused: markdown (``* _ ~ ` | > #``), mention and link syntax (``@ < : [ ]
( )``), backslashes, control and zero-width characters, emoji, line breaks. Each refusal says
which rule the name breaks (its own error code).

Two names may not live side by side in a guild when they are

- the same ignoring case (:func:`name_key`: the normalised name, ``casefold()``-ed), or
- look-alikes (:func:`look_alike_keys`): their Unicode TR39 confusable skeletons match, so
  "Bob Smith" spelt with a Cyrillic Ve and o (U+0412, U+043E) cannot join "Bob Smith", nor
  "B0b Smith" (a zero). The skeleton is ICU's ``SpoofChecker.getSkeleton``, built from
  Unicode's ``confusables.txt``.
"""

from __future__ import annotations

import unicodedata
from functools import cache
from typing import Any

from bot.services.errors import DuplicateName, NameInvalid

MAX_NAME = 32
SHOWN = 24
"""The most characters of a refused name that its refusal quotes back."""
_MARKS = frozenset("'\u2019-.")


@cache
def _spoof() -> Any:
    """ICU's checker, loaded with the first name checked (ICU costs ~15 ms to load)."""
    import icu  # type: ignore[import-untyped]  # PyICU (the pyicu-wheels distribution)

    return icu.SpoofChecker()


class NameEmpty(NameInvalid):
    code = "name_empty"


class NameTooLong(NameInvalid):
    """``name`` (clipped), ``length`` and ``max``."""

    code = "name_too_long"


class NameBadCharacter(NameInvalid):
    """``name`` (clipped) holds ``char``, which no name may (shown as ``U+XXXX`` when it is
    invisible)."""

    code = "name_bad_character"


class NameBadStart(NameInvalid):
    """``name`` (clipped) begins with ``char``, a mark allowed only inside a name."""

    code = "name_bad_start"


class LookAlikeName(DuplicateName):
    """``name`` looks like ``other``, another living character of the guild (TR39)."""

    code = "name_look_alike"


def _allowed(char: str) -> bool:
    return char.isalnum() or char == " " or char in _MARKS


def _clip(name: str) -> str:
    """The name as a refusal may quote it: clipped, and each character no name may hold shown
    as U+FFFD, so the quote can neither format nor mention anything."""
    safe = "".join(c if _allowed(c) else "\ufffd" for c in name)
    return safe if len(safe) <= SHOWN else safe[: SHOWN - 1] + "\u2026"


def _shown(char: str) -> str:
    code = f"U+{ord(char):04X}"
    return f"{char} ({code})" if char.isprintable() and not char.isspace() else code


def clean_name(raw: str) -> str:
    """The name as it will be stored, or a :class:`NameInvalid` that says which rule it breaks
    (``reason``: ``empty``, ``bad_character``, ``bad_start`` or ``too_long``)."""
    name = " ".join(unicodedata.normalize("NFKC", raw).split())
    if not name:
        raise NameEmpty(name="", reason="empty")
    previous = " "
    for char in name:
        if not _allowed(char):
            raise NameBadCharacter(name=_clip(name), reason="bad_character", char=_shown(char))
        if previous == " " and char != " " and not char.isalnum():
            raise NameBadStart(name=_clip(name), reason="bad_start", char=char)
        previous = char
    if len(name) > MAX_NAME:
        raise NameTooLong(name=_clip(name), reason="too_long", length=len(name), max=MAX_NAME)
    return name


def name_key(name: str) -> str:
    """The case-insensitive key a name is unique by."""
    return " ".join(unicodedata.normalize("NFKC", name).split()).casefold()


def look_alike_keys(name: str) -> frozenset[str]:
    """The keys of a name's look-alikes: two names look alike when they share one. A key is the
    TR39 skeleton, case-folded, of the normalised name as written or case-folded first, because
    Unicode's confusables table is cased: the capital Cyrillic Ve (U+0412) maps to B but the
    small ve to a small capital B, and the capital I maps to l while the small i stays i (so
    "SMITH" meets "Smith" only through "smith")."""
    normal = " ".join(unicodedata.normalize("NFKC", name).split())
    return frozenset(_skeleton(variant) for variant in (normal, normal.casefold()))


def _skeleton(text: str) -> str:
    return unicodedata.normalize("NFC", str(_spoof().getSkeleton(0, text)).casefold())
