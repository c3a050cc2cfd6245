"""Sharding, the pure part: a guild's shard, which guilds a process owns, and the settings that
choose a process's shards (``[bot] shard_count`` and ``shard_ids``)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.config import BotSettings, ConfigError, load_settings
from bot.shards import EVERYTHING, Ownership, shard_of

DISCORD_DOCS_SNOWFLAKE = 175928847299117063
"""The snowflake of Discord's own documentation: its timestamp is 41944705796 ms."""
DISCORD_API_GUILD = 81384788765712384
"""The Discord API server's id: timestamp 19403645698 ms."""
MAX_GUILD = (1 << 63) - 1


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def problems_of(tmp_path: Path, text: str) -> list[str]:
    with pytest.raises(ConfigError) as caught:
        load_settings(write(tmp_path, text), environ={}, dotenv=None)
    return caught.value.problems


# --- shard_of ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("guild_id", "count", "shard"),
    [
        (DISCORD_DOCS_SNOWFLAKE, 1, 0),
        (DISCORD_DOCS_SNOWFLAKE, 4, 0),  # 41944705796 % 4
        (DISCORD_DOCS_SNOWFLAKE, 16, 4),
        (DISCORD_DOCS_SNOWFLAKE, 7, 41944705796 % 7),
        (DISCORD_API_GUILD, 4, 2),  # 19403645698 % 4
        (DISCORD_API_GUILD, 3, 19403645698 % 3),
        (DISCORD_API_GUILD | 0x3FFFFF, 4, 2),  # worker, process and counter bits do not count
        ((5 << 22) | 0x3FFFFF, 4, 1),
        (0, 4, 0),
    ],
)
def test_a_guilds_shard_is_its_timestamp_modulo_the_count(
    guild_id: int, count: int, shard: int
) -> None:
    assert shard_of(guild_id, count) == shard


def test_shard_of_refuses_what_discord_never_sends() -> None:
    with pytest.raises(ValueError, match="at least one shard"):
        shard_of(DISCORD_API_GUILD, 0)
    with pytest.raises(ValueError, match="not negative"):
        shard_of(-1, 4)


# --- Ownership --------------------------------------------------------------------------------


def test_an_unsharded_process_owns_every_guild_and_every_dm() -> None:
    for ownership in (
        EVERYTHING,
        Ownership.of(None),
        Ownership.of(4),
        Ownership.of(4, [3, 1, 0, 2]),
    ):
        assert ownership.everything
        assert ownership.owns(DISCORD_API_GUILD) and ownership.owns(DISCORD_DOCS_SNOWFLAKE)
        assert ownership.owns(None)
        assert ownership.describe() == "every shard"


def test_a_sharded_process_owns_its_shards_guilds_and_dms_only_on_shard_0() -> None:
    low, high = Ownership.of(4, [0, 1]), Ownership.of(4, [2, 3])
    assert not low.everything and low.describe() == "shards 0-1 of 4"
    assert high.describe() == "shards 2-3 of 4"
    assert Ownership.of(8, [0, 1, 2, 5, 7]).describe() == "shards 0-2,5,7 of 8"
    assert low.owns(DISCORD_DOCS_SNOWFLAKE) and not high.owns(DISCORD_DOCS_SNOWFLAKE)  # shard 0
    assert high.owns(DISCORD_API_GUILD) and not low.owns(DISCORD_API_GUILD)  # shard 2
    assert low.owns(None) and not high.owns(None)  # a DM is shard 0's


@pytest.mark.parametrize(
    ("count", "shards", "message"),
    [
        (None, [0], "only with a shard count"),
        (0, [0], "at least one shard"),
        (4, [], "at least one shard"),
        (4, [4], r"shards \[4\] are not in 0..3"),
        (4, [-1, 2], r"shards \[-1\] are not in 0..3"),
    ],
)
def test_an_impossible_ownership_is_refused(
    count: int | None, shards: list[int], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        Ownership(count, frozenset(shards))


@st.composite
def splits(draw: st.DrawFn) -> tuple[int, list[list[int]]]:
    """A shard count and its shards dealt to 1..count processes, each running at least one."""
    count = draw(st.integers(1, 16))
    processes = draw(st.integers(1, count))
    order = draw(st.permutations(range(count)))
    cuts: list[int] = []
    if processes > 1:
        chosen = st.sets(st.integers(1, count - 1), min_size=processes - 1, max_size=processes - 1)
        cuts = sorted(draw(chosen))
    bounds = [0, *cuts, count]
    return count, [sorted(order[a:b]) for a, b in itertools.pairwise(bounds)]


@given(split=splits(), guild_id=st.integers(0, MAX_GUILD))
def test_every_guild_is_owned_by_exactly_one_process_of_a_split(
    split: tuple[int, list[list[int]]], guild_id: int
) -> None:
    count, dealt = split
    owners = [shards for shards in dealt if Ownership.of(count, shards).owns(guild_id)]
    assert len(owners) == 1
    assert shard_of(guild_id, count) in owners[0]
    dm_owners = [shards for shards in dealt if Ownership.of(count, shards).owns(None)]
    assert len(dm_owners) == 1 and 0 in dm_owners[0]


@given(guild_id=st.integers(0, MAX_GUILD))
def test_shards_0_1_and_2_3_of_4_split_every_guild(guild_id: int) -> None:
    low, high = Ownership.of(4, [0, 1]), Ownership.of(4, [2, 3])
    assert low.owns(guild_id) != high.owns(guild_id)


# --- the settings -----------------------------------------------------------------------------


def test_shards_come_from_the_bot_section_as_a_list_or_a_range(tmp_path: Path) -> None:
    settings = load_settings(
        write(tmp_path, '[bot]\nshard_count = 4\nshard_ids = "2-3"\n'), environ={}, dotenv=None
    )
    assert settings.bot.shard_count == 4 and settings.bot.shard_ids == [2, 3]
    assert settings.bot.ownership() == Ownership(4, frozenset({2, 3}))
    listed = load_settings(
        write(tmp_path, "[bot]\nshard_count = 8\nshard_ids = [5, 0, 1]\n"), environ={}, dotenv=None
    )
    assert listed.bot.shard_ids == [0, 1, 5]
    assert BotSettings(shard_count=8, shard_ids="0-1, 4").shard_ids == [0, 1, 4]  # type: ignore[arg-type]
    assert BotSettings(shard_count=8, shard_ids="6").shard_ids == [6]  # type: ignore[arg-type]


def test_without_shard_settings_one_process_runs_every_shard(tmp_path: Path) -> None:
    settings = load_settings(write(tmp_path, "[bot]\n"), environ={}, dotenv=None)
    assert settings.bot.shard_count is None and settings.bot.shard_ids is None
    assert settings.bot.ownership().everything
    counted = load_settings(write(tmp_path, "[bot]\nshard_count = 2\n"), environ={}, dotenv=None)
    assert counted.bot.shard_ids is None and counted.bot.ownership().everything


def test_the_example_configs_shard_lines_are_valid_once_uncommented(tmp_path: Path) -> None:
    example = Path(__file__).resolve().parents[1] / "config.example.toml"
    text = example.read_text(encoding="utf-8")
    assert "# shard_count = 4\n" in text and '# shard_ids = "0-1"\n' in text
    text = text.replace("# shard_count = 4\n", "shard_count = 4\n")
    text = text.replace('# shard_ids = "0-1"\n', 'shard_ids = "0-1"\n')
    settings = load_settings(write(tmp_path, text), environ={}, dotenv=None)
    assert settings.bot.ownership() == Ownership(4, frozenset({0, 1}))


@pytest.mark.parametrize(
    ("lines", "key", "says"),
    [
        ("shard_ids = [0]", "bot.shard_ids", "needs shard_count"),
        ('shard_ids = "0-1"', "bot.shard_ids", "needs shard_count"),
        ("shard_count = 4\nshard_ids = [4]", "bot.shard_ids", "shard 4 is not one of 0..3"),
        ("shard_count = 4\nshard_ids = [-1, 0]", "bot.shard_ids", "shard -1 is not one of 0..3"),
        ('shard_count = 2\nshard_ids = "1-2"', "bot.shard_ids", "shard 2 is not one of 0..1"),
        ("shard_count = 4\nshard_ids = []", "bot.shard_ids", "lists no shard"),
        ("shard_count = 4\nshard_ids = [1, 2, 1]", "bot.shard_ids", "lists shard 1 twice"),
        ('shard_count = 4\nshard_ids = "0-1,1"', "bot.shard_ids", "lists shard 1 twice"),
        ('shard_count = 4\nshard_ids = "3-1"', "bot.shard_ids", "runs backwards"),
        ('shard_count = 4\nshard_ids = "a-b"', "bot.shard_ids", "not a list of shards"),
        ('shard_count = 4\nshard_ids = ["x"]', "bot.shard_ids.0", "valid integer"),
        ("shard_count = 0", "bot.shard_count", "greater than or equal to 1"),
        ('shard_count = "four"', "bot.shard_count", "valid integer"),
    ],
)
def test_a_bad_shard_setting_is_one_line_naming_it(
    tmp_path: Path, lines: str, key: str, says: str
) -> None:
    problems = problems_of(tmp_path, f"[bot]\n{lines}\n")
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"{tmp_path / 'config.toml'}: {key}: ")
    assert says in problems[0]


def test_a_bad_count_is_reported_once_not_again_through_the_ids(tmp_path: Path) -> None:
    problems = problems_of(tmp_path, "[bot]\nshard_count = 0\nshard_ids = [5]\n")
    assert [line.split(": ")[1] for line in problems] == ["bot.shard_count"]
