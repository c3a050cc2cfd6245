"""A thread per table, end to end (``/settings threads``, the ``thread`` option): the table
message stays in the channel, its talk (announcements, warnings, the end) goes to a thread the
bot starts on it, archived when the table closes; without the permission the table talks in the
channel and its opener is told once; a crash between starting the thread and recording it
starts no second thread."""

from __future__ import annotations

import re

from tests.e2e.pazaak_support import seat_two, settle
from tests.e2e.pegaz_kit import Tavern
from tests.e2e.test_characters import say
from tests.fakediscord import MANAGE_GUILD, MANAGE_WEBHOOKS, BotHarness, FakeDiscord, FakeMessage
from tests.fakediscord.models import CREATE_PUBLIC_THREADS, SEND_MESSAGES_IN_THREADS, FakeChannel
from tests.fakediscord.threads import FakeThread

START_THREAD = "POST /channels/{channel_id}/messages/{message_id}/threads"
FALLBACK = "I may not start threads here"
CARDSHARP = "bretonnian_cardsharp"


def talk(where: FakeChannel) -> list[str]:
    """The plain messages (not table messages) of a channel or thread, oldest first."""
    return [m.content for m in where.messages if not m.embeds]


def table_id(board: FakeMessage) -> int:
    return int(str(board.embeds[0]["footer"]["text"]).split()[-1])


def opened(text: str) -> int:
    match = re.search(r"Table (\d+) is open", text)
    assert match, text
    return int(match[1])


def only_thread(fake: FakeDiscord, board: FakeMessage) -> FakeThread:
    [thread] = fake.threads()
    assert thread.id == board.id  # started on the table message
    return thread


async def test_a_pegaz_game_talks_in_its_thread_and_archives_it(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann = await tv.player("Ann")
    bob = await tv.player("Bob")
    switched = await say(fake, tv.gm, "settings threads", state="on")
    assert switched.content.startswith("Tables opened here now talk in a thread of their own")
    board = await tv.open()
    thread = only_thread(fake, board)
    assert thread.name == f"Table {table_id(board)}: Three-Card Pegasus"
    assert not thread.archived

    await tv.press(ann.user, board, "Join")
    await tv.press(bob.user, board, "Join")
    await tv.press(tv.gm, board, "Start")
    await harness.clock.advance(9 * 60 + 30)  # a minute before Ann's turn times out
    await fake.state.wait_for(
        lambda: any(line.startswith("⏳") for line in talk(thread)), what="the turn warning"
    )
    await tv.press(ann.user, board, "Fold")
    await tv.press(bob.user, board, "Keep it all")
    await fake.state.wait_for(lambda: thread.archived, what="the thread archived")

    assert board in fake.tavern.messages and board.embeds  # the table message stays
    said = talk(thread)
    assert any("Ann" in line and "fold" in line.lower() for line in said), said
    assert any("Bob" in line for line in said[-2:]), said  # the end of the game
    assert talk(fake.tavern) == []  # nothing of the table's talk in the channel
    assert len(fake.threads()) == 1


async def test_the_option_overrides_the_server_default(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann = await tv.player("Ann")
    board = await tv.open(thread=True)  # the server's default is off
    thread = only_thread(fake, board)
    await tv.press(ann.user, board, "Join")
    await tv.press(tv.gm, board, "Cancel game")
    await fake.state.wait_for(lambda: thread.archived, what="the thread archived")

    await say(fake, tv.gm, "settings threads", state="on")
    other = await tv.open(thread=False)
    await tv.press(ann.user, other, "Join")
    assert len(fake.threads()) == 1


async def test_without_the_permission_the_table_talks_in_the_channel(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann = await tv.player("Ann")
    bob = await tv.player("Bob")
    await say(fake, tv.gm, "settings threads", state="on")
    fake.deny_bot(CREATE_PUBLIC_THREADS)
    handle = await fake.slash(tv.gm, "pegaz open")
    reply = await handle.reply()
    assert reply.ephemeral and FALLBACK in reply.content  # told once, to the opener
    board = tv.table_message(opened(reply.content))
    await tv.press(ann.user, board, "Join")
    await tv.press(bob.user, board, "Join")
    await tv.press(tv.gm, board, "Start")
    await tv.press(ann.user, board, "Fold")
    assert fake.threads() == []
    assert not fake.requests(START_THREAD)  # it knew from the interaction's app_permissions
    said = talk(fake.tavern)
    assert any("Ann" in line and "fold" in line.lower() for line in said), said
    assert not any(FALLBACK in line for line in said)


async def test_a_thread_it_may_no_longer_post_in_leaves_the_talk_in_the_channel(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann = await tv.player("Ann")
    bob = await tv.player("Bob")
    board = await tv.open(thread=True)
    thread = only_thread(fake, board)
    await tv.press(ann.user, board, "Join")
    fake.deny_bot(SEND_MESSAGES_IN_THREADS)  # an admin, mid-game
    await tv.press(bob.user, board, "Join")
    assert any("Ann" in line for line in talk(thread))
    assert any("Bob" in line for line in talk(fake.tavern)), talk(fake.tavern)
    fake.deny_bot(0)
    fake.archive_thread(thread)  # a moderator archives it: the same
    await tv.press(tv.gm, board, "Start")
    assert len(talk(fake.tavern)) > 1 and not thread.locked


async def test_a_refused_start_falls_back_and_says_so(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    """The interaction said the bot may, Discord says 403 when it tries: the channel."""
    tv = Tavern(fake, harness)
    ann = await tv.player("Ann")
    fake.fail(START_THREAD, status=403, code=50013, message="Missing Permissions")
    handle = await fake.slash(tv.gm, "pegaz open", thread=True)
    reply = await handle.reply()
    assert FALLBACK in reply.content
    board = tv.table_message(opened(reply.content))
    await tv.press(ann.user, board, "Join")
    assert fake.threads() == [] and len(fake.requests(START_THREAD)) == 1


async def test_a_crash_between_starting_the_thread_and_recording_it(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    tv = Tavern(fake, harness)
    ann = await tv.player("Ann")
    held = fake.hold(START_THREAD, applied=True)  # Discord starts it; the bot never hears
    await fake.slash(tv.gm, "pegaz open", thread=True)
    await held.reached()
    await harness.crash_and_restart()  # the restart reconciles the table: its thread is known
    [board] = [m for m in fake.tavern.messages if m.embeds]
    thread = only_thread(fake, board)
    await tv.press(ann.user, board, "Join")
    marks = await harness.bot.services.surfaces.marks(table_id(board))
    assert marks.thread_id == thread.id
    assert len(fake.threads()) == 1 and talk(fake.tavern) == []
    assert any("Ann" in line for line in talk(thread))


async def test_a_pazaak_match_talks_in_its_thread(fake: FakeDiscord, harness: BotHarness) -> None:
    table = await seat_two(fake, harness)
    gm = fake.add_player("Gunther", permissions=MANAGE_GUILD)
    await say(fake, gm, "settings threads", state="on")
    board = await table.open(wager="250 cr")
    thread = only_thread(fake, board)
    assert str(thread.name).endswith(": Pazaak")
    asked = await fake.click(table.users["A"], board, "Forfeit")
    confirm = await asked.reply()
    await settle(fake, harness, await fake.click(table.users["A"], confirm, "Yes, forfeit"))
    await fake.state.wait_for(lambda: thread.archived, what="the thread archived")
    assert talk(thread)


async def test_an_npc_talks_in_the_tables_thread(fake: FakeDiscord, harness: BotHarness) -> None:
    fake.grant_bot(MANAGE_WEBHOOKS)  # through the channel's webhook, into the thread
    tv = Tavern(fake, harness)
    await tv.player("Gaston", npc=True, gamble=True)
    await tv.player("Pierre", npc=True)
    board = await tv.open(thread=True)
    thread = only_thread(fake, board)
    for name in ("Gaston", "Pierre"):
        seated = await fake.slash(tv.gm, "pegaz seat", npc=name, personality=CARDSHARP)
        await seated.reply()
        await settle(fake, harness, seated)
    [hook] = fake.webhooks()
    spoken = [m for m in thread.messages if m.webhook_id == hook.id]
    assert spoken and {m.author_name for m in spoken} <= {"Gaston", "Pierre"}
    assert not [m for m in fake.tavern.messages if m.webhook_id == hook.id]

    fake.archive_thread(thread)  # archived by a moderator: a plain line in the channel then
    fake.withhold_bot(MANAGE_WEBHOOKS)
    await harness.restart()
    harness.bot.dispatch("npc_talk", table_id(board), 2, "seated", 0)
    await fake.state.wait_for(
        lambda: any(line.startswith("**Pierre**") for line in talk(fake.tavern)),
        what="Pierre's line in the channel",
    )
