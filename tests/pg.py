"""A PostgreSQL server for the tests, when one is given (``SZULERNIA_TEST_POSTGRES``).

``.ci/run`` starts a throwaway server and sets the variable; without it, every PostgreSQL test
skips, and the run's summary says so in one line. Each test gets a database of its own, copied
from a template that the migrations built once (``CREATE DATABASE ... TEMPLATE``), and dropped
after it.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from bot.storage.migrations import LATEST
from bot.storage.opening import open_database

ENV = "SZULERNIA_TEST_POSTGRES"
URL = os.environ.get(ENV) or None
SKIPPED = (
    f"PostgreSQL tests skipped: no server ({ENV} is not set; .ci/run starts one with .ci/postgres)"
)
needs_server = pytest.mark.skipif(URL is None, reason=SKIPPED)
BACKENDS = ("sqlite", pytest.param("postgres", marks=needs_server))
"""Fixture params for a test that runs on both backends."""

_TEMPLATE = f"szulernia_t{LATEST}_{os.getpid()}"
_made: set[str] = set()


def database_url(name: str) -> str:
    assert URL is not None
    parts = urlsplit(URL)
    return urlunsplit(parts._replace(path=f"/{name}"))


async def _admin() -> asyncpg.Connection:
    assert URL is not None
    return await asyncpg.connect(URL)


async def _template() -> str:
    if _TEMPLATE in _made:
        return _TEMPLATE
    conn = await _admin()
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{_TEMPLATE}" WITH (FORCE)')
        await conn.execute(f'CREATE DATABASE "{_TEMPLATE}"')
    finally:
        await conn.close()
    db = await open_database(database_url(_TEMPLATE))
    await db.close()
    _made.add(_TEMPLATE)
    return _TEMPLATE


async def fresh_database(*, migrated: bool = True) -> str:
    """The URL of a new database: migrated to the latest schema, or empty."""
    name = f"szulernia_{uuid.uuid4().hex[:16]}"
    template = await _template() if migrated else "template0"
    conn = await _admin()
    try:
        await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    finally:
        await conn.close()
    return database_url(name)


async def drop_database(url: str) -> None:
    name = urlsplit(url).path.lstrip("/")
    conn = await _admin()
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


@asynccontextmanager
async def scratch(*, migrated: bool = True) -> AsyncIterator[str]:
    """A database of its own for one test, dropped after it."""
    url = await fresh_database(migrated=migrated)
    try:
        yield url
    finally:
        await drop_database(url)
