"""Every kind of step, crashed after its commit: the bot is killed at a REST call the step makes
after its commit (Discord applied the call, or did not), a new bot starts on the same database,
and, with no GM action, the game goes on from its buttons to the end with nothing lost or doubled.

A clean run of each game is the reference: it maps each step's post-commit requests (the n-th
request after the click, callbacks aside: the spy in ``crash_support`` notes that the database
had moved when it arrived) and what the players saw in the end. A crashed run is one whole game
with a crash in *each* planned step, at that step's first (or last, or k-th) post-commit request.
After each restart: one live table message per table, the books balanced; at the end: the same
announcements (each once), table messages, DMs as posted, purses and pots as the clean run.

Covered (``first`` and ``last`` post-commit request of every kind of step, both ways):
- Pegaz: open, join, start (the hand DMs), Luck's move and keep from the DM, pay & exchange,
  check, fold, both offerings, cancel (three games in one world);
- Pazaak: accept (escrow, then the challenge, the board and the hand DMs) and forfeit at every
  post-commit request; end turn, stand, a card, a ± card's value, the first step that ends a
  set and the step that ends the match; a turn that times out (first and last request).
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.register_assert_rewrite("tests.e2e.crash_support", "tests.e2e.crash_games")

from tests.e2e import crash_games as games  # noqa: E402
from tests.e2e import crash_support as cs  # noqa: E402
from tests.e2e.pazaak_support import seat_two  # noqa: E402
from tests.e2e.pegaz_kit import Tavern  # noqa: E402

Points = dict[str, list[int]]
_references: dict[str, tuple[Points, cs.Seen, dict[str, cs.StepRecord]]] = {}


# --- the runs ----------------------------------------------------------------------------------


async def pegaz_games(d: cs.Drill, tv: Tavern) -> None:
    """The three Pegaz games, one after the other, in one channel (tables 1, 2, 3)."""
    d.labels_prefix = "check: "
    await games.pegaz_check_game(d, tv)
    d.labels_prefix = "fold: "
    await games.pegaz_fold_game(d, tv)
    d.labels_prefix = "cancel: "
    await games.pegaz_cancel_game(d, tv)


async def run(game: str, database: Path, plan: dict[str, cs.Crash] | None) -> cs.Drill:
    async with cs.world(database) as (fake, harness):
        prefix = games.PEGAZ if game == "pegaz" else games.PAZAAK

        async def check() -> None:
            await cs.one_live_board(fake, harness, prefix)
            await cs.books_balance(harness)

        drill = cs.Drill(fake, harness, prefix=prefix, plan=plan, check=check)
        if game == "pegaz":
            await pegaz_games(drill, Tavern(fake, harness))
        else:
            table = await seat_two(fake, harness, cards_a=games.CARDS_A, cards_b=games.CARDS_B)
            flow = games.pazaak_sets_game if game == "sets" else games.pazaak_forfeit_game
            await flow(drill, table)
        await cs.settle(fake, harness)
        await cs.books_balance(harness)
        services = harness.bot.services
        assert await services.tables.live_in_channel(fake.guild.id, fake.tavern.id) == []
        drill.seen = cs.Seen.of(fake, harness)
        return drill


async def reference(game: str, tmp: Path) -> tuple[Points, cs.Seen, dict[str, cs.StepRecord]]:
    if game not in _references:
        drill = await run(game, tmp / f"reference-{game}.db", None)
        assert drill.seen is not None
        _references[game] = drill.points(), drill.seen, drill.steps
    return _references[game]


async def crash_run(game: str, tmp: Path, plan: dict[str, cs.Crash], clean: cs.Seen) -> None:
    drill = await run(game, tmp / "crashed.db", plan)
    assert drill.crashed, f"no planned crash happened: {drill.missed}"
    assert len(drill.missed) <= len(plan) // 3, drill.missed  # later steps may ask less
    assert drill.seen is not None
    drill.seen.compare(clean)


APPLIED = pytest.mark.parametrize("applied", [False, True], ids=["lost", "applied"])


# --- Pegaz ---------------------------------------------------------------------------------------


@APPLIED
@pytest.mark.parametrize("k", ["first", "last"])
async def test_pegaz_every_step_crashed(k: str, applied: bool, tmp_path: Path) -> None:
    points, clean, _ = await reference("pegaz", tmp_path)
    kinds = {label.split(": ")[1].split(" ")[0] for label in points}
    assert kinds == {"open", "join", "start", "luck", "exchange", "keep", "check", "fold"} | {
        "offer",
        "cancel",
    }
    assert all(points.values()), points  # every step commits before some request
    await crash_run("pegaz", tmp_path, cs.plan_for(points, k, applied), clean)


# --- Pazaak --------------------------------------------------------------------------------------


@APPLIED
@pytest.mark.parametrize("k", range(6))
async def test_pazaak_accept_and_forfeit_crashed_at_each_request(
    k: int, applied: bool, tmp_path: Path
) -> None:
    points, clean, _ = await reference("forfeit", tmp_path)
    assert max(len(points["accept 1"]), len(points["forfeit 1"])) <= 6, points
    plan = cs.plan_for(points, k, applied, labels=["accept 1", "forfeit 1", "end 1"])
    if not plan:
        pytest.skip(f"accept and forfeit make fewer than {k + 1} post-commit requests")
    await crash_run("forfeit", tmp_path, plan, clean)


@APPLIED
@pytest.mark.parametrize("k", ["first", "last"])
async def test_pazaak_every_move_crashed(k: str, applied: bool, tmp_path: Path) -> None:
    points, clean, steps = await reference("sets", tmp_path)
    moves = [label for label in points if not label.startswith("accept")]
    wanted = {"end 1", "stand 1", "card 1", "value 1", moves[-1]}
    wanted.add(next(label for label in moves if steps[label].announces))  # a set's result
    assert wanted <= set(points), points
    await crash_run("sets", tmp_path, cs.plan_for(points, k, applied, labels=wanted), clean)


# --- a hand DM whose choice was saved before a crash -----------------------------------------


async def test_a_luck_choice_killed_after_its_commit_still_shows_in_the_hand_dm(
    tmp_path: Path,
) -> None:
    async with cs.world(tmp_path / "luck.db") as (fake, harness):
        tv = Tavern(fake, harness)
        ann, bob = await tv.player("Ann", luck=True), await tv.player("Bob")
        plan = {"luck Ann": cs.Crash(0, applied=False)}
        d = cs.Drill(fake, harness, prefix=games.PEGAZ, plan=plan)
        table = await games.pegaz_open(d, tv, ann, bob)
        await d.commit(
            "start", lambda: fake.click(tv.gm, cs.board_of(fake, games.PEGAZ, table), "Start")
        )
        dm = tv.hand_dm(ann)
        await d.commit(
            "luck Ann", lambda: fake.select(ann.user, dm, ["1+1"], placeholder=games.LUCK_ONE)
        )
        assert d.crashed  # the choice is saved: Snake -> Dragon
        assert "**Ann**'s turn" in cs.board_of(fake, games.PEGAZ, table).embeds[0]["description"]

        assert cs.live_buttons(dm, games.PEGAZ, table) == [], "the DM still offers the choice"
        assert "🐉 Dragon" in dm.text, "the DM still shows the cards before the choice"


# --- a turn that times out -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("nth", "applied"), [(0, False), (0, True), (1, False), (1, True)], ids=str
)
async def test_pazaak_a_timeout_killed_after_its_commit(
    nth: int, applied: bool, tmp_path: Path
) -> None:
    """Bastila lets her 1 s turn run out (and Ahsoka hers, for ``nth`` 1); the bot dies at the
    ``nth`` request of the timer's steps. The new bot shows the timeout (once), and the match goes
    on: Bastila forfeits."""
    async with cs.world(tmp_path / "timeout.db") as (fake, harness):
        table = await seat_two(fake, harness)
        board = await table.open(wager="250 cr", turn_timeout=1)
        read = cs.fingerprint(harness.settings.database.path)
        before = read()
        hold = cs.hold_nth(fake, nth, applied=applied)
        for _ in range(nth + 1):  # a timeout makes one request (its board's edit)
            await harness.clock.advance(1)
            await cs.settle(fake, harness)
        await hold.reached(timeout=5)
        assert read() != before  # the timer's step is saved
        await harness.crash_and_restart()
        await cs.settle(fake, harness)
        await cs.one_live_board(fake, harness, games.PAZAAK)
        await cs.books_balance(harness)

        shown = [cs.normalise(fake, str(v["embeds"][0].get("description"))) for v in board.edits]
        shown.append(cs.normalise(fake, board.embeds[0].get("description") or ""))
        timeouts = [text for text in shown if "Time is up for Bastila" in text]
        assert timeouts, shown
        bob = table.users["B"]
        asked = await fake.click(bob, cs.board_of(fake, games.PAZAAK, 1), "Forfeit")
        confirm = await asked.reply()
        await cs.settle(fake, harness, asked)
        await cs.settle(fake, harness, await fake.click(bob, confirm, "Yes, forfeit"))

        assert (await table.services.tables.get(1)).status == "finished"
        said = cs.announcements(fake)
        assert cs.duplicates(said) == [] and len([s for s in said if "forfeits" in s]) == 1
        assert (await table.balance("A"), await table.balance("B")) == (1250, 750)
        await cs.books_balance(harness)
