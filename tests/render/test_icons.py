"""The bot's own emojis in the text renders (``bot.render.icons``): each card keeps its name,
a missing emoji falls back to Unicode (or nothing), and the longest texts still fit Discord's
limits with the longest emoji mentions."""

from __future__ import annotations

from typing import get_args

from hypothesis import given
from hypothesis import strategies as st

from bot.i18n import LANGS, Lang
from bot.render import pazaak as render_pazaak
from bot.render.icons import MENTION_MAX, NO_ICONS, card_emoji_name, creature_emoji_name
from bot.render.limits import CONTENT_MAX, DESCRIPTION_MAX, FIELD_VALUE_MAX
from bot.render.pegaz import card, cards, creature_name, iconed
from bot.rules import pazaak, pegaz
from bot.rules.pazaak import TableCard
from bot.rules.pazaak.cards import CardKind

LONGEST_ID = "9" * (MENTION_MAX - 4 - 32)


def mention(name: str) -> str:
    return f"<:{name.ljust(32, 'x')}:{LONGEST_ID}>"


def all_icons() -> dict[str, str]:
    creatures = {c.id for die in pegaz.DICE for c in pegaz.creatures(die)}
    kinds = get_args(CardKind)
    found = {creature_emoji_name(c): mention(creature_emoji_name(c)) for c in creatures}
    return found | {card_emoji_name(k): mention(card_emoji_name(k)) for k in kinds}


@given(
    st.sampled_from(pegaz.DICE).flatmap(
        lambda die: st.tuples(st.just(die), st.lists(st.integers(1, die), min_size=1, max_size=6))
    ),
    st.sampled_from(LANGS),
)
def test_iconed_swaps_the_unicode_emoji_and_keeps_every_name(
    hand: tuple[int, list[int]], lang: Lang
) -> None:
    die, faces = hand
    text = cards(die, faces, lang)
    shown = iconed(text, die, lang, all_icons())
    assert iconed(text, die, lang, NO_ICONS) == text
    for face in faces:
        c = pegaz.creature(die, face)
        assert f"{mention(creature_emoji_name(c.id))} {creature_name(die, face, lang)}" in shown
        assert c.emoji not in shown or c.emoji in creature_name(die, face, lang)
    only = {creature_emoji_name(pegaz.creature(die, faces[0]).id): "<:pg:1>"}
    partly = iconed(text, die, lang, only)  # a refused upload: that creature alone
    assert partly.startswith("<:pg:1> ") and partly.count("<:") == faces.count(faces[0])


def test_the_longest_texts_fit_with_the_longest_mentions() -> None:
    icons = all_icons()
    for lang in LANGS:
        for die in pegaz.DICE:
            worst = max(range(1, die + 1), key=lambda f: len(card(die, f, lang)))
            six = iconed(cards(die, [worst] * 6, lang), die, lang, icons)  # a check's two hands
            assert len(six) * 2 < CONTENT_MAX
            assert len(iconed(card(die, worst, lang), die, lang, icons)) * 3 < DESCRIPTION_MAX
        side = [pazaak.parse_side_card(code) for code in ("+-1/2", "F24", "-6", "T")]
        table = [TableCard(10, None)] * 5 + [TableCard(s.values[0], s) for s in side]
        assert len(render_pazaak.table_text(table, lang, icons)) < FIELD_VALUE_MAX // 2
        text = render_pazaak.cards_text(side, lang, icons)
        assert text.count("<:pz_") == 4
        assert all(render_pazaak.card_label(s, lang) in text for s in side)  # the labels stay
