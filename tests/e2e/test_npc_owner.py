"""An NPC plays only for the GM who owns it: only that GM may seat it at a Pegasus table or send
it into a Pazaak challenge, and the seat autocomplete offers only the GM's own NPCs. And a table
that takes nobody more refuses at once, before asking which character."""

from __future__ import annotations

from tests.e2e.pegaz_kit import GC, Tavern
from tests.fakediscord import MANAGE_GUILD, BotHarness, FakeDiscord

NOT_YOURS = "That character isn't yours."


async def test_only_the_npcs_owner_may_seat_it(fake: FakeDiscord, harness: BotHarness) -> None:
    tv = Tavern(fake, harness)
    other_gm = fake.add_player("Ottilie", permissions=MANAGE_GUILD)
    jakob = await tv.player("Old Jakob", npc=True)  # the GM's NPC
    await tv.player("Grete", npc=True, user=other_gm)  # Ottilie's NPC
    await tv.player("Ann")
    table = await tv.open()

    offered = await fake.autocomplete(other_gm, "pegaz seat", "npc", "")
    assert [c["name"] for c in offered] == ["Grete"]  # not the GM's Jakob, nor Ann
    offered = await fake.autocomplete(tv.gm, "pegaz seat", "npc", "")
    assert [c["name"] for c in offered] == ["Old Jakob"]

    version = (await tv.services.tables.get(1)).version
    refused = await (await fake.slash(other_gm, "pegaz seat", npc="Old Jakob")).reply()
    assert refused.content == NOT_YOURS and refused.ephemeral
    view = await tv.services.tables.get(1)
    assert view.state.seats == () and view.version == version
    assert await tv.purse(jakob) == GC
    assert fake.dms(other_gm) == []

    seated = await (await fake.slash(tv.gm, "pegaz seat", npc="Old Jakob")).reply()
    assert seated.content == "Old Jakob sits at table 1; the ante of 1 s is paid."
    assert [s.player for s in (await tv.services.tables.get(1)).state.seats] == [jakob.id]
    assert table.embeds  # the board is still there


async def test_a_pazaak_challenge_with_another_gms_npc_is_refused(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    other_gm = fake.add_player("Ottilie", permissions=MANAGE_GUILD)
    await tv.player("Revan", npc=True)
    await tv.player("Bastila")
    await tv.player("Carth", npc=True, user=other_gm)
    offered = await fake.autocomplete(other_gm, "pazaak challenge", "character", "", opponent="X")
    assert [c["name"] for c in offered] == ["Carth"]  # neither the GM's Revan nor Bastila
    offered = await fake.autocomplete(tv.gm, "pazaak challenge", "character", "", opponent="X")
    assert [c["name"] for c in offered] == ["Revan"]
    handle = await fake.slash(
        other_gm, "pazaak challenge", opponent="Bastila", wager="0", character="Revan"
    )
    refused = await handle.reply()
    assert refused.content == NOT_YOURS and refused.ephemeral
    assert await tv.services.challenges.next_expiry() is None  # no challenge was made
    assert fake.tavern.messages == []


async def test_a_full_table_refuses_before_asking_which_character(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    table = await tv.open()
    for n in range(8):
        seated = await tv.press((await tv.player(f"Guest {n}")).user, table, "Join")
        assert seated.content.startswith(f"Guest {n} sits at table 1")
    ann = await tv.player("Ann")
    await tv.player("Bea", user=ann.user)

    refused = await tv.press(ann.user, table, "Join")
    assert refused.content == "This table is full."
    assert refused.selects == [] and refused.ephemeral
    assert len((await tv.services.tables.get(1)).state.seats) == 8
