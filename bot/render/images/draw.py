"""What every table image is made of: fonts, colours, text that fits, card backs, PNG bytes.

Fonts: Pillow's built-in scalable font (Aileron) has no Polish letters (``ą``, ``ł``, ``ż`` and
even ``ó`` come out as boxes), so DejaVu Sans (a free licence) is loaded from the machine's
fonts at runtime; where it is absent, the built-in font still draws every English text.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]
Names = Mapping[int, str]
"""Character id -> name, for every seat an image shows."""

FONT_DIRS: tuple[Path, ...] = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"))
"""Where a font is looked for (recursively), in order."""
FONT_FILES: dict[bool, tuple[str, ...]] = {
    False: ("DejaVuSans.ttf", "NotoSans-Regular.ttf", "LiberationSans-Regular.ttf"),
    True: ("DejaVuSans-Bold.ttf", "NotoSans-Bold.ttf", "LiberationSans-Bold.ttf"),
}
"""Open-licence fonts that draw Polish letters, best first (regular, bold)."""

BACKGROUND: RGB = (32, 27, 24)
"""The tavern table: a dark warm brown that Discord's dark and light themes both frame well."""
FELT: RGB = (46, 64, 52)
INK: RGB = (240, 232, 214)
MUTED: RGB = (170, 160, 142)
GOLD: RGB = (226, 182, 82)
HIGHLIGHT: RGB = (250, 204, 92)
BACK: RGB = (120, 36, 40)
BACK_LINE: RGB = (196, 150, 82)

_MARKUP = re.compile(r"\*\*|__|[\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F\u200D]")
"""Discord markdown and emoji, which the catalogues' texts carry and the fonts cannot draw."""

PALETTE = 256
"""Colours of a PNG: the images are flat colours and the edges of text, so a 256-colour palette
looks the same, and it is a third of the bytes to compress (RGB costs ~15 ms more to encode)."""
SAMPLE = 3
"""The palette is chosen from every third pixel each way (flat areas dominate): half the time of
choosing it from all, and no pixel moves by more than a few levels."""
PNG_LEVEL = 3
"""zlib level: level 6 saves a sixth of the bytes for twice the time."""


@cache
def _font_path(bold: bool) -> str | None:
    for name in FONT_FILES[bold]:
        for folder in FONT_DIRS:
            if folder.is_dir():
                for found in sorted(folder.rglob(name)):
                    return str(found)
    return None


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """A font at ``size`` px: DejaVu Sans from the machine, else Pillow's built-in font."""
    path = _font_path(bold)
    if path is not None:
        try:
            return ImageFont.truetype(path, size, layout_engine=ImageFont.Layout.BASIC)
        except OSError:
            pass
    built_in = ImageFont.load_default(size)
    assert isinstance(built_in, ImageFont.FreeTypeFont)  # Pillow is built with FreeType
    return built_in


def font_source() -> str:
    """Which font the images use, for the bench and the logs: a file path or ``built-in``."""
    return _font_path(False) or "built-in"


def plain(text: str) -> str:
    """A catalogue text as an image shows it: no markdown, no emoji."""
    return " ".join(_MARKUP.sub("", text).split())


def name_of(names: Names, player: int) -> str:
    return names.get(player, f"#{player}")


@lru_cache(maxsize=4096)  # the same names and labels come back on every redraw
def fitted(
    text: str, width: int, size: int, bold: bool = False, smallest: int = 14
) -> tuple[str, ImageFont.FreeTypeFont]:
    """``text`` and a font that fit ``width`` px: the size shrinks down to ``smallest``, then the
    text is cut with an ellipsis, so a long name never runs over what is beside it."""
    for px in range(size, smallest - 1, -2):
        face = font(px, bold)
        if face.getlength(text) <= width:
            return text, face
    face = font(smallest, bold)
    while text and face.getlength(text + "\u2026") > width:
        text = text[:-1]
    return text.rstrip() + "\u2026", face


def text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    words: str,
    *,
    width: int,
    size: int,
    fill: RGB = INK,
    bold: bool = False,
    anchor: str = "la",
    smallest: int = 14,
) -> None:
    """Draw ``words`` fitted to ``width`` px at ``xy`` (``anchor`` as Pillow's)."""
    shown, face = fitted(words, width, size, bold, smallest)
    draw.text(xy, shown, font=face, fill=fill, anchor=anchor)


def wrapped(words: str, width: int, size: int, lines: int, bold: bool = False) -> list[str]:
    """``words`` broken into at most ``lines`` lines of ``width`` px, a line too long cut short."""
    face = font(size, bold)
    rest = words.split()
    out: list[str] = []
    while rest:
        line = rest.pop(0)
        if len(out) == lines - 1:
            line = " ".join([line, *rest])
            rest = []
        while rest and face.getlength(f"{line} {rest[0]}") <= width:
            line += " " + rest.pop(0)
        out.append(fitted(line, width, size, bold, smallest=size)[0])
    return out


def canvas(width: int, height: int, colour: RGB = BACKGROUND) -> Image.Image:
    return Image.new("RGB", (width, height), colour)


def shade(colour: RGB, factor: float) -> RGB:
    """``colour`` darker (factor < 1) or towards white (factor > 1)."""
    if factor <= 1:
        r, g, b = (round(c * factor) for c in colour)
    else:
        r, g, b = (round(c + (255 - c) * (factor - 1)) for c in colour)
    return (r, g, b)


@cache
def card_back(width: int, height: int, radius: int = 6) -> Image.Image:
    """A face-down card to paste: red with a gold diamond, the same for every card."""
    back = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(back)
    draw.rounded_rectangle((0, 0, width - 1, height - 1), radius, BACK, BACK_LINE, 2)
    cx, cy = (width - 1) / 2, (height - 1) / 2
    w, h = cx - 6, cy - 6
    draw.polygon([(cx, cy - h), (cx + w, cy), (cx, cy + h), (cx - w, cy)], outline=BACK_LINE)
    draw.polygon(
        [(cx, cy - h / 2), (cx + w / 2, cy), (cx, cy + h / 2), (cx - w / 2, cy)], fill=BACK_LINE
    )
    return back


def png(image: Image.Image) -> bytes:
    """The image as a palette PNG. The same image always gives the same bytes (the quantizer is
    deterministic and no metadata is written)."""
    out = io.BytesIO()
    sample = image.resize((image.width // SAMPLE, image.height // SAMPLE), Image.Resampling.NEAREST)
    palette = sample.quantize(PALETTE, Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    fewer = image.quantize(palette=palette, dither=Image.Dither.NONE)
    fewer.save(out, "PNG", compress_level=PNG_LEVEL)
    return out.getvalue()
