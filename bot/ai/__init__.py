"""Computer players: each decides from what a player in its seat may see, never the state."""
