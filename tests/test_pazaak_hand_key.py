"""The Pazaak hand DM's key (``cogs.pazaak.scene.hand_key``): the publisher edits a hand DM only
when its key changes, so the key must change whenever the DM's draft would, over whole matches
of random legal moves (Hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules import pazaak
from cogs.pazaak.scene import hand_draft, hand_key

DECK = pazaak.parse_side_cards(["+1", "+2", "+3", "+4", "+5", "-1", "-2", "-3", "-4", "-5"])
NAMES = {1: "Ahsoka", 2: "Bastila"}


def drawn(state: pazaak.PazaakState, player: int) -> tuple[object, ...]:
    draft = hand_draft(state, player, 7, NAMES, "en", cancelled=False)
    view = draft.view
    buttons = (
        () if view is None else tuple(repr(item.to_component_dict()) for item in view.children)
    )
    return (draft.content, None if draft.embed is None else draft.embed.to_dict(), buttons)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), skills=st.booleans())
def test_the_key_changes_whenever_the_hand_dm_would(seed: int, skills: bool) -> None:
    dealer, mind = random.Random(seed), random.Random(~seed)
    lucky = pazaak.Traits(luck=True, gamble=True)
    traits = ((lucky, lucky),) if skills else ()  # one pair of traits, for both seats
    state, _ = pazaak.new_match(
        pazaak.PazaakSettings(skills=skills), 1, DECK, 2, DECK, dealer, *traits
    )
    seen = {p: (hand_key(state, p, 7, NAMES, "en", False), drawn(state, p)) for p in (1, 2)}
    for _ in range(120):
        if pazaak.is_over(state):
            break
        state, _ = pazaak.apply(state, mind.choice(pazaak.legal_actions(state)), dealer)
        for player in (1, 2):
            key, draft = hand_key(state, player, 7, NAMES, "en", False), drawn(state, player)
            old_key, old_draft = seen[player]
            if draft != old_draft:
                assert key != old_key, f"seat {player}: the DM changed, its key did not"
            seen[player] = (key, draft)
