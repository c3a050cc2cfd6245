"""The Gateway: HELLO, heartbeats, IDENTIFY/READY, RESUME with replay, and event dispatch.

Each IDENTIFY starts a session. Events are numbered per session and kept, so that a bot that lost
its connection can RESUME and get what it missed. Frames are zlib-stream compressed when the bot
asks for ``compress=zlib-stream`` (discord.py does unless zstd is installed); any other value gets
plain text frames, which discord.py also accepts.

Shards: an IDENTIFY with ``shard: [id, count]`` speaks for that shard only. It gets READY's
guilds, GUILD_CREATE and every event of a guild whose ``(guild_id >> 22) % count`` is ``id``, and,
on shard 0, the events of no guild (DMs and their interactions), as Discord routes them. An
impossible shard is closed with 4010, as Discord does. Several sessions (one bot's shards, or
several bots, in one process or several) may be connected at once. An IDENTIFY without a shard
gets everything.

:meth:`Gateway.freeze` is a killed bot: its connections are cut without a close frame and its
sessions end; a connection that then IDENTIFYs or RESUMEs with its (frozen) token is never
answered again, not even a heartbeat. (All the bots share one token: it freezes every one.)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from tests.fakediscord.crash import Credentials
from tests.fakediscord.state import FakeState

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, RESUME, RECONNECT = 0, 1, 2, 3, 6, 7
REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 8, 9, 10, 11
GUILDS, GUILD_WEBHOOKS, GUILD_MESSAGES, DIRECT_MESSAGES = 1 << 0, 1 << 5, 1 << 9, 1 << 12
_GUILD_EVENTS = ("GUILD_", "CHANNEL_", "THREAD_")
OP_NAMES: dict[Any, str] = {
    HEARTBEAT: "HEARTBEAT",
    IDENTIFY: "IDENTIFY",
    PRESENCE: "PRESENCE_UPDATE",
    RESUME: "RESUME",
    REQUEST_MEMBERS: "REQUEST_GUILD_MEMBERS",
}
_ALWAYS = {"READY", "RESUMED", "INTERACTION_CREATE", "GUILD_MEMBERS_CHUNK", "GUILD_CREATE"}
_BY_ID = {"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"}  # the guild's own id is ``id``
INVALID_SHARD = 4010


def event_guild(event: str, data: dict[str, Any]) -> int | None:
    """The guild an event belongs to (None: a DM's, or no guild's)."""
    value = data.get("id") if event in _BY_ID else data.get("guild_id")
    return int(value) if value else None


def shard_of(guild_id: int, count: int) -> int:
    return (guild_id >> 22) % count


@dataclass(eq=False)
class Connection:
    ws: web.WebSocketResponse
    request: web.Request
    compressor: Any = None
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    session: Session | None = None
    frozen: bool = False  # it spoke with a killed bot's token: nothing is answered any more

    async def write(self) -> None:
        while not self.ws.closed:
            payload = await self.queue.get()
            text = json.dumps(payload, separators=(",", ":"))
            try:
                if self.compressor is None:
                    await self.ws.send_str(text)
                else:
                    data = self.compressor.compress(text.encode())
                    await self.ws.send_bytes(data + self.compressor.flush(zlib.Z_SYNC_FLUSH))
            except (ConnectionError, RuntimeError):
                return  # the connection went away; the session keeps the event for a RESUME


@dataclass(eq=False)
class Session:
    id: str
    intents: int
    seq: int = 0
    sent: list[dict[str, Any]] = field(default_factory=list)
    connection: Connection | None = None
    ended: bool = False
    shard: tuple[int, int] | None = None
    """``(shard id, shard count)`` from the IDENTIFY; None: every guild."""

    def covers(self, guild_id: int | None) -> bool:
        """Whether the session's shard gets the events of this guild (None: of no guild)."""
        if self.shard is None:
            return True
        shard, count = self.shard
        return shard == (0 if guild_id is None else shard_of(guild_id, count))

    def wants(self, event: str, data: dict[str, Any]) -> bool:
        """Whether the session's intents cover the event, as Discord filters them."""
        if event in _ALWAYS:
            return True
        if event.startswith("MESSAGE_"):
            bit = GUILD_MESSAGES if data.get("guild_id") else DIRECT_MESSAGES
            return bool(self.intents & bit)
        if event.startswith(_GUILD_EVENTS):
            return bool(self.intents & GUILDS)
        if event == "WEBHOOKS_UPDATE":
            return bool(self.intents & GUILD_WEBHOOKS)
        return True


class Gateway:
    def __init__(
        self,
        state: FakeState,
        *,
        resume_url: Callable[[], str],
        credentials: Credentials,
        heartbeat_ms: int,
    ) -> None:
        self.state = state
        self.resume_url = resume_url
        self.credentials = credentials
        self.heartbeat_ms = heartbeat_ms
        self.sessions: list[Session] = []
        self.connections: set[Connection] = set()
        self.log: list[str] = []  # the ops the bot sent, by name: IDENTIFY, RESUME...
        self.urls: list[str] = []  # each connection's path and query (``compress=`` etc.)
        state.emitter = self.dispatch

    @property
    def session(self) -> Session | None:
        """The newest session that has not ended."""
        live = [s for s in self.sessions if not s.ended]
        return live[-1] if live else None

    @property
    def connected(self) -> bool:
        session = self.session
        return session is not None and session.connection is not None

    def covering(self, guild_id: int | None) -> list[Session]:
        """The live sessions that get the events of this guild (None: of no guild)."""
        return [s for s in self.sessions if not s.ended and s.covers(guild_id)]

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send an event to every live session of its guild's shard, or keep it for a RESUME if
        disconnected."""
        for session in self.covering(event_guild(event, data)):
            if session.wants(event, data):
                self._send_event(session, event, data)

    def _send_event(self, session: Session, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        payload = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.sent.append(payload)
        if session.connection is not None:
            session.connection.queue.put_nowait(payload)
        self.state.notify()

    async def drop(self, *, code: int = 4000, abort: bool = False) -> None:
        """Cut the current connection as a network or Discord failure would; RESUME may follow."""
        session = self.session
        if session is None or session.connection is None:
            raise RuntimeError("no connected gateway session to drop")
        connection = session.connection
        session.connection = None
        if abort and connection.request.transport is not None:
            connection.request.transport.abort()
        else:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(connection.ws.close(code=code), 2.0)
        self.state.notify()

    def freeze(self) -> None:
        """The bot was killed: end every session and abort every connection (no close frame)."""
        for session in self.sessions:
            session.ended, session.connection = True, None
        for connection in self.connections:
            if connection.request.transport is not None:
                connection.request.transport.abort()
        self.state.notify()

    async def close(self) -> None:
        for connection in list(self.connections):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(connection.ws.close(code=1001), 1.0)

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        try:
            await ws.prepare(request)
        except ConnectionError:
            return ws  # the bot gave up while connecting (the fake is shutting down)
        self.urls.append(request.path_qs)
        compressor = None
        if request.query.get("compress") == "zlib-stream":
            compressor = zlib.compressobj()
        connection = Connection(ws, request, compressor)
        self.connections.add(connection)
        writer = asyncio.create_task(connection.write(), name="fakediscord-gateway-writer")
        connection.queue.put_nowait(
            {"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_ms}, "s": None, "t": None}
        )
        try:
            while True:
                message = await ws.receive()
                if message.type is WSMsgType.TEXT:
                    await self._receive(connection, json.loads(message.data))
                elif message.type is WSMsgType.CLOSE:
                    if connection.session is not None and message.data in (1000, 1001):
                        connection.session.ended = True  # a clean close by the bot ends it
                    break
                elif message.type in (WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR):
                    break
        finally:
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionError, RuntimeError):
                await writer
            self.connections.discard(connection)
            if connection.session is not None and connection.session.connection is connection:
                connection.session.connection = None
            self.state.notify()
        return ws

    async def _receive(self, connection: Connection, payload: dict[str, Any]) -> None:
        op, data = payload.get("op"), payload.get("d") or {}
        name = OP_NAMES.get(op, f"op {op}")
        if op in (IDENTIFY, RESUME) and self.credentials.is_frozen(data.get("token")):
            connection.frozen = True
        if connection.frozen:
            self.log.append(f"frozen {name}")
            return
        self.log.append(name)
        if op == HEARTBEAT:
            connection.queue.put_nowait({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == IDENTIFY:
            await self._identify(connection, data)
        elif op == RESUME:
            self._resume(connection, data)
        elif op == REQUEST_MEMBERS:
            self._members_chunk(connection, data)
        elif op != PRESENCE:
            await connection.ws.close(code=4001, message=b"Unknown opcode")
        self.state.notify()

    async def _identify(self, connection: Connection, data: dict[str, Any]) -> None:
        token = self.credentials.token
        if data.get("token") not in (token, f"Bot {token}"):
            await connection.ws.close(code=4004, message=b"Authentication failed.")
            return
        shard = data.get("shard")
        if shard is not None and not _valid_shard(shard):
            await connection.ws.close(code=INVALID_SHARD, message=b"Invalid shard.")
            return
        session = Session(secrets.token_hex(16), int(data.get("intents") or 0))
        session.shard = None if shard is None else (int(shard[0]), int(shard[1]))
        session.connection = connection
        connection.session = session
        self.sessions.append(session)
        user = self.state.bot_user.payload() | {"verified": True, "mfa_enabled": False}
        guilds = [g for g in self.state.guilds.values() if session.covers(g.id)]
        ready = {
            "v": 10,
            "user": user,
            "guilds": [guild.unavailable_payload() for guild in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.resume_url(),
            "application": {"id": str(self.state.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "geo_ordered_rtc_regions": [],
            "_trace": ['["fakediscord",{"micros":0}]'],
        }
        if "shard" in data:
            ready["shard"] = data["shard"]
        self._send_event(session, "READY", ready)
        for guild in guilds:
            self._send_event(session, "GUILD_CREATE", guild.payload())

    def _resume(self, connection: Connection, data: dict[str, Any]) -> None:
        session = next((s for s in self.sessions if s.id == data.get("session_id")), None)
        if session is None or session.ended or data.get("token") != self.credentials.token:
            connection.queue.put_nowait({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        session.connection = connection
        connection.session = session
        seen = int(data.get("seq") or 0)
        for payload in session.sent:
            if payload["s"] > seen:
                connection.queue.put_nowait(payload)
        self._send_event(session, "RESUMED", {"_trace": ['["fakediscord",{"micros":0}]']})

    def _members_chunk(self, connection: Connection, data: dict[str, Any]) -> None:
        session = connection.session
        guild = self.state.guilds.get(int(data.get("guild_id") or 0))
        if session is None or guild is None:
            return
        members = list(guild.members.values())
        not_found: list[str] = []
        if data.get("user_ids"):
            wanted = {int(x) for x in data["user_ids"]}
            not_found = [str(x) for x in wanted if x not in guild.members]
            members = [m for m in members if m.id in wanted]
        elif data.get("query"):
            query = data["query"].lower()
            members = [m for m in members if m.user.name.lower().startswith(query)]
        if data.get("limit"):
            members = members[: int(data["limit"])]
        chunk = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": not_found,
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        self._send_event(session, "GUILD_MEMBERS_CHUNK", chunk)


def _valid_shard(shard: Any) -> bool:
    """``[shard id, shard count]`` with ``0 <= id < count``, as Discord requires."""
    if not isinstance(shard, list) or len(shard) != 2:
        return False
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in shard):
        return False
    return 0 <= shard[0] < shard[1]
