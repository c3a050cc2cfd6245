"""Who a message pings: the mentions in its content, filtered by ``allowed_mentions``.

As Discord decides it, for every message created or edited (by the bot, a webhook or a user):

- without ``allowed_mentions`` every mention counts, and a reply pings the replied-to author;
- with it, only what it allows: the kinds in ``parse`` (``users``, ``roles``, ``everyone``), the
  ``users`` and ``roles`` it lists by id, and the replied-to author if ``replied_user`` is true.

Mentioned users must exist and roles must belong to the channel's guild. Whether a role is
mentionable is not modelled: an allowed mention of a guild's role always counts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from tests.fakediscord.models import FakeGuild, FakeUser

USER = re.compile(r"<@!?(\d+)>")
ROLE = re.compile(r"<@&(\d+)>")
EVERYONE = re.compile(r"@(?:everyone|here)\b")
EVERYTHING: dict[str, Any] = {"parse": ["users", "roles", "everyone"], "replied_user": True}


@dataclass
class Mentions:
    users: list[FakeUser] = field(default_factory=list)
    roles: list[int] = field(default_factory=list)
    everyone: bool = False


def _allowed_ids(allowed: dict[str, Any], kind: str) -> set[int] | None:
    """Ids of ``kind`` the message may ping; None when every one of them may."""
    if kind in (allowed.get("parse") or []):
        return None
    return {int(value) for value in allowed.get(kind) or []}


def resolve(
    content: str,
    allowed: dict[str, Any] | None,
    *,
    users: dict[int, FakeUser],
    guild: FakeGuild | None,
    replied_to: FakeUser | None = None,
) -> Mentions:
    """The mentions of ``content`` that ``allowed`` lets through (see the module docstring)."""
    rules = EVERYTHING if allowed is None else allowed
    user_ids, role_ids = _allowed_ids(rules, "users"), _allowed_ids(rules, "roles")
    everyone = "everyone" in (rules.get("parse") or []) and bool(EVERYONE.search(content))
    found = Mentions(everyone=everyone)
    for match in USER.finditer(content):
        user = users.get(int(match[1]))
        if user is None or user in found.users:
            continue
        if user_ids is None or user.id in user_ids:
            found.users.append(user)
    for match in ROLE.finditer(content):
        role_id = int(match[1])
        if guild is None or role_id not in guild.roles or role_id in found.roles:
            continue
        if role_ids is None or role_id in role_ids:
            found.roles.append(role_id)
    if replied_to is not None and rules.get("replied_user") and replied_to not in found.users:
        found.users.append(replied_to)
    return found
