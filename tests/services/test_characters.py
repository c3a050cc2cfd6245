"""Characters: names (charset, length, case-insensitive uniqueness), traits, ownership, the
active character, deletion, and the Pazaak side cards."""

from __future__ import annotations

import pytest

from bot.rules import pazaak
from bot.services.errors import (
    CharacterSeated,
    DuplicateName,
    InvalidSideCards,
    NameInvalid,
    NotOwner,
    TraitInvalid,
    UnknownCharacter,
)
from tests.services import dice_game
from tests.services.conftest import ALICE_USER, BOB_USER, GM, GUILD, World


async def test_a_new_character_has_the_starter_side_cards_and_empty_purses(world: World) -> None:
    who = await world.characters.create(
        GUILD, "  Żaneta   z  Łodzi ", owner_id=ALICE_USER, luck=True, perception=45
    )
    assert who.name == "Żaneta z Łodzi" and who.luck and not who.gamble and who.perception == 45
    assert who.side_cards == ("+1", "+1", "+2", "+2", "+3", "+3", "+4", "+4", "+5", "+5")
    assert who.selection == who.side_cards
    assert await world.purses.balances(who.id) == {"wh": 0, "cr": 0}
    assert await world.characters.by_name(GUILD, "ŻANETA Z ŁODZI") == who


@pytest.mark.parametrize(
    "taken", ["alice", "ALICE", " Alice ", "\uff41\uff4c\uff49\uff43\uff45"]
)  # the last is full-width: NFKC folds it
async def test_names_are_unique_per_guild_ignoring_case(world: World, taken: str) -> None:
    await world.characters.create(GUILD, "Alice", owner_id=ALICE_USER)
    with pytest.raises(DuplicateName):
        await world.characters.create(GUILD, taken, owner_id=BOB_USER)
    other_guild = await world.characters.create(GUILD + 1, taken, owner_id=BOB_USER)
    assert other_guild.guild_id == GUILD + 1


async def test_names_with_polish_letters_differing_in_case_collide(world: World) -> None:
    await world.characters.create(GUILD, "Łucja Śmiała", owner_id=ALICE_USER)
    with pytest.raises(DuplicateName):
        await world.characters.create(GUILD, "łUCJA śMIAŁA", owner_id=BOB_USER)


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("x" * 33, "too_long"),
        ("@everyone", "bad_character"),
        ("**Bold**", "bad_character"),
        ("<@123>", "bad_character"),
        ("a_b", "bad_character"),
        ("back`tick", "bad_character"),
        ("[link](http://x)", "bad_character"),
        ("zero\u200bwidth", "bad_character"),
        ("-dash", "bad_start"),
        ("smile 😀", "bad_character"),
    ],
)
async def test_unsafe_names_are_refused(world: World, name: str, reason: str) -> None:
    with pytest.raises(NameInvalid) as caught:
        await world.characters.create(GUILD, name, owner_id=ALICE_USER)
    assert caught.value.params["reason"] == reason


@pytest.mark.parametrize("name", ["O'Reilly", "Jean-Luc", "St. Germain", "x" * 32, "Gwynbleidd 2"])
async def test_ordinary_names_are_accepted(world: World, name: str) -> None:
    assert (await world.characters.create(GUILD, name, owner_id=ALICE_USER)).name == name


async def test_rename_traits_and_ownership(world: World) -> None:
    alice = await world.characters.create(GUILD, "Alice", owner_id=ALICE_USER)
    await world.characters.create(GUILD, "Bob", owner_id=BOB_USER)
    with pytest.raises(NotOwner):
        await world.characters.edit(alice.id, actor_id=BOB_USER, name="Alicja")
    with pytest.raises(DuplicateName):
        await world.characters.edit(alice.id, actor_id=ALICE_USER, name="BOB")
    renamed = await world.characters.edit(alice.id, actor_id=ALICE_USER, name="Alicja")
    assert renamed.name == "Alicja"
    assert (
        await world.characters.edit(alice.id, actor_id=ALICE_USER, name="ALICJA")
    ).name == "ALICJA"
    changed = await world.characters.edit(alice.id, actor_id=GM, as_gm=True, gamble=True)
    assert changed.gamble and not changed.luck
    with pytest.raises(TraitInvalid):
        await world.characters.edit(alice.id, actor_id=ALICE_USER, perception=101)


async def test_npcs_belong_to_their_gm_and_the_active_character(world: World) -> None:
    npc = await world.characters.create(GUILD, "Karczmarz", owner_id=GM, npc=True)
    assert npc.is_npc and npc.owner_id == GM
    mine = await world.characters.create(GUILD, "Alice", owner_id=ALICE_USER)
    assert await world.characters.active(GUILD, ALICE_USER) is None
    with pytest.raises(NotOwner):
        await world.characters.set_active(GUILD, ALICE_USER, npc.id)
    await world.characters.set_active(GUILD, ALICE_USER, mine.id)
    await world.characters.set_active(GUILD, GM, npc.id)
    assert (await world.characters.active(GUILD, ALICE_USER)) == mine
    assert (await world.characters.active(GUILD, GM)) == npc
    found = await world.characters.search(GUILD, "k")
    assert [c.name for c in found] == ["Karczmarz"]
    assert [c.name for c in await world.characters.search(GUILD)] == ["Alice", "Karczmarz"]


async def test_delete_is_refused_while_seated_and_returns_coins_to_the_world(world: World) -> None:
    alice = await world.characters.create(GUILD, "Alice", owner_id=ALICE_USER)
    await world.purses.grant(alice.id, "wh", 50, actor_id=GM)
    await world.purses.grant(alice.id, "cr", 7, actor_id=GM)
    table = await world.tables.create(
        "dice",
        lambda rng: dice_game.new_table(5),
        guild_id=GUILD,
        channel_id=1,
        actor_id=GM,
        key="t",
    )
    await world.tables.act(
        table.table_id,
        dice_game.Join(alice.id),
        key="j",
        expected_version=None,
        actor_id=ALICE_USER,
    )
    with pytest.raises(CharacterSeated) as caught:
        await world.characters.delete(alice.id, actor_id=ALICE_USER)
    assert caught.value.params == {"character": alice.id, "tables": [table.table_id]}
    await world.tables.cancel(table.table_id, key="c", actor_id=GM)
    with pytest.raises(NotOwner):
        await world.characters.delete(alice.id, actor_id=BOB_USER)
    assert await world.characters.delete(alice.id, actor_id=ALICE_USER) == {"wh": 50, "cr": 7}
    with pytest.raises(UnknownCharacter):
        await world.characters.get(alice.id)
    # the name is free again, and the books still balance
    await world.characters.create(GUILD, "alice", owner_id=BOB_USER)
    audit = await world.purses.audit()
    assert audit.balances_by_currency == {"cr": 0, "wh": 0} and audit.drifted_accounts == ()


async def test_side_cards_loot_and_the_match_selection(world: World) -> None:
    alice = await world.characters.create(GUILD, "Alice", owner_id=ALICE_USER)
    assert len(await world.characters.match_selection(alice.id)) == pazaak.SELECTION_SIZE
    looted = await world.characters.give_side_cards(alice.id, ["+-4", "D", "F24", "±1/2", "t"])
    assert looted.side_cards[-5:] == ("±4", "D", "F24", "±1/2", "T")
    selection = ["±4", "D", "F24", "±1/2", "T", "+1", "+2", "+3", "+4", "+5"]
    saved = await world.characters.set_selection(alice.id, selection, actor_id=ALICE_USER)
    assert saved.selection == tuple(selection)
    with pytest.raises(InvalidSideCards) as caught:
        await world.characters.set_selection(
            alice.id, ["D", "D", *selection[2:]], actor_id=ALICE_USER
        )
    assert caught.value.params["reason"] == "not_owned"
    with pytest.raises(InvalidSideCards):
        await world.characters.set_selection(alice.id, selection[:9], actor_id=ALICE_USER)
    with pytest.raises(InvalidSideCards) as unknown:
        await world.characters.give_side_cards(alice.id, ["+9"])
    assert unknown.value.params == {"reason": "unknown_card", "card": "+9"}
    with pytest.raises(InvalidSideCards):
        await world.characters.match_selection(alice.id, kotor2_cards=False)
    await world.characters.take_side_cards(alice.id, ["D"])
    with pytest.raises(InvalidSideCards):  # the saved selection is no longer owned
        await world.characters.match_selection(alice.id)


async def test_edit_changes_name_and_traits_together_or_not_at_all(world: World) -> None:
    alice = await world.characters.create(GUILD, "Alice", owner_id=ALICE_USER)
    await world.characters.create(GUILD, "Bob", owner_id=BOB_USER)
    with pytest.raises(DuplicateName):
        await world.characters.edit(alice.id, actor_id=ALICE_USER, name="bob", luck=True)
    assert not (await world.characters.get(alice.id)).luck
    edited = await world.characters.edit(alice.id, actor_id=ALICE_USER, name="Ala", gamble=True)
    assert (edited.name, edited.gamble, edited.luck) == ("Ala", True, False)


async def test_names_of_living_characters(world: World) -> None:
    alice = await world.characters.create(GUILD, "Alice", owner_id=ALICE_USER)
    bob = await world.characters.create(GUILD, "Bob", owner_id=BOB_USER)
    await world.characters.delete(bob.id, actor_id=BOB_USER)
    assert await world.characters.names([alice.id, bob.id, None, alice.id, 999]) == {
        alice.id: "Alice"
    }
