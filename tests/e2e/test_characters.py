"""``/character ...`` end to end: create, list, show, use, edit, delete, autocomplete, refusals.

The helpers at the top (``say``, ``snapshot``, ``open_pegaz``, ``assert_nothing_pings``) are
shared by the other test files of the bot's own commands.
"""

from __future__ import annotations

from typing import Any

from bot.app import SzulerniaBot
from bot.i18n import t
from bot.rules import pegaz
from tests.fakediscord import MANAGE_GUILD, BotHarness, FakeDiscord, FakeMessage, FakeUser


async def say(fake: FakeDiscord, who: FakeUser, command: str, **options: Any) -> FakeMessage:
    """Run ``/command`` and return the bot's visible answer."""
    return await (await fake.slash(who, command, **options)).reply()


async def snapshot(bot: SzulerniaBot, guild_id: int, users: list[FakeUser]) -> dict[str, Any]:
    """Everything a refused command must leave as it was: characters, active characters,
    purses, every ledger line, the ledger audit, the language, the GM role, open tables."""
    services = bot.services
    characters = await services.characters.search(guild_id, limit=100)
    lines = {}
    for character in characters:
        for currency in ("wh", "cr"):
            page = await services.purses.history(character.id, currency, limit=100)
            lines[(character.id, currency)] = page.lines
    return {
        "characters": characters,
        "active": [await services.characters.active(guild_id, u.id) for u in users],
        "purses": [await services.purses.balances(c.id) for c in characters],
        "ledger": lines,
        "audit": await services.purses.audit(),
        "language": await services.guilds.language(guild_id),
        "gm_role": await services.guilds.gm_role(guild_id),
        "tables": await services.tables.live_in_guild(guild_id),
    }


async def open_pegaz(bot: SzulerniaBot, fake: FakeDiscord, gm: FakeUser, names: list[str]) -> int:
    """A Pegasus table in the tavern (stake 12 p) with these characters seated."""
    services = bot.services
    settings = pegaz.PegazSettings(stake=12, source="deck")
    outcome = await services.tables.create(
        "pegaz",
        lambda rng: pegaz.new_table(settings),
        guild_id=fake.guild.id,
        channel_id=fake.tavern.id,
        actor_id=gm.id,
        key=f"open:{names}",
    )
    for name in names:
        who = await services.characters.by_name(fake.guild.id, name)
        funds = await services.purses.balance(who.id, "wh")
        join = pegaz.Join(who.id, who.luck, who.gamble, who.perception, funds)
        outcome = await services.tables.act(
            outcome.table_id,
            join,
            key=f"join:{who.id}:{outcome.table_id}",
            expected_version=outcome.version,
            actor_id=who.owner_id,
        )
    return outcome.table_id


def assert_nothing_pings(fake: FakeDiscord) -> None:
    """Every message the bot sent or edited switched mentions off (no @everyone, no user)."""
    sent = 0
    for request in fake.requests():
        body = request.body
        if not isinstance(body, dict):
            continue
        data = body.get("data") if "type" in body and "data" in body else body
        if not isinstance(data, dict) or not ("content" in data or "embeds" in data):
            continue
        sent += 1
        allowed = data.get("allowed_mentions")
        assert allowed is not None, f"{request.method} {request.path} has no allowed_mentions"
        assert allowed.get("parse") == [], (request.path, allowed)
        assert not allowed.get("users") and not allowed.get("roles"), (request.path, allowed)
    assert sent > 0


async def test_a_player_creates_uses_shows_and_lists_characters(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    alice = fake.add_player("Alice")
    bob = fake.add_player("Bob")

    made = await say(fake, alice, "character create", name="Greta", luck=True, perception=40)
    assert made.content == "Created **Greta** (Luck, Perception 40)." and made.ephemeral
    made = await say(fake, alice, "character create", name="  Ulrika   Stein ", gamble=True)
    assert made.content == "Created **Ulrika Stein** (Gamble, Perception 0)."
    await say(fake, bob, "character create", name="Hans")

    several = await say(fake, alice, "character show")
    assert several.content == t("en", "error.pick_character") and several.ephemeral
    used = await say(fake, alice, "character use", name="greta")
    assert used.content == "You now play **Greta** on this server."

    shown = await say(fake, alice, "character show")
    assert shown.content == (
        f"**Greta**\nplayed by <@{alice.id}>\nLuck: yes · Gamble: no · Perception: 40\n"
        "Pazaak side cards: 10 owned, 10 chosen for matches.\nThis is the character you play."
    )
    other = await say(fake, alice, "character show", name="Hans")
    assert other.content.startswith(f"**Hans**\nplayed by <@{bob.id}>\n")
    assert "This is the character you play." not in other.content

    listed = await say(fake, alice, "character list")
    assert listed.content == (
        "Characters (3):\n"
        f"- **Greta** (you play it), played by <@{alice.id}>: Luck, Perception 40\n"
        f"- **Hans**, played by <@{bob.id}>: Perception 0\n"
        f"- **Ulrika Stein**, played by <@{alice.id}>: Gamble, Perception 0"
    )
    only_bob = await say(fake, alice, "character list", user=bob)
    assert only_bob.content == f"Characters (1):\n- **Hans**, played by <@{bob.id}>: Perception 0"
    assert fake.tavern.messages == []  # all of it ephemeral
    assert_nothing_pings(fake)


async def test_character_options_are_autocompleted(fake: FakeDiscord, harness: BotHarness) -> None:
    alice = fake.add_player("Alice")
    bob = fake.add_player("Bob")
    gm = fake.add_player("Gunther", permissions=MANAGE_GUILD)
    for who, name in ((alice, "Greta"), (alice, "Gottfried"), (bob, "Gisela"), (bob, "Hans")):
        await say(fake, who, "character create", name=name)

    def names(choices: list[dict[str, Any]]) -> list[str]:
        return [choice["name"] for choice in choices]

    assert names(await fake.autocomplete(alice, "character use", "name", "g")) == [
        "Gottfried",
        "Greta",
    ]
    assert names(await fake.autocomplete(alice, "character show", "name", "G")) == [
        "Gisela",
        "Gottfried",
        "Greta",
    ]
    assert names(await fake.autocomplete(bob, "character delete", "name", "")) == [
        "Gisela",
        "Hans",
    ]
    assert names(await fake.autocomplete(gm, "character edit", "name", "h")) == ["Hans"]
    assert names(await fake.autocomplete(bob, "purse pay", "to", "gr", amount="1 s")) == ["Greta"]
    assert names(
        await fake.autocomplete(bob, "purse pay", "from", "", to="Greta", amount="1 s")
    ) == [
        "Gisela",
        "Hans",
    ]
    assert names(
        await fake.autocomplete(gm, "purse give", "character", "go", amount="1 s", reason="x")
    ) == ["Gottfried"]


async def test_a_gm_creates_an_npc_and_a_character_for_a_player(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    gm = fake.add_player("Gunther", permissions=MANAGE_GUILD)
    bob = fake.add_player("Bob")
    bot = harness.bot

    for_bob = await say(fake, gm, "character create", name="Hans", user=bob, perception=55)
    assert for_bob.content == f"Created **Hans** (Perception 55) for <@{bob.id}>."
    npc = await say(fake, gm, "character create", name="Old Jakob", npc=True, gamble=True)
    assert npc.content == "Created the NPC **Old Jakob** (Gamble, Perception 0)."

    hans = await bot.services.characters.by_name(fake.guild.id, "Hans")
    jakob = await bot.services.characters.by_name(fake.guild.id, "Old Jakob")
    assert (hans.owner_id, hans.is_npc, hans.perception) == (bob.id, False, 55)
    assert (jakob.owner_id, jakob.is_npc, jakob.gamble) == (gm.id, True, True)
    shown = await say(fake, bob, "character show")  # Bob's only character is his by default
    assert shown.content.startswith(f"**Hans**\nplayed by <@{bob.id}>\n")
    shown = await say(fake, bob, "character show", name="Old Jakob")
    assert shown.content.startswith(f"**Old Jakob** (NPC)\nNPC of the GM <@{gm.id}>\n")

    before = await snapshot(bot, fake.guild.id, [gm, bob])
    for options in ({"user": gm}, {"npc": True}):
        refused = await say(fake, bob, "character create", name="Sneaky", **options)
        assert refused.content == "Only a GM can do that." and refused.ephemeral
    own = await say(fake, bob, "character create", name="Sneaky", user=bob)  # himself: fine
    assert own.content == "Created **Sneaky** (Perception 0)."
    await bot.services.characters.delete(
        (await bot.services.characters.by_name(fake.guild.id, "Sneaky")).id, actor_id=bob.id
    )
    after = await snapshot(bot, fake.guild.id, [gm, bob])
    assert after["characters"] == before["characters"]


async def test_edit_renames_and_changes_traits_at_once(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    alice = fake.add_player("Alice")
    bob = fake.add_player("Bob")
    gm = fake.add_player("Gunther", permissions=MANAGE_GUILD)
    bot = harness.bot
    await say(fake, alice, "character create", name="Greta")
    await say(fake, bob, "character create", name="Hans")

    edited = await say(
        fake,
        alice,
        "character edit",
        name="Greta",
        new_name="Greta Weiss",
        luck=True,
        perception=60,
    )
    assert edited.content == "Saved **Greta Weiss**: Luck, Perception 60."
    nothing = await say(fake, alice, "character edit", name="Greta Weiss")
    assert nothing.content == "Nothing to change for **Greta Weiss**: give a new name or a trait."

    before = await snapshot(bot, fake.guild.id, [alice, bob])
    taken = await say(
        fake, alice, "character edit", name="Greta Weiss", new_name="HANS", luck=False
    )
    assert taken.content == 'There is already a character called "HANS" on this server.'
    not_yours = await say(fake, bob, "character edit", name="Greta Weiss", gamble=True)
    assert not_yours.content == "That character isn't yours."
    bad = await say(fake, alice, "character edit", name="Greta Weiss", new_name="**Greta**")
    assert bad.content == (
        '"\ufffd\ufffdGreta\ufffd\ufffd" has a character no name may use: * (U+002A). '
        "A name is letters, digits and spaces, with - ' . inside it."
    )
    assert await snapshot(bot, fake.guild.id, [alice, bob]) == before  # traits kept too

    by_gm = await say(fake, gm, "character edit", name="Hans", gamble=True)
    assert by_gm.content == "Saved **Hans**: Gamble, Perception 0."


async def test_delete_asks_first_and_its_buttons_survive_a_restart(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    alice = fake.add_player("Alice")
    gm = fake.add_player("Gunther", permissions=MANAGE_GUILD)
    await say(fake, alice, "character create", name="Greta")
    await say(fake, alice, "character create", name="Ulrika")
    await say(fake, gm, "purse give", character="Greta", amount="1 GC 3 p", reason="Loot")
    await say(fake, gm, "purse give", character="Greta", amount="40 cr", reason="Loot")

    ask = await say(fake, alice, "character delete", name="Ulrika")
    assert ask.content == (
        "Delete **Ulrika** for good? Its coins go back to the world, and this can't be undone."
    )
    assert ask.ephemeral and ask.button_labels == ["Delete", "Keep"]
    kept = await (await fake.click(alice, ask, "Keep")).reply()
    assert kept is ask and ask.content == "Nothing was deleted." and ask.components == []

    ask = await say(fake, alice, "character delete", name="greta")
    await harness.restart()
    done = await (await fake.click(alice, ask, "Delete")).reply()

    assert (
        done.content == "**Greta** was deleted; its coins (1 GC 3 p, 40 cr) went back to the world."
    )
    services = harness.bot.services
    assert [c.name for c in await services.characters.search(fake.guild.id)] == ["Ulrika"]
    audit = await services.purses.audit()
    assert audit.unbalanced_movements == () and audit.drifted_accounts == ()
    gone = await say(fake, alice, "purse show", character="Greta")
    assert gone.content == "I don't know that character."


async def test_delete_is_refused_while_the_character_sits_at_a_table(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    alice = fake.add_player("Alice")
    bob = fake.add_player("Bob")
    gm = fake.add_player("Gunther", permissions=MANAGE_GUILD)
    bot = harness.bot
    await say(fake, alice, "character create", name="Greta")
    await say(fake, bob, "character create", name="Hans")
    await say(fake, gm, "purse give", character="Greta", amount="1 GC", reason="Stake money")
    await say(fake, gm, "purse give", character="Hans", amount="1 GC", reason="Stake money")
    ask = await say(fake, bob, "character delete", name="Hans")  # asked before he sat down

    await open_pegaz(bot, fake, gm, ["Greta", "Hans"])
    before = await snapshot(bot, fake.guild.id, [alice, bob])
    refused = await say(fake, alice, "character delete", name="Greta")
    assert refused.content == "That character sits at a table; wait until the game ends."
    assert refused.ephemeral and refused.components == []
    late = await (await fake.click(bob, ask, "Delete")).reply()
    assert late.content == "That character sits at a table; wait until the game ends."
    assert late.ephemeral and late is not ask
    assert await snapshot(bot, fake.guild.id, [alice, bob]) == before


async def test_bad_names_are_refused_and_nothing_pings(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    alice = fake.add_player("Alice")
    bot = harness.bot
    await say(fake, alice, "character create", name="Greta")
    before = await snapshot(bot, fake.guild.id, [alice])
    long = t("en", "error.name_too_long", name="x" * 23 + "\u2026", length=33, max=32)
    refusals = {  # each says which rule the name breaks, quoting it harmlessly (U+FFFD)
        "x" * 33: long,
        "**Bold**": ("\ufffd\ufffdBold\ufffd\ufffd", "* (U+002A)"),
        f"<@{alice.id}>": (f"\ufffd\ufffd{alice.id}\ufffd", "< (U+003C)"),
        "@everyone": ("\ufffdeveryone", "@ (U+0040)"),
        "Greta_": ("Greta\ufffd", "_ (U+005F)"),
        "a\u200bb": ("a\ufffdb", "U+200B"),
        "`x`": ("\ufffdx\ufffd", "` (U+0060)"),
    }
    for name, expected in refusals.items():
        if isinstance(expected, tuple):
            quoted, char = expected
            expected = t("en", "error.name_bad_character", name=quoted, char=char)
        refused = await say(fake, alice, "character create", name=name)
        assert (refused.content, refused.ephemeral) == (expected, True), name
    duplicate = await say(fake, alice, "character create", name="GRETA")
    assert duplicate.content == 'There is already a character called "GRETA" on this server.'
    unknown = await say(fake, alice, "character use", name="Nobody")
    assert unknown.content == "I don't know that character."
    in_dm = await say(fake, alice, "character create", name="Greta", channel=fake.dm_channel(alice))
    assert in_dm.content == "That works only on a server, not in a DM." and in_dm.ephemeral

    assert await snapshot(bot, fake.guild.id, [alice]) == before
    assert fake.tavern.messages == []
    assert_nothing_pings(fake)
