"""Computer-played NPC gamblers end to end: the GM seats an NPC with a personality, the bot plays
its turns after a short pause (the harness's clock moves it on), its lines come as table talk,
its hand reaches its GM alone, a restart does not lose its turn, and the GM can take the seat
over and hand it back."""

from __future__ import annotations

from typing import Any

from tests.e2e.pazaak_support import Table, moves_log, seat_two, settle
from tests.e2e.pegaz_kit import Tavern
from tests.fakediscord import MANAGE_GUILD, MANAGE_WEBHOOKS, BotHarness, FakeDiscord, FakeMessage

PAUSE = 10.0
"""More than any NPC pause (4 s at most, times a pace of at most 2)."""
MASTER = "twilek_dealer"
CARDSHARP = "bretonnian_cardsharp"
DWARF = "dwarf_veteran"


async def npc_opens_against_ahsoka(fake: FakeDiscord, harness: BotHarness) -> tuple[Table, Any]:
    """The GM's NPC Greedo (played by the bot, as a master) challenges Ahsoka, who accepts."""
    table = await seat_two(fake, harness)
    gm = fake.add_player("Game Master", permissions=MANAGE_GUILD)
    services = harness.bot.services
    greedo = await services.characters.create(fake.guild.id, "Greedo", owner_id=gm.id, npc=True)
    await services.purses.grant(greedo.id, "cr", 1000, actor_id=gm.id)
    handle = await fake.slash(
        gm,
        "pazaak challenge",
        opponent="Ahsoka",
        wager="100",
        character="Greedo",
        personality=MASTER,
    )
    challenge = await handle.reply()
    await settle(fake, harness, handle)
    accept = await fake.click(table.users["A"], challenge, "Accept")
    await settle(fake, harness, accept)
    table.board = next(m for m in fake.tavern.messages if m.embeds)
    return table, (gm, greedo)


async def npc_moves(harness: BotHarness, fake: FakeDiscord) -> None:
    await harness.clock.advance(PAUSE)
    await settle(fake, harness)


async def current(table: Table) -> int | None:
    state = (await table.services.tables.get(1)).state
    return state.current_player


async def test_a_human_plays_pazaak_against_a_master_to_the_end(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table, (gm, greedo) = await npc_opens_against_ahsoka(fake, harness)
    ahsoka = table.characters["A"].id
    texts = [m.content for m in fake.tavern.messages if not m.embeds]
    assert any(t.startswith("**Greedo**: “") for t in texts), texts  # it greets the table

    for _ in range(300):
        view = await table.services.tables.get(1)
        if view.status == "finished":
            break
        if view.state.current_player == ahsoka:
            me = view.state.players[0 if view.state.players[0].id == ahsoka else 1]
            await table.move(("A", "stand" if me.total >= 17 else "end"))
        else:
            await npc_moves(harness, fake)
    assert (await table.services.tables.get(1)).status == "finished"
    won = await table.balance("A")
    assert won in (900, 1100)  # the pot of 200 went one way or the other
    # the NPC's hand went to its GM alone, and no channel message shows a hand
    assert any(m.embeds for m in fake.dms(gm)) and not fake.dms(table.users["B"])
    assert not any("Hand:" in m.text for m in fake.tavern.messages)
    audit = await table.services.purses.audit()
    assert audit.unbalanced_movements == () and audit.drifted_accounts == ()
    assert greedo.id != ahsoka


async def test_a_restart_while_the_npc_thinks_does_not_lose_its_turn(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table, (_, greedo) = await npc_opens_against_ahsoka(fake, harness)
    if await current(table) != greedo.id:
        await table.move(("A", "end"))
    assert await current(table) == greedo.id
    version = (await table.services.tables.get(1)).version

    await harness.restart()
    await settle(fake, harness)
    assert (await table.services.tables.get(1)).version == version  # it waits, as people do
    await npc_moves(harness, fake)

    assert (await table.services.tables.get(1)).version > version
    assert await current(table) != greedo.id or moves_log(table.board)  # type: ignore[arg-type]


async def test_the_gm_takes_the_npc_over_and_hands_it_back(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    table, (gm, greedo) = await npc_opens_against_ahsoka(fake, harness)
    if await current(table) != greedo.id:
        await table.move(("A", "end"))
    version = (await table.services.tables.get(1)).version

    took = await fake.slash(gm, "npc takeover", npc="Greedo")
    assert "You play **Greedo** at table 1 now" in (await took.reply()).text
    await npc_moves(harness, fake)
    assert (await table.services.tables.get(1)).version == version  # the bot keeps its hands off

    board = table.board
    assert board is not None
    await settle(fake, harness, await fake.click(gm, board, "End turn"))
    assert moves_log(board)[0] == "Greedo ends the turn."

    back = await fake.slash(gm, "npc handback", npc="Greedo")
    assert "The bot plays **Greedo** at table 1 again." in (await back.reply()).text
    await table.move(("A", "end"))
    before = (await table.services.tables.get(1)).version
    await npc_moves(harness, fake)
    assert (await table.services.tables.get(1)).version > before


async def test_a_pegaz_game_with_two_computer_npcs_and_one_human(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann = await tv.player("Ann")
    for name in ("Gaston", "Thorgrim"):
        await tv.player(name, npc=True, gamble=name == "Gaston", perception=30)
    board = await tv.open(stake="1 s")
    await tv.press(ann.user, board, "Join")
    for name, who in (("Gaston", CARDSHARP), ("Thorgrim", DWARF)):
        seated = await fake.slash(tv.gm, "pegaz seat", npc=name, personality=who)
        await seated.reply()
        await settle(fake, harness, seated)
    await tv.press(tv.gm, board, "Start")

    await _play_out(tv, board, ann)
    talk = [m.content for m in fake.tavern.messages if m.content.startswith("**Gaston**")]
    assert talk  # the cardsharp greeted the table, at least
    await tv.books_balance(table_id=1, pot=0)


async def _play_out(tv: Tavern, board: FakeMessage, ann: Any) -> None:
    """Ann keeps or folds whenever she owes a move, the NPCs play the rest: the game ends."""
    for _ in range(200):
        if (await tv.services.tables.get(1)).status == "finished":
            break
        waiting = await _ann_owes(tv, ann.id)
        if waiting:
            await _ann_plays(tv, board, ann, waiting)
        else:
            await npc_moves(tv.harness, tv.fake)
    assert (await tv.services.tables.get(1)).status == "finished"


async def _ann_owes(tv: Tavern, ann: int) -> str | None:
    from bot.rules import pegaz

    state = (await tv.services.tables.get(1)).state
    if ann not in pegaz.to_act(state):
        return None
    return "modifier" if state.phase is pegaz.Phase.MODIFIERS else "turn"


async def _ann_plays(tv: Tavern, board: FakeMessage, ann: Any, what: str) -> None:
    """Ann keeps her cards when she may change them, and folds when it is her turn: the NPCs
    play the game out."""
    if what == "modifier":
        dm = tv.hand_dm(ann)
        await settle(tv.fake, tv.harness, await tv.fake.click(ann.user, dm, "Keep"))
        return
    await tv.press(ann.user, board, "Fold")


async def test_an_npc_speaks_under_its_own_name_where_the_bot_may_manage_webhooks(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    fake.grant_bot(MANAGE_WEBHOOKS)
    await npc_opens_against_ahsoka(fake, harness)
    hooks = fake.webhooks()
    assert [h.name for h in hooks] == ["Szulernia NPCs"]
    spoken = [m for m in fake.tavern.messages if m.webhook_id == hooks[0].id]
    assert [m.author_name for m in spoken] == ["Greedo"] and spoken[0].content
    # Its avatar is its personality's portrait, uploaded once as an application emoji.
    [emoji] = fake.emojis()
    assert emoji.name == f"npc_{MASTER}"
    assert spoken[0].avatar_url is not None and str(emoji.id) in spoken[0].avatar_url


async def test_an_npc_whose_portrait_is_refused_still_speaks(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    fake.grant_bot(MANAGE_WEBHOOKS)
    fake.refuse_emoji_uploads = True
    await npc_opens_against_ahsoka(fake, harness)
    [hook] = fake.webhooks()
    spoken = [m for m in fake.tavern.messages if m.webhook_id == hook.id]
    assert [m.author_name for m in spoken] == ["Greedo"] and spoken[0].avatar_url is None
    assert fake.emojis() == []


async def test_the_house_edge_is_the_gms_choice_told_to_the_gm_alone(
    fake: FakeDiscord, harness: BotHarness, monkeypatch: Any
) -> None:
    from bot.ai import players

    peeks: list[int] = []
    real = players.decide_peeking

    def counted(state: Any, player: int, style: Any, rng: Any) -> Any:
        peeks.append(player)
        return real(state, player, style, rng)

    monkeypatch.setattr(players, "decide_peeking", counted)
    tv = Tavern(fake, harness)
    ann = await tv.player("Ann")
    gaston = await tv.player("Gaston", npc=True, perception=30)
    await tv.player("Thorgrim", npc=True, perception=30)
    board = await tv.open(stake="1 s")
    await tv.press(ann.user, board, "Join")
    refused = await fake.slash(tv.gm, "pegaz seat", npc="Thorgrim", house_edge=True)
    assert "personality" in (await refused.reply()).content  # no gambler named: nothing seated
    assert await tv.services.npcs.seats(1) == {}
    seated = await fake.slash(tv.gm, "pegaz seat", npc="Gaston", personality=DWARF, house_edge=True)
    reply = await seated.reply()
    await settle(fake, harness, seated)
    assert "house edge" in reply.content and reply.ephemeral_to is tv.gm
    assert (await tv.services.npcs.seats(1))[gaston.id].house_edge
    await tv.press(tv.gm, board, "Start")
    await _play_out(tv, board, ann)
    assert peeks and set(peeks) == {gaston.id}
    public = [m.content for m in fake.tavern.messages] + [
        e.get("description", "") for m in fake.tavern.messages for e in m.embeds
    ]
    assert not any("house edge" in text for text in public)
    await tv.books_balance(table_id=1, pot=0)
