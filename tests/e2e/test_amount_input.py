"""Amounts typed into Discord (issue 11): ``2 500 cr`` is two and a half thousand, ``1,000`` is
refused with both of its readings, ``2 50`` is refused as two numbers, and a refusal moves no
coin. The purse, a Pazaak wager and a Pegasus stake all read amounts the same way."""

from __future__ import annotations

from tests.e2e.pazaak_support import seat_two, settle
from tests.e2e.pegaz_kit import Tavern
from tests.e2e.test_characters import say, snapshot
from tests.fakediscord import MANAGE_GUILD, BotHarness, FakeDiscord


def ambiguous(typed: str, thousands: str, decimal: str) -> str:
    return (
        f'"{typed}" could mean {thousands} or {decimal}, so I won\'t guess. Write thousands with '
        f"a space ({thousands}), and a fraction with one or two decimals or in smaller coins."
    )


ONE_THOUSAND = ambiguous("1,000", "1 000", "1")
TWO_FIFTY = (
    '"2 50" is two numbers with no coin between them, and I don\'t add numbers up on a guess. '
    "Write one number, with thousands in groups of three (2 500), or put a coin after each "
)


async def test_grouped_thousands_are_one_number_and_ambiguous_ones_move_nothing(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    gm = fake.add_player("Gunther", permissions=MANAGE_GUILD)
    bob = fake.add_player("Bob")
    bot = harness.bot
    await say(fake, bob, "character create", name="Hans")
    hans = await bot.services.characters.by_name(fake.guild.id, "Hans")

    given = await say(fake, gm, "purse give", character="Hans", amount="2 500 cr", reason="Pay")
    assert (given.content, given.ephemeral) == ("The GM gave 2500 cr to **Hans**: Pay", False)
    nbsp = await say(fake, gm, "purse give", character="Hans", amount="1\u00a0000 cr", reason="x")
    assert nbsp.content == "The GM gave 1000 cr to **Hans**: x"
    assert await bot.services.purses.balance(hans.id, "cr") == 3500
    before = await snapshot(bot, fake.guild.id, [gm, bob])
    said = len(fake.tavern.messages)

    refusals = [
        ("1,000 cr", ONE_THOUSAND),
        ("1.000 cr", ambiguous("1.000", "1 000", "1")),
        ("2,500 cr", ambiguous("2,500", "2 500", "2.5")),
        ("2.005 cr", ambiguous("2.005", "2 005", "2.005")),
        ("2 50 cr", TWO_FIFTY + "number (GC, s, p, cr)."),
        (
            "1,000,000 cr",
            '"1,000,000" has more than one decimal mark. Group thousands with a space '
            "(1 000 000), and use a comma or a dot only once, for a fraction (1,5 or 1.5).",
        ),
    ]
    for amount, expected in refusals:
        answer = await say(fake, gm, "purse give", character="Hans", amount=amount, reason="x")
        assert (answer.content, answer.ephemeral) == (expected, True), amount
        taken = await say(fake, gm, "purse take", character="Hans", amount=amount, reason="x")
        assert (taken.content, taken.ephemeral) == (answer.content, True), amount
        paid = await say(fake, bob, "purse pay", to="Hans", amount=amount)
        assert paid.content == answer.content, amount
    assert await snapshot(bot, fake.guild.id, [gm, bob]) == before
    assert len(fake.tavern.messages) == said

    await say(fake, gm, "settings language", language="pl")
    polish = await say(fake, gm, "purse give", character="Hans", amount="1.000 zk", reason="x")
    assert polish.content.startswith('"1.000" może znaczyć 1 000 albo 1, więc nie zgaduję.')
    decimal = await say(fake, gm, "purse give", character="Hans", amount="2.500", reason="x")
    assert decimal.content.startswith('"2.500" może znaczyć 2 500 albo 2,5, więc')
    lots = await say(fake, gm, "purse give", character="Hans", amount="dużo", reason="x")
    assert lots.content == (
        'Nie rozumiem kwoty "dużo". Zapisz ją np. `1 zk 10 s`, `15p` albo `250 cr` '
        "(jednostki: zk, s, p, cr)."
    )
    assert await snapshot(bot, fake.guild.id, [gm, bob]) == {**before, "language": "pl"}
    grouped = await say(fake, gm, "purse give", character="Hans", amount="1 000 zk", reason="x")
    assert "1000 zk" in grouped.content and not grouped.ephemeral
    assert await bot.services.purses.balance(hans.id, "wh") == 1000 * 240


async def test_a_pazaak_wager_is_read_the_same_way(fake: FakeDiscord, harness: BotHarness) -> None:
    table = await seat_two(fake, harness, credits=3000)
    alice = table.users["A"]
    for wager, expected in [
        ("2 50", TWO_FIFTY + "number (cr)."),
        ("1,000", ONE_THOUSAND),
        ("1.000 cr", ambiguous("1.000", "1 000", "1")),
    ]:
        handle = await fake.slash(alice, "pazaak challenge", opponent="Bastila", wager=wager)
        refused = await handle.reply()
        await settle(fake, harness, handle)
        assert (refused.content, refused.ephemeral) == (expected, True), wager
    assert fake.tavern.messages == []
    challenge = await table.send_challenge(wager="2 500")
    assert "2500 cr" in challenge.content and challenge.button_labels == ["Accept", "Decline"]
    assert (await table.balance("A"), await table.balance("B")) == (3000, 3000)


async def test_a_pegasus_stake_is_read_the_same_way(fake: FakeDiscord, harness: BotHarness) -> None:
    tv = Tavern(fake, harness)
    for stake, expected in [
        ("2 50 p", TWO_FIFTY + "number (GC, s, p)."),
        ("1,000 p", ONE_THOUSAND),
    ]:
        handle = await fake.slash(tv.gm, "pegaz open", stake=stake)
        answer = await handle.reply()
        assert (answer.content, answer.ephemeral) == (expected, True), stake
    assert fake.tavern.messages == []
    await tv.open(stake="1 200 p")
    (table,) = await harness.bot.services.tables.live_in_guild(fake.guild.id)
    state = await harness.bot.services.tables.synced(table.table_id)
    assert state.stake == 1200
