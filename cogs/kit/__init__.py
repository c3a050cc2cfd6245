"""The table kit: what both games' Discord tables are made of.

- ``ids``: one custom_id grammar, ``<game>:<table>:<version>:<act>[:<arg>]``, and plain components;
- ``publisher``: publishing as reconciliation. Everything a table shows is a pure render of its
  durable state (its ``Scene``); a publisher brings each surface up to the table's version,
  idempotently, and records what it published;
- ``cog``: the base of a game's cog: one ``DynamicItem`` that authorises in ``interaction_check``,
  handlers as cog methods (``@act``), and one error path, which heals a stale table.
"""
