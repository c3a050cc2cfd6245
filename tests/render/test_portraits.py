"""NPC portraits: a small PNG per personality, the same on every run, told apart by colour and
initials."""

from __future__ import annotations

import io

from PIL import Image

from bot.ai.personalities import personalities
from bot.render.images.portraits import SIZE, initials, portrait


def test_every_personality_has_a_distinct_stable_portrait() -> None:
    drawn = {}
    for game in ("pegaz", "pazaak"):
        for gambler in personalities(game):
            png = portrait(gambler.id, gambler.names["en"])
            assert png.startswith(b"\x89PNG") and len(png) < 16 * 1024
            assert portrait(gambler.id, gambler.names["en"]) == png
            with Image.open(io.BytesIO(png)) as image:
                assert image.size == (SIZE, SIZE)
            drawn[gambler.id] = png
    assert len(set(drawn.values())) == len(drawn)


def test_initials_skip_markup_and_punctuation() -> None:
    assert initials("Gaston de Marais") == "GD"
    assert initials("**Greedo**") == "G"
    assert initials("R2-D2") == "RD"
    assert initials("") == "?"
