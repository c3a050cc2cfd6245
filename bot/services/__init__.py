"""Services: one per concern (tables, purses, characters, guilds). Plain classes that take the
:class:`~bot.storage.db.Database` in their constructor; the Discord layer calls them and renders
what they return. Their errors (``bot.services.errors``) carry a stable ``code`` and ``params``."""

from bot.services.books import BooksService
from bot.services.characters import CharacterService
from bot.services.guilds import GuildService
from bot.services.history import HistoryService
from bot.services.purses import PurseService
from bot.services.stats import StatsService
from bot.services.tables import TableService

__all__ = [
    "BooksService",
    "CharacterService",
    "GuildService",
    "HistoryService",
    "PurseService",
    "StatsService",
    "TableService",
]
