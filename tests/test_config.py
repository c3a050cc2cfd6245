from pathlib import Path

import pytest
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.__main__ import main
from bot.config import ConfigError, DiscordSettings, load_settings
from bot.endpoints import use_endpoints


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_example_config_is_valid_and_complete() -> None:
    example = Path(__file__).resolve().parents[1] / "config.example.toml"
    settings = load_settings(example, environ={}, dotenv=None)
    assert settings.database.path == Path("szulernia.db")
    assert settings.bot.language == "en"
    assert settings.discord.api_base == "https://discord.com/api/v10"
    assert settings.token is None


def test_every_bad_setting_is_one_line_naming_file_and_key(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        '[bot]\nlanguage = "de"\nlog_level = "loud"\ncolour = 1\n[discord]\napi_base = "ftp://x"\n',
    )
    with pytest.raises(ConfigError) as caught:
        load_settings(path, environ={}, dotenv=None)
    problems = caught.value.problems
    assert len(problems) == 4
    assert all(line.startswith(f"{path}: ") for line in problems)
    keys = {line.split(": ")[1] for line in problems}
    assert keys == {"bot.language", "bot.log_level", "bot.colour", "discord.api_base"}
    assert any("'de'" in line for line in problems)


def test_invalid_toml_and_missing_explicit_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_settings(write(tmp_path, "[bot\n"), environ={}, dotenv=None)
    with pytest.raises(ConfigError, match="no such file"):
        load_settings(tmp_path / "absent.toml", environ={}, dotenv=None)


def test_token_only_from_environment_or_dotenv(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="DISCORD_TOKEN"):
        load_settings(write(tmp_path, 'token = "secret"\n'), environ={}, dotenv=None)
    config = write(tmp_path, "")
    assert load_settings(config, environ={"DISCORD_TOKEN": "a"}, dotenv=None).token == "a"
    dotenv = tmp_path / ".env"
    dotenv.write_text('# local\nexport DISCORD_TOKEN="from-file"\n', encoding="utf-8")
    assert load_settings(config, environ={}, dotenv=dotenv).token == "from-file"
    assert "from-file" not in repr(load_settings(config, environ={}, dotenv=dotenv))


def test_main_without_token_says_what_to_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main([]) == 2
    assert "DISCORD_TOKEN" in capsys.readouterr().err


def test_main_reports_bad_settings_without_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, '[bot]\nlanguage = "de"\n')
    assert main(["--config", str(path)]) == 2
    err = capsys.readouterr().err
    assert "bot.language" in err
    assert "Traceback" not in err


def test_endpoints_are_set_and_restored() -> None:
    before = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
    custom = DiscordSettings(api_base="http://127.0.0.1:1/api/v10", gateway_url="ws://127.0.0.1:1/")
    with use_endpoints(custom):
        assert Route.BASE == "http://127.0.0.1:1/api/v10"
        assert str(DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:1/"
    assert before == (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
