"""The thin Discord layer: one module per area. Cogs call services and render outcomes."""
