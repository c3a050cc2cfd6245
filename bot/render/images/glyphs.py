"""Each Pegaz creature's colour and glyph, drawn from polygons, ellipses and lines.

A glyph is drawn in a 100-unit box as a mask (ink, and "cuts" that punch holes such as eyes),
four times larger than shown and scaled down, so its edges are smooth; it is cached per size,
so a card costs one paste. Creatures are known by their stable id from ``creatures.json``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache

from PIL import Image, ImageDraw

from bot.render.images.colours import CREATURE_COLOURS
from bot.render.images.draw import RGB

INK: RGB = (250, 243, 226)
SUPERSAMPLE = 4

COLOURS = CREATURE_COLOURS
"""Each creature's own card colour (``colours.py``); the ink on it is :data:`INK`."""

Point = tuple[float, float]


class Pen:
    """Draws on a glyph's mask in 100-unit coordinates; ``cut`` draws holes instead of ink."""

    def __init__(self, draw: ImageDraw.ImageDraw, scale: float) -> None:
        self._draw = draw
        self._s = scale

    def _pts(self, pts: tuple[Point, ...]) -> list[Point]:
        return [(x * self._s, y * self._s) for x, y in pts]

    def poly(self, *pts: Point, cut: bool = False, mirror: bool = False) -> None:
        self._draw.polygon(self._pts(pts), fill=0 if cut else 255)
        if mirror:
            self._draw.polygon(self._pts(_mirrored(pts)), fill=0 if cut else 255)

    def ell(self, x0: float, y0: float, x1: float, y1: float, cut: bool = False) -> None:
        s = self._s
        self._draw.ellipse((x0 * s, y0 * s, x1 * s, y1 * s), fill=0 if cut else 255)

    def dot(self, x: float, y: float, r: float, cut: bool = False) -> None:
        self.ell(x - r, y - r, x + r, y + r, cut)

    def line(self, width: float, *pts: Point, cut: bool = False, mirror: bool = False) -> None:
        for path in (pts, _mirrored(pts)) if mirror else (pts,):
            scaled = self._pts(path)
            w = round(width * self._s)
            self._draw.line(scaled, fill=0 if cut else 255, width=w, joint="curve")
            for x, y in (scaled[0], scaled[-1]):  # round ends
                self._draw.ellipse((x - w / 2, y - w / 2, x + w / 2, y + w / 2), 0 if cut else 255)


def _mirrored(pts: tuple[Point, ...]) -> tuple[Point, ...]:
    return tuple((100 - x, y) for x, y in pts)


def _wave(x: float, y0: float, y1: float, amp: float, turns: float, steps: int = 16) -> list[Point]:
    return [
        (x + amp * math.sin(turns * math.pi * i / steps), y0 + (y1 - y0) * i / steps)
        for i in range(steps + 1)
    ]


def _mane(p: Pen, cx: float, cy: float, outer: float, inner: float, spikes: int = 14) -> None:
    pts = []
    for i in range(spikes * 2):
        r = outer if i % 2 == 0 else inner
        a = math.pi * i / spikes
        pts.append((cx + r * math.sin(a), cy - r * math.cos(a)))
    p.poly(*pts)
    p.dot(cx, cy, inner * 0.62, cut=True)
    p.dot(cx - inner * 0.25, cy - inner * 0.12, inner * 0.08)
    p.dot(cx + inner * 0.25, cy - inner * 0.12, inner * 0.08)
    p.poly((cx - 4, cy + 4), (cx + 4, cy + 4), (cx, cy + 9))


def _snake(p: Pen) -> None:
    body = [(48 + 22 * math.sin(i * math.pi / 8), 90 - i * 3.4) for i in range(19)]
    p.line(11, *body)
    hx, hy = body[-1]
    p.ell(hx - 11, hy - 10, hx + 11, hy + 6)
    p.dot(hx + 3, hy - 3, 2.2, cut=True)
    p.line(2, (hx, hy - 10), (hx, hy - 17), (hx - 4, hy - 21))
    p.line(2, (hx, hy - 17), (hx + 4, hy - 21))


def _dragon(p: Pen) -> None:
    p.poly((46, 50), (6, 20), (14, 40), (4, 50), (16, 56), (8, 66), (46, 66), mirror=True)
    p.ell(40, 38, 60, 80)
    p.poly((44, 44), (56, 44), (60, 20), (70, 16), (62, 8), (52, 14))
    p.line(3, (60, 11), (56, 2))
    p.dot(62, 13, 1.8, cut=True)
    p.line(6, (50, 78), (40, 90), (58, 95), (72, 88))
    p.poly((72, 82), (82, 86), (72, 94))


def _giant_bat(p: Pen) -> None:
    p.poly(
        (50, 40), (30, 28), (4, 34), (10, 50), (20, 46), (24, 60), (34, 54), (42, 68), (50, 62),
        mirror=True,
    )  # fmt: skip
    p.ell(41, 34, 59, 72)
    p.ell(42, 22, 58, 40)
    p.poly((43, 28), (42, 12), (49, 25), mirror=True)
    p.dot(46, 31, 1.8, cut=True)
    p.dot(54, 31, 1.8, cut=True)


def _harpy(p: Pen) -> None:
    p.poly((46, 34), (8, 22), (14, 38), (6, 48), (18, 54), (12, 66), (44, 60), mirror=True)
    p.poly((43, 32), (57, 32), (60, 66), (40, 66))
    p.dot(50, 22, 9)
    p.poly((41, 20), (50, 10), (59, 20), (62, 36), (56, 24), (44, 24), (38, 36))
    p.line(3, (45, 66), (42, 84), (36, 90), mirror=True)
    p.line(3, (42, 84), (44, 92), mirror=True)


def _giant_spider(p: Pen) -> None:
    legs: tuple[tuple[Point, ...], ...] = (
        ((44, 38), (26, 18), (14, 30)),
        ((43, 42), (18, 34), (6, 50)),
        ((43, 46), (18, 56), (10, 74)),
        ((45, 50), (26, 72), (20, 92)),
    )
    for leg in legs:
        p.line(4, *leg, mirror=True)
    p.ell(32, 48, 68, 92)
    p.ell(39, 28, 61, 52)
    for x in (45, 55):
        p.dot(x, 36, 2.4, cut=True)
    p.dot(50, 70, 6, cut=True)


def _giant_scorpion(p: Pen) -> None:
    for y in (58, 66, 74):
        p.line(3, (42, y), (26, y + 8), (22, y + 16), mirror=True)
    p.line(4, (42, 54), (26, 44), (22, 32), mirror=True)
    p.ell(10, 18, 30, 36)
    p.ell(70, 18, 90, 36)
    p.poly((18, 18), (22, 27), (14, 16), cut=True)
    p.poly((82, 18), (78, 27), (86, 16), cut=True)
    p.ell(38, 48, 62, 84)
    p.line(7, (50, 84), (50, 92), (62, 96), (74, 90))
    p.poly((70, 84), (82, 88), (76, 96))


def _griffin(p: Pen) -> None:
    p.poly((28, 52), (2, 16), (16, 20), (10, 6), (26, 16), (28, 2), (40, 22), (44, 46))
    p.line(4, (88, 70), (96, 54), (92, 44))
    p.dot(92, 42, 5)
    for x in (46, 56, 76, 84):
        p.line(5, (x, 72), (x, 92))
    p.ell(40, 54, 92, 80)
    p.poly((34, 34), (58, 34), (62, 70), (40, 72))
    p.dot(46, 24, 15)
    p.poly((56, 16), (80, 22), (78, 36), (70, 30), (60, 34))
    p.dot(50, 20, 3, cut=True)


def _cockatrice(p: Pen) -> None:
    p.line(7, (34, 58), (16, 50), (10, 66), (24, 80), (14, 94))
    p.ell(28, 40, 70, 74)
    p.ell(54, 18, 76, 40)
    for x, y in ((58, 16), (64, 12), (70, 15)):
        p.dot(x, y, 4.5)
    p.poly((75, 24), (88, 30), (75, 34))
    p.dot(70, 42, 4)
    p.dot(66, 27, 2.2, cut=True)
    p.line(3, (38, 58), (52, 64), (62, 56), cut=True)
    p.line(4, (44, 72), (40, 92))
    p.line(4, (56, 72), (60, 92))


def _basilisk(p: Pen) -> None:
    p.ell(16, 54, 84, 94)
    p.ell(32, 64, 68, 84, cut=True)
    p.ell(32, 26, 68, 56)
    p.poly((34, 30), (36, 10), (43, 20), (50, 6), (57, 20), (64, 10), (66, 30))
    p.dot(42, 41, 3.5, cut=True)
    p.dot(58, 41, 3.5, cut=True)
    p.line(2, (46, 52), (54, 52), cut=True)


def _werewolf(p: Pen) -> None:
    p.dot(84, 16, 13)
    p.dot(90, 11, 12, cut=True)
    p.poly(
        (30, 46), (24, 16), (42, 34), (58, 34), (76, 16), (70, 46), (78, 62), (62, 76), (50, 94),
        (38, 76), (22, 62),
    )  # fmt: skip
    p.poly((36, 52), (46, 56), (38, 58), cut=True, mirror=True)
    p.poly((45, 80), (55, 80), (50, 86), cut=True)


def _chimera(p: Pen) -> None:
    _mane(p, 50, 58, 38, 28)
    p.line(6, (38, 30), (28, 14), (14, 12), (10, 24), mirror=True)


def _manticore(p: Pen) -> None:
    p.line(6, (60, 74), (84, 62), (90, 40), (80, 20), (62, 16))
    p.poly((64, 8), (50, 16), (64, 24))
    _mane(p, 40, 62, 32, 23)


def _hydra(p: Pen) -> None:
    p.poly((22, 94), (78, 94), (66, 70), (34, 70))
    heads: tuple[Point, ...] = ((14, 32), (30, 14), (50, 8), (70, 14), (86, 32))
    for hx, hy in heads:
        p.line(5, (50, 74), ((50 + hx) / 2 + (hx - 50) * 0.1, (74 + hy) / 2 + 8), (hx, hy))
    for hx, hy in heads:
        p.ell(hx - 7, hy - 6, hx + 7, hy + 5)
        p.dot(hx + (2 if hx >= 50 else -2), hy - 1, 1.6, cut=True)


def _kraken(p: Pen) -> None:
    for i, x in enumerate((30, 40, 50, 60, 70)):
        p.line(6, *_wave(x, 44, 90, 6 if i % 2 else -6, 2.2))
    p.ell(26, 6, 74, 54)
    p.dot(41, 34, 4, cut=True)
    p.dot(59, 34, 4, cut=True)


def _behemoth(p: Pen) -> None:
    for x0, y0 in ((20, 62), (38, 64), (56, 64), (70, 60)):
        p.poly((x0, y0), (x0 + 12, y0), (x0 + 12, 92), (x0, 92))
    p.ell(12, 30, 86, 76)
    p.poly((76, 38), (96, 46), (96, 66), (78, 68))
    p.poly((90, 48), (99, 30), (94, 52))
    p.poly((78, 44), (80, 28), (86, 42))
    p.dot(86, 52, 2.4, cut=True)
    p.line(3, (10, 52), (4, 62))


def _hippogriff(p: Pen) -> None:
    p.poly((50, 54), (62, 8), (70, 22), (78, 10), (80, 28), (90, 24), (82, 54))
    for x in (38, 48, 72, 82):
        p.line(4, (x, 70), (x, 92))
    p.ell(32, 50, 88, 78)
    p.line(4, (88, 60), (96, 80))
    p.poly((20, 36), (36, 36), (46, 58), (30, 62))
    p.ell(12, 14, 38, 42)
    p.poly((14, 22), (2, 32), (16, 34))
    p.dot(26, 24, 2.4, cut=True)


def _leviathan(p: Pen) -> None:
    p.line(8, (8, 70), (20, 48), (34, 70), (46, 48), (60, 70))
    p.poly((56, 72), (66, 30), (84, 22), (96, 30), (80, 38), (72, 72))
    p.dot(84, 28, 2.4, cut=True)
    for y in (80, 92):
        p.line(4, *((x, y + (4 if (x // 10) % 2 else -4)) for x in range(4, 100, 10)))


def _phoenix(p: Pen) -> None:
    p.poly((44, 40), (6, 8), (20, 32), (2, 34), (22, 50), (8, 60), (44, 58), mirror=True)
    p.poly((42, 60), (28, 98), (46, 80), (50, 99), (54, 80), (72, 98), (58, 60))
    p.poly((43, 30), (57, 30), (58, 62), (50, 72), (42, 62))
    p.dot(50, 22, 8)
    p.poly((54, 20), (64, 24), (54, 27))
    p.poly((46, 14), (44, 2), (50, 12), (56, 2), (54, 14))
    p.dot(51, 21, 1.8, cut=True)


def _horse_head(p: Pen) -> None:
    p.poly(
        (72, 96), (74, 62), (66, 44), (42, 36), (20, 46), (12, 58), (20, 64), (40, 60), (46, 72),
        (42, 96),
    )  # fmt: skip
    p.poly((58, 40), (66, 22), (70, 44))
    p.line(4, (68, 44), (80, 60), (80, 86))
    p.dot(42, 46, 2.6, cut=True)
    p.dot(18, 56, 1.6, cut=True)


def _unicorn(p: Pen) -> None:
    _horse_head(p)
    p.poly((42, 38), (22, 2), (52, 36))
    for y in (12, 20, 28):
        p.line(1.6, (28 + (y - 12) * 0.5, y + 2), (36 + (y - 12) * 0.45, y - 2), cut=True)


def _pegasus(p: Pen) -> None:
    p.poly(
        (54, 58), (96, 6), (92, 26), (99, 30), (88, 46), (96, 52), (84, 64), (88, 70), (70, 74),
    )  # fmt: skip
    p.line(2, (70, 50), (90, 28), cut=True)
    p.line(2, (72, 60), (92, 44), cut=True)
    _horse_head(p)


DRAW: dict[str, Callable[[Pen], None]] = {
    "snake": _snake,
    "dragon": _dragon,
    "giant_bat": _giant_bat,
    "harpy": _harpy,
    "giant_spider": _giant_spider,
    "giant_scorpion": _giant_scorpion,
    "griffin": _griffin,
    "cockatrice": _cockatrice,
    "basilisk": _basilisk,
    "werewolf": _werewolf,
    "chimera": _chimera,
    "manticore": _manticore,
    "hydra": _hydra,
    "kraken": _kraken,
    "behemoth": _behemoth,
    "hippogriff": _hippogriff,
    "leviathan": _leviathan,
    "phoenix": _phoenix,
    "unicorn": _unicorn,
    "pegasus": _pegasus,
}
"""How each creature's glyph is drawn."""


def colour(creature_id: str) -> RGB:
    return COLOURS[creature_id]


@cache
def glyph(creature_id: str, size: int) -> Image.Image:
    """The creature's glyph, ``size`` px square, as an ink-coloured RGBA image to paste."""
    big = size * SUPERSAMPLE
    mask = Image.new("L", (big, big), 0)
    DRAW[creature_id](Pen(ImageDraw.Draw(mask), big / 100))
    ink = Image.new("RGBA", (size, size), INK)
    ink.putalpha(mask.resize((size, size), Image.Resampling.LANCZOS))
    return ink
