"""Migration 1: the first schema (see :mod:`bot.storage.schema`). Released: never edit it."""

from __future__ import annotations

V1 = (
    """CREATE TABLE guilds (
        guild_id INTEGER PRIMARY KEY,
        language TEXT NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'pl')),
        gm_role_id INTEGER
    )""",
    """CREATE TABLE characters (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 32),
        name_key TEXT NOT NULL,
        owner_id INTEGER NOT NULL,
        is_npc INTEGER NOT NULL DEFAULT 0 CHECK (is_npc IN (0, 1)),
        luck INTEGER NOT NULL DEFAULT 0 CHECK (luck IN (0, 1)),
        gamble INTEGER NOT NULL DEFAULT 0 CHECK (gamble IN (0, 1)),
        perception INTEGER NOT NULL DEFAULT 0 CHECK (perception BETWEEN 0 AND 100),
        side_cards TEXT NOT NULL DEFAULT '[]',
        selection TEXT NOT NULL DEFAULT '[]',
        created_at INTEGER NOT NULL,
        deleted_at INTEGER
    )""",
    """CREATE UNIQUE INDEX characters_name ON characters (guild_id, name_key)
        WHERE deleted_at IS NULL""",
    "CREATE INDEX characters_owner ON characters (guild_id, owner_id)",
    """CREATE TABLE active_characters (
        guild_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        character_id INTEGER NOT NULL REFERENCES characters (id),
        PRIMARY KEY (guild_id, user_id)
    ) WITHOUT ROWID""",
    "CREATE INDEX active_characters_character ON active_characters (character_id)",
    """CREATE TABLE tables (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        currency TEXT NOT NULL,
        settings TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
        version INTEGER NOT NULL CHECK (version >= 0),
        message_id INTEGER,
        created_by INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        closed_at INTEGER
    )""",
    "CREATE INDEX tables_live ON tables (status) WHERE status IN ('open', 'running')",
    "CREATE INDEX tables_channel ON tables (guild_id, channel_id)",
    """CREATE TABLE table_events (
        table_id INTEGER NOT NULL REFERENCES tables (id),
        seq INTEGER NOT NULL,
        version INTEGER NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (table_id, seq)
    ) WITHOUT ROWID""",
    """CREATE TABLE table_seats (
        table_id INTEGER NOT NULL REFERENCES tables (id),
        character_id INTEGER NOT NULL REFERENCES characters (id),
        exclusive INTEGER NOT NULL CHECK (exclusive IN (0, 1)),
        PRIMARY KEY (table_id, character_id)
    ) WITHOUT ROWID""",
    "CREATE INDEX table_seats_character ON table_seats (character_id)",
    """CREATE UNIQUE INDEX table_seats_one_match ON table_seats (character_id)
        WHERE exclusive = 1""",
    """CREATE TABLE action_keys (
        key TEXT PRIMARY KEY,
        table_id INTEGER NOT NULL REFERENCES tables (id),
        version INTEGER NOT NULL
    ) WITHOUT ROWID""",
    """CREATE TABLE accounts (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('purse', 'pot', 'offering', 'world')),
        guild_id INTEGER NOT NULL,
        currency TEXT NOT NULL,
        character_id INTEGER REFERENCES characters (id),
        table_id INTEGER REFERENCES tables (id),
        balance INTEGER NOT NULL DEFAULT 0,
        CHECK (balance >= 0 OR kind = 'world'),
        CHECK ((kind = 'purse') = (character_id IS NOT NULL)),
        CHECK ((kind = 'pot') = (table_id IS NOT NULL))
    )""",
    "CREATE UNIQUE INDEX accounts_purse ON accounts (character_id, currency) WHERE kind = 'purse'",
    "CREATE UNIQUE INDEX accounts_pot ON accounts (table_id) WHERE kind = 'pot'",
    """CREATE UNIQUE INDEX accounts_guild ON accounts (guild_id, kind, currency)
        WHERE kind IN ('offering', 'world')""",
    """CREATE TABLE movements (
        id INTEGER PRIMARY KEY,
        at INTEGER NOT NULL,
        actor_id INTEGER,
        kind TEXT NOT NULL CHECK (kind IN
            ('grant', 'take', 'transfer', 'stake', 'payout', 'refund', 'offering')),
        reason TEXT NOT NULL,
        currency TEXT NOT NULL,
        amount INTEGER NOT NULL CHECK (amount > 0),
        table_id INTEGER REFERENCES tables (id),
        table_version INTEGER,
        event_seq INTEGER
    )""",
    """CREATE INDEX movements_table ON movements (table_id, table_version)
        WHERE table_id IS NOT NULL""",
    """CREATE TABLE ledger_entries (
        id INTEGER PRIMARY KEY,
        movement_id INTEGER NOT NULL REFERENCES movements (id),
        account_id INTEGER NOT NULL REFERENCES accounts (id),
        amount INTEGER NOT NULL CHECK (amount <> 0)
    )""",
    "CREATE INDEX ledger_entries_account ON ledger_entries (account_id, id)",
    "CREATE INDEX ledger_entries_movement ON ledger_entries (movement_id)",
)
