"""What the players see, as the crash drills compare it (see ``crash_support``): the channel's
announcements, the table messages, the DMs, normalised; which messages still carry live buttons."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from tests.fakediscord import FakeDiscord, FakeMessage

# --- what the players see ----------------------------------------------------------------------


def normalise(fake: FakeDiscord, text: str) -> str:
    """Mentions by name (ids differ between runs), relative times masked."""
    names = {str(user.id): user.name for user in fake.state.users.values()}
    text = re.sub(r"<@!?(\d+)>", lambda m: "@" + names.get(m[1], m[1]), text)
    text = re.sub(r"<#\d+>", "<#channel>", text)
    return re.sub(r"<t:\d+:R>", "<t:…:R>", text)


def announcements(fake: FakeDiscord) -> list[str]:
    """The channel's plain messages (not table messages), oldest first."""
    return [normalise(fake, m.text) for m in fake.tavern.messages if not m.embeds]


def table_messages(fake: FakeDiscord) -> list[str]:
    return [normalise(fake, m.text) for m in fake.tavern.messages if m.embeds]


def posted_text(fake: FakeDiscord, message: FakeMessage) -> str:
    """A message's text as it was first posted (before any edit)."""
    first = message.history[0] if message.history else {}
    content = first.get("content", message.content) or ""
    parts = [content]
    for embed in first.get("embeds", message.embeds) or []:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        parts += [f"{f.get('name')}: {f.get('value')}" for f in embed.get("fields") or []]
    return normalise(fake, "\n".join(p for p in parts if p))


def dm_texts(fake: FakeDiscord) -> dict[str, list[str]]:
    """Every player's DMs as they were posted, by the player's name."""
    found: dict[str, list[str]] = {}
    for user_id, channel in fake.state.dm_channels.items():
        user = fake.state.users[user_id]
        found[user.name] = [posted_text(fake, m) for m in channel.messages]
    return found


def live_buttons(message: FakeMessage, prefix: str, table_id: int) -> list[str]:
    """The enabled buttons and menus of one table on a message."""
    start = f"{prefix}:{table_id}:"
    items = [*message.buttons, *message.selects]
    return [
        str(c["custom_id"])
        for c in items
        if str(c.get("custom_id", "")).startswith(start) and not c.get("disabled")
    ]


def live_boards(fake: FakeDiscord, prefix: str, table_id: int) -> list[FakeMessage]:
    """The channel's messages that carry live components of this table."""
    return [m for m in fake.tavern.messages if live_buttons(m, prefix, table_id)]


def board_of(fake: FakeDiscord, prefix: str, table_id: int) -> FakeMessage:
    """The one message of the channel that carries the table's live components."""
    found = live_boards(fake, prefix, table_id)
    assert len(found) == 1, f"table {table_id}: {len(found)} messages with live buttons"
    return found[0]


def duplicates(items: Iterable[str]) -> list[str]:
    return [text for text, n in Counter(items).items() if n > 1]
