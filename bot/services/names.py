"""Character names: what is allowed, and the key that makes them unique per guild.

A name is shown in channel messages and embeds, so it must not be able to format, mention or
link anything. Allowed, after Unicode NFKC normalisation (which also folds look-alike full-width
letters) and trimming:

- letters and digits of any script (``str.isalnum``: Polish ą ę ł ż, Cyrillic, CJK...);
- spaces between words (any run of white space becomes one space);
- the marks ``'`` (and U+2019) ``-`` ``.`` inside a name (O'Reilly, Jean-Luc, St. Germain);
- 1 to 32 characters, beginning with a letter or digit.

Everything else is refused: markdown (``* _ ~ ` | > #``), mention and link syntax (``@ < : [ ]
( )``), backslashes, control and zero-width characters, emoji, line breaks.
Uniqueness ignores case: the key is the normalised name, ``casefold()``-ed.
"""

from __future__ import annotations

import unicodedata

from bot.services.errors import NameInvalid

MAX_NAME = 32
_MARKS = frozenset("'\u2019-.")


def clean_name(raw: str) -> str:
    """The name as it will be stored, or :class:`NameInvalid` (``reason`` and details)."""
    name = " ".join(unicodedata.normalize("NFKC", raw).split())
    if not name:
        raise NameInvalid(name=raw[:MAX_NAME], reason="empty")
    if len(name) > MAX_NAME:
        raise NameInvalid(name=name[:MAX_NAME] + "…", reason="too_long", max=MAX_NAME)
    previous = " "
    for char in name:
        allowed = char.isalnum() or char == " " or char in _MARKS
        if not allowed or (previous == " " and not char.isalnum() and char != " "):
            shown = char if char.isprintable() and not char.isspace() else f"U+{ord(char):04X}"
            raise NameInvalid(name=name, reason="bad_character", char=shown)
        previous = char
    return name


def name_key(name: str) -> str:
    """The case-insensitive key a name is unique by."""
    return " ".join(unicodedata.normalize("NFKC", name).split()).casefold()
