"""The bot's own application emojis end to end: drawn and uploaded once at startup (those
already there are kept), used in the hand texts, the announcements, the Pazaak board and its
hand buttons, the names staying in the text; refused, the Unicode emoji stay and no upload is
tried twice."""

from __future__ import annotations

import re

import pytest

from bot.render.images.emojis import drawings
from tests.e2e.pazaak_support import seat_two
from tests.e2e.pegaz_kit import Tavern, hand_of
from tests.fakediscord import BotHarness, FakeDiscord

UPLOAD = "POST /applications/{application_id}/emojis"
LIST = "GET /applications/{application_id}/emojis"
CUSTOM = re.compile(r"<:(pg_[a-z_]+):(\d+)> (\w+)")
EMOJIS = pytest.mark.bot_settings(emojis=True)


@EMOJIS
async def test_the_emojis_are_uploaded_once_and_used_in_a_pegaz_hand(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    await harness.bot.emojis_ready()
    names = {e.name for e in fake.emojis()}
    assert names == set(drawings()) and len(names) == 28
    assert all(e.image.startswith(b"\x89PNG") for e in fake.emojis())

    tv = Tavern(fake, harness)
    ann = await tv.player("Ann")
    bob = await tv.player("Bob")
    await tv.started(ann, bob)
    cards = hand_of(tv.hand_dm(ann))
    assert len(cards) == 3
    by_id = {str(e.id): e.name for e in fake.emojis()}
    for shown in cards:
        found = CUSTOM.match(shown)
        assert found, shown  # the creature's own emoji, then its name (for screen readers)
        assert by_id[found[2]] == found[1]
        assert found[1].removeprefix("pg_").replace("_", " ") == found[3].lower()

    await harness.restart()  # they are there: listed, none uploaded again
    await harness.bot.emojis_ready()
    assert len(fake.requests(UPLOAD)) == 28 and len(fake.requests(LIST)) == 2
    assert len(fake.emojis()) == 28


@EMOJIS
async def test_a_pazaak_hand_shows_its_card_kinds(fake: FakeDiscord, harness: BotHarness) -> None:
    await harness.bot.emojis_ready()
    table = await seat_two(fake, harness)
    await table.open(wager="250 cr")
    dm = table.hand_dm("A")
    kinds = {e.id: e.name for e in fake.emojis() if e.name.startswith("pz_")}
    cards = [b for b in dm.buttons if ":card:" in b["custom_id"]]
    assert len(cards) == 4
    for card in cards:
        assert card["label"]  # the label (the card's code) stays
        assert int(card["emoji"]["id"]) in kinds
    text = str(dm.embeds[0]["description"])
    assert "<:pz_" in text  # each hand card after its kind's emoji


async def test_refused_uploads_leave_the_unicode_emoji(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    fake.refuse_emoji_uploads = True
    harness.settings = harness.settings.model_copy(
        update={"bot": harness.settings.bot.model_copy(update={"emojis": True})}
    )
    await harness.restart()
    await harness.bot.emojis_ready()
    assert fake.emojis() == [] and len(fake.requests(UPLOAD)) == 1  # no 403 in a loop

    tv = Tavern(fake, harness)
    ann = await tv.player("Ann")
    bob = await tv.player("Bob")
    await tv.started(ann, bob)
    cards = hand_of(tv.hand_dm(ann))
    assert len(cards) == 3 and not any("<:" in card for card in cards)
    assert all(re.match(r"\W+ \w+", card) for card in cards), cards  # the Unicode emoji, a name
