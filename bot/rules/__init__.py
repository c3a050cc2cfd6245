"""The pure rules core.

Nothing here imports discord, aiosqlite, sqlite3 or asyncio, and nothing here formats a message.
Every module is synchronous and deterministic given an explicit ``random.Random``.
"""
