"""A thread per table: where a table talks (a table option, with a server default).

The table message stays in the channel. A table opened with ``thread`` (or, without the option,
on a server with ``/settings threads on``) talks in a public thread the bot starts on its table
message: the step announcements, the NPCs' table talk, the turn warnings and the end of the game
go there, as ordinary messages with nonces (a click's follow-up can only post in the click's own
channel). The thread is archived once the last version of a finished or cancelled table is
posted.

The choice is written by the transaction that opens the table, with its thread in the table's
marks (``bot.services.surfaces``): None until the thread is started, 0 when the bot may not start
one (Create Public Threads and Send Messages in Threads, read from the opening interaction's
``app_permissions``, or a 403 when starting it), and then the table talks in its channel, which
its opener is told once. Starting it is idempotent across a crash between the start and the
record: a message's thread has the message's id, so a thread already started on the table
message (known from the gateway, or Discord's 160004 "already created") is taken as it is.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Final, Literal

import discord

from bot.i18n import Lang, t
from bot.services.outcomes import TableView
from bot.services.surfaces import Marks

if TYPE_CHECKING:
    from bot.app import SzulerniaBot

log = logging.getLogger(__name__)

ARCHIVE_MINUTES: Final[Literal[1440]] = 1440
NAME_MAX = 100
ALREADY_STARTED = 160004
"""A thread has already been created for this message."""
ARCHIVED = 50083
GONE = frozenset({10003, 50001, 50013, ARCHIVED})
"""Unknown channel, missing access or permissions, archived: nothing more to do there."""


def may_start(interaction: discord.Interaction[Any]) -> bool:
    """Whether the bot may start a table's thread in the interaction's channel and talk in it."""
    allowed = interaction.app_permissions
    return allowed.create_public_threads and allowed.send_messages_in_threads


async def wanted(bot: SzulerniaBot, guild_id: int, thread: bool | None) -> bool:
    """The table's option, else the server's default."""
    return await bot.services.guilds.threads(guild_id) if thread is None else thread


def fell_back(marks: Marks) -> bool:
    """Whether the table wanted a thread but talks in its channel (its opener is told)."""
    return marks.threaded and marks.thread_id == 0


def talk_channel(table: TableView, marks: Marks) -> int:
    """Where the table talks: its thread once started, else its channel."""
    if not marks.threaded:
        return table.channel_id
    return marks.thread_id or table.channel_id


async def talk_of(bot: SzulerniaBot, table: TableView) -> int:
    """:func:`talk_channel`, reading the table's marks."""
    return talk_channel(table, await bot.services.surfaces.marks(table.table_id))


def thread_name(table: TableView, lang: Lang) -> str:
    return t(lang, f"threads.name.{table.game}", table=table.table_id)[:NAME_MAX]


async def start(bot: SzulerniaBot, table: TableView, marks: Marks) -> bool:
    """Start the table's thread on its table message if it wants one and has none yet; record
    it (0 where the bot may not). False if Discord refused for now (the pass tries again)."""
    message_id = marks.message_id
    if not marks.threaded or marks.thread_id is not None or message_id is None:
        return True
    thread_id = await _started(bot, table, message_id)
    if thread_id is None:
        return False
    await bot.services.surfaces.started_thread(table.table_id, thread_id)
    return True


async def _started(bot: SzulerniaBot, table: TableView, message_id: int) -> int | None:
    if isinstance(bot.get_channel(message_id), discord.Thread):  # started before a crash
        return message_id
    lang = await bot.services.guilds.language(table.guild_id)
    try:
        data = await bot.http.start_thread_with_message(
            table.channel_id,
            message_id,
            name=thread_name(table, lang),
            auto_archive_duration=ARCHIVE_MINUTES,
        )
        return int(data["id"])
    except discord.HTTPException as exc:
        if exc.code == ALREADY_STARTED:
            return message_id
        if isinstance(exc, discord.Forbidden) or exc.code in GONE:
            log.warning(
                "table %d: no thread may be started (%s %s); talking in the channel",
                table.table_id, exc.status, exc.code,
            )  # fmt: skip
            return 0
        log.warning(
            "table %d: the thread could not be started (%s %s); will retry",
            table.table_id, exc.status, exc.code,
        )  # fmt: skip
        return None


async def archive(bot: SzulerniaBot, table: TableView, marks: Marks) -> bool:
    """Archive a closed table's thread; False if Discord refused for now."""
    if table.status not in ("finished", "cancelled") or not marks.threaded:
        return True
    if not marks.thread_id:
        return True
    try:
        await bot.http.edit_channel(marks.thread_id, archived=True)
    except discord.HTTPException as exc:
        if isinstance(exc, discord.NotFound | discord.Forbidden) or exc.code in GONE:
            log.info("table %d: its thread stays as it is (%s)", table.table_id, exc.code)
            return True
        log.warning("table %d: the thread could not be archived (%s)", table.table_id, exc.code)
        return False
    return True
