"""``[database]``: a SQLite path or a PostgreSQL URL, never both, and no password in an error."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, load_settings


def _load(tmp_path: Path, text: str) -> object:
    config = tmp_path / "config.toml"
    config.write_text(text, encoding="utf-8")
    return load_settings(config, environ={}, dotenv=None).database.target


def test_a_path_selects_sqlite_and_a_url_postgresql(tmp_path: Path) -> None:
    assert _load(tmp_path, "") == Path("szulernia.db")
    assert _load(tmp_path, '[database]\npath = "x/bot.db"\n') == Path("x/bot.db")
    url = "postgresql://bot@db.internal:5432/szulernia"
    assert _load(tmp_path, f'[database]\nurl = "{url}"\n') == url


def test_both_at_once_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"either path .* or url"):
        _load(tmp_path, '[database]\npath = "bot.db"\nurl = "postgresql://h/db"\n')


def test_a_url_that_is_not_postgresql_is_refused_without_its_password(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        _load(tmp_path, '[database]\nurl = "mysql://bob:s3cret@h/db"\n')
    assert "database.url" in str(caught.value) and "PostgreSQL URL" in str(caught.value)
    assert "s3cret" not in str(caught.value) and "bob:***@h" in str(caught.value)


def test_the_example_configs_url_line_is_valid_in_place_of_the_path(tmp_path: Path) -> None:
    example = Path(__file__).resolve().parents[1] / "config.example.toml"
    text = example.read_text(encoding="utf-8")
    line = '# url = "postgresql://szulernia@localhost/szulernia"\n'
    assert line in text and 'path = "szulernia.db"\n' in text
    text = text.replace(line, line[2:]).replace('path = "szulernia.db"\n', "")
    assert _load(tmp_path, text) == "postgresql://szulernia@localhost/szulernia"
