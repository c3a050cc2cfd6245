"""A Szulernia bot in an OS process of its own, for ``tests/e2e/test_processes.py``.

``python -m tests.e2e.process_bot '<json>'`` starts the real bot (through :class:`BotHarness`)
against the parent's fake Discord, over its loopback ports, with the database and the shards
the JSON names. It answers commands, one a line on stdin, with one ``@@{json}`` line on stdout:

- the first line says it is READY (``pid``);
- ``debit <character> <currency> <count>``: that many takes of 1 coin at once, through the purse
  service, as GMs clicking at once would: how many went through and how many were refused;
- ``quit``: close the bot and report the errors it logged.

:class:`BotProcess` is the parent's side (the load bench's :class:`~bench.load_child.Child`,
running this module): ``async with BotProcess(config, log) as bot``; ``bot.kill()`` is a
``kill -9``, and ``bot.start()`` starts it again.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path
from types import SimpleNamespace, TracebackType
from typing import Any

from bench.load_child import Child

ROOT = Path(__file__).resolve().parents[2]


def say(**data: Any) -> None:
    sys.stdout.write("@@" + json.dumps(data) + "\n")
    sys.stdout.flush()


async def serve(config: dict[str, Any]) -> None:
    from bot.config import DiscordSettings
    from bot.endpoints import use_endpoints
    from bot.services.errors import PurseTooLow
    from tests.fakediscord import BotHarness

    remote = SimpleNamespace(
        api_base=config["api_base"],
        gateway_url=config["gateway_url"],
        token=config["token"],
        state=SimpleNamespace(notify=lambda: None),
    )
    endpoints = DiscordSettings(api_base=config["api_base"], gateway_url=config["gateway_url"])
    with use_endpoints(endpoints):
        harness = BotHarness(
            remote,  # type: ignore[arg-type]
            database=config["db"],
            seed=config["seed"],
            identify_spacing=0.0,
            bot_settings={"shard_count": config["shard_count"], "shard_ids": config["shards"]},
        )
        bot = await harness.start()
        say(ready=True, pid=os.getpid())
        loop = asyncio.get_running_loop()
        while True:
            line = (await loop.run_in_executor(None, sys.stdin.readline)).split()
            if line and line[0] == "debit":
                character, currency, count = int(line[1]), line[2], int(line[3])
                purses = bot.services.purses
                found = await asyncio.gather(
                    *(purses.take(character, currency, 1, actor_id=1) for _ in range(count)),
                    return_exceptions=True,
                )
                refused = sum(isinstance(f, PurseTooLow) for f in found)
                errors = [repr(f) for f in found if isinstance(f, BaseException)]
                say(taken=count - len(errors), refused=refused, errors=errors[refused:])
            elif not line or line[0] == "quit":
                problems = harness.problems()
                await harness.close()
                say(problems=problems)
                return


class BotProcess(Child):
    """The parent's handle on one bot process (see the module docstring)."""

    def command(self) -> list[str]:
        return ["-m", "tests.e2e.process_bot"]

    async def kill(self) -> None:
        """``kill -9``: no close, no commit, no goodbye to the gateway."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        await self.process.wait()

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        process = self.process
        if process is None or process.returncode is not None:
            return
        try:
            answer = await self.ask("quit")
            await asyncio.wait_for(process.wait(), 10)
        except (TimeoutError, RuntimeError):
            process.kill()
            await process.wait()
            raise
        if kind is None and answer.get("problems"):
            raise AssertionError("the bot process logged errors:\n" + "\n".join(answer["problems"]))


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    asyncio.run(serve(json.loads(sys.argv[1])))
