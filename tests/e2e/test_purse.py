"""``/purse ...`` end to end, and the issue's whole story: characters for two players and an NPC,
a GM role, coins given, paid and taken; the purses and the paged history agree with the ledger."""

from __future__ import annotations

import re

from bot.app import SzulerniaBot
from bot.render.purse import history_line
from bot.storage.ledger import LedgerLine
from tests.e2e.test_characters import assert_nothing_pings, say
from tests.fakediscord import MANAGE_GUILD, BotHarness, FakeDiscord, FakeMessage

MINUS = "\u2212"  # how the history shows coins going out
TIMESTAMP = re.compile(r" · <t:\d+:d>$")


def history_texts(message: FakeMessage) -> list[str]:
    """The lines of a history page, without their (wall clock) dates."""
    (embed,) = message.embeds
    return [TIMESTAMP.sub("", line) for line in embed["description"].split("\n")]


async def ledger_page(
    bot: SzulerniaBot, name: str, currency: str, before: int | None = None
) -> tuple[list[LedgerLine], int | None]:
    character = await bot.services.characters.by_name(next(iter(bot.guilds)).id, name)
    page = await bot.services.purses.history(character.id, currency, before=before, limit=10)
    return list(page.lines), page.next_before


async def test_the_gm_gives_a_player_pays_the_gm_takes_and_the_books_agree(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    owner = fake.add_player("Ola", permissions=MANAGE_GUILD)
    gm_role = fake.guild.add_role("Mistrz Gry")
    gm = fake.add_player("Gunther", roles=[gm_role])
    alice = fake.add_player("Alice")
    bob = fake.add_player("Bob")
    bot = harness.bot

    refused = await say(fake, gm, "purse give", character="Greta", amount="1 s", reason="x")
    assert refused.content == "Only a GM can do that."  # the role is not the GM role yet
    role_set = await say(fake, owner, "gm role", role=gm_role)
    assert role_set.content == (
        f"Members with <@&{gm_role.id}> are GMs now (and so is anyone with Manage Server)."
    )

    await say(fake, alice, "character create", name="Greta", luck=True)
    await say(fake, gm, "character create", name="Hans", user=bob)
    await say(fake, gm, "character create", name="Innkeeper", npc=True)

    given = await say(
        fake, gm, "purse give", character="Greta", amount="2 GC", reason="Quest reward"
    )
    assert given.content == "The GM gave 2 GC to **Greta**: Quest reward"
    assert not given.ephemeral and fake.tavern.messages == [given]
    await say(fake, gm, "purse give", character="Innkeeper", amount="250 cr", reason="Till")
    paid = await say(fake, alice, "purse pay", to="Hans", amount="1 GC 10 s", reason="Old debt")
    assert paid.content == "**Greta** paid 1 GC 10 s to **Hans**: Old debt" and not paid.ephemeral
    npc_paid = await say(
        fake, gm, "purse pay", to="Greta", amount="50 cr", options={"from": "Innkeeper"}
    )
    assert npc_paid.content == "**Innkeeper** paid 50 cr to **Greta**."
    taken = await say(fake, gm, "purse take", character="Hans", amount="15p", reason="Bar tab")
    assert taken.content == "The GM took 1 s 3 p from **Hans**: Bar tab"

    greta = await say(fake, alice, "purse show")
    assert greta.content == "**Greta**'s purse:\nWarhammer coin: 10 s\nCredits: 50 cr"
    assert greta.ephemeral
    hans = await say(fake, bob, "purse show")
    assert hans.content == "**Hans**'s purse:\nWarhammer coin: 1 GC 8 s 9 p\nCredits: 0 cr"
    innkeeper = await say(fake, gm, "purse show", character="Innkeeper")
    assert innkeeper.content == "**Innkeeper**'s purse:\nWarhammer coin: 0 p\nCredits: 200 cr"

    services = bot.services
    ids = {n: (await services.characters.by_name(fake.guild.id, n)).id for n in ("Greta", "Hans")}
    assert await services.purses.balances(ids["Greta"]) == {"wh": 120, "cr": 50}
    assert await services.purses.balances(ids["Hans"]) == {"wh": 345, "cr": 0}
    audit = await services.purses.audit()
    assert audit.entries_total == 0 and audit.unbalanced_movements == ()
    assert audit.drifted_accounts == () and audit.balances_by_currency == {"cr": 0, "wh": 0}

    history = await say(fake, bob, "purse history")
    assert history_texts(history) == [
        f"`{MINUS}1 s 3 p` taken by the GM: Bar tab",
        "`+1 GC 10 s` from Greta: Old debt",
    ]
    lines, _ = await ledger_page(bot, "Hans", "wh")
    assert [line.amount for line in lines] == [-15, 360]
    assert history.embeds[0]["title"] == "Hans: Warhammer coin"
    credits = await say(fake, alice, "purse history", currency="cr")
    assert history_texts(credits) == ["`+50 cr` from Innkeeper"]
    assert_nothing_pings(fake)


async def test_history_pages_follow_the_ledger_and_survive_a_restart(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    gm = fake.add_player("Gunther", permissions=MANAGE_GUILD)
    alice = fake.add_player("Alice")
    await say(fake, alice, "character create", name="Greta")
    await say(fake, gm, "character create", name="Hans", npc=True)
    for n in range(1, 13):
        await say(fake, gm, "purse give", character="Greta", amount=f"{n} p", reason=f"Gift {n}")
    await say(fake, alice, "purse pay", to="Hans", amount="2 s")

    first = await say(fake, alice, "purse history")
    assert first.button_labels == ["Newer", "Older"]
    assert [b.get("disabled", False) for b in first.buttons] == [True, False]
    assert first.embeds[0]["footer"]["text"] == "Page 1, newest first"
    lines, older = await ledger_page(harness.bot, "Greta", "wh")
    assert len(lines) == 10 and older is not None
    expected = [TIMESTAMP.sub("", history_line("en", line, "wh", {})) for line in lines]
    expected[0] = f"`{MINUS}2 s` to Hans"
    assert history_texts(first) == expected
    assert expected[1:3] == ["`+1 s` from the GM: Gift 12", "`+11 p` from the GM: Gift 11"]

    await harness.restart()
    second = await (await fake.click(alice, first, "Older")).reply()
    assert second is first and first.embeds[0]["footer"]["text"] == "Page 2, newest first"
    rest, end = await ledger_page(harness.bot, "Greta", "wh", before=older)
    assert end is None and len(rest) == 3
    assert history_texts(first) == [
        "`+3 p` from the GM: Gift 3",
        "`+2 p` from the GM: Gift 2",
        "`+1 p` from the GM: Gift 1",
    ]
    assert [b.get("disabled", False) for b in first.buttons] == [False, True]

    back = await (await fake.click(alice, first, "Newer")).reply()
    assert back is first and history_texts(first) == expected
    empty = await say(fake, gm, "purse history", character="Hans", currency="cr")
    assert history_texts(empty) == ["No coins have moved yet."]
    assert [b.get("disabled", False) for b in empty.buttons] == [True, True]
    assert_nothing_pings(fake)
