"""Characters: create, find, rename, traits, delete, the active one, Pazaak side cards.

Names follow ``bot.services.names`` (a safe charset, 32 characters, unique per guild ignoring
case and look-alikes). Look-alikes that were created before the check existed are kept; a new
name or a rename that looks like a living character's name is refused.

A character with a seat at a live table cannot be deleted; a deleted character's coins go
back to the world account (a "take"), so the books still balance.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager

from bot.rules.money import CURRENCIES
from bot.rules.pazaak import cards as pazaak_cards
from bot.rules.pazaak.cards import InvalidSelection, SideCard, UnknownSideCard
from bot.services.clock import Clock, wall_clock
from bot.services.errors import (
    CharacterSeated,
    DuplicateName,
    InvalidSideCards,
    NotOwner,
    TraitInvalid,
    UnknownCharacter,
)
from bot.services.names import LookAlikeName, clean_name, look_alike_keys, name_key
from bot.services.outcomes import Character, character_of
from bot.services.writes import Writes
from bot.storage import characters, ledger, tables
from bot.storage.db import Database, Tx
from bot.storage.errors import NameTaken
from bot.storage.ledger import Movement

STARTER_CODES: tuple[str, ...] = tuple(card.code for card in pazaak_cards.STARTER_COLLECTION)


KEPT = 20_000
"""Characters kept in memory at most (the least recently read dropped first)."""


class CharacterService:
    """Every write to a character goes through here, so the characters read are kept in memory
    (a table's every redraw names its players) and forgotten when written."""

    def __init__(self, db: Database, *, clock: Clock = wall_clock) -> None:
        self._db = db
        self._clock = clock
        self._kept: OrderedDict[int, Character] = OrderedDict()
        self._writes = Writes(KEPT)
        """A read that a write to its character overlapped is not kept (it may be stale)."""

    async def create(
        self,
        guild_id: int,
        name: str,
        *,
        owner_id: int,
        npc: bool = False,
        luck: bool = False,
        gamble: bool = False,
        perception: int = 0,
    ) -> Character:
        """A new character (an NPC is owned by the GM who makes it) with the starter side cards
        as collection and selection, and an empty purse in every currency."""
        clean = clean_name(name)
        _check_perception(perception)
        async with self._db.transaction() as tx:
            await _refuse_look_alike(tx, guild_id, clean)
            try:
                character_id = await characters.insert(
                    tx,
                    guild_id=guild_id,
                    name=clean,
                    name_key=name_key(clean),
                    owner_id=owner_id,
                    is_npc=npc,
                    luck=luck,
                    gamble=gamble,
                    perception=perception,
                    side_cards=STARTER_CODES,
                    selection=STARTER_CODES,
                    at=self._clock(),
                )
            except NameTaken as exc:
                raise DuplicateName(name=clean) from exc
            for currency in CURRENCIES:
                await ledger.purse_account(tx, guild_id, currency, character_id)
            return await _get(tx, character_id)

    async def get(self, character_id: int) -> Character:
        found = await self.many([character_id])
        if character_id not in found:
            raise UnknownCharacter(character=character_id)
        return found[character_id]

    async def names(self, character_ids: Iterable[int | None]) -> dict[int, str]:
        """``id -> name`` of the living characters among ``character_ids`` (a deleted one, or
        None, is left out: the caller shows "someone")."""
        found = await self.many(c for c in character_ids if c is not None)
        return {character_id: who.name for character_id, who in found.items()}

    async def many(self, character_ids: Iterable[int]) -> dict[int, Character]:
        """The living characters among ``character_ids``, in one read of those not kept (a
        deleted one is left out), in the order asked."""
        wanted = list(dict.fromkeys(character_ids))
        missing = [c for c in wanted if c not in self._kept]
        if missing:
            since = self._writes.now()
            read: dict[int, Character] = {}
            async with self._db.read() as tx:
                for character_id in missing:
                    row = await characters.get(tx, character_id)
                    if row is not None:
                        read[character_id] = character_of(row)
            for character in read.values():
                if self._writes.untouched(character.id, since):
                    self._keep(character)
        else:
            read = {}
        found: dict[int, Character] = {}
        for character_id in wanted:
            who = self._kept.get(character_id) or read.get(character_id)
            if who is not None:
                found[character_id] = who
                if character_id in self._kept:
                    self._kept.move_to_end(character_id)
        return found

    def _keep(self, who: Character) -> None:
        self._kept[who.id] = who
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)

    @asynccontextmanager
    async def _writing(self, character_id: int) -> AsyncIterator[Tx]:
        """A transaction that writes the character: forgotten before it and again after it."""
        self._forget(character_id)
        try:
            async with self._db.transaction() as tx:
                yield tx
        finally:
            self._forget(character_id)

    def _forget(self, character_id: int) -> None:
        self._writes.wrote(character_id)
        self._kept.pop(character_id, None)

    async def by_name(self, guild_id: int, name: str) -> Character:
        async with self._db.read() as tx:
            found = await characters.by_name(tx, guild_id, name_key(name))
        if found is None:
            raise UnknownCharacter(name=name)
        return character_of(found)

    async def search(
        self, guild_id: int, prefix: str = "", *, owner_id: int | None = None, limit: int = 25
    ) -> list[Character]:
        """Living characters whose name starts with ``prefix`` (for autocomplete), by name."""
        async with self._db.read() as tx:
            found = await characters.search(
                tx, guild_id, key_prefix=name_key(prefix), owner_id=owner_id, limit=limit
            )
        return [character_of(row) for row in found]

    async def edit(
        self,
        character_id: int,
        *,
        actor_id: int,
        as_gm: bool = False,
        name: str | None = None,
        luck: bool | None = None,
        gamble: bool | None = None,
        perception: int | None = None,
    ) -> Character:
        """Rename and change traits in one transaction (None keeps a field as it is), so that a
        refused new name leaves the traits unchanged too."""
        clean = None if name is None else clean_name(name)
        if perception is not None:
            _check_perception(perception)
        async with self._writing(character_id) as tx:
            who = await _owned(tx, character_id, actor_id, as_gm)
            if clean is not None and clean != who.name:
                await _refuse_look_alike(tx, who.guild_id, clean, character_id)
                try:
                    await characters.rename(tx, character_id, clean, name_key(clean))
                except NameTaken as exc:
                    raise DuplicateName(name=clean) from exc
            await characters.set_traits(
                tx,
                character_id,
                luck=who.luck if luck is None else luck,
                gamble=who.gamble if gamble is None else gamble,
                perception=who.perception if perception is None else perception,
            )
            return await _get(tx, character_id)

    async def delete(
        self, character_id: int, *, actor_id: int, as_gm: bool = False
    ) -> dict[str, int]:
        """Delete the character; return the coins its purses held (they go to the world)."""
        async with self._writing(character_id) as tx:
            who = await _owned(tx, character_id, actor_id, as_gm)
            seated = await tables.seated_at(tx, character_id)
            if seated:
                raise CharacterSeated(character=character_id, tables=seated)
            returned: dict[str, int] = {}
            at = self._clock()
            for currency in CURRENCIES:
                purse = await ledger.purse_account(tx, who.guild_id, currency, character_id)
                held = await ledger.balance(tx, purse)
                if held > 0:
                    world = await ledger.guild_account(tx, who.guild_id, "world", currency)
                    movement = Movement(at, actor_id, "take", "character deleted", currency)
                    await ledger.move(tx, purse, world, held, movement)
                    returned[currency] = held
            await characters.mark_deleted(tx, character_id, at)
        return returned

    async def set_active(self, guild_id: int, user_id: int, character_id: int) -> Character:
        """Make the user's own character (or, for a GM, an NPC it owns) the active one."""
        async with self._db.transaction() as tx:
            who = await _owned(tx, character_id, user_id, as_gm=False)
            if who.guild_id != guild_id:
                raise UnknownCharacter(character=character_id)
            await characters.set_active(tx, guild_id, user_id, character_id)
            return who

    async def active(self, guild_id: int, user_id: int) -> Character | None:
        async with self._db.read() as tx:
            found = await characters.active(tx, guild_id, user_id)
        return None if found is None else character_of(found)

    async def give_side_cards(self, character_id: int, codes: Iterable[str]) -> Character:
        """Add side cards to the collection (GM loot; the caller checks the GM role)."""
        added = [card.code for card in _parse(codes)]
        async with self._writing(character_id) as tx:
            who = await _get(tx, character_id)
            await characters.set_side_cards(tx, character_id, [*who.side_cards, *added])
            return await _get(tx, character_id)

    async def take_side_cards(self, character_id: int, codes: Iterable[str]) -> Character:
        """Remove side cards from the collection (one copy per code given)."""
        removed = Counter(card.code for card in _parse(codes))
        async with self._writing(character_id) as tx:
            who = await _get(tx, character_id)
            owned = Counter(who.side_cards)
            for code, count in removed.items():
                if owned[code] < count:
                    raise InvalidSideCards(
                        reason="not_owned", card=code, selected=count, owned=owned[code]
                    )
            left = list(who.side_cards)
            for code, count in removed.items():
                for _ in range(count):
                    left.remove(code)
            await characters.set_side_cards(tx, character_id, left)
            return await _get(tx, character_id)

    async def set_selection(
        self,
        character_id: int,
        codes: Iterable[str],
        *,
        actor_id: int,
        as_gm: bool = False,
        kotor2_cards: bool = True,
    ) -> Character:
        """Save the 10-card match selection; it must be owned copy for copy."""
        cards = _parse(codes)
        async with self._writing(character_id) as tx:
            who = await _owned(tx, character_id, actor_id, as_gm)
            _validate(cards, who, kotor2_cards)
            await characters.set_selection(tx, character_id, [c.code for c in cards])
            return await _get(tx, character_id)

    async def match_selection(
        self, character_id: int, *, kotor2_cards: bool = True
    ) -> tuple[SideCard, ...]:
        """The saved selection as cards, checked against the collection, for a new match."""
        async with self._db.read() as tx:
            who = await _get(tx, character_id)
        cards = _parse(who.selection)
        _validate(cards, who, kotor2_cards)
        return cards

    async def require_owner(self, character_id: int, user_id: int, *, as_gm: bool = False) -> None:
        """Raise :class:`NotOwner` unless the user may act for the character."""
        async with self._db.read() as tx:
            await _owned(tx, character_id, user_id, as_gm)


async def _get(tx: Tx, character_id: int) -> Character:
    found = await characters.get(tx, character_id)
    if found is None:
        raise UnknownCharacter(character=character_id)
    return character_of(found)


async def _owned(tx: Tx, character_id: int, user_id: int, as_gm: bool) -> Character:
    who = await _get(tx, character_id)
    if not as_gm and who.owner_id != user_id:
        raise NotOwner(character=character_id, user=user_id)
    return who


async def _refuse_look_alike(tx: Tx, guild_id: int, name: str, renamed: int = 0) -> None:
    """Refuse ``name`` when it looks like another living character's name (TR39 skeletons).
    Inside the write transaction (``BEGIN IMMEDIATE``), so two look-alikes cannot race in."""
    keys, exact = look_alike_keys(name), name_key(name)
    for other_id, other in await characters.living_names(tx, guild_id):
        if other_id == renamed or name_key(other) == exact:
            continue  # the unique index refuses an exact (case-insensitive) duplicate
        if not keys.isdisjoint(look_alike_keys(other)):
            raise LookAlikeName(name=name, other=other)


def _check_perception(value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 100:
        raise TraitInvalid(trait="perception", value=value, min=0, max=100)


def _parse(codes: Iterable[str]) -> tuple[SideCard, ...]:
    try:
        return pazaak_cards.parse_side_cards(list(codes))
    except UnknownSideCard as exc:
        raise InvalidSideCards(reason="unknown_card", card=exc.params.get("code")) from exc


def _validate(cards: tuple[SideCard, ...], who: Character, kotor2_cards: bool) -> None:
    try:
        pazaak_cards.validate_selection(cards, _parse(who.side_cards), kotor2_cards=kotor2_cards)
    except InvalidSelection as exc:
        raise InvalidSideCards(**exc.params) from exc
