"""Tables as the GM tools show them: ``/table list`` and the notice of ``/table close``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.i18n import Lang, has, t
from bot.rules.common import POT
from bot.rules.money import CURRENCIES, format_amount
from bot.services.outcomes import TableOutcome, TableView

MAX_LISTED = 25


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


def listing(lang: Lang, tables: Sequence[TableView]) -> str:
    if not tables:
        return t(lang, "table.list.empty")
    lines = [t(lang, "table.list.title", count=len(tables))]
    lines += [line(lang, table) for table in tables[:MAX_LISTED]]
    if len(tables) > MAX_LISTED:
        lines.append(t(lang, "table.list.more", count=len(tables) - MAX_LISTED))
    return "\n".join(lines)


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
