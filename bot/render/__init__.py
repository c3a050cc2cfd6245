"""Outcome -> text and embeds: the only place that knows how things look."""
