"""Every option of every slash command is bounded, as synced to Discord: a string has a
``max_length``, a number a ``min_value`` and a ``max_value`` (a fixed list of choices bounds
either). Discord's clients then refuse what is too long or out of range before it is sent."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot.app import DEFAULT_EXTENSIONS
from tests.fakediscord import BotHarness, FakeDiscord
from tests.fakediscord.payloads import GROUP, INTEGER, NUMBER, STRING, SUBCOMMAND


def leaf_options(commands: list[dict[str, Any]]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each option that takes a value, with its command's path (``/pegaz open exchanges``)."""

    def walk(path: str, options: list[dict[str, Any]]) -> Iterator[tuple[str, dict[str, Any]]]:
        for option in options:
            if option["type"] in (SUBCOMMAND, GROUP):
                yield from walk(f"{path} {option['name']}", option.get("options") or [])
            else:
                yield f"{path} {option['name']}", option

    for command in commands:
        yield from walk("/" + command["name"], command.get("options") or [])


def unbounded(commands: list[dict[str, Any]]) -> list[str]:
    """The string options without a max_length and the numbers without both bounds."""
    found = []
    for path, option in leaf_options(commands):
        if option.get("choices"):
            continue
        if option["type"] == STRING and option.get("max_length") is None:
            found.append(f"{path}: no max_length")
        if option["type"] in (INTEGER, NUMBER) and (
            option.get("min_value") is None or option.get("max_value") is None
        ):
            found.append(
                f"{path}: min_value {option.get('min_value')}, max_value {option.get('max_value')}"
            )
    return found


async def test_every_synced_option_is_bounded(fake: FakeDiscord, harness: BotHarness) -> None:
    commands = fake.state.commands_for(None)
    assert {c["name"] for c in commands} >= {"pegaz", "pazaak", "purse", "character", "gm"}
    paths = {path for path, _ in leaf_options(commands)}
    # the options named in the report: the walk must see them (it reads the synced payload)
    for path in (
        "/pegaz odds hand",
        "/pegaz open exchanges",
        "/pegaz open stake",
        "/pegaz join table",
        "/purse pay reason",
        "/purse pay to",
        "/purse pay from",
        "/pazaak challenge wager",
        "/pazaak grant cards",
        "/table close table",
        "/character show name",
    ):
        assert path in paths, path
    assert unbounded(commands) == []
    assert len(DEFAULT_EXTENSIONS) == len(harness.bot.extensions)


def test_the_walk_finds_an_unbounded_option() -> None:
    """The check itself can fail: a string, an integer and a number left open are each named."""
    commands: list[dict[str, Any]] = [
        {
            "name": "demo",
            "options": [
                {
                    "name": "sub",
                    "type": SUBCOMMAND,
                    "options": [
                        {"name": "text", "type": STRING},
                        {"name": "count", "type": INTEGER, "min_value": 0},
                        {"name": "ratio", "type": NUMBER, "max_value": 1.0},
                        {"name": "kind", "type": STRING, "choices": [{"name": "a", "value": "a"}]},
                        {"name": "ok", "type": INTEGER, "min_value": 0, "max_value": 9},
                        {"name": "short", "type": STRING, "max_length": 9},
                    ],
                }
            ],
        }
    ]
    assert unbounded(commands) == [
        "/demo sub text: no max_length",
        "/demo sub count: min_value 0, max_value None",
        "/demo sub ratio: min_value None, max_value 1.0",
    ]


async def test_a_client_cannot_send_a_hand_or_a_reason_that_is_too_long(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    """The fake client honours the synced bounds like Discord's: the bounds are really sent."""
    alice = fake.add_player("Alice")
    commands = fake.state.commands_for(None)
    by_path = dict(leaf_options(commands))
    hand = by_path["/pegaz odds hand"]["max_length"]
    reason = by_path["/purse pay reason"]["max_length"]
    exchanges = by_path["/pegaz open exchanges"]["max_value"]
    for command, values in (
        ("pegaz odds", {"hand": "6" * (hand + 1)}),
        ("purse pay", {"to": "Hans", "amount": "1 s", "reason": "x" * (reason + 1)}),
        ("pegaz open", {"exchanges": exchanges + 1}),
    ):
        with pytest.raises(ValueError, match=r"length|outside"):
            await fake.slash(alice, command, **values)
