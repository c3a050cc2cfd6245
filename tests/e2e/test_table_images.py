"""Rendered table images end to end (``/settings images``): the board shows the table drawn,
each hand DM and "Show my hand" the seat's own cards, with the text complete beside them; off
(the default) no message carries an image. A hand's image goes to its own player only."""

from __future__ import annotations

import io

from PIL import Image

from tests.e2e.pazaak_support import seat_two, settle
from tests.e2e.pegaz_kit import Tavern
from tests.e2e.test_characters import say
from tests.fakediscord import MANAGE_GUILD, BotHarness, FakeDiscord, FakeMessage


def picture(fake: FakeDiscord, message: FakeMessage) -> tuple[str, bytes] | None:
    """The one image a message carries (its attachment, which its embed shows), or None."""
    if not message.attachments:
        assert not (message.embeds and message.embeds[0].get("image"))
        return None
    [attached] = message.attachments
    data = fake.state.files[int(attached["id"])]
    assert data.startswith(b"\x89PNG")
    with Image.open(io.BytesIO(data)) as image:
        assert image.width >= 600
    assert message.embeds[0]["image"]["url"].endswith(attached["filename"])
    return attached["filename"], data


async def test_a_pegaz_table_with_images_on_then_off(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann = await tv.player("Ann")
    bob = await tv.player("Bob")
    switched = await say(fake, tv.gm, "settings images", state="on")
    assert switched.content == "Tables here now show pictures of the cards beside the text."
    board = await tv.open()
    await tv.press(ann.user, board, "Join")
    await tv.press(bob.user, board, "Join")
    await tv.press(tv.gm, board, "Start")

    drawn = picture(fake, board)
    assert drawn is not None and drawn[0] == "pegaz_table.png"
    assert "Pot" in {f["name"] for f in board.embeds[0]["fields"]}  # the text stays
    ann_hand, bob_hand = picture(fake, tv.hand_dm(ann)), picture(fake, tv.hand_dm(bob))
    assert ann_hand is not None and bob_hand is not None
    assert ann_hand[0] == "pegaz_hand.png" and ann_hand[1] != bob_hand[1]
    shown = await tv.press(ann.user, board, "Show my hand")
    assert shown.ephemeral and picture(fake, shown) == ann_hand

    await tv.press(ann.user, board, "Fold")  # the board is drawn again, image and all
    redrawn = picture(fake, board)
    assert redrawn is not None and redrawn[1] != drawn[1]

    await say(fake, tv.gm, "settings images", state="off")
    second = await tv.open()
    await tv.press(ann.user, second, "Join")
    assert picture(fake, second) is None


async def test_a_pazaak_match_with_images_on_then_off_and_closed_dms(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness, bob_dms=False)
    gm = fake.add_player("Gunther", permissions=MANAGE_GUILD)
    await say(fake, gm, "settings images", state="on")
    board = await table.open(wager="250 cr")
    drawn = picture(fake, board)
    assert drawn is not None and drawn[0] == "pazaak_board.png"
    alice_hand = picture(fake, table.hand_dm("A"))
    assert alice_hand is not None and alice_hand[0] == "pazaak_hand.png"
    assert fake.dms(table.users["B"]) == []  # Bob's DMs are closed: he asks on the board

    asked = await fake.click(table.users["B"], board, "Show my hand")
    shown = await asked.reply()
    await settle(fake, harness, asked)
    bob_hand = picture(fake, shown)
    assert shown.ephemeral and bob_hand is not None and bob_hand[1] != alice_hand[1]

    before = drawn[1]
    state = (await table.services.tables.get(1)).state
    on_turn = "A" if state.current_player == table.characters["A"].id else "B"
    await table.play([(on_turn, "end")])
    after = picture(fake, board)
    assert after is not None and after[1] != before
    assert picture(fake, table.hand_dm("A")) == alice_hand  # the hand did not change

    await say(fake, gm, "settings images", state="off")  # mid-match: the next redraw is text
    state = (await table.services.tables.get(1)).state
    on_turn = "A" if state.current_player == table.characters["A"].id else "B"
    await table.play([(on_turn, "end")])
    assert picture(fake, board) is None and board.embeds[0]["fields"]


async def test_a_check_is_announced_with_both_hands_drawn(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann = await tv.player("Ann")
    bob = await tv.player("Bob")
    await say(fake, tv.gm, "settings images", state="on")
    board = await tv.open()
    await tv.press(ann.user, board, "Join")
    await tv.press(bob.user, board, "Join")
    await tv.press(tv.gm, board, "Start")
    for who in (ann, bob):  # round 1: each pays the stake and keeps the cards
        dialog = await fake.click(who.user, board, "Pay & exchange…")
        preview = await (await fake.submit_modal(who.user, dialog, {})).reply()
        await tv.press(who.user, preview, next(b for b in preview.button_labels if "Pay" in b))
    ask = await tv.press(ann.user, board, "Check…")
    await tv.pick(ann.user, ask, [str(bob.id)], "Whom do you check?")
    [announced] = [m for m in fake.tavern.messages if "checks **Bob**" in m.content]
    drawn = announced.attachments
    assert [a["filename"] for a in drawn] == ["pegaz_check.png"]
    assert fake.state.files[int(drawn[0]["id"])].startswith(b"\x89PNG")
