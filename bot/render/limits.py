"""Discord's size limits on what a message may hold, and :func:`fit`, which makes an embed keep
them by construction. Every render that can grow with its input (names, seats, lines of a log)
clips or pages with these numbers; ``tests/test_message_limits.py`` renders every message kind at
its longest inputs and checks the result with the fake Discord's own checks.
"""

from __future__ import annotations

import discord

from bot.i18n import clip

CONTENT_MAX = 2000
TITLE_MAX = 256
DESCRIPTION_MAX = 4096
FIELDS_MAX = 25
FIELD_NAME_MAX = 256
FIELD_VALUE_MAX = 1024
FOOTER_MAX = 2048
AUTHOR_MAX = 256
EMBED_TOTAL_MAX = 6000
ROWS_MAX = 5
ROW_BUTTONS_MAX = 5
LABEL_MAX = 80
OPTIONS_MAX = 25
OPTION_TEXT_MAX = 100
CUSTOM_ID_MAX = 100
CHOICE_NAME_MAX = 100


def size(embed: discord.Embed) -> int:
    """The characters Discord counts towards an embed's 6,000."""
    total = len(embed.title or "") + len(embed.description or "")
    total += len(embed.footer.text or "") + len(embed.author.name or "")
    return total + sum(len(f.name or "") + len(f.value or "") for f in embed.fields)


def fit(embed: discord.Embed) -> discord.Embed:
    """The embed with every part clipped to its limit, at most 25 fields, and 6,000 characters in
    all (the description gives way first, then the fields from the last). Returns ``embed``."""
    if _within(embed):  # nearly every embed: nothing to clip, the fields are not rebuilt
        return embed
    if embed.title:
        embed.title = clip(embed.title, TITLE_MAX)
    if embed.description:
        embed.description = clip(embed.description, DESCRIPTION_MAX)
    if embed.footer.text:
        embed.set_footer(text=clip(embed.footer.text, FOOTER_MAX), icon_url=embed.footer.icon_url)
    if embed.author.name:
        embed.set_author(
            name=clip(embed.author.name, AUTHOR_MAX),
            url=embed.author.url,
            icon_url=embed.author.icon_url,
        )
    fields = embed.fields[:FIELDS_MAX]
    embed.clear_fields()
    for item in fields:
        embed.add_field(
            name=clip(item.name or "\u200b", FIELD_NAME_MAX) or "\u200b",
            value=clip(item.value or "\u200b", FIELD_VALUE_MAX) or "\u200b",
            inline=bool(item.inline),
        )
    over = size(embed) - EMBED_TOTAL_MAX
    if over > 0 and embed.description:
        keep = max(len(embed.description) - over, 1)
        embed.description = clip(embed.description, keep)
        over = size(embed) - EMBED_TOTAL_MAX
    for index in range(len(embed.fields) - 1, -1, -1):
        if over <= 0:
            break
        item = embed.fields[index]
        value = item.value or ""
        keep = max(len(value) - over, 1)
        embed.set_field_at(index, name=item.name, value=clip(value, keep), inline=bool(item.inline))
        over = size(embed) - EMBED_TOTAL_MAX
    return embed


def _within(embed: discord.Embed) -> bool:
    """Whether :func:`fit` would leave ``embed`` as it is."""
    fields = embed.fields
    return (
        len(embed.title or "") <= TITLE_MAX
        and len(embed.description or "") <= DESCRIPTION_MAX
        and len(embed.footer.text or "") <= FOOTER_MAX
        and len(embed.author.name or "") <= AUTHOR_MAX
        and len(fields) <= FIELDS_MAX
        and all(
            f.name and f.value and len(f.name) <= FIELD_NAME_MAX and len(f.value) <= FIELD_VALUE_MAX
            for f in fields
        )
        and size(embed) <= EMBED_TOTAL_MAX
    )


def content(text: str) -> str:
    """Message content clipped to Discord's 2,000 characters."""
    return clip(text, CONTENT_MAX)
