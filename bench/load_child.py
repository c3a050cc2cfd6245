"""Start ``bench/load_bot.py`` as a child process and talk to it (one command, one answer)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import Any

BOT = Path(__file__).resolve().parent / "load_bot.py"
READY_SECONDS = 300.0
PYCACHE = Path(tempfile.gettempdir()) / "szulernia-bench-pycache"
"""Where the children keep their compiled modules: a deployment keeps its ``.pyc`` files, and
the installed packages (discord.py, echo's whole code) come compiled, so a child that compiled
the project's modules at every start (``PYTHONDONTWRITEBYTECODE``) would time that, not its
start. Outside the tree."""
LINE_LIMIT = 2**26
"""The longest answer line: ``quit`` carries every interaction's stamps (bench/load_bot.py)."""


def child_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
    return env


class Child:
    """``async with Child(config, log) as child``: READY on entry (``child.ready``: its time to
    READY in-process, ``wall`` from the spawn, ``rss``), killed on exit if it has not quit. Its
    stderr goes to ``log``, shown if it fails."""

    def __init__(self, config: dict[str, Any], log: Path) -> None:
        self.config, self.log = config, log
        self.process: asyncio.subprocess.Process | None = None
        self.ready: dict[str, Any] = {}

    async def __aenter__(self) -> Child:
        await self.start()
        return self

    def command(self) -> list[str]:
        """What runs the child (its config goes after, as one JSON argument)."""
        return [str(BOT)]

    async def start(self) -> None:
        spawned = time.perf_counter()
        with self.log.open("ab") as err:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                *self.command(),
                json.dumps(self.config),
                cwd=BOT.parents[1],
                env=child_env(),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=err,
                limit=LINE_LIMIT,
            )
        self.ready = await asyncio.wait_for(self._answer(), READY_SECONDS)
        self.ready["wall"] = time.perf_counter() - spawned

    async def ask(self, command: str) -> dict[str, Any]:
        assert self.process is not None and self.process.stdin is not None
        self.process.stdin.write(command.encode() + b"\n")
        await self.process.stdin.drain()
        return await asyncio.wait_for(self._answer(), 60.0)

    async def _answer(self) -> dict[str, Any]:
        assert self.process is not None and self.process.stdout is not None
        while True:
            line = await self.process.stdout.readline()
            if not line:
                tail = self.log.read_text(errors="replace")[-3000:]
                raise RuntimeError(f"the bot process ended:\n{tail}")
            if line.startswith(b"@@"):
                answer: dict[str, Any] = json.loads(line[2:])
                return answer

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        process = self.process
        if process is None:
            return
        if process.returncode is None:
            try:
                await asyncio.wait_for(process.wait(), 10.0)
            except TimeoutError:
                process.kill()
                await process.wait()
