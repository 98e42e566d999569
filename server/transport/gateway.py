"""The Socket.IO face of the server: parse, authenticate, forward to a table, answer.

No game logic here. Every request is acknowledged, whatever happens
(PITFALLS 4): the wrapper turns refusals and failures into ``ok: false``.
Identity is the account from the session token, never the sid (PITFALLS 2):
on connect the account's rooms are rebuilt and a second connection of the same
account replaces the first, which is told why.
"""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Final, Protocol, TypeVar

import socketio
import structlog

from server import protocol as p
from server.clock import SYSTEM_CLOCK, Clock, Timer, call_later
from server.i18n import language, phrase, render_text
from server.identity import EVERY_TABLE, Identity
from server.rules.errors import Refusal
from server.rules.game import AccountId
from server.rules.vocabulary import JSON, Answer, OkReply, Reply
from server.table.commands import (
    DrillRequest,
    Host,
    Play,
    Presence,
    SetAway,
    SetSitOut,
    SetWilling,
    Sit,
    Snapshot,
    Stand,
    TableCommand,
    TopUp,
)
from server.table.registry import Tables
from server.transport import edge
from server.transport.chat import ChatLog, TableChat
from server.transport.connections import Connection, token_digest
from server.transport.frames import surely_small
from server.transport.limits import BucketTable, TokenBucket
from server.transport.rooms import account_room, table_room
from server.transport.scope import check_scope

log = structlog.get_logger("hcf.transport")

MAX_QUEUED_PACKETS = 500  # a client this far behind is dropped; it resyncs from a snapshot
SWEEP_SECONDS = 2.0


class AccountsPort(Protocol):
    """What the gateway needs from the account store."""

    async def identify(self, token: str) -> Identity:
        """The account of a session token (raises Refusal with an auth/ code)."""
        ...

    async def is_host_token(self, token: str) -> bool:
        """Whether ``token`` is the current host token."""
        ...

    async def host_scope(self, token: str) -> str | None:
        """Where ``token`` runs the floor: :data:`EVERY_TABLE`, one table (a floor link's), or None."""
        ...

    async def grant_chips(self, name: str, amount: int, by: AccountId | None) -> Answer:
        """Issue chips to an account (host)."""
        ...


# While the server stops, a hand in progress may still finish (it has a grace time): its players
# can still make their moves; nothing new (a seat, a top-up, a host command) is taken.
WHILE_STOPPING = frozenset({"snapshot", "join", "leave_table", "move", "leave"})


class Gateway:
    """Binds Socket.IO events to the tables."""

    def __init__(self, sio: socketio.AsyncServer, tables: Tables, accounts: AccountsPort, *,
                 rate: float = 20.0, burst: int = 40, reconnects: BucketTable | None = None,
                 presence_grace: float = 0.0, on_login: Callable[[object], None] | None = None,
                 clock: Clock = SYSTEM_CLOCK, chat_log: ChatLog | None = None) -> None:
        self.sio, self.tables, self.accounts, self.clock = sio, tables, accounts, clock
        self.chat = None if chat_log is None else \
            TableChat(sio, tables, chat_log, clock, lambda sid: self._identity(sid).account)
        self.rate, self.burst = rate, burst
        self.connections: dict[str, Connection] = {}  # one record per live connection, by sid
        self.sid_of_account: dict[AccountId, str] = {}  # each account's current connection
        self._revocations = 0  # how many revocations so far: a connect that saw one meanwhile checks again
        self.reconnects = reconnects
        self.presence_grace = presence_grace
        self.on_login = on_login  # told the aiohttp request of each connection that logged in (server/transport/guard)
        self.accepting = True
        self._background: set[asyncio.Task[None]] = set()
        self._absence: dict[AccountId, Timer] = {}
        self._refusals_logged = BucketTable(1 / 60, 1, 10_000, clock)  # a reconnect flood logs a line a minute
        sio.on("connect", self.on_connect)
        sio.on("disconnect", self.on_disconnect)
        for event in p.REQUESTS:
            sio.on(event, self._wrap(event))
        sio.on("*", self._unknown)
        self._routes: Mapping[str, Callable[[TableCall], Awaitable[Reply]]] = {
            "join": self._join, "leave_table": self._leave_table, "snapshot": self._snapshot, "sit": self._sit,
            "chat": self._chat,
        }

    @property
    def identities(self) -> dict[str, Identity]:
        """Who is on each live connection, by sid."""
        return {sid: c.identity for sid, c in self.connections.items()}

    @property
    def token_of_sid(self) -> dict[str, str]:
        """The session token digest each logged-in connection opened with, by sid."""
        return {sid: c.token for sid, c in self.connections.items() if c.token is not None}

    def _lang(self, sid: str) -> str:
        return found.lang if (found := self.connections.get(sid)) is not None else "en"

    def _identity(self, sid: str) -> Identity:
        connection = self.connections.get(sid)
        return connection.identity if connection is not None else SPECTATOR

    # ------------------------------------------------------------ connections

    async def on_connect(self, sid: str, environ: object = None, auth: object = None) -> Reply | None:
        """Authenticate (a spectator needs no token), rebuild rooms, replace an older connection."""
        structlog.contextvars.clear_contextvars()
        if self._as_event(sid):
            return p.error("request/unknown", "no request named 'connect'")
        sent = auth if isinstance(auth, dict) else {}
        lang = language(sent.get("lang") if isinstance(sent.get("lang"), str) else None)
        token, host_token = sent.get("token"), sent.get("host_token")
        identity = Identity(None, None)
        try:
            seen = self._revocations
            if isinstance(token, str) and token:
                if not is_text(token):
                    raise Refusal("auth/token_invalid", phrase("unknown or revoked session token"))
                identity = await self.accounts.identify(token)
            if isinstance(host_token, str) and host_token:
                if not is_text(host_token) or not await self.accounts.is_host_token(host_token):
                    raise Refusal("auth/not_host", phrase("that host token is not valid"))
                identity = Identity(identity.account, identity.name, True)
            while isinstance(token, str) and identity.account is not None and self._revocations != seen:
                # a token was revoked while this one was being checked: it may be this one
                seen = self._revocations
                await self.accounts.identify(token)
            if identity.account is not None:
                self._check_reconnects(identity.account)
        except Refusal as exc:
            details: JSON = {"code": exc.code, "message": render_text(exc.message, lang)}  # in the asked language
            if isinstance(exc, ReconnectLimitedError):
                details["retry_after"] = exc.seconds
                if self._refusals_logged.take(str(identity.account)) == 0:
                    log.info("connect_refused", code=exc.code, account=identity.account)
            else:
                log.info("connect_refused", code=exc.code)
            raise socketio.exceptions.ConnectionRefusedError(f"{exc.code}: {details['message']}", details) from None
        connection = Connection(identity, TokenBucket(self.rate, self.burst, self.clock), lang=lang)
        self.connections[sid] = connection
        if (identity.account is not None or identity.host) and self.on_login is not None \
                and isinstance(environ, dict):
            self.on_login(environ.get("aiohttp.request"))
        if identity.host:
            assert isinstance(host_token, str)
            connection.host_token = host_token
        if identity.account is not None:
            assert isinstance(token, str)
            connection.token = token_digest(token)
            pending = self._absence.pop(identity.account, None)
            if pending is not None:
                pending.cancel()  # back within the grace: the table never heard it was gone
            await self._replace_older(identity.account, sid)
            await self.sio.enter_room(sid, account_room(identity.account))
            for table in await self.tables.seated_names(identity.account):
                await self.sio.enter_room(sid, table_room(table))
                await self.tables.submit(table, Presence(identity.account, True))
        log.info("connected", account=identity.account, host=identity.host)
        return None

    def _check_reconnects(self, account: AccountId) -> None:
        if self.reconnects is None:
            return
        wait = self.reconnects.take(str(account))
        if wait > 0:
            raise ReconnectLimitedError(max(1, math.ceil(wait)))

    async def close_token(self, token: str) -> int:
        """Close every connection opened with ``token`` (it was revoked); how many."""
        self._revocations += 1
        digest = token_digest(token)
        return await self._revoke([sid for sid, c in self.connections.items() if c.token == digest])

    async def close_account(self, account: AccountId, *, keep_token: str) -> int:
        """Close every connection of ``account`` opened with another token (a password change)."""
        self._revocations += 1
        keep = token_digest(keep_token)
        return await self._revoke([sid for sid, c in self.connections.items()
                                   if c.token not in (None, keep) and c.identity.account == account])

    async def _revoke(self, sids: list[str], message: str = "this session was logged out (a logout or a "
                      "password change): log in again", *, after_reply: bool = False) -> int:
        for sid in sids:
            log.info("session_revoked", account=self._identity(sid).account)
            await self.sio.emit(p.EV_REVOKED, {"message": message}, to=sid)
            if not after_reply:
                await self.sio.disconnect(sid)
                continue
            # from inside that connection's own request: closed once its answer is on its way
            task = asyncio.create_task(self.sio.disconnect(sid), name=f"revoke:{sid}")
            self._background.add(task)
            task.add_done_callback(self._background.discard)
        return len(sids)

    async def _replace_older(self, account: AccountId, sid: str) -> None:
        old = self.sid_of_account.get(account)
        self.sid_of_account[account] = sid
        if old is not None and old != sid:
            said = render_text(phrase("this account connected from somewhere else"), self._lang(old))
            await self.sio.emit(p.EV_REPLACED, {"message": said}, to=old)
            await self.sio.disconnect(old)

    async def on_disconnect(self, sid: str, _reason: object = None) -> Reply | None:
        """A dropped connection keeps the seat; only presence changes (docs/rules/hcf.md section 4)."""
        structlog.contextvars.clear_contextvars()
        if self._as_event(sid):
            return p.error("request/unknown", "no request named 'disconnect'")
        connection = self.connections.pop(sid, None)
        identity = connection.identity if connection is not None else None
        if identity is None or identity.account is None:
            return None
        if self.sid_of_account.get(identity.account) != sid:
            return None  # replaced by a newer connection: still present
        del self.sid_of_account[identity.account]
        if self.presence_grace > 0:
            # A drop and a return within the grace publish nothing (a flapping link, a reconnect loop).
            account = identity.account
            self._absence[account] = call_later(self.clock, self.presence_grace,
                                                lambda: self._start_absent(account))
        else:
            self._start_absent(identity.account)
        log.info("disconnected", account=identity.account)
        return None

    def _start_absent(self, account: AccountId) -> None:
        # Not awaited in the handler: engine.io may run it inside a table's own broadcast (a client
        # that stopped answering pings is closed while being written to), and that table would then
        # wait on itself for ever.
        if self._absence.pop(account, None) is not None and not self.accepting:
            return  # the grace ran out while the server stops: its tables are stopped already
        task = asyncio.create_task(self._absent(account), name=f"absent:{account}")
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _absent(self, account: AccountId) -> None:
        for table in await self.tables.seated_names(account):
            try:
                await self.tables.submit(table, Presence(account, False))
            except Refusal:
                continue

    def _as_event(self, sid: str) -> bool:
        """Whether a connect or disconnect handler runs for an *event* of that name sent by a client.

        python-socketio dispatches a client's ``connect``/``disconnect`` event to these handlers;
        during a real connect or disconnect the manager does not count the sid as connected.
        """
        return edge.is_connected(self.sio, sid)

    async def sweep_slow_consumers(self) -> None:
        """Forever: drop connections whose outgoing queue keeps growing (PITFALLS 5).

        A frozen client would otherwise hold every broadcast in memory; dropped,
        it reconnects and catches up from a snapshot.
        """
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            for sid in list(self.connections):
                if edge.queued(self.sio, sid) > MAX_QUEUED_PACKETS:
                    log.warning("slow_consumer_dropped", account=self._identity(sid).account)
                    await self.sio.disconnect(sid)

    # ------------------------------------------------------------ requests

    def _wrap(self, event: str) -> Callable[..., Awaitable[Reply]]:
        async def handler(sid: str, payload: object = None, *more: object) -> Reply:
            if more:  # several arguments: not the one JSON object a request takes
                payload = [payload, *more]
            structlog.contextvars.clear_contextvars()
            structlog.contextvars.bind_contextvars(
                request=event, account=self._identity(sid).account,
                table=payload.get("table") if isinstance(payload, dict) else None)
            try:
                reply = await self._handle(sid, event, payload)
                lang = self._lang(sid)
                return reply if lang == "en" else p.said_in(reply, lang)  # English is as the code writes it
            except Refusal as exc:
                return p.said_in(p.error(exc.code, exc.message), self._lang(sid))
            except Exception:
                log.exception("request_failed")
                return p.said_in(p.error("request/internal"), self._lang(sid))
        return handler

    async def _unknown(self, event: str, *_args: object) -> Reply:
        # (event, sid, *args) for an unknown event; (sid, *args) for an event named "*" itself
        name = "*" if event in self.connections else event
        return p.error("request/unknown", f"no request named {name!r}")

    async def _handle(self, sid: str, event: str, payload: object) -> Reply:
        connection = self.connections.get(sid)
        wait = connection.bucket.take() if connection is not None else 0.0
        if wait > 0:
            return p.error("rate/limited", retry_after=round(wait, 3))
        if not surely_small(p.MAX_REQUEST_BYTES):  # most requests: their frame is too short to hold a large one
            try:
                size = len(json.dumps(payload, default=str))
            except (RecursionError, ValueError):  # nested past any request of ours, or a number too long to print
                return p.error("request/malformed", f"{event}: the payload is nested too deeply or too large")
            if size > p.MAX_REQUEST_BYTES:
                return p.error("request/too_large")
        if not self.accepting and event not in WHILE_STOPPING:
            return p.error("server/shutting_down")
        request = p.parse_request(event, payload)
        identity = self._identity(sid)
        if isinstance(request, p.HostAction):
            return await self._host(sid, identity, request)
        assert isinstance(request, p.TableRequest)
        call = TableCall(sid, identity, event, request, await self.tables.resolve(request.table))
        return await self._routes.get(event, self._command)(call)

    # Each request about a table: watching it is the gateway's own; anything else is a table command.

    async def _join(self, call: TableCall) -> Reply:
        if (lang := _as(call.request, p.Join).lang) is not None and call.sid in self.connections:
            self.connections[call.sid].lang = language(lang)  # the page's language switch (docs/i18n.md)
        await self.sio.enter_room(call.sid, table_room(call.table))
        reply = await self._snapshot(call)
        if self.chat is not None:  # the recent chat this viewer may read (docs/protocol.md, chat)
            snapshot = reply.get("snapshot")
            you = snapshot.get("you") if isinstance(snapshot, dict) else None
            seated = isinstance(you, dict) and you.get("seat") is not None
            reply["chat"] = await self.chat.joined(call.table, seated=seated)
        return reply

    async def _chat(self, call: TableCall) -> Reply:
        if self.chat is None:
            raise Refusal("request/unknown", "this server keeps no chat")
        return await self.chat.say(call.sid, call.identity, call.table, _as(call.request, p.Chat))

    async def _leave_table(self, call: TableCall) -> Reply:
        await self.sio.leave_room(call.sid, table_room(call.table))
        return p.ok()

    async def _snapshot(self, call: TableCall) -> OkReply:
        return p.ok(**await self.tables.submit(call.table, Snapshot(call.identity.account)))

    async def _sit(self, call: TableCall) -> Reply:
        self._account(call.identity)  # a spectator is refused before joining the room
        await self.sio.enter_room(call.sid, table_room(call.table))
        return await self._command(call)

    async def _command(self, call: TableCall) -> Reply:
        account = self._account(call.identity)
        command = COMMANDS.get(call.event, _play)(call, account)
        # Straight onto the table's queue (or its owner's, with several processes): nothing forwards it on the way.
        return p.ok(**await self.tables.queue_of(call.table)(command))

    @staticmethod
    def _account(identity: Identity) -> AccountId:
        if identity.account is None:
            raise Refusal("auth/required", phrase("log in to play (connect with your session token)"))
        return identity.account

    async def _host(self, sid: str, identity: Identity, request: p.HostAction) -> Reply:
        if not identity.host:
            raise Refusal("auth/not_host", phrase("only the host may do that"))
        connection = self.connections.get(sid)
        host_token = connection.host_token if connection is not None else None
        scope = await self.accounts.host_scope(host_token or "")
        if scope is None:
            await self._revoke([sid], "the host token was replaced (hcf-server host-token) or its floor "
                               "invite revoked: connect with a valid one", after_reply=True)
            raise Refusal("auth/not_host", phrase("that host token is no longer valid"))
        if request.action in CHAT_ACTIONS and self.chat is not None and request.table:
            await check_scope(self.tables, scope, request.table, request.action)
            return p.ok(**await self.chat.host(await self.tables.resolve(request.table), request))
        return p.ok(**await host_command(self.tables, self.accounts, request, identity.account, scope))


async def host_command(tables: Tables, accounts: AccountsPort, request: p.HostAction,
                       by: AccountId | None, scope: str = EVERY_TABLE) -> Answer:
    """Carry out a host command (shared by the socket and HTTP faces); ``scope``: where the token runs the floor."""
    table = None if request.action in ("create_table", "grant_chips") else request.table
    await check_scope(tables, scope, table, request.action)
    if request.action == "create_table":
        if not request.table:
            raise Refusal("request/malformed", phrase("create_table needs a table name"))
        runner = await tables.create(request.table, request.settings or {}, by)
        return {"table": runner.lobby_entry()}
    if request.action == "grant_chips":
        if not request.account or not request.amount:
            raise Refusal("request/malformed", phrase("grant_chips needs an account name and an amount"))
        return await accounts.grant_chips(request.account, request.amount, by)
    if not request.table:
        raise Refusal("request/malformed", phrase("{action} needs a table", action=request.action))
    if request.action in CHAT_ACTIONS:
        raise Refusal("request/malformed", phrase("{action} is a chat setting: the host sends it on a Socket.IO "
                                                  "connection (the table page's chat), not over HTTP",
                                                  action=request.action))
    args = tuple((k, v) for k, v in request.model_dump().items()
                 if k not in ("action", "table") and v is not None)
    command = Host(request.action, by, args, floor_link=scope != EVERY_TABLE)
    return await tables.submit(await tables.resolve(request.table), command)


@dataclass(frozen=True, slots=True)
class TableCall:
    """A request about one table, parsed, from one connection."""

    sid: str
    identity: Identity
    event: str
    request: p.TableRequest
    table: str  # as the table spells its name


SPECTATOR: Final = Identity(None, None)
CHAT_ACTIONS: Final = frozenset({"mute", "unmute", "spectator_chat"})  # host commands the chat takes, not the table
RequestT = TypeVar("RequestT", bound=p.Request)


def _as(request: p.Request, model: type[RequestT]) -> RequestT:
    if not isinstance(request, model):  # REQUESTS gives each event its model: a bug, not a client's error
        raise TypeError(f"{type(request).__name__} is not a {model.__name__}")
    return request


def _sit_command(call: TableCall, account: AccountId) -> TableCommand:
    sit = _as(call.request, p.Sit)
    return Sit(account, call.identity.name or "", sit.seat, sit.buy_in)


def _drill(call: TableCall, account: AccountId) -> TableCommand:
    drill = _as(call.request, p.Drill)
    return DrillRequest(account, call.identity.name or "", drill.action, drill.answer)


def _move(call: TableCall, account: AccountId) -> TableCommand:
    move = _as(call.request, p.Move)
    return Play(account, move.action, move.args)  # as the request's model validated it: not copied again


def _play(call: TableCall, account: AccountId) -> TableCommand:
    """A request the table takes as a named play with its arguments (``leave``, ``stay``)."""
    args = tuple((k, v) for k, v in call.request.model_dump().items() if k != "table")
    return Play(account, call.event, args)


COMMANDS: Final[Mapping[str, Callable[[TableCall, AccountId], TableCommand]]] = {
    "sit": _sit_command,
    "top_up": lambda call, account: TopUp(account, _as(call.request, p.TopUp).amount),
    "sit_out": lambda call, account: SetSitOut(account, _as(call.request, p.SitOut).sitting_out),
    "willing_to_bank": lambda call, account: SetWilling(account, _as(call.request, p.WillingToBank).willing),
    "away": lambda call, account: SetAway(account, _as(call.request, p.Away).on),
    "stand": lambda _call, account: Stand(account),
    "drill": _drill,
    "move": _move,
}
"""The table command of each request event; any other is a :func:`_play`."""


class ReconnectLimitedError(Refusal):
    """Too many connections of one account: ``rate/limited``, with the seconds to wait."""

    def __init__(self, seconds: int) -> None:
        super().__init__("rate/limited", phrase("too many connections of this account: try again in {seconds} s",
                                                seconds=seconds))
        self.seconds = seconds


def is_text(value: str) -> bool:
    """Whether a string can be encoded as UTF-8 (JSON can carry lone surrogates, which cannot)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
