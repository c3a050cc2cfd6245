"""Which guilds this process serves, when the bot runs as several processes of shards.

Discord splits a bot's guilds into ``shard_count`` shards by the guild id's timestamp:
``(guild_id >> 22) % shard_count``. A direct message belongs to no guild and goes to shard 0.
A process runs some of the shards (``[bot] shard_ids``) and *owns* their guilds: it alone
restores their tables, reconciles them at startup, fires their turn timers, plays their NPCs and
sweeps their challenges. An :class:`Ownership` answers "is this guild mine?" with one shift, one
modulo and one set look-up, so a filter over thousands of tables costs nothing worth measuring.

Pure: no Discord, no database.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

DM_SHARD = 0
"""The shard Discord sends direct messages (and their interactions) to."""


def shard_of(guild_id: int, count: int) -> int:
    """The shard of ``guild_id`` among ``count`` shards, as Discord computes it."""
    if count < 1:
        raise ValueError(f"a bot has at least one shard (got shard count {count})")
    if guild_id < 0:
        raise ValueError(f"a guild id is not negative (got {guild_id})")
    return (guild_id >> 22) % count


@dataclass(frozen=True, slots=True)
class Ownership:
    """The guilds this process owns: those on ``shards`` of ``count``, or every guild when
    ``count`` is None (one process runs every shard, however many Discord recommends)."""

    count: int | None = None
    shards: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        if self.count is None:
            if self.shards:
                raise ValueError("shards are chosen only with a shard count")
            return
        if self.count < 1:
            raise ValueError(f"a bot has at least one shard (got shard count {self.count})")
        if not self.shards:
            raise ValueError("a sharded process runs at least one shard")
        outside = sorted(s for s in self.shards if not 0 <= s < self.count)
        if outside:
            raise ValueError(f"shards {outside} are not in 0..{self.count - 1}")

    @classmethod
    def of(cls, count: int | None, shards: Iterable[int] | None = None) -> Ownership:
        """From the settings: ``shards`` None means all of ``count`` (or all, if no count)."""
        if count is None:
            return cls(None, frozenset(shards or ()))
        chosen = frozenset(range(count) if shards is None else shards)
        return cls(None) if chosen == frozenset(range(count)) else cls(count, chosen)

    @property
    def everything(self) -> bool:
        """This process owns every guild (it runs every shard)."""
        return self.count is None

    def owns(self, guild_id: int | None) -> bool:
        """Whether the guild's tables are this process's (None: a DM, which is shard 0's)."""
        if self.count is None:
            return True
        if guild_id is None:
            return DM_SHARD in self.shards
        return (guild_id >> 22) % self.count in self.shards

    def describe(self) -> str:
        """For the log: ``"shards 0-1 of 4"``, or ``"every shard"``."""
        if self.count is None:
            return "every shard"
        return f"shards {_ranges(sorted(self.shards))} of {self.count}"


EVERYTHING = Ownership()


def _ranges(ids: list[int]) -> str:
    parts: list[str] = []
    start = prev = ids[0]
    for value in [*ids[1:], None]:
        if value is not None and value == prev + 1:
            prev = value
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if value is not None:
            start = prev = value
    return ",".join(parts)
