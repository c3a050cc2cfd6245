"""A GM ruling that expels every player still in (issue 11, item 23), against a real SQLite file:
no cheater takes a coin, the pot rolls over to the next game at the table, and the ledger agrees
with the rules all along."""

from __future__ import annotations

from bot.rules import pegaz
from bot.services.outcomes import TableOutcome
from tests.services.conftest import ALICE_USER, GM, GUILD, World

S = 12
PURSE = 240


async def act(world: World, table_id: int, action: object, key: str) -> TableOutcome:
    return await world.tables.act(table_id, action, key=key, expected_version=None, actor_id=GM)


async def open_table(
    world: World, key: str, carried: int = 0, carry_from: int | None = None
) -> int:
    settings = pegaz.PegazSettings(stake=S, cheat_ruling="gm", carried_pot=carried)
    created = await world.tables.create(
        "pegaz",
        lambda rng: pegaz.new_table(settings),
        guild_id=GUILD,
        channel_id=1,
        actor_id=GM,
        key=key,
        carry_from=carry_from,
    )
    return created.table_id


async def test_everyone_expelled_rolls_the_pot_over_and_keeps_every_coin(world: World) -> None:
    table = await open_table(world, "open")
    ids = []
    for n, name in enumerate(("Ann", "Bob", "Cid")):
        who = await world.characters.create(GUILD, name, owner_id=ALICE_USER + n)
        await world.purses.grant(who.id, "wh", PURSE, actor_id=GM)
        ids.append(who.id)
        await act(world, table, pegaz.Join(who.id, False, True, 100, PURSE), f"join{n}")
    await act(world, table, pegaz.Start(ids[0]), "start")
    for n, who in enumerate(ids):  # Perception 100 all round: every cheat is caught
        await act(world, table, pegaz.Cheat(who, 0, 2), f"cheat{n}")
    for n, who in enumerate(ids):
        done = await act(world, table, pegaz.RuleOnCheat(True, who), f"rule{n}")

    end = done.events[-1]
    assert isinstance(end, pegaz.GameEnded) and end.expelled
    assert done.status == "finished" and done.transfers == ()
    assert end.rolled_over == 3 * S == await world.tables.pot_balance(table)
    for who in ids:  # the stakes stay in the pot: no cheater takes a coin
        assert await world.purses.balance(who, "wh") == PURSE - S
    replayed = pegaz.replay(list(await world.tables.history(table)))
    assert replayed == done.state

    again = await open_table(world, "again", carried=3 * S, carry_from=table)
    assert await world.tables.pot_balance(again) == 3 * S
    assert await world.tables.pot_balance(table) == 0
    purses = [await world.purses.balance(who, "wh") for who in ids]
    assert sum(purses) + await world.tables.pot_balance(again) == 3 * PURSE
    audit = await world.purses.audit()
    assert audit.drifted_accounts == () and audit.unbalanced_movements == ()
