"""Spectators: "Watch" on a table message, its "Refresh", and side bets. Both games' cogs mix
:class:`WatchActs` in (before their other acts); the kit receives its components like any other.

custom_ids (the kit's grammar, at version 0: they are never stale):
- ``<game>:<table>:0:watch``: Watch, on the table message; an ephemeral view of the public
  board (the game scene's :meth:`Spectated.public`), with
- ``<game>:<table>:0:wref``: Refresh, an update of that ephemeral message; and, while the table
  takes side bets and the user plays no seat at it,
- ``<game>:<table>:0:sbseat``: the menu of seats to back, which opens the dialog
- ``<game>:<table>:0:sbet:<seat>``: the amount and the paying character.

What a spectator sees is what everyone in the channel sees: never a hand, a GM's note, another
spectator, or when a player's turn began (no turn clock).
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any, Protocol

import discord

from bot.i18n import Lang, t
from bot.render import side_bets as render
from bot.rules.money import CURRENCIES, format_amount, parse_amount
from bot.services import side_bets
from bot.services.outcomes import TableView
from bot.services.table_steps import CLOSED
from cogs.common import acting_character, guild_id_of
from cogs.kit.cog import Click, TableDialog, TableKit, act
from cogs.kit.ids import Target, button, select
from cogs.kit.messages import edit_original
from cogs.replies import answer

EXAMPLES = {"wh": 240, "cr": 250}
"""An amount shown in the dialog's hint, per currency (1 GC, 250 cr)."""


class Spectated(Protocol):
    """A game's scene, as a spectator's view draws it."""

    async def public(self, table: TableView, lang: Lang) -> discord.Embed:
        """The table's board as everyone in its channel sees it, without the turn clock."""
        ...


def watch_button(prefix: str, table_id: int, lang: Lang, row: int | None = None) -> Any:
    return button(Target(prefix, table_id, 0, "watch"), t(lang, "watch.btn.watch"), row=row)


async def seat_names(bot: Any, view: TableView) -> dict[int, str]:
    found = await bot.services.characters.many(side_bets.seats_of(view))
    return {cid: c.name for cid, c in found.items()}


async def pools(
    bot: Any, view: TableView, names: Mapping[int, str], user_id: int | None = None
) -> render.Pools | None:
    """What the table's side bets show (None: the table takes none)."""
    if not side_bets.enabled(view.state):
        return None
    book = await bot.services.side_bets.book(view.table_id)
    seats = side_bets.seats_of(view)
    named = [
        (names.get(s, f"#{s}"), amount) for s, amount in side_bets.pools_text_order(book, seats)
    ]
    mine = None if user_id is None else book.mine(user_id)
    shown = None
    if mine is not None:
        amount = mine.paid if mine.status in ("won", "refunded") else mine.amount
        shown = (names.get(mine.seat, f"#{mine.seat}"), amount, mine.status)
    winner = book.winner
    return render.Pools(
        view.currency,
        named,
        side_bets.betting_open(view),
        shown,
        None if winner is None else names.get(winner, f"#{winner}"),
        book.refunded,
        book.settled,
    )


async def result_field(bot: Any, view: TableView, lang: Lang) -> tuple[str, str] | None:
    """The final board's side-bets line (None: no bets were settled at this table)."""
    if view.status not in CLOSED or not side_bets.enabled(view.state):
        return None
    shown = await pools(bot, view, await seat_names(bot, view))
    if shown is None or not shown.settled:
        return None
    return render.title(lang), render.result(shown, lang)


async def with_side_bets(
    bot: Any, table: TableView, embed: discord.Embed, lang: Lang
) -> discord.Embed:
    """``embed`` with the side bets' result once the table is over (if it took any)."""
    found = await result_field(bot, table, lang)
    if found is not None:
        embed.add_field(name=found[0], value=found[1], inline=False)
    return embed


class WatchActs(TableKit):
    spectated: Spectated

    async def watch_message(self, click: Click) -> dict[str, Any]:
        """The spectator's message, drawn for the clicking user."""
        table = await self.table(click.table.table_id)  # the newest, not the click's cache
        lang = click.lang
        embed = await self.spectated.public(table, lang)
        if table.status in CLOSED:
            content = t(lang, "watch.over", table=table.table_id)
            return {"content": content, "embed": embed, "view": None}
        names = await seat_names(self.bot, table)
        shown = await pools(self.bot, table, names, click.user_id)
        if shown is not None:
            embed.add_field(name=render.title(lang), value=render.view_text(shown, lang)[:1024])
        items = discord.ui.View(timeout=None)
        refresh = Target(self.PREFIX, table.table_id, 0, "wref")
        items.add_item(button(refresh, t(lang, "watch.btn.refresh")))
        if shown is not None and shown.open and await self._may_watch_bet(click, table):
            options = [
                discord.SelectOption(label=names.get(s, f"#{s}")[:100], value=str(s))
                for s in side_bets.seats_of(table)[:25]
            ]
            if options:
                pick = Target(self.PREFIX, table.table_id, 0, "sbseat")
                items.add_item(select(pick, options, placeholder=t(lang, "side_bets.pick")))
        content = t(lang, "watch.intro", table=table.table_id)
        return {"content": content, "embed": embed, "view": items}

    @act("watch")
    async def watch(self, click: Click) -> None:
        """Watch: a new ephemeral view of the public table (a seated player's too)."""
        await self.ack(click)
        await answer(click.interaction, **await self.watch_message(click))

    @act("wref")
    async def watch_refresh(self, click: Click) -> None:
        """Refresh: the spectator's own message, drawn again."""
        await self.ack(click)
        await edit_original(click.interaction, **await self.watch_message(click))

    @act("sbseat", modal=True)
    async def side_bet_seat(self, click: Click) -> None:
        """A seat picked to back: the dialog for the amount (refused here when the bet would
        be, before the user types anything)."""
        table = click.table
        seat = int(click.values[0]) if click.values and click.values[0].isdigit() else 0
        await self._may_bet(click, table, seat)
        names = await seat_names(self.bot, table)
        lang = click.lang
        name = names.get(seat, f"#{seat}")
        dialog = TableDialog(
            Target(self.PREFIX, table.table_id, 0, "sbet", str(seat)),
            title=t(lang, "side_bets.modal.title", name=name),
        )
        example = format_amount(EXAMPLES.get(table.currency, 1), CURRENCIES[table.currency], lang)
        dialog.add_item(
            discord.ui.TextInput(
                label=t(lang, "side_bets.modal.amount")[:45],
                custom_id="amount",
                placeholder=t(lang, "side_bets.modal.amount_hint", example=example)[:100],
                max_length=40,
            )
        )
        dialog.add_item(
            discord.ui.TextInput(
                label=t(lang, "side_bets.modal.character")[:45],
                custom_id="character",
                placeholder=t(lang, "side_bets.modal.character_hint")[:100],
                required=False,
                max_length=32,
            )
        )
        await click.interaction.response.send_modal(dialog)

    @act("sbet")
    async def side_bet(self, click: Click) -> None:
        """The dialog's submit: the stake goes into the table's escrow, then the view redraws."""
        interaction = click.interaction
        await self.ack(click)
        table = click.table
        seat = int(click.target.arg) if click.target.arg.isdigit() else 0
        await self._may_bet(click, table, seat)
        amount_text = click.values[0] if click.values else ""
        name = click.values[1].strip() if len(click.values) > 1 else ""
        character = await acting_character(interaction, name or None)
        amount = parse_amount(amount_text, CURRENCIES[table.currency])
        placed = await self.bot.services.side_bets.place(
            table.table_id,
            guild_id=guild_id_of(interaction),
            user_id=click.user_id,
            character_id=character.id,
            seat=seat,
            amount=amount,
        )
        names = await seat_names(self.bot, table)
        lang = click.lang
        done = t(
            lang,
            "side_bets.done",
            character=character.name,
            amount=format_amount(placed.amount, CURRENCIES[placed.currency], lang),
            name=names.get(seat, f"#{seat}"),
            table=table.table_id,
        )
        await answer(interaction, done)
        if interaction.message is not None:  # the spectator's view shows the bet at once
            with contextlib.suppress(discord.HTTPException):
                await edit_original(interaction, **await self.watch_message(click))

    async def _may_watch_bet(self, click: Click, table: TableView) -> bool:
        """Whether the user's view offers the side bets' menu (not to a player, nor the GM who
        runs the table)."""
        opener = await self.bot.services.tables.opener(table.table_id)
        return not click.seats and click.user_id != opener

    async def _may_bet(self, click: Click, table: TableView, seat: int) -> None:
        """The refusals the cog can tell before any write (the service checks them all again)."""
        if not side_bets.enabled(table.state):
            raise side_bets.SideBetsOff(table=table.table_id)
        if click.seats:
            raise side_bets.SideBetSeated(table=table.table_id)
        if click.user_id == await self.bot.services.tables.opener(table.table_id):
            raise side_bets.SideBetOpener(table=table.table_id)
        if not side_bets.betting_open(table):
            raise side_bets.SideBetsClosed(table=table.table_id)
        if seat not in side_bets.seats_of(table):
            raise side_bets.SideBetNoSeat(table=table.table_id)
