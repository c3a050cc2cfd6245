"""Settings: config.toml plus the environment.

The token is read only from the ``DISCORD_TOKEN`` environment variable or a ``.env`` file, never
from a committed file. Every bad setting becomes one readable line that names the file, the key
and what is wrong; :class:`ConfigError` carries them all.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from bot.shards import Ownership
from bot.storage.dialect import is_postgres, redact

DEFAULT_CONFIG = Path("config.toml")
TOKEN_ENV = "DISCORD_TOKEN"
DISCORD_API_BASE = "https://discord.com/api/v10"
DISCORD_GATEWAY_URL = "wss://gateway.discord.gg/"

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]


class ConfigError(Exception):
    """One or more bad settings, each described on its own line."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DatabaseSettings(_Section):
    """Where the data lives: a SQLite file (``path``, the default), or a PostgreSQL server
    (``url``, for several bot processes over one database)."""

    path: Path = Path("szulernia.db")
    url: str | None = None

    @field_validator("url")
    @classmethod
    def _postgres(cls, value: str | None) -> str | None:
        if value is not None and not is_postgres(value):
            raise ValueError(
                "must be a PostgreSQL URL such as postgresql://user@host/szulernia "
                "(for a SQLite file, set path instead)"
            )
        return value

    @model_validator(mode="after")
    def _one(self) -> DatabaseSettings:
        if self.url is not None and "path" in self.model_fields_set:
            raise ValueError("set either path (a SQLite file) or url (PostgreSQL), not both")
        return self

    @property
    def target(self) -> Path | str:
        """What ``Database.open`` takes: the URL if one is set, else the file."""
        return self.url if self.url is not None else self.path


class BotSettings(_Section):
    language: Literal["en", "pl"] = "en"
    gm_role: Annotated[str, Field(min_length=1, max_length=100)] = "GM"
    dev_guild_id: Annotated[int, Field(gt=0)] | None = None
    log_level: LogLevel = "INFO"
    emojis: bool = True
    """Upload the bot's own emojis (creatures, side cards) and use them in its messages."""
    shard_count: Annotated[int, Field(ge=1)] | None = None
    """How many shards the bot has in all (None: as many as Discord recommends)."""
    shard_ids: list[int] | None = None
    """The shards this process runs (None: all of them); a list or a range such as ``"0-1"``."""

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _range(cls, value: object) -> object:
        return parse_shard_range(value) if isinstance(value, str) else value

    @field_validator("shard_ids")
    @classmethod
    def _shards(cls, value: list[int] | None, info: ValidationInfo) -> list[int] | None:
        if value is None:
            return None
        if not value:
            raise ValueError("lists no shard; leave it out to run every shard")
        twice = sorted({i for i in value if value.count(i) > 1})
        if twice:
            raise ValueError(f"lists shard {twice[0]} twice")
        if "shard_count" not in info.data:
            return value  # shard_count itself is wrong, and says so
        count = info.data["shard_count"]
        if count is None:
            raise ValueError("needs shard_count, the number of shards in all")
        outside = [i for i in value if not 0 <= i < count]
        if outside:
            raise ValueError(
                f"shard {outside[0]} is not one of 0..{count - 1} (shard_count is {count})"
            )
        return sorted(value)

    def ownership(self) -> Ownership:
        """The guilds this process serves (every guild unless ``shard_ids`` picks shards)."""
        return Ownership.of(self.shard_count, self.shard_ids)


def parse_shard_range(text: str) -> list[int]:
    """``"0-1"`` -> ``[0, 1]``; ``"3"`` -> ``[3]``; ``"0-1,4"`` -> ``[0, 1, 4]``."""
    found: list[int] = []
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        try:
            first, last = int(low), int(high if dash else low)
        except ValueError:
            raise ValueError(f'{text!r} is not a list of shards or a range such as "0-1"') from None
        if last < first:
            raise ValueError(f"the range {part.strip()!r} runs backwards")
        found += range(first, last + 1)
    return found


class NpcSettings(_Section):
    """How long a computer-played NPC pauses before it acts: a uniform time in this range
    (times the personality's own pace), so it plays like a person, not a machine."""

    pause_min: Annotated[float, Field(ge=0, le=60)] = 1.5
    pause_max: Annotated[float, Field(ge=0, le=120)] = 4.0

    @model_validator(mode="after")
    def _ordered(self) -> NpcSettings:
        if self.pause_max < self.pause_min:
            raise ValueError("pause_max must be at least pause_min")
        return self


class DiscordSettings(_Section):
    api_base: str = DISCORD_API_BASE
    gateway_url: str = DISCORD_GATEWAY_URL

    @field_validator("api_base")
    @classmethod
    def _http(cls, value: str) -> str:
        if not value.startswith(("http://", "https://")):
            raise ValueError("must start with http:// or https://")
        return value.rstrip("/")

    @field_validator("gateway_url")
    @classmethod
    def _ws(cls, value: str) -> str:
        if not value.startswith(("ws://", "wss://")):
            raise ValueError("must start with ws:// or wss://")
        return value


class Settings(_Section):
    database: DatabaseSettings = DatabaseSettings()
    bot: BotSettings = BotSettings()
    npc: NpcSettings = NpcSettings()
    discord: DiscordSettings = DiscordSettings()
    token: str | None = Field(default=None, exclude=True, repr=False)


def _describe(source: str, error: ValidationError) -> list[str]:
    lines = []
    for item in error.errors():
        key = ".".join(str(part) for part in item["loc"]) or "(top level)"
        if item["type"] == "extra_forbidden":
            message = "is not a known setting"
        else:
            message = item["msg"]
            if "input" in item and not isinstance(item["input"], dict):
                shown = item["input"]
                if key == "database.url" and isinstance(shown, str):
                    shown = redact(shown)  # a URL may carry a password
                message += f" (got {shown!r})"
        lines.append(f"{source}: {key}: {message}")
    return lines


def read_dotenv(path: Path) -> dict[str, str]:
    """Parse a ``.env`` file of ``KEY=value`` lines (quotes and ``export`` allowed)."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.removeprefix("export ").partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key.strip()] = value
    return values


def load_settings(
    path: Path | None = None,
    *,
    environ: dict[str, str] | None = None,
    dotenv: Path | None = Path(".env"),
) -> Settings:
    """Read settings from ``path`` (default ``config.toml``, optional) and the token from the env.

    An explicitly given ``path`` must exist. Raises :class:`ConfigError` with one line per problem.
    """
    explicit = path is not None
    path = path if path is not None else DEFAULT_CONFIG
    source = str(path)
    data: dict[str, object] = {}
    if path.exists():
        try:
            with path.open("rb") as handle:
                data = tomllib.load(handle)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError([f"{source}: not valid TOML: {exc}"]) from None
        except OSError as exc:
            raise ConfigError([f"{source}: cannot be read: {exc.strerror}"]) from None
    elif explicit:
        raise ConfigError([f"{source}: no such file (copy config.example.toml to start)"])
    if "token" in data:
        raise ConfigError(
            [f"{source}: token: do not put the token in a file; set {TOKEN_ENV} instead"]
        )
    env = dict(os.environ) if environ is None else environ
    token = env.get(TOKEN_ENV) or (read_dotenv(dotenv).get(TOKEN_ENV) if dotenv else None)
    try:
        return Settings.model_validate({**data, "token": token or None})
    except ValidationError as exc:
        raise ConfigError(_describe(source, exc)) from None
