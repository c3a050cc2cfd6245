"""``/stats character`` and ``/stats top`` end to end: two Pazaak matches played through the
board (each ended by a forfeit), then both players' records, the head to head and the
leaderboards, checked to the credit against the ledger."""

from __future__ import annotations

from typing import Any

from tests.e2e.pazaak_support import Table, seat_two, settle
from tests.e2e.test_characters import say
from tests.fakediscord import BotHarness, FakeDiscord, FakeMessage


async def forfeited_match(table: Table, loser: str) -> None:
    """Ahsoka challenges Bastila for 250 cr, Bob accepts, and ``loser`` forfeits at once."""
    fake, harness = table.fake, table.harness
    challenge = await table.send_challenge(wager="250 cr")
    yes = next(b for b in challenge.buttons if b["custom_id"].endswith(":yes"))
    accept = await fake.click(table.users["B"], challenge, custom_id=yes["custom_id"])
    await settle(fake, harness, accept)
    board = [m for m in fake.tavern.messages if m.embeds][-1]
    confirm = await (await fake.click(table.users[loser], board, "Forfeit")).reply()
    done = await fake.click(table.users[loser], confirm, "Yes, forfeit")
    await settle(fake, harness, done)


def fields(message: FakeMessage) -> dict[str, str]:
    (embed,) = message.embeds
    found: list[dict[str, Any]] = embed.get("fields") or []
    return {f["name"]: f["value"] for f in found}


async def test_records_head_to_head_and_leaderboards_follow_the_matches(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table = await seat_two(fake, harness)
    alice, bob = table.users["A"], table.users["B"]
    empty = await say(fake, alice, "stats character")
    assert empty.ephemeral and empty.embeds[0]["title"] == "Stats: Ahsoka"
    assert empty.embeds[0]["description"] == "No finished games yet."
    nobody = await say(fake, alice, "stats character", character="Nobody")
    assert (nobody.content, nobody.embeds, nobody.ephemeral) == (
        "I don't know that character.",
        [],
        True,
    )

    await forfeited_match(table, "B")
    await forfeited_match(table, "B")
    await forfeited_match(table, "A")
    assert (await table.balance("A"), await table.balance("B")) == (1250, 750)

    ahsoka = await say(fake, alice, "stats character")
    assert ahsoka.ephemeral and ahsoka.embeds[0]["title"] == "Stats: Ahsoka"
    assert fields(ahsoka) == {
        "Pazaak": "Played: 3 · won: 2 · lost: 1\n"
        "Net from games: +250 cr\n"
        "Pots won: 2 · biggest: 500 cr\n"
        "Current streak: 1 lost\n"
        "Longest streaks: 2 won, 1 lost\n"
        "Caught cheating: 0",
        "Pazaak head to head": "against **Bastila**: 2 won, 1 lost",
    }
    bastila = await say(fake, alice, "stats character", character="Bastila")
    assert fields(bastila)["Pazaak"].split("\n")[:4] == [
        "Played: 3 · won: 1 · lost: 2",
        "Net from games: \u2212250 cr",
        "Pots won: 1 · biggest: 500 cr",
        "Current streak: 1 won",
    ]
    assert fields(bastila)["Pazaak head to head"] == "against **Ahsoka**: 1 won, 2 lost"

    net = await say(fake, bob, "stats top")
    assert net.ephemeral and net.embeds[0]["title"] == "Leaderboard: net winnings"
    assert fields(net) == {
        "Pazaak": "1. **Ahsoka**: +250 cr\n2. **Bastila**: \u2212250 cr",
        "Three-Card Pegasus": "No finished games yet.",
    }
    pots = await say(fake, bob, "stats top", by="pots")
    assert fields(pots)["Pazaak"] == (
        "1. **Ahsoka**: pots won: 2, biggest 500 cr\n2. **Bastila**: pots won: 1, biggest 500 cr"
    )
    record = await say(fake, bob, "stats top", by="pazaak")
    assert record.embeds[0]["title"] == "Leaderboard: Pazaak match record"
    assert fields(record) == {
        "Pazaak": "1. **Ahsoka**: 2 won, 1 lost\n2. **Bastila**: 1 won, 2 lost"
    }

    await say(fake, fake.owner, "settings language", language="pl")
    polish = await say(fake, alice, "stats character")
    assert fields(polish)["Pazaak"].split("\n")[:2] == [
        "Rozegrane: 3 · wygrane: 2 · przegrane: 1",
        "Bilans z gier: +250 cr",
    ]
    assert fields(polish)["Pazaak: pojedynki bezpośrednie"] == "**Bastila**: wygrane 2, przegrane 1"

    # the projection is the ledger's: rebuilt from the events and movements, it is the same
    services = harness.bot.services
    before = await services.stats.character(table.characters["A"].id)
    assert await services.stats.rebuild() == 3
    assert await services.stats.character(table.characters["A"].id) == before
