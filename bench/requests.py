"""Benchmark the REST requests a move costs, by Discord's rate-limit classes.

Plays a 3-player Three-Card Pegasus game and a Pazaak match through the loopback fake Discord
(``tests/fakediscord``) with the real bot, and prints, per move (a step a player made by
clicking), the requests the bot sent: interaction responses (exempt from Discord's global limit
of 50 requests a second) and rate-limited ones, with the routes of each.

Run: ``python bench/requests.py [games]`` (default 3 of each, with other seeds each time).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' fake Discord

from bot.rules import pazaak, pegaz
from tests.e2e.pazaak_support import Table, seat_two, settle
from tests.e2e.pegaz_kit import Tavern
from tests.fakediscord import BotHarness, FakeDiscord, FakeMessage, InteractionHandle
from tests.fakediscord.stats import RequestStats

MakeMove = Callable[[], Awaitable[object]]


class Meter:
    """Counts the requests of each move (from its click until the bot is quiet)."""

    def __init__(self, fake: FakeDiscord, harness: BotHarness) -> None:
        self.fake, self.harness = fake, harness
        self.moves = 0
        self.limited = 0
        self.interaction = 0
        self.routes: Counter[str] = Counter()
        self.answers: Counter[str] = Counter()
        """The interaction requests by route (callbacks, follow-ups, original-response edits)."""

    async def move(self, make: MakeMove) -> None:
        mark = self.fake.mark()
        handle = await make()
        handles = [handle] if isinstance(handle, InteractionHandle) else []
        await settle(self.fake, self.harness, *handles)
        stats: RequestStats = self.fake.request_stats(mark)
        self.moves += 1
        self.limited += stats.limited
        self.interaction += stats.interaction
        self.routes.update(stats.routes["limited"])
        self.answers.update(stats.routes["interaction"])


def _latest_dm(fake: FakeDiscord, user: object) -> FakeMessage:
    return [m for m in fake.dms(user) if m.embeds and m.buttons][-1]  # type: ignore[arg-type]


async def pegaz_game(fake: FakeDiscord, harness: BotHarness, meter: Meter) -> None:
    """Three players without Luck or Gamble (see :func:`pegaz_play`)."""
    await pegaz_play(fake, harness, meter, skills=False)


async def pegaz_lucky(fake: FakeDiscord, harness: BotHarness, meter: Meter) -> None:
    """Three players with Luck: a secret modifier step (in the hand DM) after every deal."""
    await pegaz_play(fake, harness, meter, skills=True)


async def pegaz_play(fake: FakeDiscord, harness: BotHarness, meter: Meter, *, skills: bool) -> None:
    """Three players: everyone keeps their cards, exchanges one card in each of the two rounds,
    then checks the next player until one is left, who gives no offering."""
    tv = Tavern(fake, harness)
    players = [await tv.player(name, coins=20 * 240, luck=skills) for name in ("Ann", "Bob", "Cid")]
    table = await tv.open()
    for p in players:
        await meter.move(lambda p=p: fake.click(p.user, table, "Join"))
    await meter.move(lambda: fake.click(tv.gm, table, "Start"))
    by_id = {p.id: p for p in players}
    while True:
        state: pegaz.PegazState = (await tv.services.tables.get(1)).state
        if pegaz.is_over(state) and state.phase is not pegaz.Phase.OFFERING:
            return
        pending = [s.player for s in state.seats if s.pending]
        if state.phase is pegaz.Phase.OFFERING:
            winner = by_id[state.offers[0]]
            await meter.move(lambda w=winner: fake.click(w.user, table, "Keep it all"))
            continue
        if pending:
            who = by_id[pending[0]]
            dm = _latest_dm(fake, who.user)
            await meter.move(lambda w=who, d=dm: fake.click(w.user, d, "Keep the cards"))
            continue
        turn = pegaz.whose_turn(state)
        assert turn is not None
        who = by_id[turn]
        if state.phase is pegaz.Phase.EXCHANGE:

            async def exchange(w: object = who.user) -> InteractionHandle:
                dialog = await fake.click(w, table, "Pay & exchange…")  # type: ignore[arg-type]
                preview = await (await fake.submit_modal(w, dialog, {"cards": "1"})).reply()  # type: ignore[arg-type]
                pay = next(b for b in preview.button_labels if b.startswith("Pay"))
                return await fake.click(w, preview, pay)  # type: ignore[arg-type]

            await meter.move(exchange)
            continue

        async def check(w: object = who.user) -> InteractionHandle:
            menu = await (await fake.click(w, table, "Check…")).reply()  # type: ignore[arg-type]
            option = menu.selects[0]["options"][0]["value"]
            return await fake.select(w, menu, [option])  # type: ignore[arg-type]

        await meter.move(check)


async def pazaak_match(fake: FakeDiscord, harness: BotHarness, meter: Meter) -> None:
    """Two players: end the turn under a threshold (15 to 19, set by set: the shuffles repeat
    from one seeded step to the next, and one fixed threshold can tie the same sets forever),
    stand from it; a card from the hand DM when the total is over 20."""
    table = await seat_two(fake, harness)
    await meter.move(lambda: _open(table))
    while True:
        state: pazaak.PazaakState = (await table.services.tables.get(1)).state
        if state.phase == "over":
            return
        player = state.current_player
        assert player is not None and table.board is not None
        who = next(k for k, c in table.characters.items() if c.id == player)
        me = next(p for p in state.players if p.id == player)
        if me.total > 20 and not me.played_card_this_turn:
            hand = table.hand_dm(who)
            button = next(
                (b for b in hand.buttons if ":card:" in b["custom_id"] and not b.get("disabled")),
                None,
            )
            if button is not None:
                await meter.move(
                    lambda h=hand, b=button, w=who: fake.click(
                        table.users[w], h, custom_id=b["custom_id"]
                    )
                )
                continue
        threshold = 15 + (state.set_number * 3 + (player == state.players[0].id)) % 5
        move = "stand" if me.total >= threshold else "end"
        button = next(b for b in table.board.buttons if b["custom_id"].endswith(f":{move}"))
        await meter.move(
            lambda b=button, w=who: fake.click(
                table.users[w], table.board, custom_id=b["custom_id"]
            )  # type: ignore[arg-type]
        )


async def _open(table: Table) -> None:
    """The challenge and its Accept, as one move."""
    await table.open(wager="100 cr")


async def run(
    game: Callable[[FakeDiscord, BotHarness, Meter], Awaitable[None]], seed: int
) -> Meter:
    with tempfile.TemporaryDirectory() as folder:
        async with FakeDiscord() as fake:
            harness = BotHarness(fake, database=Path(folder) / "bench.db", seed=seed)
            await harness.start()
            try:
                meter = Meter(fake, harness)
                await game(fake, harness, meter)
            finally:
                await harness.close()
    return meter


async def main(games: int) -> None:
    games_played = (
        ("pegaz, 3 players", pegaz_game),
        ("pegaz, 3 players with Luck", pegaz_lucky),
        ("pazaak", pazaak_match),
    )
    for name, game in games_played:
        meters = [await run(game, seed) for seed in range(1, games + 1)]
        per = [m.limited / m.moves for m in meters]
        routes: Counter[str] = Counter()
        answers: Counter[str] = Counter()
        for m in meters:
            routes.update(m.routes)
            answers.update(m.answers)
        moves = sum(m.moves for m in meters)
        print(
            f"{name}: {games} games, {moves} moves; rate-limited requests per move: "
            f"median {statistics.median(per):.2f} (min {min(per):.2f}, max {max(per):.2f}); "
            f"interaction requests per move: "
            f"{sum(m.interaction for m in meters) / moves:.2f}"
        )
        for route, n in routes.most_common():
            print(f"    {n / moves:6.2f} per move  {route}")
        print("  interaction requests:")
        for route, n in answers.most_common():
            print(f"    {n / moves:6.2f} per move  {route}")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 3))
