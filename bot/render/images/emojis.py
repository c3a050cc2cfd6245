"""The bot's application emojis, drawn: one per Pegaz creature and one per Pazaak side card kind.

A creature's is its glyph (``glyphs.py``) on a rounded square of its own colour; a side card's
is a small card face in its kind's colour (``pazaak.py``) with the kind's sign. 128 px square,
as Discord keeps an emoji; a few KiB each. Named as ``bot.render.icons`` names them.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, get_args

from bot.render.icons import card_emoji_name, creature_emoji_name
from bot.render.images.colours import CREATURE_COLOURS
from bot.rules.pazaak.cards import CardKind

if TYPE_CHECKING:  # Pillow and the drawings are imported when an emoji is first drawn
    from PIL import Image

    from bot.render.images.draw import RGB

SIZE = 128
SIGNS: dict[CardKind, str] = {
    "plus": "+",
    "minus": "\u2212",
    "plus_minus": "\u00b1",
    "double": "D",
    "tiebreaker": "T",
    "flip24": "2&4",
    "flip36": "3&6",
    "pm12": "\u00b11/2",
}
"""What each side card kind's emoji shows."""


def creature(creature_id: str) -> bytes:
    """The creature's emoji: its glyph in ink on a rounded square of its colour."""
    from PIL import Image, ImageDraw

    from bot.render.images.draw import shade
    from bot.render.images.glyphs import COLOURS, glyph

    colour = COLOURS[creature_id]
    image = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (2, 2, SIZE - 3, SIZE - 3), 22, fill=colour, outline=shade(colour, 1.5), width=5
    )
    mark = glyph(creature_id, SIZE - 24)
    image.alpha_composite(mark, (12, 12))
    return _png(image)


def side_card(kind: CardKind) -> bytes:
    """The side card kind's emoji: a card face in its colour (±: blue over red), its sign."""
    from PIL import Image, ImageDraw

    from bot.render.images.draw import font, shade
    from bot.render.images.pazaak import KINDS, MINUS

    colour: RGB = KINDS[kind]
    image = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    box = (20, 4, SIZE - 21, SIZE - 5)
    draw.rounded_rectangle(box, 14, fill=colour, outline=shade(colour, 1.55), width=5)
    if kind == "plus_minus":
        lower = (25, SIZE // 2, SIZE - 26, SIZE - 10)
        draw.rounded_rectangle(lower, 10, fill=MINUS, corners=(False, False, True, True))
    sign = SIGNS[kind]
    size = 76 if len(sign) == 1 else 40 if len(sign) == 3 else 32
    draw.text(
        (SIZE / 2, SIZE / 2), sign, font=font(size, bold=True), fill=(250, 244, 230), anchor="mm"
    )
    return _png(image)


def drawings() -> dict[str, Callable[[], bytes]]:
    """Every emoji the bot uploads, by name, with how to draw it."""
    found: dict[str, Callable[[], bytes]] = {}
    for creature_id in CREATURE_COLOURS:
        found[creature_emoji_name(creature_id)] = partial(creature, creature_id)
    for kind in get_args(CardKind):
        found[card_emoji_name(kind)] = partial(side_card, kind)
    return found


def _png(image: Image.Image) -> bytes:
    """A transparent PNG; the same image always gives the same bytes (no metadata)."""
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()
