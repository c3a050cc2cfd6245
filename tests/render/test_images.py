"""Table images: real PNGs of a readable size, a pure function of what their viewer may know,
drawn for every state of random games in both languages, and cached by what they show."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import random
import threading
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.i18n import LANGS, Lang
from bot.render import images
from bot.render.images import draw, glyphs
from bot.render.images import pazaak as pazaak_images
from bot.render.images import pegaz as pegaz_images
from bot.rules import pazaak, pegaz

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
NAMES = {p: name for p, name in enumerate(["Źdźisław", "Łucja Gęśla", "Ottokar", "Żaneta"] * 2, 1)}
SIDE_CARDS = pazaak.parse_side_cards(["+3", "-2", "±4", "D", "T", "F24", "F36", "±1/2", "+1", "-5"])


def opened(image: bytes) -> Image.Image:
    assert image.startswith(PNG_SIGNATURE)
    picture = Image.open(io.BytesIO(image))
    picture.load()
    return picture


def legible(image: bytes) -> Image.Image:
    """A palette PNG of Discord's preview scale: 600 to 900 px wide, under 100 KiB."""
    picture = opened(image)
    assert picture.format == "PNG" and picture.mode == "P"
    width, height = picture.size
    assert 600 <= width <= 900 and 200 <= height <= 1000
    assert len(image) < 100 * 1024
    return picture


# --- games --------------------------------------------------------------------------------------


def pegaz_game(
    seed: int, seats: int = 4, die: int = 6, source: str = "dice"
) -> Iterator[tuple[pegaz.PegazState, list[pegaz.Event]]]:
    """Every state of a seeded random game, from the empty table on, with the events that led
    to it."""
    rng = random.Random(seed)
    table = pegaz.PegazSettings(die=die, source=source)  # type: ignore[arg-type]
    state, events = pegaz.new_table(table)
    yield state, events
    for p in range(1, seats + 1):
        state, events = pegaz.apply(state, pegaz.Join(p, p % 2 == 0, p % 3 == 0, 40, 900), rng)
        yield state, events
    state, events = pegaz.apply(state, pegaz.Start(1), rng)
    yield state, events
    while not pegaz.is_over(state):
        state, events = pegaz.apply(state, rng.choice(pegaz.legal_actions(state)), rng)
        yield state, events


def pazaak_match(seed: int, sets: int = 2) -> Iterator[pazaak.PazaakState]:
    """Every state of a seeded random match (a forfeit past set 8 keeps it short)."""
    rng = random.Random(seed)
    table = pazaak.PazaakSettings(wager=100, sets_to_win=sets)
    state, _ = pazaak.new_match(table, 1, SIDE_CARDS, 2, SIDE_CARDS[::-1], rng)
    yield state
    while not pazaak.is_over(state):
        moves = [a for a in pazaak.legal_actions(state) if not isinstance(a, pazaak.Forfeit)]
        move = rng.choice(moves) if state.set_number <= 8 else pazaak.Forfeit(1)
        state, _ = pazaak.apply(state, move, rng)
        yield state


def pegaz_midgame(seed: int = 5) -> pegaz.PegazState:
    """A game in its exchange rounds, with a seat to play."""
    for state, _ in pegaz_game(seed):
        if state.phase is pegaz.Phase.EXCHANGE and pegaz.whose_turn(state) is not None:
            return state
    raise AssertionError("the game never reached an exchange")


def pazaak_midset() -> pazaak.PazaakState:
    """A set with three cards or more on each table and two or more left in each hand."""
    for seed in range(100):
        for state in pazaak_match(seed):
            if state.current_player is not None and all(
                len(p.table) >= 3 and len(set(p.hand)) >= 2 for p in state.players
            ):
                return state
    raise AssertionError("no set went that far")


# --- what an image is ---------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_every_kind_is_a_legible_png(lang: Lang) -> None:
    state = pegaz_midgame()
    turn = pegaz.whose_turn(state)
    assert turn is not None
    check = pegaz.Checked(1, 2, 30, (6, 6, 2), (5, 4, 1), (2,))
    match = pazaak_midset()
    drawn = [
        pegaz_images.table(pegaz.view(state, None), NAMES, lang, table_id=7),
        pegaz_images.hand(pegaz.view(state, turn), lang, table_id=7),
        pegaz_images.check(check, 6, NAMES, lang),
        pazaak_images.board(pazaak.view(match, None), NAMES, lang),
        pazaak_images.hand(pazaak.view(match, 1), NAMES, lang),
    ]
    for image in drawn:
        legible(image)


def test_an_eight_seat_table_stays_legible() -> None:
    state = next(s for s, _ in pegaz_game(3, seats=8, die=20) if s.round >= 2)
    assert len(state.seats) == pegaz.MAX_SEATS
    picture = legible(pegaz_images.table(pegaz.view(state, None), NAMES, "pl", table_id=1))
    assert picture.height <= picture.width


def test_the_same_state_gives_the_same_bytes_even_from_cold_caches() -> None:
    state, match = pegaz_midgame(), pazaak_midset()
    turn = pegaz.whose_turn(state)
    assert turn is not None

    def draw_all() -> list[bytes]:
        return [
            pegaz_images.table(pegaz.view(state, None), NAMES, "pl", table_id=7),
            pegaz_images.hand(pegaz.view(state, turn), "pl", table_id=7),
            pazaak_images.board(pazaak.view(match, None), NAMES, "pl"),
            pazaak_images.hand(pazaak.view(match, 2), NAMES, "pl"),
        ]

    first = draw_all()
    for cached in (pegaz_images.creature_card, pazaak_images.side_card, pazaak_images.table_card):
        cached.cache_clear()
    draw.fitted.cache_clear()
    assert draw_all() == first


def test_different_states_give_different_images() -> None:
    states = [s for s, _ in pegaz_game(11)]
    tables = {pegaz_images.table(pegaz.view(s, None), NAMES, "en", table_id=7) for s in states}
    assert len(tables) > len(states) // 2  # most steps change what the table shows
    seen = pegaz.view(states[-1], 1)
    hands = {
        pegaz_images.hand(dataclasses.replace(seen, hand=hand), "en", table_id=7)
        for hand in ((1, 2, 3), (1, 2, 4), (4, 2, 1), (6, 6, 6))
    }
    assert len(hands) == 4  # order counts too: the cards are numbered for the buttons
    boards = {pazaak_images.board(pazaak.view(s, None), NAMES, "en") for s in pazaak_match(2)}
    assert len(boards) > 10
    a, b = (pegaz.Checked(1, 2, 30, (6, 6, 2), (5, 4, 1), out) for out in ((2,), (1,)))
    assert pegaz_images.check(a, 6, NAMES, "en") != pegaz_images.check(b, 6, NAMES, "en")


def test_both_languages_draw_their_own_names() -> None:
    state = pegaz_midgame()
    seen = pegaz.view(state, 1)
    assert pegaz_images.hand(seen, "en", table_id=7) != pegaz_images.hand(seen, "pl", table_id=7)
    match = pazaak.view(pazaak_midset(), None)
    assert pazaak_images.board(match, NAMES, "en") != pazaak_images.board(match, NAMES, "pl")


def test_the_font_draws_polish_letters() -> None:
    if images.font_source() == "built-in":
        pytest.skip("no DejaVu Sans on this machine: the built-in font has no Polish letters")
    face = draw.font(24)
    missing = bytes(face.getmask("\U000f0000"))
    for letter in "ąćęłńóśźżĄĆĘŁŃÓŚŹŻ±\u2212":
        assert bytes(face.getmask(letter)) != missing, letter


def test_long_names_and_emoji_are_cut_to_fit_not_overflowing() -> None:
    names = {p: "Wielmożny " * 12 + "🐉" for p in range(1, 9)}
    state = pegaz_midgame()
    legible(pegaz_images.table(pegaz.view(state, None), names, "pl", table_id=10**12))
    legible(pazaak_images.board(pazaak.view(pazaak_midset(), None), names, "pl"))
    words, face = draw.fitted("Wielmożny " * 12, 200, 24)
    assert words.endswith("\u2026") and face.getlength(words) <= 200


def test_every_creature_has_its_own_colour_and_glyph() -> None:
    ids = {c.id for die in pegaz.DICE for c in pegaz.creatures(die)}
    assert ids == set(glyphs.COLOURS) == set(glyphs.DRAW)
    assert len(set(glyphs.COLOURS.values())) == len(ids)
    marks = {glyphs.glyph(c, 64).tobytes() for c in ids}
    assert len(marks) == len(ids)


# --- nothing hidden -----------------------------------------------------------------------------


def _others_changed(state: pegaz.PegazState, viewer: int) -> pegaz.PegazState:
    seats = tuple(
        s
        if s.player == viewer
        else dataclasses.replace(
            s,
            hand=tuple(1 + f % 6 for f in s.hand),
            dealt=tuple(1 + f % 6 for f in s.dealt),
            fresh=(),
            cheat=None,
        )
        for s in state.seats
    )
    return dataclasses.replace(state, seats=seats, deck=state.deck[::-1])


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6))
def test_a_seat_sees_the_same_pictures_whatever_the_others_hold(seed: int) -> None:
    changed = 0
    for step, (state, _) in enumerate(pegaz_game(seed, seats=3, source="deck")):
        if step % 3 or not state.seats:
            continue
        hidden = _others_changed(state, 1)
        changed += hidden.seats != state.seats
        mine = [pegaz.view(s, 1) for s in (state, hidden)]
        tables = {pegaz_images.table(v, NAMES, "en", table_id=1) for v in mine}
        tables.add(pegaz_images.table(pegaz.view(state, None), NAMES, "en", table_id=1))
        assert len(tables) == 1  # nor does the table depend on who looks
        hands = {pegaz_images.hand(v, "en", table_id=1) for v in mine}
        assert len(hands) == 1
    assert changed  # the others' cards did differ


def test_a_pazaak_player_sees_the_same_pictures_whatever_the_other_holds() -> None:
    match = pazaak_midset()
    a, b = match.players
    swapped = tuple(reversed(b.hand))
    assert swapped != b.hand
    hidden = dataclasses.replace(
        match,
        players=(a, dataclasses.replace(b, hand=swapped, selection=b.selection[::-1])),
        pool=match.pool[::-1],
    )
    for viewer in (None, a.id):
        assert pazaak_images.board(pazaak.view(match, viewer), NAMES, "pl") == (
            pazaak_images.board(pazaak.view(hidden, viewer), NAMES, "pl")
        )
    assert pazaak_images.hand(pazaak.view(match, a.id), NAMES, "pl") == (
        pazaak_images.hand(pazaak.view(hidden, a.id), NAMES, "pl")
    )
    assert pazaak_images.hand(pazaak.view(match, b.id), NAMES, "pl") != (
        pazaak_images.hand(pazaak.view(hidden, b.id), NAMES, "pl")
    )  # the test can fail: b's own hand is drawn


def test_a_spectator_has_no_hand_to_draw() -> None:
    with pytest.raises(ValueError):
        pegaz_images.hand(pegaz.view(pegaz_midgame(), None), "en", table_id=1)
    with pytest.raises(ValueError):
        pazaak_images.hand(pazaak.view(pazaak_midset(), None), NAMES, "en")


# --- every state of random games ----------------------------------------------------------------


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 10**6),
    st.integers(2, 8),
    st.sampled_from(pegaz.DICE),
    st.sampled_from(["dice", "deck"]),
    st.sampled_from(LANGS),
)
def test_every_state_of_a_random_pegaz_game_renders(
    seed: int, seats: int, die: int, source: str, lang: Lang
) -> None:
    rng = random.Random(seed)
    for state, events in pegaz_game(seed, seats, die, source):
        legible(pegaz_images.table(pegaz.view(state, None), NAMES, lang, table_id=seed))
        if state.seats:
            seat = rng.choice(state.seats).player
            legible(pegaz_images.hand(pegaz.view(state, seat), lang, table_id=seed))
        for checked in (e for e in events if isinstance(e, pegaz.Checked)):
            legible(pegaz_images.check(checked, die, NAMES, lang))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.sampled_from(LANGS))
def test_every_state_of_a_random_pazaak_match_renders(seed: int, lang: Lang) -> None:
    for step, state in enumerate(pazaak_match(seed, sets=1)):
        legible(pazaak_images.board(pazaak.view(state, None), NAMES, lang))
        viewer = state.players[step % 2].id
        legible(pazaak_images.hand(pazaak.view(state, viewer), NAMES, lang))


# --- the cache ----------------------------------------------------------------------------------


def key(version: int, kind: images.Kind = "pegaz_table") -> images.ImageKey:
    return images.ImageKey(table=1, version=version, viewer=None, lang="en", kind=kind)


def test_the_cache_is_a_bounded_lru() -> None:
    cache = images.ImageCache(2)
    cache.put(key(1), b"one")
    cache.put(key(2), b"two")
    assert cache.get(key(1)) == b"one"  # now the most recent
    cache.put(key(3), b"three")
    assert len(cache) == 2 and cache.get(key(2)) is None
    assert cache.get(key(1)) == b"one" and cache.get(key(3)) == b"three"
    assert cache.get(key(3, "pazaak_board")) is None  # the kind is part of the key
    with pytest.raises(ValueError):
        images.ImageCache(0)


async def test_render_async_draws_once_off_the_loop_and_then_hits() -> None:
    cache = images.ImageCache()
    loop_thread = threading.get_ident()
    drawn: list[int] = []
    release = threading.Event()

    def slow() -> bytes:
        drawn.append(threading.get_ident())
        release.wait(5)
        return b"png"

    first = asyncio.create_task(images.render_async(cache, key(1), slow))
    second = asyncio.create_task(images.render_async(cache, key(1), slow))
    await asyncio.sleep(0.05)
    release.set()
    assert await first == await second == b"png"
    assert len(drawn) == 1 and drawn[0] != loop_thread
    assert await images.render_async(cache, key(1), slow) == b"png" and len(drawn) == 1


async def test_a_failed_drawing_is_not_kept_and_a_cancelled_caller_does_not_stop_it() -> None:
    cache = images.ImageCache()

    def broken() -> bytes:
        raise RuntimeError("no")

    with pytest.raises(RuntimeError):
        await images.render_async(cache, key(1), broken)
    assert cache.get(key(1)) is None and not cache.drawing
    release = threading.Event()

    def slow() -> bytes:
        release.wait(5)
        return b"late"

    impatient = asyncio.create_task(images.render_async(cache, key(2), slow))
    await asyncio.sleep(0.02)
    impatient.cancel()
    waiting = asyncio.create_task(images.render_async(cache, key(2), slow))
    await asyncio.sleep(0.02)
    release.set()
    assert await waiting == b"late" and cache.get(key(2)) == b"late"
