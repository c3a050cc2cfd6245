"""The bot side of ``bench/load.py``, run as a child process so that its CPU is its own.

``python bench/load_bot.py '<json>'`` starts one bot against the parent's FakeDiscord (over its
loopback ports) and answers commands, one a line on stdin, with one ``@@{json}`` line on stdout:

- ``mark``: the process CPU seconds (every thread: the event loop and the database's), and
  the SQL statements (``BEGIN``/``COMMIT``/``ROLLBACK`` apart) and commits seen so far: a
  ``sqlite3`` trace callback on every connection the process opens, installed before the bot
  opens its database (no production code is changed);
- ``quit``: close the bot and report the errors it logged, and when it parsed each interaction
  and began its answer (``STAMPS``).

The first line says the bot is READY, with its time to READY, its time until its open tables
were kept in memory (the restore runs beside the first clicks) and its resident memory then. Modes:
``bot`` (the real SzulerniaBot, as ``python -m bot`` runs it, which first creates the
characters it is given) and ``echo`` (a bare discord.py client that answers each button with an
UPDATE_MESSAGE response that edits the message: its button's version plus one, and nothing else),
and ``floor``: the same client in the shape issue 12 asks of the bot, acknowledging first (a
DEFERRED_UPDATE_MESSAGE) and then drawing the update through the interaction's token (a PATCH of
``@original``, as the bot's own ``cogs.kit.messages.edit_original`` sends it), with the bot's
traffic of the same run when the config has a ``mix`` (its board's embed and buttons, its
follow-ups and rate-limited posts an interaction): the least any bot that acknowledges before
its work, and says what the bot says, can do, with no game, database or render behind it.
"""

from __future__ import annotations

import asyncio
import cProfile
import gc
import json
import logging
import os
import random
import sqlite3
import sys
import threading
import time
import traceback
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord

from bot.endpoints import use_endpoints

COUNTS = {"statements": 0, "control": 0, "commits": 0}
CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "END", "SAVEPOIN", "RELEASE")
SEEN: Counter[str] = Counter()
DUMP = bool(os.environ.get("LOAD_SQL_DUMP"))  # print the commonest statements at the end
_LOCK = threading.Lock()
_connect = sqlite3.connect


def _trace(sql: str) -> None:
    with _LOCK:
        if DUMP:
            SEEN[sql[:90]] += 1
        word = sql.lstrip()[:8].upper()
        if word.startswith(CONTROL):
            COUNTS["control"] += 1
            COUNTS["commits"] += word.startswith("COMMIT")
        else:
            COUNTS["statements"] += 1


def _traced_connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
    conn: sqlite3.Connection = _connect(*args, **kwargs)
    conn.set_trace_callback(_trace)
    return conn


sqlite3.connect = _traced_connect  # type: ignore[assignment]  # the database calls it at connect time


GC = {"seconds": 0.0, "began": 0.0, "collections": 0}


def _gc_timer(phase: str, info: dict[str, Any]) -> None:
    """Time spent in the garbage collector (it runs inside whatever allocates, so a profile
    charges it to innocent functions)."""
    if phase == "start":
        GC["began"] = time.thread_time()
    else:
        GC["seconds"] += time.thread_time() - GC["began"]
        GC["collections"] += 1


gc.callbacks.append(_gc_timer)


def rss_bytes() -> int:
    gc.collect()
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def main_thread_cpu() -> float:
    """CPU seconds of the event loop's thread alone (the process's main thread)."""
    with open(f"/proc/self/task/{os.getpid()}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


STAMPS: dict[int, list[float]] = {}
"""Interaction id -> [when this process parsed it from the gateway, when it first asked for its
answer] (``time.monotonic``, the clock the parent's loop reads too), for the ack's split."""
ANSWERS = ("defer", "send_message", "send_modal", "edit_message")


def stamp_interactions() -> None:
    """Stamp each interaction where the bot (or echo) parses it and where it starts to answer
    it: discord.py's own entry points, patched in this bench process alone."""
    from discord.state import ConnectionState

    parse = ConnectionState.parse_interaction_create

    def parsed(self: ConnectionState, data: Any) -> None:
        STAMPS[int(data["id"])] = [time.monotonic(), 0.0]
        parse(self, data)

    ConnectionState.parse_interaction_create = parsed  # type: ignore[method-assign]
    for name in ANSWERS:
        setattr(
            discord.InteractionResponse, name, _stamped(getattr(discord.InteractionResponse, name))
        )


def _stamped(answer: Any) -> Any:
    async def answering(self: discord.InteractionResponse, *args: Any, **kwargs: Any) -> Any:
        seen = STAMPS.get(self._parent.id)
        if seen is not None and not seen[1]:
            seen[1] = time.monotonic()
        return await answer(self, *args, **kwargs)

    return answering


def say(**data: Any) -> None:
    sys.stdout.write("@@" + json.dumps(data) + "\n")
    sys.stdout.flush()


class Echo(discord.Client):
    """The bare bot: one UPDATE_MESSAGE per click, drawing the button one version on."""

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        game, table, ver, act = str(data.get("custom_id", "")).split(":")[:4]
        view = discord.ui.View(timeout=None)
        custom_id = f"{game}:{table}:{int(ver) + 1}:{act}"
        view.add_item(discord.ui.Button(label="Tap", custom_id=custom_id))
        await self.answer(interaction, f"Echo {int(ver) + 1}", view)

    async def answer(
        self, interaction: discord.Interaction[Any], content: str, view: discord.ui.View
    ) -> None:
        await interaction.response.edit_message(content=content, view=view)


class Floor(Echo):
    """Acknowledge first, then edit the clicked message through the token (two responses);
    then the rest of the bot's traffic as measured in the same run (``mix``): its board's
    embed and buttons in that edit, and its follow-ups and rate-limited posts an interaction."""

    mix: ClassVar[dict[str, Any]] = {}
    owed = (0.0, 0.0)
    """The follow-ups and posts owed so far (a fraction of one is carried to the next click)."""

    async def answer(
        self, interaction: discord.Interaction[Any], content: str, view: discord.ui.View
    ) -> None:
        from cogs.kit.messages import edit_original, follow_up  # the bot's own lighter requests

        await interaction.response.defer()
        mix = self.mix
        embed = discord.Embed.from_dict(mix["embed"]) if mix.get("embed") else None
        for label in mix.get("labels", ()):
            view.add_item(discord.ui.Button(label=label, disabled=True))
        await edit_original(interaction, content=content, embed=embed, view=view)
        follow_ups, posts = (owed + mix.get(k, 0.0) for owed, k in zip(self.owed, MIX, strict=True))
        for _ in range(int(follow_ups)):
            await follow_up(interaction, content=LINE)
        channel = self.get_partial_messageable(interaction.channel_id or 0)
        for _ in range(int(posts)):
            await channel.send(LINE)
        self.owed = (follow_ups % 1, posts % 1)


MIX = ("follow_ups", "posts")
LINE = "Floor: a line of table talk, as long as the bot's announcements are, more or less."


async def start_echo(config: dict[str, Any]) -> tuple[Any, tuple[float, float]]:
    began = time.perf_counter()
    kind = Floor if config["mode"] == "floor" else Echo
    intents = discord.Intents.none()  # the bot's own: guilds alone, no message events
    intents.guilds = True
    client = kind(intents=intents, guild_ready_timeout=0.05)
    if isinstance(client, Floor):
        Floor.mix = config.get("mix") or {}
    await client.login(config["token"])
    task = asyncio.create_task(client.connect(reconnect=True))
    await client.wait_until_ready()
    ready = time.perf_counter() - began

    async def close() -> list[str]:
        await client.close()
        await asyncio.wait({task}, timeout=5)
        return []

    return close, (ready, ready)  # nothing to restore


class Errors(logging.Handler):
    """The ERROR records of the bot and discord.py: each is a problem the bench reports."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.found: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.split(".")[0] in ("bot", "cogs", "discord"):
            text = record.getMessage()
            if record.exc_info and record.exc_info[1] is not None:
                text += f" ({record.exc_info[1]!r})"
            self.found.append(f"{record.name}: {text}")


async def start_bot(config: dict[str, Any]) -> tuple[Any, tuple[float, float]]:
    """The bot as ``python -m bot`` runs it (the collector's policy, the wall clock), against the
    fake's ports: the test harness is not imported, as no deployment imports it."""
    from bot import collector
    from bot.__main__ import build_bot
    from bot.config import BotSettings, DatabaseSettings, DiscordSettings, Settings

    collector.tune()
    db: str = config["db"]  # a SQLite file, or a PostgreSQL URL (bench/load.py --postgres)
    settings = Settings(
        database=DatabaseSettings(url=db)
        if db.startswith("postgres")
        else DatabaseSettings(path=Path(db)),
        bot=BotSettings(emojis=False),  # as the tests run it: no uploads beside the startup
        discord=DiscordSettings(api_base=config["api_base"], gateway_url=config["gateway_url"]),
        token=config["token"],
    )
    errors = Errors()
    logging.getLogger().addHandler(errors)
    began = time.perf_counter()
    # Seeded, yet every step its own draw, as SystemRandom is in play: one seed for every step
    # dealt all tables the same game, which then ended their matches in the same instant.
    seeds = random.Random(7)
    bot = await build_bot(  # the file opened, then bot.app imported beside its check
        settings,
        rng_factory=lambda: random.Random(seeds.getrandbits(64)),
        guild_ready_timeout=0.05,
    )
    await bot.login(config["token"])
    task = asyncio.create_task(bot.connect(reconnect=True))
    await bot.wait_until_ready()
    elapsed = time.perf_counter() - began
    await bot.restored()  # the open tables kept in memory, beside the first clicks
    restored = time.perf_counter() - began
    services = bot.services
    for owner, name, currency in config.get("characters", []):
        who = await services.characters.create(config["guild"], name, owner_id=owner)
        await services.purses.grant(who.id, currency, 10**9, actor_id=config["gm"])

    async def close() -> list[str]:
        await bot.close()
        await asyncio.wait({task}, timeout=5)
        return errors.found

    return close, (elapsed, restored)


@dataclass(frozen=True)
class Fake:
    """The fake's two endpoints (:class:`bot.endpoints.Endpoints`)."""

    api_base: str
    gateway_url: str


async def main(config: dict[str, Any]) -> None:
    # The fake's ports, not the bot's settings: echo imports discord.py and none of the bot.
    settings = Fake(api_base=config["api_base"], gateway_url=config["gateway_url"])
    stamp_interactions()  # before the client exists: discord.py binds its parsers then
    with use_endpoints(settings):
        starter = start_bot if config["mode"] == "bot" else start_echo
        stalls = os.environ.get("LOAD_STALLS")
        if stalls:
            watch_stalls(asyncio.get_running_loop(), float(stalls) / 1000)
        close, (elapsed, restored) = await starter(config)
        say(ready=elapsed, restored=restored, rss=rss_bytes())
        loop = asyncio.get_running_loop()
        while True:
            line = (await loop.run_in_executor(None, sys.stdin.readline)).strip()
            if line == "mark":
                _toggle_profile()
                with _LOCK:
                    say(
                        cpu=time.process_time(),
                        loop_cpu=main_thread_cpu(),
                        gc_cpu=GC["seconds"],
                        gc_runs=GC["collections"],
                        **COUNTS,
                    )
            elif line in ("quit", ""):
                problems = await close()
                for sql, n in SEEN.most_common(25):
                    print(f"{n:7d} {sql}", file=sys.stderr)
                say(problems=problems[:20], errors=len(problems), stamps=STAMPS)
                return


PROFILER: cProfile.Profile | None = None
_MARKS = [0]


def watch_stalls(loop: asyncio.AbstractEventLoop, limit: float) -> None:
    """With ``LOAD_STALLS=MS``: whenever the event loop has not turned for MS milliseconds,
    print the loop thread's stack to stderr (the bot's log), once a stall, to find what blocks."""
    main = threading.main_thread().ident
    beat = [time.monotonic()]

    def tick() -> None:
        beat[0] = time.monotonic()
        loop.call_later(limit / 4, tick)

    def watch() -> None:
        reported = 0.0
        while True:
            time.sleep(limit / 4)
            since = beat[0]
            if time.monotonic() - since > limit and since != reported:
                reported = since
                frame = sys._current_frames().get(main or 0)
                stack = "".join(traceback.format_stack(frame)[-14:]) if frame else "?"
                print(f"stall over {limit * 1000:.0f} ms:\n{stack}", file=sys.stderr, flush=True)

    loop.call_soon(tick)
    threading.Thread(target=watch, daemon=True, name="stall-watch").start()


def _toggle_profile() -> None:
    """Profile the measured window alone: from the first ``mark`` to the second."""
    _MARKS[0] += 1
    if PROFILER is not None and _MARKS[0] == 1:
        PROFILER.enable()
    elif PROFILER is not None and _MARKS[0] == 2:
        PROFILER.disable()


def run(config: dict[str, Any]) -> None:
    """Run one bot; with ``LOAD_PROFILE=FILE`` in the environment, the real bot (or the mode
    named by ``LOAD_PROFILE_MODE``: ``floor``, ``echo``) runs under
    cProfile in the measured window (between the first two ``mark`` commands) and its
    statistics go to ``FILE.<pid>`` (read them with ``python -m pstats``)."""
    global PROFILER
    profile_to = os.environ.get("LOAD_PROFILE")
    if profile_to and config["mode"] == os.environ.get("LOAD_PROFILE_MODE", "bot"):
        PROFILER = cProfile.Profile(time.thread_time)  # the loop thread's CPU, not wall time
    try:
        asyncio.run(main(config))
    finally:
        if PROFILER is not None:
            PROFILER.disable()
            PROFILER.dump_stats(f"{profile_to}.{os.getpid()}")


if __name__ == "__main__":
    run(json.loads(sys.argv[1]))
