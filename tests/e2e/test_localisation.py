"""Two languages: every synced command speaks Polish to Polish clients, and ``/settings language``
switches what the bot says on the server."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from bot.i18n import t, valid_name
from tests.e2e.test_characters import say
from tests.fakediscord import MANAGE_GUILD, BotHarness, FakeDiscord

SUBCOMMAND, GROUP = 1, 2
DISCORD_NAME = re.compile(r"^[-_\w]{1,32}$")

MINUS = "\u2212"  # how the history shows coins going out


def walk(items: list[dict[str, Any]], path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every command, subcommand, option and choice, with a readable path."""
    for item in items:
        where = f"{path}/{item['name']}"
        yield where, item
        for choice in item.get("choices") or []:
            yield f"{where}={choice['name']}", choice
        yield from walk(item.get("options") or [], where)


async def test_every_command_option_and_choice_has_polish(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    synced = fake.commands()
    assert {"character", "purse", "gm", "settings", "table", "help"} <= {c["name"] for c in synced}
    problems = []
    for where, item in walk(synced):
        is_choice = "=" in where.rsplit("/", 1)[-1]
        pl_name = (item.get("name_localizations") or {}).get("pl")
        if not pl_name:
            problems.append(f"{where}: no Polish name")
        elif not is_choice and not (valid_name(pl_name) and DISCORD_NAME.match(pl_name)):
            problems.append(f"{where}: Polish name {pl_name!r} breaks Discord's naming rules")
        elif is_choice and not 1 <= len(pl_name) <= 100:
            problems.append(f"{where}: Polish choice {pl_name!r} is too long")
        if is_choice:
            continue
        assert valid_name(item["name"]), where
        pl_description = (item.get("description_localizations") or {}).get("pl")
        if not pl_description or not 1 <= len(pl_description) <= 100:
            problems.append(f"{where}: no Polish description (1-100 characters)")
        elif pl_description == item["description"]:
            problems.append(f"{where}: the Polish description is the English one")
    assert problems == [], "\n".join(problems)

    for where, item in [("", {"options": synced}), *walk(synced)]:
        names = [o["name_localizations"]["pl"] for o in item.get("options") or []]
        assert len(names) == len(set(names)), f"{where or '/'}: Polish names repeat: {names}"

    polish = {c["name"]: c["name_localizations"]["pl"] for c in synced}
    assert (polish["character"], polish["purse"], polish["gm"]) == ("postać", "sakiewka", "mg")
    assert (polish["settings"], polish["table"]) == ("ustawienia", "stół")


async def test_switching_the_server_to_polish_switches_the_replies(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    gm = fake.add_player("Gunther", permissions=MANAGE_GUILD)
    alice = fake.add_player("Alice", locale="pl")
    await say(fake, alice, "character create", name="Greta")
    await say(fake, gm, "purse give", character="Greta", amount="1 GC 3 p", reason="Loot")

    english = await say(fake, alice, "purse show")
    assert english.content == "**Greta**'s purse:\nWarhammer coin: 1 GC 3 p\nCredits: 0 cr"
    refused = await say(fake, alice, "settings language", language="pl")
    assert refused.content == "Only a GM can do that."

    switched = await say(fake, gm, "settings language", language="pl")
    assert switched.content == "Od teraz mówię na tym serwerze po polsku."
    assert await harness.bot.services.guilds.language(fake.guild.id) == "pl"

    polish = await say(fake, alice, "purse show")
    assert (
        polish.content == "Sakiewka postaci **Greta**:\nMonety (Warhammer): 1 zk 3 p\nKredyty: 0 cr"
    )
    refused = await say(fake, alice, "settings language", language="en")
    assert refused.content == t("pl", "error.not_gm") == "Tylko MG może to zrobić."
    made = await say(fake, alice, "character create", name="Ulrika", luck=True)
    assert made.content == "Utworzono postać **Ulrika** (Szczęście, Percepcja 0)."
    paid = await say(
        fake, alice, "purse pay", to="Ulrika", amount="1 korona", options={"from": "Greta"}
    )
    assert paid.content == "**Greta** płaci 1 zk postaci **Ulrika**."
    broke = await say(
        fake, alice, "purse pay", to="Ulrika", amount="5 s", options={"from": "Greta"}
    )
    assert broke.content == "Za mało w sakiewce: jest 3 p, a potrzeba 5 s."
    history = await say(fake, alice, "purse history", character="Greta")
    assert history.button_labels == ["Nowsze", "Starsze"]
    assert history.embeds[0]["footer"]["text"] == "Strona 1, od najnowszych"
    assert history.embeds[0]["description"].startswith(f"`{MINUS}1 zk` dla: Ulrika · <t:")

    helped = await say(fake, alice, "help")  # a Polish server reads the Polish command names
    toc = helped.embeds[0]["fields"][-1]["value"]
    assert "`/postać` utwórz, lista, pokaż, wybierz, edytuj, usuń" in toc.splitlines()
    assert "`/pomoc`" in toc and "`/mg` rola" in toc
    helped = await say(fake, gm, "help")  # an English client too: the text is Polish
    assert helped.embeds[0]["fields"][-1]["value"] == toc

    back = await say(fake, gm, "settings language", language="en")
    assert back.content == "From now on I speak English on this server."
    shown = await say(fake, alice, "purse show", character="Greta")
    assert shown.content.startswith("**Greta**'s purse:")
