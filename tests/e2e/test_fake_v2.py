"""What the fake Discord learnt for tables in threads, application emojis and Components V2,
driven through the real discord.py client of the running bot (its models and ``bot.http``)."""

from __future__ import annotations

import io
from typing import Any

import discord
import pytest
from discord import ui
from discord.http import Route

from bot.app import SzulerniaBot
from tests.fakediscord import (
    CREATE_PUBLIC_THREADS,
    MANAGE_THREADS,
    MANAGE_WEBHOOKS,
    SEND_MESSAGES_IN_THREADS,
    BotHarness,
    FakeDiscord,
)
from tests.fakediscord.limits import COMPONENTS_V2, check_limits

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32
SEND = ("POST", "/channels/{channel_id}/messages")
EDIT = ("PATCH", "/channels/{channel_id}/messages/{message_id}")


def tavern(fake: FakeDiscord, bot: SzulerniaBot) -> discord.TextChannel:
    channel = bot.get_channel(fake.tavern.id)
    assert isinstance(channel, discord.TextChannel)
    return channel


def text(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


def v2(*components: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"flags": COMPONENTS_V2, "components": list(components), **extra}


async def send_raw(bot: SzulerniaBot, channel_id: int, body: dict[str, Any]) -> Any:
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
    return await bot.http.request(route, json=body)


def refused_fields(fake: FakeDiscord) -> set[str]:
    return {v.field for v in fake.take_violations()}


# -- threads -----------------------------------------------------------------------------------
async def test_a_thread_from_the_table_message_takes_messages_and_reaches_the_cache(
    fake: FakeDiscord, bot: SzulerniaBot
) -> None:
    channel = tavern(fake, bot)
    table = await channel.send("Table 1")
    thread = await table.create_thread(name="Table 1 talk")
    assert thread.id == table.id and thread.type is discord.ChannelType.public_thread
    cached = await fake.wait_for(lambda: channel.guild.get_thread(thread.id), what="THREAD_CREATE")
    await cached.send("Greedo bets 5 gold")

    (made,) = fake.threads()
    assert made.name == "Table 1 talk" and not made.archived
    assert [m.content for m in made.messages] == ["Greedo bets 5 gold"]
    assert fake.message(table.id).thread is made
    assert [m.content for m in fake.tavern.messages] == ["Table 1"]  # the table stays put
    with pytest.raises(discord.HTTPException) as twice:
        await table.create_thread(name="again")
    assert twice.value.code == 160004


async def test_a_thread_without_a_message_is_private_unless_asked(
    fake: FakeDiscord, bot: SzulerniaBot
) -> None:
    channel = tavern(fake, bot)
    private = await channel.create_thread(name="GM notes")
    public = await channel.create_thread(name="Talk", type=discord.ChannelType.public_thread)
    assert private.type is discord.ChannelType.private_thread
    assert [t.type for t in fake.threads()] == [12, 11]
    assert await fake.wait_for(lambda: channel.guild.get_thread(public.id), what="the thread")


async def test_an_archived_thread_refuses_messages_and_locking_needs_manage_threads(
    fake: FakeDiscord, bot: SzulerniaBot
) -> None:
    channel = tavern(fake, bot)
    thread = await channel.create_thread(name="Talk", type=discord.ChannelType.public_thread)
    said = await thread.send("before")
    archived = await thread.edit(archived=True)
    assert archived.archived and fake.threads()[0].archived
    await fake.wait_for(lambda: channel.guild.get_thread(thread.id) is None, what="THREAD_UPDATE")

    with pytest.raises(discord.HTTPException) as sending:
        await thread.send("after")
    assert sending.value.code == 50083
    with pytest.raises(discord.HTTPException) as editing:
        await said.edit(content="changed")
    assert editing.value.code == 50083
    with pytest.raises(discord.Forbidden) as locking:
        await thread.edit(archived=False, locked=True)
    assert locking.value.code == 50013

    fake.grant_bot(MANAGE_THREADS)
    await thread.edit(archived=False)
    await thread.send("reopened")
    await thread.edit(archived=True, locked=True)
    assert fake.threads()[0].locked
    assert [m.content for m in fake.threads()[0].messages] == ["before", "reopened"]


async def test_denied_thread_permissions_answer_403_50013(
    fake: FakeDiscord, bot: SzulerniaBot
) -> None:
    channel = tavern(fake, bot)
    thread = await channel.create_thread(name="Talk", type=discord.ChannelType.public_thread)
    fake.deny_bot(CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS)
    me = channel.guild.me
    await fake.wait_for(
        lambda: not channel.permissions_for(me).create_public_threads, what="CHANNEL_UPDATE"
    )
    assert not thread.permissions_for(me).send_messages_in_threads  # the bot can tell first

    with pytest.raises(discord.Forbidden) as creating:
        await channel.create_thread(name="Other", type=discord.ChannelType.public_thread)
    with pytest.raises(discord.Forbidden) as sending:
        await thread.send("hello")
    assert creating.value.code == sending.value.code == 50013

    fake.deny_bot(0)
    await thread.send("hello")
    assert len(fake.threads()) == 1


async def test_a_restarted_bot_knows_the_open_threads_and_a_webhook_posts_in_one(
    fake: FakeDiscord, harness: BotHarness
) -> None:
    channel = tavern(fake, harness.bot)
    thread = await channel.create_thread(name="Talk", type=discord.ChannelType.public_thread)
    bot = await harness.restart()
    channel = tavern(fake, bot)
    known = channel.guild.get_thread(thread.id)
    assert known is not None and known.name == "Talk"

    fake.grant_bot(MANAGE_WEBHOOKS)
    await fake.wait_for(lambda: channel.permissions_for(channel.guild.me).manage_webhooks)
    hook = await channel.create_webhook(name="Tavern voices")
    await hook.send("Psst", username="Greedo", thread=known, wait=True)
    (spoken,) = fake.threads()[0].messages
    assert spoken.author_name == "Greedo" and spoken.webhook_id == hook.id


# -- application emojis ------------------------------------------------------------------------
async def test_application_emojis_are_uploaded_listed_renamed_and_deleted(
    fake: FakeDiscord, bot: SzulerniaBot
) -> None:
    dragon = await bot.create_application_emoji(name="dragon", image=PNG)
    assert [e.name for e in fake.emojis()] == ["dragon"] and fake.emojis()[0].image == PNG
    assert [e.id for e in await bot.fetch_application_emojis()] == [dragon.id]

    with pytest.raises(discord.HTTPException) as taken:
        await bot.create_application_emoji(name="dragon", image=PNG)
    assert taken.value.code == 50035 and "name" in str(taken.value)
    renamed = await dragon.edit(name="wyvern")
    assert renamed.name == "wyvern" == (await bot.fetch_application_emoji(dragon.id)).name
    await dragon.delete()
    assert fake.emojis() == [] and await bot.fetch_application_emojis() == []


async def test_emoji_uploads_outside_discords_limits_or_refused_fail(
    fake: FakeDiscord, bot: SzulerniaBot
) -> None:
    for name, image, field in (("a", PNG, "name"), ("two words", PNG, "name")):
        with pytest.raises(discord.HTTPException) as bad:
            await bot.create_application_emoji(name=name, image=image)
        assert bad.value.code == 50035 and refused_fields(fake) == {field}
    big = PNG + b"\x00" * (256 * 1024)
    with pytest.raises(discord.HTTPException):
        await bot.create_application_emoji(name="huge", image=big)
    assert refused_fields(fake) == {"image"}

    fake.refuse_emoji_uploads = True
    with pytest.raises(discord.Forbidden):
        await bot.create_application_emoji(name="dragon", image=PNG)
    assert fake.emojis() == []


async def test_custom_emojis_in_messages_must_be_the_bots(
    fake: FakeDiscord, bot: SzulerniaBot
) -> None:
    channel = tavern(fake, bot)
    dragon = await bot.create_application_emoji(name="dragon", image=PNG)
    view = ui.View()
    view.add_item(ui.Button(label="Bet", emoji=dragon, custom_id="fx:bet"))
    sent = await channel.send(f"{dragon} wins", view=view)
    assert fake.message(sent.id).buttons[0]["emoji"]["id"] == dragon.id
    assert fake.emoji_warnings == []

    stranger = discord.PartialEmoji(name="ghost", id=dragon.id + 1)
    view = ui.View()
    view.add_item(ui.Button(label="Bet", emoji=stranger, custom_id="fx:bet"))
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("x", view=view)
    assert refused.value.code == 50035
    assert refused_fields(fake) == {"components.0.components.0.emoji.id"}
    await channel.send(f"{stranger} wins")
    assert fake.take_emoji_warnings() == [
        f"POST /channels/{channel.id}/messages: {stranger} is no emoji the bot has"
    ]


# -- Components V2 -----------------------------------------------------------------------------
class Exchange(ui.Modal, title="Exchange cards"):
    def __init__(self) -> None:
        super().__init__()
        self.cards: ui.Select[Any] = ui.Select(
            custom_id="fx:cards",
            min_values=1,
            max_values=2,
            options=[discord.SelectOption(label=f"Card {n}", value=str(n)) for n in (1, 2, 3)],
        )
        self.add_item(ui.Label(text="Cards to exchange", component=self.cards))
        self.picked: list[str] = []

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        self.picked = list(self.cards.values)
        await interaction.response.send_message("Exchanged", ephemeral=True)


class Board(ui.LayoutView):
    """A table in miniature: a container with a section, a gallery, a file and a button that
    opens a modal with a select in a label."""

    def __init__(self) -> None:
        super().__init__()
        self.modal = Exchange()
        row: ui.ActionRow[Board] = ui.ActionRow()
        row.add_item(ui.Button(label="Exchange", custom_id="fx:exchange"))
        row.children[0].callback = self.exchange  # type: ignore[method-assign]
        self.add_item(
            ui.Container(
                ui.Section("Table 1", "Pot: 20", accessory=ui.Thumbnail("attachment://seat.png")),
                ui.Separator(),
                ui.MediaGallery(discord.MediaGalleryItem("attachment://board.png")),
                ui.File("attachment://rules.txt"),
                row,
                accent_colour=0x8B4513,
            )
        )
        self.add_item(ui.TextDisplay("Your move, Greedo"))

    async def exchange(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_modal(self.modal)


async def test_a_layout_view_is_stored_and_read_like_a_table(
    fake: FakeDiscord, bot: SzulerniaBot
) -> None:
    greedo = fake.add_player("Greedo")
    board = Board()
    files = [
        discord.File(io.BytesIO(PNG), "seat.png"),
        discord.File(io.BytesIO(PNG), "board.png"),
        discord.File(io.BytesIO(b"rules"), "rules.txt"),
    ]
    sent = await tavern(fake, bot).send(view=board, files=files)
    message = fake.message(sent.id)
    assert message.components_v2 and message.content == ""
    assert message.texts() == ["Table 1", "Pot: 20", "Your move, Greedo"]
    assert message.button_labels == ["Exchange"]
    (item,) = message.media()
    board_png = next(a for a in message.attachments if a["filename"] == "board.png")
    assert item["media"]["url"] == board_png["url"]
    assert fake.state.files[int(item["media"]["attachment_id"])] == PNG

    click = await fake.click(greedo, message, "Exchange")
    modal = await click.wait_modal()
    assert modal["components"][0]["type"] == 18  # a Label, with the select inside
    submitted = await fake.submit_modal(greedo, click, {"Cards to exchange": ["1", "3"]})
    assert (await submitted.reply()).content == "Exchanged"
    assert board.modal.picked == ["1", "3"]


async def test_v2_messages_beyond_the_limits_are_refused_with_50035(
    fake: FakeDiscord, bot: SzulerniaBot
) -> None:
    cases = [
        (v2(text("hi"), content="hello"), "content"),
        (v2(*[text("x")] * 41), "components"),
        (v2(text("x" * 2500), text("y" * 1501)), "components"),
        (
            v2({"type": 12, "items": [{"media": {"url": "attachment://gone.png"}}]}),
            "components.0.items.0.media.url",
        ),
    ]
    for body, field in cases:
        with pytest.raises(discord.HTTPException) as refused:
            await send_raw(bot, fake.tavern.id, body)
        assert refused.value.code == 50035
        assert field in refused_fields(fake)

    sent = await send_raw(bot, fake.tavern.id, v2(text("Table 1")))
    edit = Route("PATCH", "/channels/{c}/messages/{m}", c=fake.tavern.id, m=sent["id"])
    for body, field in (({"flags": 0}, "flags"), ({"content": "plain"}, "content")):
        with pytest.raises(discord.HTTPException):
            await bot.http.request(edit, json=body)
        assert field in refused_fields(fake)
    assert fake.message(int(sent["id"])).texts() == ["Table 1"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (
            v2(
                {
                    "type": 17,
                    "components": [
                        {
                            "type": 9,
                            "components": [text("a")] * 3,
                            "accessory": {"type": 11, "media": {"url": "https://x/a.png"}},
                        }
                    ]
                    * 10,
                }
            ),
            "components",
        ),  # 41 with the nested sections, texts and thumbnails
        (
            v2({"type": 12, "items": [{"media": {"url": "https://x/a.png"}}] * 11}),
            "components.0.items",
        ),
        (v2({"type": 12, "items": []}), "components.0.items"),
        (v2({"type": 13, "file": {"url": "https://x/rules.txt"}}), "components.0.file.url"),
        (v2(text("a"), embeds=[{"title": "t"}]), "embeds"),
    ],
)
def test_v2_limits_the_spec_leaves_out(body: dict[str, Any], field: str) -> None:
    assert field in {f for f, _ in check_limits(*SEND, body)}


def test_v2_bodies_within_the_limits_pass_and_edits_stay_v2() -> None:
    container = {"type": 17, "components": [text("a" * 2000), {"type": 14}, text("b" * 2000)]}
    assert check_limits(*SEND, v2(container)) == []
    assert check_limits(*EDIT, {"components": [text("a")]}, was_v2=True) == []
    assert check_limits(*EDIT, {"components": [text("a")]}) != []  # not a row without the flag


async def test_the_spec_checks_v2_components(fake: FakeDiscord) -> None:
    if fake.spec is None:
        pytest.skip("Discord's OpenAPI spec is absent")
    bad = v2({"type": 17, "components": [{"type": 10}]})  # a text display without content
    fields = {v.field for v in fake.spec.validate("POST", "/channels/1/messages", bad)}
    assert fields == {"components.0.components.0"}
    assert fake.spec.validate("POST", "/channels/1/messages", v2(text("ok"))) == []
