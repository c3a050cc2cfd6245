"""Components V2 views keep Discord's limits by construction (``cogs.kit.layout``), checked with
the fake Discord's own checks, and the fake refuses a modal's select menu outside a label."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from cogs.kit.layout import COMPONENTS_MAX, TEXT_MAX, fit, layout, texts
from tests.fakediscord import limits as discord_limits
from tests.fakediscord.limits import CALLBACK_ROUTE, COMPONENTS_V2, check_limits


def problems(view: discord.ui.LayoutView) -> list[tuple[str, str]]:
    body = {"flags": COMPONENTS_V2, "components": view.to_components()}  # type: ignore[no-untyped-call]
    return list(discord_limits.check_message(body))


def long_view() -> discord.ui.LayoutView:
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(
        discord.ui.Container(
            discord.ui.TextDisplay("a" * 3000),
            discord.ui.Separator(),
            discord.ui.TextDisplay("b" * 1500),
            discord.ui.TextDisplay("c" * 700),
        )
    )
    return view


def test_the_fake_refuses_a_view_over_4000_characters_and_fit_clips_the_last_texts() -> None:
    view = long_view()
    assert problems(view)  # the check can fail
    fit(view)
    assert problems(view) == []
    assert view.content_length() == TEXT_MAX
    assert [len(item.content) for item in texts(view)] == [3000, 999, 1]
    assert texts(view)[1].content.endswith("…")


def test_a_view_within_the_limits_is_left_as_it_is() -> None:
    view = layout(discord.ui.Container(discord.ui.TextDisplay("Paid 2 s 2 p.")))
    assert [item.content for item in texts(view)] == ["Paid 2 s 2 p."]
    assert problems(view) == []


def test_no_view_holds_more_than_40_components() -> None:
    items = [discord.ui.TextDisplay[Any](str(i)) for i in range(COMPONENTS_MAX)]
    assert problems(layout(*items)) == []
    with pytest.raises(ValueError):
        layout(*items, discord.ui.TextDisplay("one too many"))
    body = {"flags": COMPONENTS_V2, "components": [{"type": 10, "content": "x"}] * 41}
    assert list(discord_limits.check_message(body))  # and the fake refuses one


def modal_body(*components: dict[str, Any]) -> dict[str, Any]:
    data = {"custom_id": "pg:1:1:pay:1", "title": "Pay & exchange", "components": list(components)}
    return {"type": 9, "data": data}


MENU = {
    "type": 3,
    "custom_id": "cards",
    "options": [{"label": "1. Snake", "value": "1"}],
    "required": False,
}


def test_a_modal_select_goes_in_a_label_not_an_action_row() -> None:
    method, route = CALLBACK_ROUTE
    in_label = modal_body({"type": 18, "label": "Cards to exchange", "component": MENU})
    assert check_limits(method, route, in_label) == []
    in_row = modal_body({"type": 1, "components": [MENU]})
    assert check_limits(method, route, in_row) == [
        (
            "data.components.0",
            "a select menu in a modal goes in a label (type 18), not an action row",
        )
    ]
