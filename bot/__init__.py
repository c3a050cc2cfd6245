"""Szulernia: a tavern-gambling bot for tabletop-RPG tables on Discord."""
