"""``python -m bot [--config PATH]``: read the settings, build the bot, run it until stopped."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from pathlib import Path

import aiohttp
import discord

from bot.app import SzulerniaBot
from bot.config import TOKEN_ENV, ConfigError, Settings, load_settings
from bot.endpoints import use_endpoints
from bot.storage.errors import DatabaseError

log = logging.getLogger("bot")

NO_TOKEN = (
    f"No Discord bot token. Set the {TOKEN_ENV} environment variable "
    f"(export {TOKEN_ENV}=...) or put a line {TOKEN_ENV}=... in a .env file here, then run "
    "`python -m bot` again."
)


def _parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Run Szulernia: read the settings, connect to Discord, play until stopped.",
    )
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        help="the settings file (default: config.toml, if it exists)",
    )
    return parser.parse_args(argv)


async def _run(settings: Settings, token: str) -> int:
    """Run the bot until it is stopped; SIGINT and SIGTERM close it cleanly (the actions in
    flight finish, then the database is closed). Returns the process exit code."""
    bot = SzulerniaBot(settings)
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


def main(argv: list[str] | None = None) -> int:
    args = _parse_args(sys.argv[1:] if argv is None else argv)
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
