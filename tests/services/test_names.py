"""Names: each refusal says which rule it breaks, and look-alikes (Unicode TR39 skeletons) are
refused like exact duplicates, against a real SQLite file."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.i18n import t
from bot.render.errors import error_text
from bot.services.errors import DuplicateName, NameInvalid
from bot.services.names import (
    MAX_NAME,
    LookAlikeName,
    NameBadCharacter,
    NameBadStart,
    NameEmpty,
    NameTooLong,
    clean_name,
    look_alike_keys,
    name_key,
)
from tests.services.conftest import ALICE_USER, BOB_USER, GUILD, World


def looks_alike(a: str, b: str) -> bool:
    """What the character service refuses beside a name: one sharing a look-alike key."""
    return not look_alike_keys(a).isdisjoint(look_alike_keys(b))


CYRILLIC_BOB = "\u0412\u043eb Smith"  # a Cyrillic capital Ve and a small o
# Latin letters and the Cyrillic or Greek letter Unicode's confusables table folds onto each
LOOK_ALIKES = {
    "a": "\u0430",
    "c": "\u0441",
    "e": "\u0435",
    "o": "\u043e",
    "p": "\u0440",
    "x": "\u0445",
    "y": "\u0443",
    "B": "\u0412",
    "H": "\u041d",
    "K": "\u039a",
    "M": "\u041c",
    "T": "\u0422",
}
latin_names = st.text(
    alphabet=st.sampled_from(sorted(set("abcdefghijklmnoprstuxyBHKMT"))), min_size=1, max_size=20
)


@pytest.mark.parametrize(
    ("raw", "error", "params"),
    [
        ("  ", NameEmpty, {"name": "", "reason": "empty"}),
        ("x" * 40, NameTooLong, {"name": "x" * 23 + "\u2026", "length": 40, "max": MAX_NAME}),
        ("Greta*", NameBadCharacter, {"name": "Greta\ufffd", "char": "* (U+002A)"}),
        ("a\u200bb", NameBadCharacter, {"name": "a\ufffdb", "char": "U+200B"}),
        (
            "<@1> Greta",
            NameBadCharacter,
            {"name": "\ufffd\ufffd1\ufffd Greta", "char": "< (U+003C)"},
        ),
        ("Greta -x", NameBadStart, {"name": "Greta -x", "char": "-"}),
    ],
)
def test_each_refusal_names_its_rule(
    raw: str, error: type[NameInvalid], params: dict[str, object]
) -> None:
    with pytest.raises(error) as caught:
        clean_name(raw)
    assert params.items() <= caught.value.params.items()
    assert isinstance(caught.value, NameInvalid)


def test_the_refusals_read_differently_in_both_languages() -> None:
    errors = [
        NameEmpty(name="", reason="empty"),
        NameTooLong(name="x" * 23 + "\u2026", reason="too_long", length=40, max=MAX_NAME),
        NameBadCharacter(name="Greta\ufffd", reason="bad_character", char="* (U+002A)"),
        NameBadStart(name="Greta -x", reason="bad_start", char="-"),
        DuplicateName(name="Bob Smith"),
        LookAlikeName(name=CYRILLIC_BOB, other="Bob Smith"),
    ]
    for lang in ("en", "pl"):
        texts = [error_text(lang, e) for e in errors]
        assert len(set(texts)) == len(texts), texts
        assert all(text and "?" not in text for text in texts), texts
        assert "40" in str(texts[1]) and "32" in str(texts[1])
        assert "*" in str(texts[2]) and "-" in str(texts[3])
        assert "Bob Smith" in str(texts[5]) and CYRILLIC_BOB in str(texts[5])
    assert error_text("en", errors[0]) != t("en", "error.refused")


def test_cyrillic_bob_has_bobs_skeleton() -> None:
    assert CYRILLIC_BOB != "Bob Smith" and name_key(CYRILLIC_BOB) != name_key("Bob Smith")
    assert looks_alike(CYRILLIC_BOB, "Bob Smith")
    assert looks_alike("B0B SMITH", "bob smith") and looks_alike("SMITH", "Srnith")
    assert not looks_alike("Bob Smith", "Rob Smith")


@given(latin_names, st.data())
def test_swapping_letters_for_their_look_alikes_keeps_the_key(
    name: str, data: st.DataObject
) -> None:
    swaps = data.draw(st.lists(st.booleans(), min_size=len(name), max_size=len(name)))
    spoof = "".join(
        LOOK_ALIKES[c] if swap and c in LOOK_ALIKES else c
        for c, swap in zip(name, swaps, strict=True)
    )
    assert looks_alike(spoof, name)


@given(latin_names, latin_names)
def test_different_plain_names_keep_different_keys(a: str, b: str) -> None:
    """Among letters TR39 does not merge, names look alike only when they are the same."""
    plain = set("abcdefghijknoprstuxy")
    a, b = "".join(c for c in a.lower() if c in plain), "".join(c for c in b.lower() if c in plain)
    assert looks_alike(a, b) == (a == b)


@given(st.text(min_size=1, max_size=MAX_NAME))
def test_a_clean_name_is_stable(raw: str) -> None:
    try:
        name = clean_name(raw)
    except NameInvalid:
        return
    assert clean_name(name) == name
    assert looks_alike(name, raw)


async def test_a_look_alike_is_refused_and_says_whose_name_it_copies(world: World) -> None:
    bob = await world.characters.create(GUILD, "Bob Smith", owner_id=BOB_USER)
    with pytest.raises(LookAlikeName) as caught:
        await world.characters.create(GUILD, CYRILLIC_BOB, owner_id=ALICE_USER)
    assert caught.value.params == {"name": CYRILLIC_BOB, "other": "Bob Smith"}
    assert isinstance(caught.value, DuplicateName)
    with pytest.raises(LookAlikeName):
        await world.characters.create(GUILD, "B0B SMITH", owner_id=ALICE_USER)
    elsewhere = await world.characters.create(GUILD + 1, CYRILLIC_BOB, owner_id=ALICE_USER)
    assert elsewhere.name == CYRILLIC_BOB

    rob = await world.characters.create(GUILD, "Rob Smith", owner_id=ALICE_USER)
    with pytest.raises(LookAlikeName):
        await world.characters.edit(rob.id, actor_id=ALICE_USER, name=CYRILLIC_BOB)
    own = await world.characters.edit(bob.id, actor_id=BOB_USER, name="B0b Smith")
    assert own.name == "B0b Smith"  # a look-alike of its own old name is fine

    await world.characters.delete(own.id, actor_id=BOB_USER)
    freed = await world.characters.create(GUILD, CYRILLIC_BOB, owner_id=ALICE_USER)
    assert freed.name == CYRILLIC_BOB
