"""The games the crash drills play (see ``crash_support``): scripted Three-Card Pegasus games,
and a rule-based Pazaak player."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable

from bot.rules.pazaak import PazaakState
from tests.e2e.crash_support import Drill, board_of
from tests.e2e.pazaak_support import Table, settle
from tests.e2e.pegaz_kit import Player, Tavern
from tests.fakediscord import FakeMessage

# --- Three-Card Pegasus ------------------------------------------------------------------------

PEGAZ = "pg"
LUCK_ONE = "Luck or Gamble: move one card by 1…"


async def pegaz_exchange(
    d: Drill, tv: Tavern, who: Player, fields: dict[str, str], label: str, table_id: int
) -> None:
    """Pay & exchange…: the dialog, its preview, and the Pay button (the step)."""
    fake = d.fake
    dialog = await fake.click(who.user, board_of(fake, PEGAZ, table_id), "Pay & exchange…")
    preview = await (await fake.submit_modal(who.user, dialog, fields)).reply()
    await d.commit(label, lambda: fake.click(who.user, preview, preview.button_labels[0]))


async def pegaz_open(d: Drill, tv: Tavern, *players: Player, label: str = "") -> int:
    """The GM opens a table and the players sit down; the table's id."""
    fake = d.fake
    before = set(await tv.services.tables.live_in_channel(fake.guild.id, fake.tavern.id))
    await d.commit(f"{label}open", lambda: fake.slash(tv.gm, "pegaz open"))
    live = await tv.services.tables.live_in_channel(fake.guild.id, fake.tavern.id)
    (table_id,) = set(live) - before
    for who in players:
        board = board_of(fake, PEGAZ, table_id)
        join = functools.partial(fake.click, who.user, board, "Join")
        await d.commit(f"{label}join {who.name}", join)
    return table_id


async def pegaz_check_game(d: Drill, tv: Tavern) -> None:
    """Luck keeps and moves cards, two exchanges (one raising), a check, an offering."""
    fake = d.fake
    ann = await tv.player("Ann", luck=True)
    bob = await tv.player("Bob")
    table = await pegaz_open(d, tv, ann, bob)

    def board() -> FakeMessage:
        return board_of(fake, PEGAZ, table)

    await d.commit("start", lambda: fake.click(tv.gm, board(), "Start"))
    await d.commit(
        "luck Ann", lambda: fake.select(ann.user, tv.hand_dm(ann), ["1+1"], placeholder=LUCK_ONE)
    )
    await pegaz_exchange(d, tv, ann, {"cards": "3", "raise": "1p"}, "exchange Ann", table)
    await d.commit("keep Ann", lambda: fake.click(ann.user, tv.hand_dm(ann), "Keep the cards"))
    await pegaz_exchange(d, tv, bob, {}, "exchange Bob", table)
    ask = await tv.press(ann.user, board(), "Check…")
    await d.commit(
        "check Ann",
        lambda: fake.select(ann.user, ask, [str(bob.id)], placeholder="Whom do you check?"),
    )
    await d.commit("offer Ann", lambda: fake.click(ann.user, board(), "Give a tenth to Ranald"))


async def pegaz_fold_game(d: Drill, tv: Tavern) -> None:
    """The first player folds; the winner keeps it all."""
    fake = d.fake
    cat, dan = await tv.player("Cat"), await tv.player("Dan")
    table = await pegaz_open(d, tv, cat, dan)
    await d.commit("start", lambda: fake.click(tv.gm, board_of(fake, PEGAZ, table), "Start"))
    await d.commit("fold Cat", lambda: fake.click(cat.user, board_of(fake, PEGAZ, table), "Fold"))
    await d.commit(
        "offer Dan", lambda: fake.click(dan.user, board_of(fake, PEGAZ, table), "Keep it all")
    )


async def pegaz_cancel_game(d: Drill, tv: Tavern) -> None:
    """The GM cancels a running game: the pot goes back."""
    fake = d.fake
    eve, fay = await tv.player("Eve"), await tv.player("Fay")
    table = await pegaz_open(d, tv, eve, fay)
    await d.commit("start", lambda: fake.click(tv.gm, board_of(fake, PEGAZ, table), "Start"))
    await d.commit("cancel", lambda: fake.click(tv.gm, board_of(fake, PEGAZ, table), "Cancel game"))


# --- Pazaak ------------------------------------------------------------------------------------

PAZAAK = "pz"
CARDS_A = ["+1", "+2", "+3", "+4", "-1", "-2", "-3", "±1", "±2", "±3"]
CARDS_B = ["±1", "±2", "±3", "±4", "-1", "-2", "-3", "+1", "+2", "+3"]
MAX_MOVES = 300


def pazaak_choice(state: PazaakState) -> tuple[str, int, int | None]:
    """A plain player's move: ``("card", index, value or None)``, ``("stand", 0, None)`` or
    ``("end", 0, None)``.

    Play a card that saves a bust, or one that brings 14+ to 18..20; stand at 17+ (Bastila at
    16 to 18 by the set: with the test's seeded dealer every set is dealt alike, and two fixed
    policies could tie forever), or when ahead of a standing opponent; else end the turn."""
    me, other = state.players[state.turn_seat], state.players[1 - state.turn_seat]
    total = me.total
    if not me.played_card_this_turn:
        best: tuple[int, int, int | None] | None = None
        for index, side in enumerate(me.hand):
            for value in side.values:
                new = total + value
                if (total > 20 and new <= 20) or (total >= 14 and total < new <= 20 and new >= 18):
                    found = (new, index, value if len(side.values) > 1 else None)
                    best = found if best is None or found > best else best
        if best is not None:
            return "card", best[1], best[2]
    enough = 17 if state.turn_seat == 0 else 16 + state.set_number % 3
    if total >= enough or (other.standing and total > other.total):
        return "stand", 0, None
    return "end", 0, None


class PazaakMatch:
    """Ahsoka (A) and Bastila (B) at one table, moves by :func:`pazaak_choice`, each a step."""

    def __init__(self, d: Drill, table: Table) -> None:
        self.d = d
        self.table = table
        self.counts: Counter[str] = Counter()
        self.table_id = 0

    def label(self, kind: str) -> str:
        self.counts[kind] += 1
        return f"{kind} {self.counts[kind]}"

    def board(self) -> FakeMessage:
        return board_of(self.d.fake, PAZAAK, self.table_id)

    async def accept(self, **options: object) -> None:
        table, fake = self.table, self.d.fake
        challenge = await table.send_challenge(wager="250 cr", **options)
        before = set(await table.services.tables.live_in_channel(fake.guild.id, fake.tavern.id))
        await self.d.commit(
            self.label("accept"), lambda: fake.click(table.users["B"], challenge, "Accept")
        )
        live = await table.services.tables.live_in_channel(fake.guild.id, fake.tavern.id)
        (self.table_id,) = set(live) - before

    async def state(self) -> PazaakState:
        view = await self.table.services.tables.get(self.table_id)
        return view.state  # type: ignore[no-any-return]

    async def over(self) -> bool:
        view = await self.table.services.tables.get(self.table_id)
        return view.status in ("finished", "cancelled")

    async def move(self) -> str:
        """The player on turn moves; the kind of step it was."""
        fake, table = self.d.fake, self.table
        state = await self.state()
        who = "A" if state.current_player == table.characters["A"].id else "B"
        user = table.users[who]
        kind, index, value = pazaak_choice(state)
        if kind in ("end", "stand"):
            board = self.board()
            button = next(b for b in board.buttons if b["custom_id"].endswith(f":{kind}"))
            await self.d.commit(
                self.label(kind), lambda: fake.click(user, board, custom_id=button["custom_id"])
            )
            return kind
        hand = table.hand_dm(who)
        button = next(b for b in hand.buttons if b["custom_id"].endswith(f":card:{index}"))
        if value is None:
            await self.d.commit(
                self.label("card"), lambda: fake.click(user, hand, custom_id=button["custom_id"])
            )
            return "card"
        asked = await fake.click(user, hand, custom_id=button["custom_id"])
        choice = await asked.reply()
        await settle(fake, self.d.harness, asked)
        sign = f"+{value}" if value > 0 else f"\u2212{-value}"
        await self.d.commit(self.label("value"), lambda: fake.click(user, choice, sign))
        return "value"

    async def play_out(self, *, until: Callable[[str], bool] = lambda kind: False) -> None:
        """Move until the match is over (or ``until`` the kind of a move says so)."""
        for _ in range(MAX_MOVES):
            if await self.over() or until(await self.move()):
                return
        raise AssertionError(f"the match did not end in {MAX_MOVES} moves")

    async def forfeit(self, who: str) -> None:
        fake, user = self.d.fake, self.table.users[who]
        asked = await fake.click(user, self.board(), "Forfeit")
        confirm = await asked.reply()
        await settle(fake, self.d.harness, asked)
        await self.d.commit(
            self.label("forfeit"), lambda: fake.click(user, confirm, "Yes, forfeit")
        )


async def pazaak_sets_game(d: Drill, table: Table) -> None:
    """A match played to its end by sets: end turn, stand, plain and ± cards."""
    match = PazaakMatch(d, table)
    await match.accept()
    await match.play_out()


async def pazaak_forfeit_game(d: Drill, table: Table) -> None:
    """A match ended by a forfeit after a few moves."""
    match = PazaakMatch(d, table)
    await match.accept()
    for _ in range(3):
        await match.move()
    await match.forfeit("B")
