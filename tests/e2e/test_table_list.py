"""``/table list`` with many open tables: paged, every page within Discord's limits, and the
Previous/Next buttons still work after a restart (issue 11, item 3)."""

from __future__ import annotations

import re

from bot.rules import pegaz
from tests.fakediscord import MANAGE_GUILD, BotHarness, FakeDiscord, FakeMessage

TABLES = 27  # 25 or more failed: the reply was over 2,000 characters


def listed(message: FakeMessage) -> list[int]:
    return [int(n) for n in re.findall(r"^- (?:#|nr )(\d+)", message.content, re.MULTILINE)]


async def test_many_tables_are_listed_page_by_page(fake: FakeDiscord, harness: BotHarness) -> None:
    gm = fake.add_player("Gunther", permissions=MANAGE_GUILD)
    alice = fake.add_player("Alice")
    services = harness.bot.services
    opened = []
    for i in range(TABLES):
        outcome = await services.tables.create(
            "pegaz",
            lambda rng: pegaz.new_table(pegaz.PegazSettings()),
            guild_id=fake.guild.id,
            channel_id=fake.tavern.id,
            actor_id=gm.id,
            key=f"open:{i}",
        )
        opened.append(outcome.table_id)

    first = await (await fake.slash(alice, "table list")).reply()
    assert first.ephemeral and len(first.content) <= 2000
    assert first.content.startswith(f"Open tables ({TABLES}):\n")
    assert first.content.endswith("\nPage 1 of 3.")
    assert listed(first) == opened[:10]
    assert first.button_labels == ["Previous", "Next"]
    assert [b.get("disabled", False) for b in first.buttons] == [True, False]

    await harness.restart()  # the buttons read the tables afresh: they survive a restart
    second = await (await fake.click(alice, first, "Next")).reply()
    assert second is first and listed(first) == opened[10:20]
    assert first.content.endswith("\nPage 2 of 3.")
    assert [b.get("disabled", False) for b in first.buttons] == [False, False]
    await (await fake.click(alice, first, "Next")).reply()
    assert listed(first) == opened[20:] and first.content.endswith("\nPage 3 of 3.")
    assert [b.get("disabled", False) for b in first.buttons] == [False, True]

    # a table closed meanwhile is gone from the next page drawn; the pages shrink to fit
    for table_id in opened[: TABLES - 20]:
        await harness.bot.services.tables.cancel(table_id, key=f"c{table_id}", actor_id=gm.id)
    await (await fake.click(alice, first, "Previous")).reply()
    assert first.content.startswith("Open tables (20):\n")
    assert listed(first) == opened[TABLES - 10 :] and first.content.endswith("\nPage 2 of 2.")

    await (await fake.slash(gm, "settings language", language="pl")).reply()
    polish = await (await fake.slash(alice, "table list")).reply()
    assert polish.content.startswith("Otwarte stoły (20):\n")
    assert polish.content.endswith("\nStrona 1 z 2.") and len(polish.content) <= 2000
    assert polish.button_labels == ["Wstecz", "Dalej"]
    assert listed(polish) == opened[TABLES - 20 : TABLES - 10]


async def test_one_page_has_no_buttons(fake: FakeDiscord, harness: BotHarness) -> None:
    gm = fake.add_player("Gunther", permissions=MANAGE_GUILD)
    outcome = await harness.bot.services.tables.create(
        "pegaz",
        lambda rng: pegaz.new_table(pegaz.PegazSettings()),
        guild_id=fake.guild.id,
        channel_id=fake.tavern.id,
        actor_id=gm.id,
        key="open",
    )
    only = await (await fake.slash(gm, "table list")).reply()
    assert only.content == (
        "Open tables (1):\n"
        f"- #{outcome.table_id} Three-Card Pegasus in <#{fake.tavern.id}>: "
        "waiting for players, 0 seated"
    )
    assert only.button_labels == []
