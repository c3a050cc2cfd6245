"""Three-Card Pegasus as pictures: a hand, a check's two hands, the table.

Each function takes what its viewer may know (a :class:`~bot.rules.pegaz.PegazView`, or the
public :class:`~bot.rules.pegaz.Checked`) and returns PNG bytes. The table never reads the
viewer's own cards, so one picture serves every seat and the spectators.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.i18n import Lang, t
from bot.render.images import glyphs
from bot.render.images.draw import (
    BACKGROUND,
    FELT,
    GOLD,
    HIGHLIGHT,
    INK,
    MUTED,
    Names,
    canvas,
    card_back,
    font,
    name_of,
    plain,
    png,
    shade,
    text,
    wrapped,
)
from bot.render.pegaz import comparison, creature_name, hand_name, money
from bot.rules import pegaz

MARGIN = 20


@lru_cache(maxsize=96)  # a d20 in both languages at both sizes; ~25 MiB at most
def creature_card(die: int, face: int, lang: Lang, width: int) -> Image.Image:
    """One face-up card: the creature's colour and glyph, its face value in two corners and its
    name in ``lang`` on a band at the foot. Height is 1.4 x ``width``."""
    height = round(width * 1.4)
    base = glyphs.colour(pegaz.creature(die, face).id)
    card = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(card)
    radius = max(6, width // 14)
    draw.rounded_rectangle(
        (0, 0, width - 1, height - 1), radius, fill=base, outline=shade(base, 1.5), width=3
    )
    band = round(height * 0.78)
    draw.rectangle((3, band, width - 4, height - radius), fill=shade(base, 0.6))
    draw.rounded_rectangle(
        (3, band, width - 4, height - 4),
        radius - 2,
        fill=shade(base, 0.6),
        corners=(False, False, True, True),
    )
    art = round(width * 0.74)
    mark = glyphs.glyph(pegaz.creature(die, face).id, art)
    card.alpha_composite(mark, ((width - art) // 2, round(height * 0.13)))
    corner = font(max(14, width // 6), bold=True)
    inset = max(8, width // 16)
    draw.text((inset, inset - 2), str(face), font=corner, fill=glyphs.INK, anchor="la")
    draw.text((width - inset, band - 4), str(face), font=corner, fill=glyphs.INK, anchor="rd")
    size = max(14, width // 9)
    name = creature_name(die, face, lang)
    lines = wrapped(name, width - 2 * inset, size, 2, bold=True)
    if len(lines) > 1:
        size = max(12, size * 4 // 5)
        lines = wrapped(name, width - 2 * inset, size, 2, bold=True)
    middle = (band + height - 4) / 2
    step = size * 1.1
    for i, line in enumerate(lines):
        y = middle + (i - (len(lines) - 1) / 2) * step
        draw.text((width / 2, y), line, font=font(size, True), fill=glyphs.INK, anchor="mm")
    return card


def _hand_row(
    image: Image.Image,
    die: int,
    hand: Sequence[int],
    lang: Lang,
    x: int,
    y: int,
    width: int,
    gap: int,
) -> None:
    for i, face in enumerate(hand):
        card = creature_card(die, face, lang, width)
        image.paste(card, (x + i * (width + gap), y), card)


# --- a hand -------------------------------------------------------------------------------------

HAND_CARD = 220
HAND_GAP = 30
HAND_WIDTH = 3 * HAND_CARD + 2 * HAND_GAP + 2 * MARGIN


def hand(view: pegaz.PegazView, lang: Lang, *, table_id: int) -> bytes:
    """The viewer's three cards (a secret: for their DM or ephemeral message), new ones tagged,
    with the hand's kind; a seat out of cards gets a line saying why."""
    if view.viewer is None:
        raise ValueError("a spectator holds no hand")
    card_h = round(HAND_CARD * 1.4)
    top = 84
    height = top + card_h + 36 + 56
    image = canvas(HAND_WIDTH, height)
    draw = ImageDraw.Draw(image)
    title = plain(t(lang, "pegaz.hand.title", table=table_id))
    text(draw, (MARGIN, 22), title, width=HAND_WIDTH - 2 * MARGIN, size=30, bold=True)
    die = view.settings.die
    if not view.hand:
        expelled = view.seat(view.viewer).status is pegaz.SeatStatus.EXPELLED
        words = plain(t(lang, "pegaz.hand.expelled" if expelled else "pegaz.hand.none"))
        back = card_back(HAND_CARD, card_h, 14)
        for i in range(3):
            image.paste(back, (MARGIN + i * (HAND_CARD + HAND_GAP), top), back)
        veil = Image.new("RGBA", (HAND_WIDTH, card_h), (*BACKGROUND, 140))
        image.paste(veil, (0, top), veil)
        lines = wrapped(words, HAND_WIDTH - 6 * MARGIN, 28, 4)
        middle = top + card_h / 2
        half = len(lines) * 19 + 18
        panel = (2 * MARGIN, middle - half, HAND_WIDTH - 2 * MARGIN, middle + half)
        draw.rounded_rectangle(panel, 14, fill=BACKGROUND, outline=MUTED, width=2)
        for i, line in enumerate(lines):
            y = middle + (i - (len(lines) - 1) / 2) * 38
            draw.text((HAND_WIDTH / 2, y), line, font=font(28), fill=INK, anchor="mm")
        return png(image)
    _hand_row(image, die, view.hand, lang, MARGIN, top, HAND_CARD, HAND_GAP)
    if view.pending:
        new = plain(t(lang, "pegaz.hand.new"))
        for i in view.fresh:
            cx = MARGIN + i * (HAND_CARD + HAND_GAP) + HAND_CARD // 2
            box = (cx - 60, top - 18, cx + 60, top + 14)
            draw.rounded_rectangle(box, 10, fill=HIGHLIGHT)
            text(
                draw,
                (cx, top - 2),
                new,
                width=110,
                size=22,
                fill=(40, 30, 10),
                bold=True,
                anchor="mm",
            )
    kind = plain(t(lang, "pegaz.hand.kind", kind=hand_name(die, view.hand, lang)))
    y = top + card_h + 24 + 14
    text(
        draw,
        (HAND_WIDTH / 2, y),
        kind,
        width=HAND_WIDTH - 2 * MARGIN,
        size=30,
        fill=GOLD,
        bold=True,
        anchor="mm",
    )
    return png(image)


# --- a check ------------------------------------------------------------------------------------

CHECK_CARD = 124
CHECK_GAP = 10
CHECK_PANEL = 3 * CHECK_CARD + 2 * CHECK_GAP
CHECK_WIDTH = 2 * CHECK_PANEL + 3 * MARGIN + 20


def check(event: pegaz.Checked, die: int, names: Names, lang: Lang) -> bytes:
    """A check shown to the table: both hands side by side under their names, the loser's
    dimmed, and why one beat the other (all of it public once the check is made)."""
    card_h = round(CHECK_CARD * 1.4)
    height = 24 + 44 + card_h + 48 + 84
    image = canvas(CHECK_WIDTH, height)
    draw = ImageDraw.Draw(image)
    top = 24 + 44
    sides = ((event.player, event.player_hand), (event.target, event.target_hand))
    for i, (player, cards) in enumerate(sides):
        x = MARGIN + i * (CHECK_PANEL + MARGIN + 20)
        out = player in event.out
        colour = MUTED if out else INK
        text(
            draw,
            (x, 24),
            name_of(names, player),
            width=CHECK_PANEL,
            size=28,
            fill=colour,
            bold=True,
        )
        _hand_row(image, die, cards, lang, x, top, CHECK_CARD, CHECK_GAP)
        if out:
            veil = Image.new("RGBA", (CHECK_PANEL, card_h), (20, 16, 14, 150))
            image.paste(veil, (x, top), veil)
        kind = hand_name(die, cards, lang)
        text(
            draw,
            (x + CHECK_PANEL / 2, top + card_h + 24),
            kind,
            width=CHECK_PANEL,
            size=24,
            fill=MUTED if out else GOLD,
            bold=True,
            anchor="mm",
        )
    middle = MARGIN + CHECK_PANEL + (MARGIN + 20) / 2
    draw.text((middle, top + card_h / 2), "\u00d7", font=font(36, True), fill=GOLD, anchor="mm")
    verdict = plain(_verdict(event, die, names, lang))
    y = top + card_h + 56
    for i, line in enumerate(wrapped(verdict, CHECK_WIDTH - 2 * MARGIN, 24, 2)):
        draw.text((CHECK_WIDTH / 2, y + 14 + i * 32), line, font=font(24), fill=INK, anchor="mm")
    return png(image)


def _verdict(event: pegaz.Checked, die: int, names: Names, lang: Lang) -> str:
    """Why the check went as it did, and who is out (as the channel's text says it)."""
    verdict = comparison(die, event.player_hand, event.target_hand, lang)
    if len(event.out) == 1:
        verdict += " " + t(lang, "pegaz.ev.check_out", name=name_of(names, event.out[0]))
    return verdict


# --- the table ----------------------------------------------------------------------------------

TABLE_WIDTH = 840
ROW = 60
BACK_W = 30


def status(view: pegaz.PegazView, names: Names, lang: Lang, cheater: int | None) -> str:
    """What the table waits for, from what everyone knows (as the table message's status)."""
    phase = view.phase
    if phase is pegaz.Phase.SEATING:
        stake = money(view.settings.stake, lang)
        return t(
            lang, "pegaz.status.seating", seated=len(view.seats), max=pegaz.MAX_SEATS, stake=stake
        )
    if phase is pegaz.Phase.CANCELLED:
        return t(lang, "pegaz.status.cancelled")
    if phase in (pegaz.Phase.OFFERING, pegaz.Phase.FINISHED):
        won = [s for s in view.seats if s.won]
        lines = [
            t(lang, "pegaz.status.winner", name=name_of(names, s.player), amount=money(s.won, lang))
            for s in won
        ] or [t(lang, "pegaz.status.rolled_over", amount=money(view.pot, lang))]
        if view.offers:
            who = ", ".join(name_of(names, p) for p in view.offers)
            lines.append(t(lang, "pegaz.status.offering", names=who))
        elif phase is pegaz.Phase.FINISHED:
            lines.append(t(lang, "pegaz.status.finished"))
        return " ".join(lines)
    if view.ruling and cheater is not None:
        return t(lang, "pegaz.status.ruling", name=name_of(names, cheater))
    choosing = ", ".join(name_of(names, s.player) for s in view.seats if s.choosing)
    if phase is pegaz.Phase.MODIFIERS:
        return t(lang, "pegaz.status.modifiers", names=choosing)
    if view.turn is None:
        return t(lang, "pegaz.status.new_cards", names=choosing)
    turn = name_of(names, view.turn)
    if phase is pegaz.Phase.CHECKS:
        return t(lang, "pegaz.status.checks", name=turn)
    key = "pegaz.status.exchange_checks" if view.checks_allowed else "pegaz.status.exchange"
    rounds = view.settings.exchanges
    of = t(lang, "pegaz.status.of", rounds=rounds) if rounds is not None else ""
    return t(lang, key, round=view.round, of=of, name=turn)


def _seat_state(view: pegaz.PegazView, seat: pegaz.SeatView, lang: Lang) -> str:
    if seat.won:
        return t(lang, "pegaz.seat.won", amount=money(seat.won, lang))
    if view.phase is pegaz.Phase.SEATING:
        return ""
    if seat.status is pegaz.SeatStatus.ACTIVE:
        return t(lang, "pegaz.seat.choosing" if seat.choosing else "pegaz.seat.active")
    return t(lang, f"pegaz.seat.{seat.status.value}")


def table(
    view: pegaz.PegazView,
    names: Names,
    lang: Lang,
    *,
    table_id: int,
    cheater: int | None = None,
) -> bytes:
    """The table for everyone: each seat's name, what it paid, where it stands and its cards
    face down, the pot and the stake, and whose turn it is (highlighted). ``cheater`` names the
    seat a pending GM ruling is about (public, from the ``Caught`` event)."""
    seats = max(1, len(view.seats))
    head = 156
    height = head + seats * ROW + MARGIN
    image = canvas(TABLE_WIDTH, height)
    draw = ImageDraw.Draw(image)
    inner = TABLE_WIDTH - 2 * MARGIN
    title = plain(t(lang, "pegaz.table.title", table=table_id))
    text(draw, (MARGIN, 16), title, width=inner // 2, size=30, bold=True)
    pot = f"{plain(t(lang, 'pegaz.table.pot'))}: {money(view.pot, lang)}"
    text(
        draw,
        (TABLE_WIDTH - MARGIN, 16),
        pot,
        width=inner // 2,
        size=30,
        fill=GOLD,
        bold=True,
        anchor="ra",
    )
    stake = f"{plain(t(lang, 'pegaz.table.stake'))}: {money(view.stake, lang)}"
    if view.deck_left is not None:
        stake += f" \u00b7 {plain(t(lang, 'pegaz.table.deck'))}: {view.deck_left}"
    text(
        draw, (TABLE_WIDTH - MARGIN, 54), stake, width=inner // 2, size=22, fill=MUTED, anchor="ra"
    )
    words = plain(status(view, names, lang, cheater))
    for i, line in enumerate(wrapped(words, inner, 22, 2)):
        draw.text((MARGIN, 92 + i * 28), line, font=font(22), fill=INK, anchor="la")
    if not view.seats:
        text(
            draw,
            (MARGIN, head + 14),
            plain(t(lang, "pegaz.table.nobody")),
            width=inner,
            size=24,
            fill=MUTED,
        )
    for i, seat in enumerate(view.seats):
        _seat_row(image, view, seat, i, head + i * ROW, names, lang)
    return png(image)


def _seat_row(
    image: Image.Image,
    view: pegaz.PegazView,
    seat: pegaz.SeatView,
    index: int,
    y: int,
    names: Names,
    lang: Lang,
) -> None:
    draw = ImageDraw.Draw(image)
    on_turn = seat.player == view.turn
    out = seat.status is not pegaz.SeatStatus.ACTIVE
    box = (MARGIN, y + 4, TABLE_WIDTH - MARGIN, y + ROW - 4)
    draw.rounded_rectangle(
        box,
        10,
        fill=shade(FELT, 1.25) if on_turn else FELT,
        outline=HIGHLIGHT if on_turn else None,
        width=3,
    )
    colour = MUTED if out else INK
    mid = y + ROW / 2
    draw.text((MARGIN + 26, mid), str(index + 1), font=font(24, True), fill=GOLD, anchor="mm")
    text(
        draw,
        (MARGIN + 48, mid),
        name_of(names, seat.player),
        width=300,
        size=26,
        fill=colour,
        bold=True,
        anchor="lm",
    )
    paid = plain(t(lang, "pegaz.seat.paid", amount=money(seat.paid, lang)))
    state = plain(_seat_state(view, seat, lang))
    y_paid = mid - 11 if state else mid
    text(draw, (MARGIN + 360, y_paid), paid, width=190, size=20, fill=colour, anchor="lm")
    fill = GOLD if seat.won else HIGHLIGHT if on_turn else MUTED
    text(draw, (MARGIN + 360, mid + 12), state, width=190, size=20, fill=fill, anchor="lm")
    right = TABLE_WIDTH - MARGIN - 16
    back = card_back(BACK_W, ROW - 18, 5)
    for k in range(seat.cards):
        x1 = right - k * (BACK_W + 8)
        image.paste(back, (x1 - BACK_W, y + 9), back)
