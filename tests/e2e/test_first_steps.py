"""``/help`` is a first-steps guide for a new GM, in the server's language, within Discord's
limits; every command it names is a real one, named as that language's clients see it."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.test_characters import say
from tests.fakediscord import MANAGE_GUILD, BotHarness, FakeDiscord
from tests.test_polish import english_commands

MENTION = re.compile(r"(?<![\w/])/([\wąćęłńóśźż]+)(?: ([\wąćęłńóśźż_]+))?")


def command_paths(synced: list[dict[str, Any]], lang: str) -> set[str]:
    """``/name`` and ``/group sub`` as the clients of ``lang`` see them."""

    def name(item: dict[str, Any]) -> str:
        return str(item["name"] if lang == "en" else item["name_localizations"][lang])

    paths = set()
    for command in synced:
        paths.add("/" + name(command))
        for sub in command.get("options") or []:
            if sub.get("type") in (1, 2):
                paths.add(f"/{name(command)} {name(sub)}")
    return paths


def embed_text(embed: dict[str, Any]) -> str:
    parts = [embed.get("title", ""), embed.get("description", "")]
    for field in embed.get("fields", []):
        parts += [field["name"], field["value"]]
    return "\n".join(parts)


def within_discord_limits(embed: dict[str, Any]) -> None:
    assert len(embed["title"]) <= 256 and len(embed["description"]) <= 4096
    assert len(embed["fields"]) <= 25
    for field in embed["fields"]:
        assert 0 < len(field["name"]) <= 256 and 0 < len(field["value"]) <= 1024, field["name"]
    assert len(embed_text(embed)) <= 6000


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "en",
            {"/character create", "/purse give", "/pegaz open", "/pazaak challenge"}
            | {"/settings language", "/pazaak rules", "/gm role"},
        ),
        (
            "pl",
            {"/postać utwórz", "/sakiewka daj", "/pegaz otwórz", "/pazaak wyzwij"}
            | {"/ustawienia język", "/pazaak zasady", "/mg rola"},
        ),
    ],
)
async def test_help_walks_a_new_gm_to_a_first_game(
    fake: FakeDiscord, harness: BotHarness, lang: str, expected: set[str]
) -> None:
    gm = fake.add_player("Gunther", permissions=MANAGE_GUILD)
    fake.guild.locale = "pl" if lang == "pl" else "en-US"
    helped = await say(fake, gm, "help")
    assert helped.ephemeral and helped.content in ("", None)
    [embed] = helped.embeds
    within_discord_limits(embed)
    text = embed_text(embed)

    titles = [field["name"] for field in embed["fields"]]
    if lang == "en":
        assert embed["title"] == "Szulernia: first steps for a GM"
        assert titles[:4] == ["Who is a GM", "1. Characters", "2. Coins", "3. A game"]
        assert 'any role named "GM"' in text
    else:
        assert embed["title"] == "Szulernia: pierwsze kroki dla MG"
        assert titles[:4] == ["Kto jest MG", "1. Postacie", "2. Monety", "3. Gra"]
        assert not english_commands() & set(re.findall(r"/(\w+)", text))

    real = command_paths(fake.commands(), lang)
    mentioned = {
        f"/{m.group(1)}" + (f" {m.group(2)}" if f"/{m.group(1)} {m.group(2)}" in real else "")
        for m in MENTION.finditer(text)
    }
    assert expected <= mentioned
    assert mentioned <= real, mentioned - real
    toc = embed["fields"][-1]["value"]
    assert all(f"`{path}`" in toc for path in real if " " not in path)
