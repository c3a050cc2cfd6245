"""The Polish catalogue speaks to everyone alike and quotes Polish command names.

- No gendered verb forms for the reader or a character: no "Spasowałeś" (you, masculine), no
  "{name} wpłacił" (a character, masculine). Polish past tense marks gender, so the texts use
  the present tense, impersonal forms ("przyłapano"), or a noun ("osoba, która...").
- No command quoted by its English name: a text names a command with a placeholder such as
  ``{/pegaz open}``, which ``t`` fills with the command's name in the text's language.

Each scanner is tried on known bad lines first, so a scanner that finds nothing cannot pass.
"""

from __future__ import annotations

import re

import pytest

from bot.i18n import LANGS, catalogue, command_name, command_strings, placeholders, t, valid_name

# Placeholders that stand for a character (or several), a player or a user
PEOPLE = frozenset(
    {"name", "names", "winner", "loser", "challenger", "opponent", "payer", "payee", "target"}
    | {"catchers", "first", "second", "last", "a", "b", "user", "users", "mention", "who"}
)
# 1st and 2nd person past tense (and conditional): gendered in Polish ("zagrałeś", "zagrałam")
SPEAKER = re.compile(r"\b\w+(?:łeś|łaś|łem|łam|łyś|łyście|liście)\b", re.IGNORECASE)
# 3rd person past tense, conditional, and the passive participles that agree with a person
PERSON_FORM = re.compile(r"^\w+(?:ł|ła|łby|łaby|li|ły|any|ana|ony|ona|ęty|ęta|yty|yta)$")
# Nouns and adverbs with those endings; "minął" is said of time ("czas minął"), not of a person
NOT_VERBS = frozenset(
    {"stołem", "kołem", "jeśli", "stół", "puli", "roli", "chwili", "mało", "wygrana", "minął"}
)
CLAUSE = re.compile("[.,:;!?()\\[\\]\u2014\u2013\u00b7\n]")
# A placeholder after one of these nouns is in apposition: the verb agrees with the noun
# ("Postać **{name}** została usunięta": "postać" is feminine, whoever plays it).
NOUNS = re.compile(r"^(?:postać|postaci|postacią|postacie|postaciami|osoba|osoby|osobą)$")


def gendered(text: str) -> list[str]:
    """The gendered forms in a Polish text: for the reader anywhere, and for a person next to a
    placeholder that stands for one (two words before it, three after, within its clause)
    unless a noun carries the gender."""
    found = [m.group(0) for m in SPEAKER.finditer(text) if m.group(0).lower() not in NOT_VERBS]
    for clause in CLAUSE.split(text):
        tokens = re.findall(r"\{[^{}]*\}|\w+", clause)
        for i, token in enumerate(tokens):
            if token.strip("{}") not in PEOPLE or not token.startswith("{"):
                continue
            if i > 0 and NOUNS.match(tokens[i - 1].lower()):
                continue
            near = tokens[max(0, i - 2) : i] + tokens[i + 1 : i + 4]
            found += [
                w for w in near if PERSON_FORM.match(w.lower()) and w.lower() not in NOT_VERBS
            ]
    return found


LABELS = ("pegaz.seat.", "pazaak.board.", "pazaak.log.", "pegaz.ev.folded.")
"""Texts shown beside a character's name (a seat's status, a log line): no person form at all."""


def gendered_label(text: str) -> list[str]:
    words = re.findall(r"\w+", text)
    return [w for w in words if PERSON_FORM.match(w.lower()) and w.lower() not in NOT_VERBS]


def english_commands() -> frozenset[str]:
    """Command, group and option words whose Polish name differs (``create``, ``open``...)."""
    strings = command_strings("pl")
    words = {k.removeprefix("name:"): v for k, v in strings.items()}
    return frozenset(w for w, pl in words.items() if valid_name(w) and valid_name(pl) and w != pl)


QUOTED = re.compile(r"(?<![\w{/])/(\w+)(?: (\w+))?")


def english_quotes(text: str, english: frozenset[str]) -> list[str]:
    return [m.group(0) for m in QUOTED.finditer(text) if english & {m.group(1), m.group(2)}]


def polish_texts() -> list[tuple[str, str]]:
    texts = list(catalogue("pl").items())
    return texts + [(f"commands:{k}", v) for k, v in command_strings("pl").items()]


@pytest.mark.parametrize(
    "bad",
    [
        "Spasowałeś.",
        "W tej turze zagrałaś już kartę.",
        "{name} nie zdecydował na czas: bez ofiary.",
        "wpłacił {amount} · {name} spasował",
        "Stół {table}: {name} przyłapany na oszustwie.",
        "Wygrała {winner}!",
    ],
)
def test_the_gender_scanner_finds_gendered_forms(bad: str) -> None:
    assert gendered(bad), bad


@pytest.mark.parametrize(
    "good",
    [
        "{name} pasuje.",
        "Stół {table}: przyłapano postać {name} na przesunięciu karty.",
        "Tylko osoba, która otworzyła stół, albo MG może to zrobić.",
        "{name} siada przy stole {table}; wpisowe {ante} zapłacone.",
        "Oddajesz {amount} Ranaldowi, jeśli {name} wygra.",
    ],
)
def test_the_gender_scanner_leaves_neutral_forms(good: str) -> None:
    assert gendered(good) == []


def test_the_label_scanner_finds_the_old_seat_labels() -> None:
    old = ["wpłacił {amount}", "spasował", "przegrał sprawdzenie", "wyrzucony", "wygrał {amount}"]
    assert all(gendered_label(label) for label in old)
    assert gendered_label("wpłata {amount}") == gendered_label("pas") == []


def test_no_polish_text_uses_gendered_forms() -> None:
    found = {key: forms for key, text in polish_texts() if (forms := gendered(text))}
    assert found == {}
    labels = {
        key: forms
        for key, text in catalogue("pl").items()
        if key.startswith(LABELS) and (forms := gendered_label(text))
    }
    assert labels == {}


def test_the_command_scanner_finds_english_names() -> None:
    english = english_commands()
    assert {"create", "open", "character", "settings", "language"} <= english
    assert english_quotes("Stwórz ją przez /character create.", english) == ["/character create"]
    assert english_quotes("Otwórz stół: /pegaz open.", english) == ["/pegaz open"]
    assert english_quotes("Karty plus/minus, /postać utwórz, {/pegaz open}", english) == []


@pytest.mark.parametrize("lang", LANGS)
def test_no_text_quotes_a_command_by_name(lang: str) -> None:
    """Every command a text mentions is a ``{/...}`` placeholder (the commands sections, which
    describe commands to Polish clients, may name Polish commands directly)."""
    english = english_commands()
    found = {k: q for k, v in catalogue(lang).items() if (q := QUOTED.findall(v))}  # type: ignore[arg-type]
    assert found == {}
    if lang == "pl":
        quoted = {k: q for k, v in polish_texts() if (q := english_quotes(v, english))}
        assert quoted == {}


def test_command_placeholders_name_real_commands_in_each_language() -> None:
    strings = command_strings("pl")
    used = {
        field
        for text in catalogue("en").values()
        for field in placeholders(text)
        if field.startswith("/")
    }
    assert {"/character create", "/pegaz open", "/pazaak deck"} <= used
    for path in used:
        words = path.removeprefix("/").split()
        assert all(f"name:{w}" in strings or w in strings for w in words), path
        assert command_name("en", path) == path
        assert all(valid_name(w) for w in command_name("pl", path).removeprefix("/").split())
    assert t("pl", "error.no_character").endswith("poleceniem /postać utwórz.")
    assert t("en", "error.no_character").endswith("with /character create.")
    assert "/pegaz otwórz" in t("pl", "error.pegaz_no_table")
