"""The buttons of a match, as the cog's handlers: End turn, Stand, a hand card (a ± card first
asks for its value), Show my hand, Forfeit and its confirmation; with the table option
``skills``, Redraw (Luck), Swap a card (Gamble) and its menu, and the GM's rulings on a caught
swap.

A move is acknowledged as an update of the clicked message, applied through the table service
(the click's id is its idempotency key) and published (:meth:`TableKit.step`): the board and the
hand DMs are redrawn by the publisher, through the click's token where the click was on one of
them. A move made from an ephemeral "Show my hand" message redraws that message here.

End turn and Stand carry the table's version (stale once the table moved). A hand card and its
value carry the player's *hand version* (``views.hand_version``), so that the hand DM need not
be redrawn every turn: the handler checks it (a double click is stale, as the first moved it),
the rules then say whether the card may be played now (not your turn, a card already played this
turn, a D on an empty table: polite refusals, before the click is acknowledged), and the step is
applied at the table version just read (so nothing can slip in between).
"""

from __future__ import annotations

from typing import Any

from bot.i18n import t
from bot.render import pazaak as render
from bot.rules import pazaak
from bot.rules.common import GameOver, InvalidValue, NotSeated
from bot.services.errors import StaleAction
from bot.services.outcomes import TableOutcome
from cogs.kit.cog import Click, TableKit, act
from cogs.kit.frame import with_picture
from cogs.kit.messages import edit_original
from cogs.pazaak.scene import PazaakScene, hand_key
from cogs.pazaak.views import (
    RULINGS,
    forfeit_view,
    hand_version,
    hand_view,
    playable,
    swap_menu,
    values_view,
)
from cogs.replies import answer


def _names(click: Click) -> dict[int, str]:
    return {
        p.id: click.roster[p.id].name if p.id in click.roster else "?" for p in click.state.players
    }


def _mine(click: Click) -> int:
    """The seat the user acts for: the one on turn if they play both, else their first."""
    if not click.seats:
        raise NotSeated(player=click.user_id)
    current = click.state.current_player
    return current if current in click.seats else click.seats[0]


class MatchActs(TableKit):
    scene: PazaakScene

    """The match's handlers (mixed into the cog)."""

    def seated(self, state: Any) -> list[int]:
        return [p.id for p in state.players]

    def on_turn(self, state: Any) -> int | None:
        current: int | None = state.current_player
        return current

    async def _move(
        self, click: Click, action: pazaak.PlayerAction, *, expected: int, refresh: bool = True
    ) -> TableOutcome:
        await self.ack(click)
        outcome = await self.step(click, action, expected=expected, seat=action.player)
        if refresh:
            await self._refresh_shown(click)
        return outcome

    async def _refresh_shown(self, click: Click) -> None:
        """After a move made from an ephemeral "Show my hand" message, show that hand as it is
        now (a hand DM or the board is the publisher's)."""
        message = click.interaction.message
        if message is None or not message.flags.ephemeral or not click.seats:
            return
        table = await self.table(click.target.table)
        player = click.player if click.player is not None else await self._hand_seat(click)
        names = _names(click)
        emojis = self.bot.app_emojis
        embed = render.hand(table.state, player, names, click.lang, icons=emojis.icons())
        buttons = hand_view(table.table_id, table.version, table.state, player, click.lang, emojis)
        await edit_original(click.interaction, embed=embed, view=buttons)

    async def _hand_seat(self, click: Click) -> int:
        """The seat whose hand card was clicked: the user's only seat; for a user who plays both
        (their character against an NPC they run), the seat of the hand DM clicked, else the one
        on turn."""
        if len(click.seats) == 1:
            return click.seats[0]
        message = click.interaction.message
        if message is not None and not message.flags.ephemeral:
            await self.ack(click)  # before reading which hand DM it is
            marks = await self.bot.services.surfaces.marks(click.target.table)
            for player, mark in marks.hands.items():
                if mark.message_id == message.id and player in click.seats:
                    return player
        return _mine(click)

    @staticmethod
    def _same_hand(click: Click, player: int) -> None:
        """Refuse a component drawn under another hand than ``player``'s now (stale)."""
        if click.table.status in ("finished", "cancelled"):
            raise GameOver()
        current = hand_version(click.state, player)
        if click.target.ver != current:
            table = click.table.table_id
            raise StaleAction(table=table, expected=click.target.ver, current=current)

    async def _hand_card(
        self, click: Click, action: pazaak.PlayCard, *, refresh: bool = True
    ) -> TableOutcome:
        """Play a hand card clicked at a hand version: stale if the hand changed since it was
        drawn; refused (before acknowledging) if the rules would not take it now."""
        state: pazaak.PazaakState = click.state
        self._same_hand(click, action.player)
        pazaak.play_terms(state, action)  # the rules refuse it here, before the acknowledgement
        return await self._move(click, action, expected=click.table.version, refresh=refresh)

    @act("end", who="turn", fresh=True)
    async def end_turn(self, click: Click) -> None:
        assert click.player is not None
        await self._move(click, pazaak.EndTurn(click.player), expected=click.target.ver)

    @act("stand", who="turn", fresh=True)
    async def stand(self, click: Click) -> None:
        assert click.player is not None
        await self._move(click, pazaak.Stand(click.player), expected=click.target.ver)

    @act("card", who="seated")
    async def card(self, click: Click) -> None:
        player, index = await self._hand_seat(click), int(click.target.arg or 0)
        state: pazaak.PazaakState = click.state
        hand = pazaak.view(state, player).hand
        values = [v for v in playable(state, player).get(index, []) if v is not None]
        if (
            click.target.ver == hand_version(state, player)
            and index < len(hand)
            and render.is_choice(hand[index])
            and values
        ):
            label = render.card_label(hand[index], click.lang)
            text = t(click.lang, "pazaak.hand.choose", card=label)
            buttons = values_view(click.target.table, click.target.ver, index, values)
            await answer(click.interaction, text, view=buttons, ephemeral=True)
            return
        await self._hand_card(click, pazaak.PlayCard(player, index))

    @act("val", who="seated")
    async def value(self, click: Click) -> None:
        index, _, value = click.target.arg.partition(".")
        action = pazaak.PlayCard(await self._hand_seat(click), int(index), int(value))
        outcome = await self._hand_card(click, action, refresh=False)
        played = next(e for e in outcome.events if isinstance(e, pazaak.CardPlayed))
        card = render.played_text(played.card, played.value, click.lang)
        await edit_original(
            click.interaction, content=t(click.lang, "pazaak.hand.chose", card=card), view=None
        )

    @act("hand", who="seated")
    async def show_hand(self, click: Click) -> None:
        """The user's hand, ephemerally (a new message each time): works with DMs closed."""
        player = _mine(click)
        cancelled = click.table.status == "cancelled"
        names = _names(click)
        emojis = self.bot.app_emojis
        embed = render.hand(
            click.state, player, names, click.lang, cancelled=cancelled, icons=emojis.icons()
        )
        buttons = None
        if not cancelled:
            buttons = hand_view(
                click.table.table_id, click.table.version, click.state, player, click.lang, emojis
            )
        picture = None
        if await self.bot.services.guilds.images(click.table.guild_id):
            key = hand_key(click.state, player, click.table.table_id, names, click.lang, cancelled)
            picture = await self.scene.hand_picture(click.table, player, names, click.lang, key)
        await answer(
            click.interaction,
            embed=with_picture(embed, picture),
            view=buttons,
            ephemeral=True,
            file=None if picture is None else picture.file(),
        )

    @act("ff", who="seated")
    async def forfeit(self, click: Click) -> None:
        state: pazaak.PazaakState = click.state
        if state.phase == "over" or click.table.status in ("finished", "cancelled"):
            raise GameOver()
        player = _mine(click)
        names = _names(click)
        other = next(p.id for p in state.players if p.id != player)
        text = t(
            click.lang,
            "pazaak.forfeit.confirm",
            name=names[player],
            opponent=names[other],
            pot=render.credits(state.pot, click.lang),
        )
        buttons = forfeit_view(click.table.table_id, player, click.lang)
        await answer(click.interaction, text, view=buttons, ephemeral=True)

    @act("ffy", who="seated")
    async def forfeit_yes(self, click: Click) -> None:
        player = int(click.target.arg or 0)
        if player not in click.seats:
            raise NotSeated(player=click.user_id)
        await self.ack(click)
        await self.step(click, pazaak.Forfeit(player), expected=None, seat=player)
        text = t(click.lang, "pazaak.forfeit.done", name=_names(click)[player])
        await edit_original(click.interaction, content=text, view=None)

    # --- skills (table option ``skills``) -------------------------------------------------------

    @act("redraw", who="turn", fresh=True)
    async def redraw(self, click: Click) -> None:
        """Luck: the card just drawn goes back, and the player draws again (told on the board)."""
        assert click.player is not None
        pazaak.require_redraw(click.state, click.player)  # refused before the acknowledgement
        await self._move(click, pazaak.Redraw(click.player), expected=click.target.ver)

    @act("swap", who="seated")
    async def swap(self, click: Click) -> None:
        """Gamble: the swaps the player may make now, in an ephemeral menu."""
        player = await self._hand_seat(click)
        state: pazaak.PazaakState = click.state
        self._same_hand(click, player)
        pazaak.require_swap(state, player)
        menu = swap_menu(click.target.table, state, player, click.lang)
        if menu is None:
            raise pazaak.NotInSideDeck()
        other = next(p.id for p in state.players if p.id != player)
        text = t(click.lang, "pazaak.swap.choose", opponent=_names(click)[other])
        await answer(click.interaction, text, view=menu, ephemeral=True)

    @act("swp", who="seated")
    async def swap_pick(self, click: Click) -> None:
        """The swap chosen in the menu: made, then the player hears whether they were caught (the
        channel hears only of a catch; the GM, by DM, of the roll either way)."""
        index, _, code = (click.values[0] if click.values else "").partition(".")
        if not index.isdigit():
            raise InvalidValue(field="hand_index")
        player = await self._hand_seat(click)
        state: pazaak.PazaakState = click.state
        self._same_hand(click, player)
        pazaak.require_swap(state, player)
        action = pazaak.Swap(player, int(index), pazaak.parse_side_card(code))
        outcome = await self._move(click, action, expected=click.table.version, refresh=False)
        swapped = next((e for e in outcome.events if isinstance(e, pazaak.Swapped)), None)
        caught = next((e for e in outcome.events if isinstance(e, pazaak.Caught)), None)
        if swapped is None:  # a repeated click whose step was another's: nothing to tell
            return
        key = "pazaak.swap.done"
        if caught is not None:
            key = f"pazaak.swap.caught_{state.settings.cheat_ruling}"
        text = t(
            click.lang,
            key,
            out=render.card_label(swapped.out, click.lang),
            card=render.card_label(swapped.card, click.lang),
            by=_names(click)[caught.by] if caught is not None else "",
        )
        await edit_original(click.interaction, content=text, view=None)

    @act("rule", who="opener", fresh=True)
    async def rule(self, click: Click) -> None:
        """The GM's ruling on a caught swap (the table's referee, or any GM)."""
        state: pazaak.PazaakState = click.state
        verdict = RULINGS.get(click.target.arg)
        if state.ruling is None or verdict is None:
            raise pazaak.NoRulingPending()
        action = pazaak.RuleOnCheat(state.ruling.cheater, verdict)
        await self.ack(click)
        await self.step(click, action, expected=click.target.ver)
