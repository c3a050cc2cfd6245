"""The schema, as numbered migrations (applied by :mod:`bot.storage.migrations`).

Each migration is a list of single SQL statements. A file at version 1 is the "old" schema;
migration 2 adds the meta table, the turn-timer deadlines and the state snapshots; 3 what each
table has published to Discord (the publisher's marks, the hand messages) and the Pazaak
challenges; 4 whether a GM chose the guild's language; 5 a Pazaak match's referee; 6 the
computer-played NPC seats; 7 the stats projection; 8 the GM's books (corrections, overdrafts,
the report's window); 9 the house edge; 10 the images setting; 11 a thread per table; 12 side
bets (an escrow account per table). Never edit a released migration: append a new one.

Money: ``accounts`` holds one balance per purse (character and currency), per table pot, and per
guild and currency for the offerings and for the "world" (the GM's mint, the only account that may
go below zero, but for a purse a GM's correction overdrew: migration 8). Every movement is a
``movements`` row with exactly two ``ledger_entries``: minus the amount on the source account,
plus the amount on the target. So the entries of the whole ledger sum to zero, and an account's
balance is the sum of its entries (checked by the tests).
Times are Unix milliseconds (integers). Discord ids are integers (snowflakes fit in 64 bits).
"""

from __future__ import annotations

from bot.storage.schema_base import V1 as _V1
from bot.storage.schema_steps import Only, Step, replace_checks, sqlite_only

_V2 = (
    """CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    ) WITHOUT ROWID""",
    # The turn timer: when the table's current turn times out, and at which version that was
    # set, so a timeout that fires after someone acted is recognised as stale.
    "ALTER TABLE tables ADD COLUMN next_timeout_at INTEGER",
    "ALTER TABLE tables ADD COLUMN timeout_version INTEGER",
    """CREATE INDEX tables_timeouts ON tables (next_timeout_at)
        WHERE next_timeout_at IS NOT NULL""",
    # A periodic snapshot of each live table's state, so the restore folds only the events since.
    # A cache: the events stay the truth, and a snapshot in an unknown ``format`` is ignored.
    """CREATE TABLE table_snapshots (
        table_id INTEGER PRIMARY KEY REFERENCES tables (id),
        version INTEGER NOT NULL,
        next_seq INTEGER NOT NULL,
        format TEXT NOT NULL,
        data BLOB NOT NULL
    )""",
    # Remember where an upgraded file came from (a fresh file goes 0 -> 1 -> 2 too).
    """INSERT INTO meta (key, value)
        SELECT 'created_schema_version', '1' WHERE EXISTS (SELECT 1 FROM tables)
            OR EXISTS (SELECT 1 FROM characters)""",
)

_V3 = (
    # What each table shows in Discord, as published (see ``cogs.kit.publisher``): the version
    # the table message was last drawn at, and the last version whose posts (announcements,
    # hand deliveries, the GM's notes) went out. A live table whose marks are behind its version
    # is brought up to date at startup. Tables from before start with their board to redraw and
    # their old announcements done.
    "ALTER TABLE tables ADD COLUMN board_version INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE tables ADD COLUMN posted_version INTEGER NOT NULL DEFAULT 0",
    # The last version whose announcement went out as a click's follow-up (which has no nonce):
    # a pass that finds it not yet posted first looks in the channel for what went out.
    "ALTER TABLE tables ADD COLUMN claimed_version INTEGER NOT NULL DEFAULT 0",
    "UPDATE tables SET posted_version = version",
    "UPDATE tables SET board_version = version WHERE status IN ('finished', 'cancelled')",
    """CREATE INDEX tables_behind ON tables (id)
        WHERE board_version < version OR posted_version < version""",
    # A message that shows one seat's hand (a DM, edited in place), and a digest of what it shows.
    """CREATE TABLE table_hands (
        table_id INTEGER NOT NULL REFERENCES tables (id),
        player INTEGER NOT NULL,
        channel_id INTEGER,
        message_id INTEGER,
        digest TEXT NOT NULL,
        PRIMARY KEY (table_id, player)
    ) WITHOUT ROWID""",
    """INSERT INTO table_hands (table_id, player, channel_id, message_id, digest)
        SELECT CAST(substr(key, 11, instr(substr(key, 11), ':') - 1) AS INTEGER),
               CAST(substr(substr(key, 11), instr(substr(key, 11), ':') + 1) AS INTEGER),
               CAST(substr(value, 1, instr(value, ':') - 1) AS INTEGER),
               CAST(substr(value, instr(value, ':') + 1) AS INTEGER), ''
        FROM meta WHERE key LIKE 'pazaak:dm:%' AND EXISTS (SELECT 1 FROM tables t WHERE
            t.id = CAST(substr(key, 11, instr(substr(key, 11), ':') - 1) AS INTEGER))""",
    "DELETE FROM meta WHERE key LIKE 'pazaak:dm:%'",
    # A Pazaak challenge: its terms, its message, and its life (pending until it is answered or
    # expires; accepted in the same transaction that opens its table and escrows both wagers).
    """CREATE TABLE challenges (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        message_id INTEGER,
        challenger INTEGER NOT NULL REFERENCES characters (id),
        opponent INTEGER NOT NULL REFERENCES characters (id),
        created_by INTEGER NOT NULL,
        settings TEXT NOT NULL,
        expires_at INTEGER NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN
            ('pending', 'accepted', 'declined', 'withdrawn', 'expired')),
        table_id INTEGER REFERENCES tables (id),
        answered_at INTEGER,
        drawn INTEGER NOT NULL DEFAULT 0 CHECK (drawn IN (0, 1)),
        CHECK ((status = 'accepted') = (table_id IS NOT NULL))
    )""",
    "CREATE INDEX challenges_open ON challenges (expires_at) WHERE status = 'pending'",
    "CREATE INDEX challenges_undrawn ON challenges (id) WHERE drawn = 0 AND status <> 'pending'",
)

_V4 = (
    # Whether a GM chose the guild's language with ``/settings language``. A guild that has not
    # speaks its server's locale (Polish for a Polish server). Before this, a row was also made
    # by ``/gm role`` with the default 'en', so an 'en' row cannot tell a choice from a default:
    # 'pl' was always chosen; an 'en' row now follows the locale (the same on an English server).
    """ALTER TABLE guilds ADD COLUMN language_chosen INTEGER NOT NULL DEFAULT 0
        CHECK (language_chosen IN (0, 1))""",
    "UPDATE guilds SET language_chosen = 1 WHERE language = 'pl'",
    # Character names are also unique by look-alike (TR39 skeletons, ``bot.services.names``).
    # The skeletons are computed in Python when a name is created or changed, so nothing here:
    # look-alikes made before stay as they are, and no new one can join them.
)

_V5 = (
    # A Pazaak challenge with the ``skills`` option names its referee: the GM told of every
    # swap and who rules on a caught one. The table it opens is the referee's (``created_by``).
    "ALTER TABLE challenges ADD COLUMN referee INTEGER",
)

_V6 = (
    # Computer-played NPCs: a seat the bot plays, with the personality the GM chose, until the
    # GM takes it over (``computer = 0``) or hands it back. A Pazaak challenge keeps the
    # personality of its challenging NPC until it is accepted.
    """CREATE TABLE table_npcs (
        table_id INTEGER NOT NULL REFERENCES tables (id),
        player INTEGER NOT NULL REFERENCES characters (id),
        personality TEXT NOT NULL,
        computer INTEGER NOT NULL DEFAULT 1 CHECK (computer IN (0, 1)),
        PRIMARY KEY (table_id, player)
    ) WITHOUT ROWID""",
    "ALTER TABLE challenges ADD COLUMN personality TEXT",
)

_V7 = (
    # A GM's correction voids a finished table (``bot.storage.books``): its movements are
    # reversed, nothing is deleted, and the stats stop counting it.
    "ALTER TABLE tables ADD COLUMN voided_at INTEGER",
    # The stats (``bot.storage.stats``), a projection of the events and the ledger. First what
    # one finished table did for each character at it, read off that table's own events and
    # movements when it finishes: ``outcome``, ``net`` (everything its movements did to the
    # purse), ``pot`` (what the character took out of its pot), times ``caught`` cheating, and
    # the Pazaak ``opponent``.
    """CREATE TABLE stat_results (
        table_id INTEGER NOT NULL REFERENCES tables (id),
        character_id INTEGER NOT NULL REFERENCES characters (id),
        guild_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        currency TEXT NOT NULL,
        closed_at INTEGER NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('won', 'lost', 'drawn')),
        net INTEGER NOT NULL,
        pot INTEGER NOT NULL CHECK (pot >= 0),
        caught INTEGER NOT NULL CHECK (caught >= 0),
        opponent INTEGER REFERENCES characters (id),
        PRIMARY KEY (table_id, character_id)
    ) WITHOUT ROWID""",
    "CREATE INDEX stat_results_character ON stat_results (character_id, closed_at, table_id)",
    # Then the totals per character and game, over the results of tables not voided, folded in
    # the order the tables closed (``last_at``, ``last_table``: the last one folded). ``streak``
    # is the current run: > 0 games won in a row, < 0 lost, 0 after a draw.
    """CREATE TABLE stats (
        character_id INTEGER NOT NULL REFERENCES characters (id),
        game TEXT NOT NULL,
        guild_id INTEGER NOT NULL,
        currency TEXT NOT NULL,
        played INTEGER NOT NULL,
        won INTEGER NOT NULL,
        lost INTEGER NOT NULL,
        drawn INTEGER NOT NULL,
        net INTEGER NOT NULL,
        pots INTEGER NOT NULL,
        biggest_pot INTEGER NOT NULL,
        streak INTEGER NOT NULL,
        win_streak INTEGER NOT NULL,
        loss_streak INTEGER NOT NULL,
        caught INTEGER NOT NULL,
        last_at INTEGER NOT NULL,
        last_table INTEGER NOT NULL,
        PRIMARY KEY (character_id, game),
        CHECK (played = won + lost + drawn)
    ) WITHOUT ROWID""",
    # The leaderboards: each reads the first rows of one of these, in its order.
    "CREATE INDEX stats_net ON stats (guild_id, game, net DESC)",
    "CREATE INDEX stats_pots ON stats (guild_id, game, pots DESC, biggest_pot DESC)",
    Only(
        "sqlite", "CREATE INDEX stats_record ON stats (guild_id, game, won - lost DESC, won DESC)"
    ),
    Only(
        "postgres",
        "CREATE INDEX stats_record ON stats (guild_id, game, (won - lost) DESC, won DESC)",
    ),
    # Pazaak head to head, both ways round: ``won`` and ``lost`` against ``opponent_id``.
    """CREATE TABLE stat_rivals (
        character_id INTEGER NOT NULL REFERENCES characters (id),
        opponent_id INTEGER NOT NULL REFERENCES characters (id),
        won INTEGER NOT NULL,
        lost INTEGER NOT NULL,
        PRIMARY KEY (character_id, opponent_id)
    ) WITHOUT ROWID""",
)

_V8: tuple[Step, ...] = (
    # The GM's books (``bot.storage.books``, ``bot.storage.corrections``): whether a correction
    # may leave a purse below zero here, and the window of the last ``/gm report``.
    """ALTER TABLE guilds ADD COLUMN overdraft INTEGER NOT NULL DEFAULT 0
        CHECK (overdraft IN (0, 1))""",
    "ALTER TABLE guilds ADD COLUMN report_from INTEGER",
    "ALTER TABLE guilds ADD COLUMN report_at INTEGER",
    # A purse may go below zero only down to its ``floor``, which only a correction lowers (to
    # the balance it leaves). Ordinary debits stay guarded by ``ledger.move``'s
    # ``balance >= amount``, which a purse below zero never meets. SQLite cannot alter a CHECK:
    # the table is rebuilt (foreign keys off, see ``REBUILDS``), ids kept.
    *sqlite_only(
        """CREATE TABLE accounts_v8 (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL CHECK (kind IN ('purse', 'pot', 'offering', 'world')),
            guild_id INTEGER NOT NULL,
            currency TEXT NOT NULL,
            character_id INTEGER REFERENCES characters (id),
            table_id INTEGER REFERENCES tables (id),
            balance INTEGER NOT NULL DEFAULT 0,
            floor INTEGER NOT NULL DEFAULT 0 CHECK (floor <= 0),
            CHECK (balance >= floor OR kind = 'world'),
            CHECK (floor = 0 OR kind = 'purse'),
            CHECK ((kind = 'purse') = (character_id IS NOT NULL)),
            CHECK ((kind = 'pot') = (table_id IS NOT NULL))
        )""",
        """INSERT INTO accounts_v8 (id, kind, guild_id, currency, character_id, table_id, balance)
            SELECT id, kind, guild_id, currency, character_id, table_id, balance FROM accounts""",
        "DROP TABLE accounts",
        "ALTER TABLE accounts_v8 RENAME TO accounts",
        """CREATE UNIQUE INDEX accounts_purse ON accounts (character_id, currency)
            WHERE kind = 'purse'""",
        "CREATE UNIQUE INDEX accounts_pot ON accounts (table_id) WHERE kind = 'pot'",
        """CREATE UNIQUE INDEX accounts_guild ON accounts (guild_id, kind, currency)
            WHERE kind IN ('offering', 'world')""",
    ),
    Only("postgres", "ALTER TABLE accounts ADD COLUMN floor INTEGER NOT NULL DEFAULT 0"),
    *replace_checks(
        "accounts",
        "kind IN ('purse', 'pot', 'offering', 'world')",
        "floor <= 0",
        "balance >= floor OR kind = 'world'",
        "floor = 0 OR kind = 'purse'",
        "(kind = 'purse') = (character_id IS NOT NULL)",
        "(kind = 'pot') = (table_id IS NOT NULL)",
    ),
    # A correction reverses one earlier movement (``reverses``), at most once; it is never
    # reversed itself. Nothing is deleted: the movement and its reversal both stay.
    *sqlite_only(
        """CREATE TABLE movements_v8 (
            id INTEGER PRIMARY KEY,
            at INTEGER NOT NULL,
            actor_id INTEGER,
            kind TEXT NOT NULL CHECK (kind IN ('grant', 'take', 'transfer', 'stake', 'payout',
                'refund', 'offering', 'correction')),
            reason TEXT NOT NULL,
            currency TEXT NOT NULL,
            amount INTEGER NOT NULL CHECK (amount > 0),
            table_id INTEGER REFERENCES tables (id),
            table_version INTEGER,
            event_seq INTEGER,
            reverses INTEGER REFERENCES movements (id),
            CHECK ((kind = 'correction') = (reverses IS NOT NULL))
        )""",
        """INSERT INTO movements_v8 (id, at, actor_id, kind, reason, currency, amount, table_id,
                table_version, event_seq)
            SELECT id, at, actor_id, kind, reason, currency, amount, table_id, table_version,
                event_seq FROM movements""",
        "DROP TABLE movements",
        "ALTER TABLE movements_v8 RENAME TO movements",
        """CREATE INDEX movements_table ON movements (table_id, table_version)
            WHERE table_id IS NOT NULL""",
    ),
    Only("postgres", "ALTER TABLE movements ADD COLUMN reverses INTEGER REFERENCES movements (id)"),
    *replace_checks(
        "movements",
        "kind IN ('grant', 'take', 'transfer', 'stake', 'payout', 'refund', 'offering', "
        "'correction')",
        "amount > 0",
        "(kind = 'correction') = (reverses IS NOT NULL)",
    ),
    "CREATE UNIQUE INDEX movements_reversed ON movements (reverses) WHERE reverses IS NOT NULL",
    # The report reads one evening: its movements by time, its tables by opening and closing.
    "CREATE INDEX movements_at ON movements (at)",
    "CREATE INDEX tables_opened ON tables (guild_id, created_at)",
    "CREATE INDEX tables_closed ON tables (guild_id, closed_at) WHERE closed_at IS NOT NULL",
)

REBUILDS = frozenset({8, 12})
"""Migrations that rebuild a table (SQLite's documented way to change a CHECK): they run with
foreign keys off, which SQLite allows only outside a transaction; ``foreign_key_check`` still
runs before their commit."""

_V9 = (
    # The house edge: a computer NPC its GM chose to play with every hand in view
    # (``bot.ai.peeking``), at a table or in a challenge it makes.
    """ALTER TABLE table_npcs ADD COLUMN house_edge INTEGER NOT NULL DEFAULT 0
        CHECK (house_edge IN (0, 1))""",
    """ALTER TABLE challenges ADD COLUMN house_edge INTEGER NOT NULL DEFAULT 0
        CHECK (house_edge IN (0, 1))""",
)

_V10 = (
    # Whether the guild's tables show rendered images (``/settings images``) beside the text.
    "ALTER TABLE guilds ADD COLUMN images INTEGER NOT NULL DEFAULT 0 CHECK (images IN (0, 1))",
)

_V11 = (
    # A thread per table (``cogs.kit.threads``): the guild's default, a challenge's choice until
    # it is accepted, each table's choice and its thread (0: it fell back to the channel).
    "ALTER TABLE guilds ADD COLUMN threads INTEGER NOT NULL DEFAULT 0 CHECK (threads IN (0, 1))",
    "ALTER TABLE challenges ADD COLUMN thread INTEGER NOT NULL DEFAULT 0 CHECK (thread IN (0, 1))",
    "ALTER TABLE tables ADD COLUMN threaded INTEGER NOT NULL DEFAULT 0 CHECK (threaded IN (0, 1))",
    "ALTER TABLE tables ADD COLUMN thread_id INTEGER",
)

_V12: tuple[Step, ...] = (
    # Side bets (``bot.storage.side_bets``): a spectator's stake on a seat of a table, held in
    # the table's escrow account (a new account kind, so the CHECKs change: the accounts table
    # is rebuilt as in migration 8, ids kept) until the table ends and the ledger pays it out.
    *sqlite_only(
        """CREATE TABLE accounts_v12 (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL CHECK (kind IN ('purse', 'pot', 'offering', 'world', 'escrow')),
            guild_id INTEGER NOT NULL,
            currency TEXT NOT NULL,
            character_id INTEGER REFERENCES characters (id),
            table_id INTEGER REFERENCES tables (id),
            balance INTEGER NOT NULL DEFAULT 0,
            floor INTEGER NOT NULL DEFAULT 0 CHECK (floor <= 0),
            CHECK (balance >= floor OR kind = 'world'),
            CHECK (floor = 0 OR kind = 'purse'),
            CHECK ((kind = 'purse') = (character_id IS NOT NULL)),
            CHECK ((kind IN ('pot', 'escrow')) = (table_id IS NOT NULL))
        )""",
        """INSERT INTO accounts_v12 (id, kind, guild_id, currency, character_id, table_id, balance,
                floor)
            SELECT id, kind, guild_id, currency, character_id, table_id, balance, floor
            FROM accounts""",
        "DROP TABLE accounts",
        "ALTER TABLE accounts_v12 RENAME TO accounts",
        """CREATE UNIQUE INDEX accounts_purse ON accounts (character_id, currency)
            WHERE kind = 'purse'""",
        "CREATE UNIQUE INDEX accounts_pot ON accounts (table_id) WHERE kind = 'pot'",
    ),
    *replace_checks(
        "accounts",
        "kind IN ('purse', 'pot', 'offering', 'world', 'escrow')",
        "floor <= 0",
        "balance >= floor OR kind = 'world'",
        "floor = 0 OR kind = 'purse'",
        "(kind = 'purse') = (character_id IS NOT NULL)",
        "(kind IN ('pot', 'escrow')) = (table_id IS NOT NULL)",
    ),
    "CREATE UNIQUE INDEX accounts_escrow ON accounts (table_id) WHERE kind = 'escrow'",
    Only(
        "sqlite",
        """CREATE UNIQUE INDEX accounts_guild ON accounts (guild_id, kind, currency)
        WHERE kind IN ('offering', 'world')""",
    ),
    # One bet per user per table: who placed it, the character who pays, the seat backed, and
    # how it ended (``paid``: what the ledger gave back; a losing bet 0).
    """CREATE TABLE side_bets (
        id INTEGER PRIMARY KEY,
        table_id INTEGER NOT NULL REFERENCES tables (id),
        user_id INTEGER NOT NULL,
        character_id INTEGER NOT NULL REFERENCES characters (id),
        seat INTEGER NOT NULL REFERENCES characters (id),
        amount INTEGER NOT NULL CHECK (amount > 0),
        placed_at INTEGER NOT NULL,
        status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'won', 'lost', 'refunded')),
        paid INTEGER NOT NULL DEFAULT 0 CHECK (paid >= 0),
        UNIQUE (table_id, user_id)
    )""",
)

MIGRATIONS: tuple[tuple[Step, ...], ...] = (
    _V1, _V2, _V3, _V4, _V5, _V6, _V7, _V8, _V9, _V10, _V11, _V12
)  # fmt: skip
