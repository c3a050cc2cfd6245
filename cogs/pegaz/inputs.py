"""What players type for Three-Card Pegasus, read into the rules' terms (or a clear refusal)."""

from __future__ import annotations

import re
import unicodedata
from typing import Literal

from bot.rules import pegaz
from bot.rules.common import InvalidSettings
from bot.rules.money import WARHAMMER, parse_amount
from bot.rules.pegaz.state import MAX_TURN_TIMEOUT, MIN_TURN_TIMEOUT
from cogs.replies import Refused

NO_LIMIT = frozenset({"none", "no", "unlimited", "-", "∞", "brak", "bez", "bez limitu", "nie"})
HAND_TEXT_MAX = 100
"""The longest hand ``/pegaz odds`` reads: three creature names with room to spare."""
DURATION_TEXT_MAX = 32
"""The longest turn time ``/pegaz open`` reads (``90 sekund``, ``1 godzina``)."""
_DURATION = re.compile(r"\s*([0-9]{1,6})\s*([^\W\d_]*)\s*")
_FACE = re.compile(r"[0-9]{1,2}")
_UNITS = {
    1: ("s", "sec", "secs", "second", "seconds", "sek", "sekunda", "sekundy", "sekund"),
    60: ("", "m", "min", "mins", "minute", "minutes", "minuta", "minuty", "minut"),
    3600: ("h", "hour", "hours", "godz", "godzina", "godziny", "godzin"),
}


def limit(text: str | None) -> int | None:
    """An amount, or None for "no limit" (``none``, ``brak``, an empty option)."""
    if text is None or text.strip().casefold() in NO_LIMIT:
        return None
    return parse_amount(text, WARHAMMER)


def seconds(text: str) -> int:
    """``10 min``, ``90 s``, ``1h``; a bare number is minutes."""
    match = _DURATION.fullmatch(text.casefold()) if len(text) <= DURATION_TEXT_MAX else None
    if match is not None:
        for factor, words in _UNITS.items():
            if match[2] in words:
                value = int(match[1]) * factor
                if MIN_TURN_TIMEOUT <= value <= MAX_TURN_TIMEOUT:
                    return value
    raise Refused("pegaz_bad_timeout", text=text[:50])


def settings(
    *,
    stake: str,
    exchanges: int,
    raise_limit: str | None,
    max_stake: str | None,
    die: int,
    source: Literal["dice", "deck"],
    wild: bool,
    turn_timeout: str,
    tie: Literal["split", "rollover"],
    cheat_ruling: Literal["expel", "gm"],
    detection: int,
) -> pegaz.PegazSettings:
    """The table's settings from ``/pegaz open``'s options (``exchanges`` 0 = unlimited)."""
    data: dict[str, object] = {
        "stake": parse_amount(stake, WARHAMMER),
        "exchanges": exchanges or None,
        "raise_limit": limit(raise_limit),
        "max_stake": limit(max_stake),
        "die": die,
        "source": source,
        "turn_timeout": seconds(turn_timeout),
        "tie": tie,
        "cheat_ruling": cheat_ruling,
        "detection_modifier": detection,
    }
    try:
        if wild:
            return pegaz.PegazSettings.wild(**data)  # type: ignore[arg-type]
        return pegaz.PegazSettings.parse(data)
    except InvalidSettings as exc:
        field = str(exc.params.get("field", "settings"))
        raise Refused(f"pegaz_bad_{field}") from exc


def _key(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold().strip()


def hand(text: str, die: int) -> tuple[int, int, int]:
    """Three cards typed as faces (``6 6 1``) or creatures (``Pegasus, pegaz, snake``).

    The length and the shape come first: a face is one or two ASCII digits, so no typed number
    is ever converted whole (Python refuses to read an integer of over 4,300 digits)."""
    if len(text) > HAND_TEXT_MAX:
        raise Refused("pegaz_bad_hand", text=text[:50], die=die)
    names: dict[str, int] = {}
    for c in pegaz.creatures(die):
        for alias in (c.id, c.en, c.pl, c.emoji):
            names[_key(alias)] = c.face
    words = [w for w in re.split(r"[\s,;/+]+", _key(text)) if w]
    faces: list[int] = []
    i = 0
    while i < len(words):
        two = " ".join(words[i : i + 2])
        if len(words) > i + 1 and two in names:
            faces.append(names[two])
            i += 2
            continue
        word = words[i]
        if _FACE.fullmatch(word) and 1 <= int(word) <= die:
            faces.append(int(word))
        elif word in names:
            faces.append(names[word])
        else:
            raise Refused("pegaz_bad_hand", text=text[:50], die=die)
        i += 1
    if len(faces) != 3:
        raise Refused("pegaz_bad_hand", text=text[:50], die=die)
    return faces[0], faces[1], faces[2]


def exchange_cards(text: str) -> tuple[int, ...]:
    """Card numbers 1-3 to exchange (``1 3``, ``2,3``, ``123``); empty: none. Returns indexes."""
    cleaned = re.sub(r"[\s,;+.]+", "", text)
    if not cleaned or cleaned == "0":
        return ()
    if not cleaned.isdigit() or any(ch not in "123" for ch in cleaned):
        raise Refused("pegaz_bad_cards", text=text[:50])
    if len(set(cleaned)) != len(cleaned):
        raise Refused("pegaz_bad_cards", text=text[:50])
    return tuple(sorted(int(ch) - 1 for ch in cleaned))


def raise_amount(text: str) -> int:
    """The raise typed in the exchange dialog (empty or 0: no raise)."""
    return parse_amount(text, WARHAMMER) if text.strip() not in ("", "0") else 0
