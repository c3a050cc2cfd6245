"""``python -m bot [--config PATH]``: read the settings, build the bot, run it until stopped.

``python -m bot migrate-db --from FILE --to URL``: copy a SQLite database into an empty
PostgreSQL one (:mod:`bot.storage.copy`), then exit.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot import collector
from bot.config import TOKEN_ENV, ConfigError, Settings, load_settings
from bot.endpoints import use_endpoints
from bot.storage.dialect import is_postgres
from bot.storage.errors import DatabaseError, StorageError
from bot.storage.opening import open_database

if TYPE_CHECKING:
    from bot.app import SzulerniaBot

log = logging.getLogger("bot")

NO_TOKEN = (
    f"No Discord bot token. Set the {TOKEN_ENV} environment variable "
    f"(export {TOKEN_ENV}=...) or put a line {TOKEN_ENV}=... in a .env file here, then run "
    "`python -m bot` again."
)


MIGRATE_DB = "migrate-db"


def _parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Run Szulernia: read the settings, connect to Discord, play until stopped.",
        epilog=f"To copy a SQLite database into PostgreSQL: python -m bot {MIGRATE_DB} --help",
    )
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        help="the settings file (default: config.toml, if it exists)",
    )
    return parser.parse_args(argv)


def _existing_file(settings: Settings) -> Path | None:
    """The SQLite file the settings name, if it exists (one stat: no wait worth a thread)."""
    target = settings.database.target
    if is_postgres(target) or not Path(target).is_file():
        return None
    return Path(target)


async def build_bot(settings: Settings, **options: Any) -> SzulerniaBot:
    """The bot (``options`` go to :class:`~bot.app.SzulerniaBot`), its SQLite file opened first.

    The file's integrity check reads all of it on a thread of its own (about 65 ms for 10,000
    open tables here), and the bot's own code takes about as long to import (``bot.app`` and
    what it needs, some 130 modules): opening the file before that import lets the two run side
    by side, where ``setup_hook`` would begin the check after it. The bot still awaits the
    verdict before it trusts a row. A file not made yet has nothing to check, so a first start
    with a wrong token leaves no file behind; a PostgreSQL server checks its own files."""
    existing = _existing_file(settings)
    db = None if existing is None else await open_database(existing, check_later=True)
    try:
        from bot.app import SzulerniaBot  # here, beside the check (see above)
    except BaseException:
        if db is not None:
            await db.close()
        raise
    return SzulerniaBot(settings, database=db, **options)


async def _run(settings: Settings, token: str) -> int:
    """Run the bot until it is stopped; SIGINT and SIGTERM close it cleanly (the actions in
    flight finish, then the database is closed). Returns the process exit code."""
    collector.tune()
    try:
        bot = await build_bot(settings)
    except DatabaseError as exc:
        log.error("%s", exc)
        return 1
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []

    def stop(name: str) -> None:
        log.info("%s received: finishing the actions in flight, then closing", name)
        closing.append(loop.create_task(bot.close()))

    signals = (signal.SIGINT, signal.SIGTERM)
    for sig in signals:
        loop.add_signal_handler(sig, stop, sig.name)
    try:
        with use_endpoints(settings.discord):
            async with bot:
                await bot.start(token)
    except discord.LoginFailure:
        log.error("Discord rejected the token (401). Check %s.", TOKEN_ENV)
        return 1
    except (aiohttp.ClientConnectionError, discord.GatewayNotFound) as exc:
        log.error("Cannot reach Discord at %s: %s", settings.discord.api_base, exc)
        return 1
    except DatabaseError as exc:
        log.error("%s", exc)
        return 1
    finally:
        for sig in signals:
            loop.remove_signal_handler(sig)
        if closing:
            await asyncio.gather(*closing)
    log.info("stopped cleanly")
    return 0


def _migrate_db(argv: list[str]) -> int:
    """``migrate-db``: 0 when the copy is done and verified, 1 (one line why) when it is not."""
    from bot.storage.copy import CHUNK, migrate_database  # only this command needs it

    parser = argparse.ArgumentParser(
        prog=f"python -m bot {MIGRATE_DB}",
        description=(
            "Copy a SQLite database (brought up to the latest schema first) into an empty "
            "PostgreSQL database, in one transaction, ids kept; the ledger audit and the row "
            "counts are checked on both sides. Stop the bot first."
        ),
    )
    parser.add_argument("--from", dest="source", required=True, metavar="FILE",
                        help="the bot's SQLite file (e.g. szulernia.db)")  # fmt: skip
    parser.add_argument("--to", dest="target", required=True, metavar="URL",
                        help="an empty PostgreSQL database: postgresql://user@host/name "
                        "(the password may come from PGPASSWORD instead of the URL)")  # fmt: skip
    parser.add_argument("--chunk", type=int, default=CHUNK, metavar="ROWS",
                        help=f"rows read and written at a time (default {CHUNK})")  # fmt: skip
    args = parser.parse_args(argv)
    if args.chunk < 1:
        parser.error("--chunk takes a whole number of rows, at least 1")
    try:
        asyncio.run(migrate_database(args.source, args.target, say=_say, chunk=args.chunk))
    except StorageError as exc:
        print(f"{MIGRATE_DB}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(
            f"{MIGRATE_DB}: interrupted (a copy not yet committed is rolled back)", file=sys.stderr
        )
        return 130
    return 0


def _say(line: str) -> None:
    print(line, flush=True)


def main(argv: list[str] | None = None) -> int:
    given = sys.argv[1:] if argv is None else argv
    if given[:1] == [MIGRATE_DB]:
        return _migrate_db(given[1:])
    args = _parse_args(given)
    try:
        settings = load_settings(args.config)
    except ConfigError as exc:
        print(f"Bad settings:\n{exc}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.bot.log_level,
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if not settings.token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    return asyncio.run(_run(settings, settings.token))


if __name__ == "__main__":
    raise SystemExit(main())
