"""An NPC gambler's portrait: the avatar it speaks under at the table (a webhook's avatar).

Drawn, not painted: a disc in the personality's own colour (from its id, so it never changes
between runs) with the initials of its name, on a darker ring. 128 px square, as Discord shows
an avatar; a few KiB.
"""

from __future__ import annotations

import zlib

SIZE = 128
HUES: tuple[tuple[int, int, int], ...] = (
    (156, 52, 48),
    (46, 110, 74),
    (52, 84, 150),
    (150, 110, 40),
    (112, 60, 140),
    (40, 120, 130),
    (160, 80, 30),
    (90, 100, 110),
)
"""The discs' colours, one chosen by the personality's id."""


def initials(name: str) -> str:
    """The first letters of the first two words (one letter for a one-word name)."""
    from bot.render.images.draw import plain  # Pillow: with the first portrait, not the bot

    words = [w for w in plain(name).replace("-", " ").split() if w[:1].isalnum()]
    return "".join(w[0] for w in words[:2]).upper() or "?"


def portrait(personality_id: str, name: str) -> bytes:
    """The PNG avatar of the personality ``personality_id``, named ``name`` (its English name)."""
    from PIL import Image, ImageDraw

    from bot.render.images.draw import font, png, shade

    colour = HUES[zlib.crc32(personality_id.encode()) % len(HUES)]
    image = Image.new("RGB", (SIZE, SIZE), shade(colour, 0.45))
    draw = ImageDraw.Draw(image)
    draw.ellipse((6, 6, SIZE - 7, SIZE - 7), fill=colour, outline=shade(colour, 1.5), width=4)
    letters = initials(name)
    face = font(58 if len(letters) == 1 else 50, bold=True)
    draw.text((SIZE / 2, SIZE / 2 + 2), letters, font=face, fill=(250, 244, 230), anchor="mm")
    return png(image)
