"""Pazaak as pictures: the board (both tables, totals, who stands, sets, whose turn) and a hand.

Both take a :class:`~bot.rules.pazaak.PazaakView`. The board reads only what the view shows
everyone (a hand only by its size), so it is the same for both players and the spectators; the
hand reads the viewer's own side cards, a secret for their DM or ephemeral message.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.i18n import Lang, t
from bot.render.images.draw import (
    FELT,
    GOLD,
    HIGHLIGHT,
    INK,
    MUTED,
    RGB,
    Names,
    canvas,
    card_back,
    fitted,
    font,
    name_of,
    plain,
    png,
    shade,
    text,
)
from bot.render.pazaak.cards import card_label, credits, number, signed
from bot.rules import pazaak
from bot.rules.pazaak import SideCard, TableCard
from bot.rules.pazaak.cards import CardKind
from bot.rules.pazaak.state import NINE_CARDS, TARGET

MARGIN = 20
MAIN: RGB = (58, 124, 70)
"""A main-deck card: green, as a Pazaak table's own cards are."""
PLUS: RGB = (40, 96, 176)
MINUS: RGB = (176, 46, 46)
KINDS: dict[CardKind, RGB] = {
    "plus": PLUS,
    "minus": MINUS,
    "plus_minus": PLUS,
    "double": (26, 128, 140),
    "tiebreaker": (206, 136, 26),
    "flip24": (116, 66, 168),
    "flip36": (116, 66, 168),
    "pm12": (186, 80, 146),
}
"""Side cards coloured by kind; a ±N card is split blue over red."""
BUST: RGB = (236, 96, 86)


def _face(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], colour: RGB, split: bool
) -> None:
    x0, y0, x1, y1 = box
    radius = max(6, (x1 - x0) // 10)
    draw.rounded_rectangle(box, radius, fill=colour, outline=shade(colour, 1.55), width=3)
    if split:
        draw.rounded_rectangle(
            (x0 + 3, (y0 + y1) // 2, x1 - 3, y1 - 3),
            radius - 2,
            fill=MINUS,
            corners=(False, False, True, True),
        )
        draw.rectangle((x0 + 3, (y0 + y1) // 2, x1 - 3, (y0 + y1) // 2 + radius), fill=MINUS)


def _label(
    draw: ImageDraw.ImageDraw, words: str, centre: tuple[float, float], width: int, size: int
) -> None:
    """A card's label, centred: one line, or two (``Flip`` over ``2&4``) at one size that fits."""
    lines = [words]
    if " " in words and font(size, True).getlength(words) > width:
        lines = words.split(" ", 1)
    size = min(int(fitted(line, width, size, True, smallest=10)[1].size) for line in lines)
    step = size * 1.05
    for i, line in enumerate(lines):
        y = centre[1] + (i - (len(lines) - 1) / 2) * step
        text(
            draw,
            (centre[0], y),
            line,
            width=width,
            size=size,
            bold=True,
            anchor="mm",
            smallest=size,
        )


@lru_cache(maxsize=64)  # every side card in both languages
def side_card(card: SideCard, lang: Lang, width: int) -> Image.Image:
    """A side card face up, 1.4 x ``width`` high, coloured by its kind, with its label."""
    height = round(width * 1.4)
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    _face(draw, (0, 0, width - 1, height - 1), KINDS[card.kind], card.kind == "plus_minus")
    _label(draw, card_label(card, lang), (width / 2, height / 2), width - 14, width * 2 // 5)
    return image


@lru_cache(maxsize=256)
def table_card(card: TableCard, lang: Lang, width: int) -> Image.Image:
    """A card on a table: a main-deck card green with its value; a side card in its colour with
    its label, and the value it counts underneath when its face does not say it."""
    height = round(width * 1.4)
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    box = (0, 0, width - 1, height - 1)
    if card.side is None:
        _face(draw, box, MAIN, False)
        _label(draw, number(card.value), (width / 2, height / 2), width - 10, width // 2)
        return image
    _face(draw, box, KINDS[card.side.kind], card.side.kind == "plus_minus")
    plain_face = card.side.values == (card.value,)
    middle = height / 2 if plain_face else height * 0.4
    _label(draw, card_label(card.side, lang), (width / 2, middle), width - 10, width * 2 // 5)
    if not plain_face:
        tag = (6, round(height * 0.66), width - 7, height - 8)
        draw.rounded_rectangle(tag, 6, fill=(24, 20, 18))
        text(
            draw,
            (width / 2, (tag[1] + tag[3]) / 2),
            signed(card.value),
            width=width - 16,
            size=width // 3,
            fill=GOLD,
            bold=True,
            anchor="mm",
        )
    return image


# --- the board ----------------------------------------------------------------------------------

BOARD_WIDTH = 860
SLOT = 78
SLOT_GAP = 10
SLOTS = NINE_CARDS
BAND = 50 + round(SLOT * 1.4) + 24
HEAD = 92
MAX_PIPS = 5
"""Sets to win drawn as pips up to this; beyond, the heading's numbers say it alone."""


def board(view: pazaak.PazaakView, names: Names, lang: Lang) -> bytes:
    """The board for everyone: per player the cards on the table, the total (red once over 20),
    the sets won as pips, the hand as card backs, and who stands or is to play."""
    height = HEAD + 2 * BAND + MARGIN
    image = canvas(BOARD_WIDTH, height)
    draw = ImageDraw.Draw(image)
    inner = BOARD_WIDTH - 2 * MARGIN
    a, b = view.seats
    title = plain(
        t(lang, "pazaak.board.title", a=name_of(names, a.player), b=name_of(names, b.player))
    )
    text(draw, (MARGIN, 14), title, width=inner, size=28, bold=True)
    if view.winner is not None:
        status = plain(t(lang, "pazaak.hand.over", name=name_of(names, view.winner)))
    else:
        pot = credits(view.pot, lang)
        status = plain(t(lang, "pazaak.board.status", set=view.set_number, pot=pot))
    text(draw, (MARGIN, 52), status, width=inner, size=24, fill=GOLD, bold=True)
    for i, seat in enumerate(view.seats):
        _band(image, draw, view, seat, HEAD + i * BAND, names, lang)
    return png(image)


def _band(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: pazaak.PazaakView,
    seat: pazaak.SeatView,
    y: int,
    names: Names,
    lang: Lang,
) -> None:
    on_turn = seat.player == view.current_player
    box = (MARGIN, y, BOARD_WIDTH - MARGIN, y + BAND - 10)
    draw.rounded_rectangle(
        box,
        12,
        fill=shade(FELT, 1.2) if on_turn else FELT,
        outline=HIGHLIGHT if on_turn else None,
        width=3,
    )
    left = MARGIN + 14
    need = view.settings.sets_to_win
    heading = plain(
        t(
            lang,
            "pazaak.board.seat",
            name=name_of(names, seat.player),
            sets=seat.sets_won,
            need=need,
        )
    )
    text(draw, (left, y + 12), heading, width=296, size=24, bold=True)
    pips = need <= MAX_PIPS
    if pips:
        for k in range(need):
            cx, cy = left + 318 + k * 22, y + 26
            won = k < seat.sets_won
            draw.ellipse(
                (cx - 8, cy - 8, cx + 8, cy + 8), fill=GOLD if won else None, outline=GOLD, width=2
            )
    tag = ""
    if seat.standing:
        tag = t(lang, "pazaak.board.standing")
    elif on_turn:
        tag = t(lang, "pazaak.board.on_turn")
    right = BOARD_WIDTH - MARGIN - 14
    total = plain(t(lang, "pazaak.board.total", total=number(seat.total)))
    colour = BUST if seat.total > TARGET else GOLD if seat.total == TARGET else INK
    text(draw, (right, y + 10), total, width=190, size=28, fill=colour, bold=True, anchor="ra")
    if tag:
        text(
            draw,
            (right - 200, y + 14),
            plain(tag),
            width=120,
            size=22,
            fill=HIGHLIGHT if on_turn else MUTED,
            bold=True,
            anchor="ra",
        )
    top = y + 46
    card_h = round(SLOT * 1.4)
    for k in range(SLOTS):
        x = left + k * (SLOT + SLOT_GAP)
        if k < len(seat.table):
            card = table_card(seat.table[k], lang, SLOT)
            image.paste(card, (x, top), card)
        else:
            draw.rounded_rectangle(
                (x, top, x + SLOT, top + card_h), 8, outline=shade(FELT, 1.45), width=2
            )
    backs_x = left + 310 + (need * 22 + 10 if pips else 0)
    back = card_back(16, 30, 3)
    for k in range(seat.hand_size):
        x = backs_x + k * 20
        image.paste(back, (x, y + 10), back)


# --- a hand -------------------------------------------------------------------------------------

HAND_CARD = 150
HAND_GAP = 20
HAND_WIDTH = pazaak.HAND_SIZE * HAND_CARD + (pazaak.HAND_SIZE - 1) * HAND_GAP + 2 * MARGIN


def hand(view: pazaak.PazaakView, names: Names, lang: Lang) -> bytes:
    """The viewer's side cards still in hand (a secret), coloured by kind; a played card leaves
    an empty slot, so the picture keeps its size for the whole match."""
    if view.viewer is None:
        raise ValueError("a spectator holds no hand")
    other = next(s.player for s in view.seats if s.player != view.viewer)
    card_h = round(HAND_CARD * 1.4)
    height = 70 + card_h + MARGIN + 8
    image = canvas(HAND_WIDTH, height)
    draw = ImageDraw.Draw(image)
    title = plain(
        t(
            lang,
            "pazaak.hand.title",
            name=name_of(names, view.viewer),
            opponent=name_of(names, other),
        )
    )
    text(draw, (MARGIN, 20), title, width=HAND_WIDTH - 2 * MARGIN, size=28, bold=True)
    top = 70
    for k in range(pazaak.HAND_SIZE):
        x = MARGIN + k * (HAND_CARD + HAND_GAP)
        if k < len(view.hand):
            card = side_card(view.hand[k], lang, HAND_CARD)
            image.paste(card, (x, top), card)
            draw.text((x + 12, top + 8), str(k + 1), font=font(22, True), fill=INK)
        else:
            draw.rounded_rectangle(
                (x, top, x + HAND_CARD, top + card_h), 12, outline=MUTED, width=2
            )
    return png(image)
