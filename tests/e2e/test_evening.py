"""One evening at the tavern, end to end through the fake Discord, for the GM's books: two
Three-Card Pegasus games and a Pazaak match played on their buttons, a GM's grant, the first
game voided; then ``/gm report``, ``/gm export``, the history's pages and ``/stats``, each
checked to the coin against the purses."""

from __future__ import annotations

import csv
import io
from typing import Any

from tests.e2e.pazaak_support import seat_two, settle
from tests.e2e.pegaz_kit import GC, Player, Tavern
from tests.e2e.test_characters import say
from tests.e2e.test_stats import forfeited_match
from tests.fakediscord import BotHarness, FakeDiscord, FakeMessage

S = 12
"""A shilling, in pennies (the default stake)."""


def fields(message: FakeMessage) -> dict[str, str]:
    [embed] = message.embeds
    found: list[dict[str, Any]] = embed.get("fields") or []
    return {f["name"]: f["value"] for f in found}


async def folded_game(tv: Tavern, first: Player, second: Player, *, offer: bool) -> FakeMessage:
    """``first`` folds at once, so ``second`` takes the two antes, and gives Ranald a tenth
    or keeps it all."""
    board = await tv.open()
    await tv.press(first.user, board, "Join")
    await tv.press(second.user, board, "Join")
    await tv.press(tv.gm, board, "Start")
    await tv.press(first.user, board, "Fold")
    await tv.press(second.user, board, "Give a tenth to Ranald" if offer else "Keep it all")
    assert board.button_labels == ["History"]
    return board


async def test_an_evening_in_the_books(fake: FakeDiscord, harness: BotHarness) -> None:
    tv = Tavern(fake, harness)
    ann = await tv.player("Ann")
    bob = await tv.player("Bob")
    first = await folded_game(tv, ann, bob, offer=True)  # table 1: Bob +1 s, 2 p to Ranald
    await folded_game(tv, bob, ann, offer=False)  # table 2: Ann +1 s
    pazaak = await seat_two(fake, harness)
    await forfeited_match(pazaak, "B")  # table 3: Ahsoka takes Bastila's 250 cr
    given = await say(fake, tv.gm, "purse give", character="Ann", amount="5 s", reason="Quest")
    assert given.content == "The GM gave 5 s to **Ann**: Quest"
    assert (await tv.purse(ann), await tv.purse(bob)) == (GC + 5 * S, GC - 2)

    voided = await say(fake, tv.gm, "gm void", table=1)
    assert voided.content.startswith("Table #1 is voided: ")
    assert (await tv.purse(ann), await tv.purse(bob)) == (GC + S + 5 * S, GC - S)
    shown = await say(fake, bob.user, "purse history")
    assert "table #1 voided" in shown.embeds[0]["description"]

    report = await say(fake, tv.gm, "gm report", since="2h")
    books = fields(report)
    assert report.ephemeral
    assert "**Ann** +1 s" in books["Net at the tables"]
    assert "**Ahsoka** +250 cr" in books["Net at the tables"]
    assert books["Tables"] == "Opened: 3. Finished: 3. Cancelled: 0."
    assert "**Ann** +5 s (from the GM): Quest" in books["GM grants and takes"]
    assert "Table #1 voided" in books["Corrections"]
    assert books["Offerings to Ranald"] == "None."  # Bob's went back with table 1
    assert books["Biggest pots"] == "#3 Pazaak: 500 cr\n#2 Three-Card Pegasus: 2 s"

    exported = await say(fake, tv.gm, "gm export")
    files = {a["filename"]: fake.state.files[int(a["id"])] for a in exported.attachments}
    rows = list(csv.DictReader(io.StringIO(files["ledger.csv"].decode("utf-8"))))
    for player, purse in ((ann, await tv.purse(ann)), (bob, await tv.purse(bob))):
        net = sum(
            int(r["amount"]) * ((r["to"] == player.name) - (r["from"] == player.name))
            for r in rows
            if r["currency"] == "wh"
        )
        assert net == purse, player.name
    kinds = [r["kind"] for r in rows if r["table"] == "1"]
    assert kinds.count("correction") == len(kinds) // 2  # every movement of table 1 undone

    page = await (await fake.click(ann.user, first, "History")).reply()
    assert page.ephemeral and page.embeds[0]["title"].startswith("History of table #1")
    text = page.embeds[0]["description"]
    assert "**Ann** folds" in text or "Ann folds" in text
    history = await say(fake, bob.user, "table history", table=2)
    assert history.embeds[0]["title"].startswith("History of table #2")

    bob_stats = fields(await say(fake, bob.user, "stats character"))
    assert bob_stats["Three-Card Pegasus"].startswith("Played: 1 · won: 0 · lost: 1")
    ann_stats = fields(await say(fake, ann.user, "stats character"))
    assert ann_stats["Three-Card Pegasus"].startswith("Played: 1 · won: 1 · lost: 0")
    assert "Net from games: +1 s" in ann_stats["Three-Card Pegasus"]
    audit = await tv.services.purses.audit()
    assert audit.unbalanced_movements == () and audit.drifted_accounts == ()


async def test_closing_a_table_that_waits_for_the_offering_keeps_the_game_won(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    """The pot is paid when the game ends: a GM who closes the table while the winner still
    decides on Ranald's tenth only ends that wait (declined). The game stays won, in the stats."""
    tv = Tavern(fake, harness)
    ann = await tv.player("Ann")
    bob = await tv.player("Bob")
    board = await tv.open()
    await tv.press(ann.user, board, "Join")
    await tv.press(bob.user, board, "Join")
    await tv.press(tv.gm, board, "Start")
    await tv.press(ann.user, board, "Fold")
    assert "Keep it all" in board.button_labels
    closing = await fake.slash(tv.gm, "table close", table=1)
    await closing.reply()
    await settle(fake, harness, closing)  # the reply may come before the board's redraw
    assert (await tv.services.tables.get(1)).status == "finished"
    assert (await tv.purse(ann), await tv.purse(bob)) == (GC - S, GC + S)
    assert board.button_labels == ["History"]
    stats = fields(await say(fake, bob.user, "stats character"))
    assert stats["Three-Card Pegasus"].startswith("Played: 1 · won: 1 · lost: 0")
    audit = await tv.services.purses.audit()
    assert audit.unbalanced_movements == () and audit.drifted_accounts == ()
