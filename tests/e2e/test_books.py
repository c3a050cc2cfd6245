"""The GM's books end to end through the fake Discord: an evening of two Pegasus games (a cheat
missed, a cheat caught), a grant; then ``/gm report`` for the GM alone and for the channel (no
missed cheat there), ``/gm void`` of a game and of a grant (refused until the server allows an
overdraft), and ``/gm export``, whose two attachments are checked to the coin."""

from __future__ import annotations

import csv
import io
import json
import random
from typing import Any

from bot.rules import pegaz
from tests.e2e.pegaz_kit import GC, Player, Tavern
from tests.e2e.test_characters import say
from tests.fakediscord import BotHarness, FakeDiscord, FakeMessage
from tests.services.test_books import no_cheats

STAKE = 12


async def game(tv: Tavern, seated: list[Player], cheater: Player, key: str) -> int:
    """A finished Pegasus game at which ``cheater`` moves a card by 2 first, then fair play."""
    tables = tv.services.tables
    settings = pegaz.PegazSettings(stake=STAKE, source="deck")
    outcome = await tables.create(
        "pegaz",
        lambda rng: pegaz.new_table(settings),
        guild_id=tv.fake.guild.id,
        channel_id=tv.fake.tavern.id,
        actor_id=tv.gm.id,
        key=key,
    )
    actions: list[Any] = []
    for who in seated:
        row = await tv.services.characters.get(who.id)
        funds = await tv.purse(who)
        actions.append(pegaz.Join(who.id, row.luck, row.gamble, row.perception, funds))
    actions += [pegaz.Start(seated[0].id), pegaz.Cheat(cheater.id, 0, 2)]
    rng = random.Random(3)
    steps = 0
    while outcome.status != "finished":
        steps += 1
        assert steps < 500
        action = actions.pop(0) if actions else no_cheats(rng, pegaz.legal_actions(outcome.state))
        outcome = await tables.act(
            outcome.table_id, action, key=f"{key}:{steps}", expected_version=None, actor_id=None
        )
    return outcome.table_id


def fields(message: FakeMessage) -> dict[str, str]:
    [embed] = message.embeds
    return {f["name"]: f["value"] for f in embed["fields"]}


def attached(fake: FakeDiscord, message: FakeMessage) -> dict[str, bytes]:
    return {a["filename"]: fake.state.files[int(a["id"])] for a in message.attachments}


async def test_an_evening_reported_voided_and_exported(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann = await tv.player("Ann", gamble=True)
    bob = await tv.player("Bob")  # Perception 0: sees nothing
    cid = await tv.player("Cid", perception=100)  # sees everything
    missed = await game(tv, [ann, bob], ann, "g1")
    caught = await game(tv, [ann, cid], ann, "g2")
    given = await say(fake, tv.gm, "purse give", character="Bob", amount="1 GC", reason="Loot")
    assert given.content == "The GM gave 1 GC to **Bob**: Loot"

    refused = await say(fake, ann.user, "gm report")
    assert refused.content == "Only a GM can do that." and refused.ephemeral

    mine = await say(fake, tv.gm, "gm report", since="2h")
    assert mine.ephemeral
    assert fields(mine)["Cheats nobody caught"] == f"**Ann** at table #{missed}"
    assert fields(mine)["Cheats caught"] == f"**Ann** at table #{caught}, caught by **Cid**"
    assert fields(mine)["GM grants and takes"] == (
        "**Ann** +1 GC (from the GM)\n**Bob** +1 GC (from the GM)\n**Cid** +1 GC (from the GM)\n"
        "**Bob** +1 GC (from the GM): Loot"
    )
    assert fields(mine)["Tables"] == "Opened: 2. Finished: 2. Cancelled: 0."

    handle = await fake.slash(tv.gm, "gm report", public=True)
    posted = await handle.reply()
    assert not posted.ephemeral and fake.tavern.messages[-1] is posted
    assert "Cheats nobody caught" not in fields(posted)
    assert f"**Ann** at table #{missed}" not in json.dumps(posted.embeds)
    assert fields(posted)["Cheats caught"] == fields(mine)["Cheats caught"]
    copy = await handle.followup(0)
    assert (
        copy.ephemeral
        and fields(copy)["Cheats nobody caught"] == fields(mine)["Cheats nobody caught"]
    )

    # Void the second game: Ann and Cid get back exactly what they had before it.
    before = {p.name: await tv.purse(p) for p in (ann, bob, cid)}
    history = await tv.services.purses.history(cid.id, "wh", limit=100)
    cid_net = sum(line.amount for line in history.lines if line.table_id == caught)
    ann_history = await tv.services.purses.history(ann.id, "wh", limit=100)
    ann_net = sum(line.amount for line in ann_history.lines if line.table_id == caught)
    voided = await say(fake, tv.gm, "gm void", table=caught)
    assert not voided.ephemeral
    assert voided.content.startswith(f"Table #{caught} is voided: ")
    assert await tv.purse(cid) == before["Cid"] - cid_net
    assert await tv.purse(ann) == before["Ann"] - ann_net
    again = await say(fake, tv.gm, "gm void", table=caught)
    assert again.content == f"Table #{caught} is voided already." and again.ephemeral
    shown = await say(fake, cid.user, "purse history")
    assert f"table #{caught} voided" in shown.embeds[0]["description"]

    # Bob spends the GM's coin; voiding that grant then needs an overdraft.
    await tv.services.purses.take(bob.id, "wh", await tv.purse(bob) - 10, actor_id=tv.gm.id)
    grant = (await tv.services.purses.history(bob.id, "wh", limit=2)).lines[1]
    assert grant.kind == "grant"
    offered = await fake.autocomplete(tv.gm, "gm void", "movement", "loot")
    assert offered == [
        {"name": f"#{grant.movement_id} grant 1 GC to Bob: Loot", "value": grant.movement_id}
    ]
    assert await fake.autocomplete(bob.user, "gm void", "movement", "") == []  # GMs only
    short = await say(fake, tv.gm, "gm void", movement=grant.movement_id)
    assert short.content == (
        "**Bob** holds 10 p, and the correction would take 1 GC: nothing was changed. "
        "A GM can allow a purse below zero with /settings overdraft."
    )
    allowed = await say(fake, tv.gm, "settings overdraft", state="on")
    assert allowed.ephemeral
    overdrawn = await say(fake, tv.gm, "gm void", movement=grant.movement_id, overdraft=True)
    assert overdrawn.content == (
        f"Movement #{grant.movement_id} is undone. **Bob** \u22121 GC (now \u221219 s 2 p)."
    )
    assert await tv.purse(bob) == 10 - GC
    assert await fake.autocomplete(tv.gm, "gm void", "movement", "loot") == []  # undone

    exported = await say(fake, tv.gm, "gm export")
    assert exported.ephemeral and exported.content.startswith("The ledger of this server: ")
    files = attached(fake, exported)
    assert set(files) == {"ledger.csv", "ledger.json"}
    rows = list(csv.DictReader(io.StringIO(files["ledger.csv"].decode("utf-8"))))
    records = json.loads(files["ledger.json"])
    assert [str(r["movement"]) for r in records] == [r["movement"] for r in rows]
    assert f"{len(rows)} movements" in exported.content
    for player in (ann, bob, cid):  # every purse, to the coin, from either file
        for source in (rows, records):
            net = sum(
                int(r["amount"]) * ((str(r["to"]) == player.name) - (str(r["from"]) == player.name))
                for r in source
                if r["currency"] == "wh"
            )
            assert net == await tv.purse(player), player.name
    assert {r["kind"] for r in records} >= {"grant", "stake", "payout", "take", "correction"}
    assert all(r["amount_text"] for r in records)

    one = await say(fake, tv.gm, "gm export", character="Cid")
    files = attached(fake, one)
    assert set(files) == {"ledger-cid.csv", "ledger-cid.json"}
    mine_only = json.loads(files["ledger-cid.json"])
    assert all("Cid" in (r["from"], r["to"]) for r in mine_only)
    audit = await tv.services.purses.audit()
    assert audit.unbalanced_movements == () and audit.drifted_accounts == ()
