"""The Pegaz creatures' colours, apart from the drawing (``glyphs.py``), which needs Pillow: the
emoji names (``emojis.drawings``) are known at startup without it."""

from __future__ import annotations

CREATURE_COLOURS: dict[str, tuple[int, int, int]] = {
    "snake": (52, 122, 64),
    "dragon": (172, 44, 40),
    "giant_bat": (82, 60, 112),
    "harpy": (142, 70, 122),
    "giant_spider": (64, 72, 88),
    "giant_scorpion": (168, 104, 34),
    "griffin": (146, 112, 70),
    "cockatrice": (206, 104, 40),
    "basilisk": (104, 128, 44),
    "werewolf": (86, 98, 122),
    "chimera": (158, 76, 48),
    "manticore": (146, 36, 74),
    "hydra": (32, 118, 106),
    "kraken": (40, 66, 142),
    "behemoth": (108, 78, 58),
    "hippogriff": (62, 128, 172),
    "leviathan": (24, 96, 132),
    "phoenix": (216, 82, 26),
    "unicorn": (124, 104, 188),
    "pegasus": (196, 150, 40),
}
"""Each Pegaz creature's own card colour, by its id (``creatures.json``)."""
