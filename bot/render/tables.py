"""Tables as the GM tools show them: ``/table list`` and the notice of ``/table close``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from bot.i18n import Lang, clip, has, t
from bot.render.limits import CONTENT_MAX
from bot.rules.common import POT, Transfer
from bot.rules.money import CURRENCIES, format_amount

PAGE_SIZE = 10
"""Tables on one page of ``/table list`` (a page stays far below Discord's 2,000 characters)."""


class TableView(Protocol):
    """What a table's line shows (render knows no services: any such value does)."""

    @property
    def table_id(self) -> int: ...
    @property
    def game(self) -> str: ...
    @property
    def channel_id(self) -> int: ...
    @property
    def status(self) -> str: ...
    @property
    def currency(self) -> str: ...
    @property
    def seats(self) -> frozenset[int]: ...


class TableOutcome(Protocol):
    """What a table's closing notice shows of the step that closed it: its money."""

    @property
    def transfers(self) -> tuple[Transfer, ...]: ...


def game_name(lang: Lang, game: str) -> str:
    key = f"table.game.{game}"
    return t(lang, key) if has(key) else game


def line(lang: Lang, table: TableView) -> str:
    return t(
        lang,
        "table.list.line",
        table=table.table_id,
        game=game_name(lang, table.game),
        channel=f"<#{table.channel_id}>",
        status=t(lang, f"table.status.{table.status}"),
        seated=len(table.seats),
    )


def page_count(total: int) -> int:
    """How many pages ``total`` tables fill (at least one)."""
    return max(1, -(-total // PAGE_SIZE))


def listing(lang: Lang, tables: Sequence[TableView], page: int = 0) -> str:
    """One page of ``/table list`` (``page`` counts from 0 and is kept in range)."""
    if not tables:
        return t(lang, "table.list.empty")
    pages = page_count(len(tables))
    page = min(max(page, 0), pages - 1)
    lines = [t(lang, "table.list.title", count=len(tables))]
    lines += [line(lang, table) for table in tables[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]]
    if pages > 1:
        lines.append(t(lang, "table.list.page", page=page + 1, pages=pages))
    return clip("\n".join(lines), CONTENT_MAX)


def choice_name(lang: Lang, table: TableView, channel: str | None) -> str:
    """An autocomplete choice for ``/table close`` (at most 100 characters)."""
    text = t(
        lang,
        "table.choice",
        table=table.table_id,
        game=game_name(lang, table.game),
        channel=channel or "?",
        seated=len(table.seats),
    )
    return text[:100]


def refunds(outcome: TableOutcome) -> dict[int, int]:
    """``character id -> coins`` that went back from the pot when the table was cancelled."""
    back: dict[int, int] = {}
    for transfer in outcome.transfers:
        if transfer.source == POT and isinstance(transfer.target, int):
            back[transfer.target] = back.get(transfer.target, 0) + transfer.amount
    return back


def closed(lang: Lang, view: TableView, outcome: TableOutcome, names: Mapping[int, str]) -> str:
    """The channel notice: which table, and every stake that went back."""
    game = game_name(lang, view.game)
    back = refunds(outcome)
    if not back:
        return t(lang, "table.closed", table=view.table_id, game=game)
    currency = CURRENCIES[view.currency]
    parts = [
        t(
            lang,
            "table.closed.refund",
            name=names.get(character, "?"),
            amount=format_amount(units, currency, lang),
        )
        for character, units in back.items()
    ]
    return t(lang, "table.closed.refunds", table=view.table_id, game=game, refunds=", ".join(parts))
