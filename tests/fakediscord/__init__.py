"""A loopback Discord (Gateway + REST API v10) for end-to-end tests of the real discord.py bot.

Start with :class:`FakeDiscord` (``server.py``) and :class:`BotHarness` (``harness.py``); the
pytest fixtures in ``tests/conftest.py`` wire them together.
"""

from tests.fakediscord.crash import Hold
from tests.fakediscord.emojis import FakeEmoji
from tests.fakediscord.harness import BotHarness
from tests.fakediscord.interactions import InteractionHandle
from tests.fakediscord.messages import FakeMessage
from tests.fakediscord.models import (
    ADMINISTRATOR,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    MANAGE_GUILD,
    MANAGE_THREADS,
    MANAGE_WEBHOOKS,
    SEND_MESSAGES_IN_THREADS,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
)
from tests.fakediscord.openapi import Violation
from tests.fakediscord.ratelimits import BucketRule, RateLimits, RateLimitStats
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import RequestRecord, WaitTimeout
from tests.fakediscord.stats import RequestStats
from tests.fakediscord.threads import FakeThread
from tests.fakediscord.webhooks import FakeWebhook

__all__ = [
    "ADMINISTRATOR",
    "CREATE_PRIVATE_THREADS",
    "CREATE_PUBLIC_THREADS",
    "MANAGE_GUILD",
    "MANAGE_THREADS",
    "MANAGE_WEBHOOKS",
    "SEND_MESSAGES_IN_THREADS",
    "BotHarness",
    "BucketRule",
    "FakeChannel",
    "FakeDiscord",
    "FakeEmoji",
    "FakeGuild",
    "FakeMember",
    "FakeMessage",
    "FakeRole",
    "FakeThread",
    "FakeUser",
    "FakeWebhook",
    "Hold",
    "InteractionHandle",
    "RateLimitStats",
    "RateLimits",
    "RequestRecord",
    "RequestStats",
    "Violation",
    "WaitTimeout",
]
