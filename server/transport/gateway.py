"""The Socket.IO face of the server: parse, authenticate, forward to a table, answer.

No game logic here. Every request is acknowledged, whatever happens
(PITFALLS 4): the wrapper turns refusals and failures into ``ok: false``.
Identity is the account from the session token, never the sid (PITFALLS 2):
on connect the account's rooms are rebuilt and a second connection of the same
account replaces the first, which is told why.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol

import engineio
import socketio
import structlog

from server import protocol as p
from server.clock import SYSTEM_CLOCK, Clock, Timer, call_later
from server.identity import EVERY_TABLE, Identity
from server.rules.errors import Refusal
from server.rules.game import AccountId
from server.rules.vocabulary import Reply
from server.table.commands import (
    DrillRequest,
    Host,
    Play,
    Presence,
    SetSitOut,
    SetWilling,
    Sit,
    Snapshot,
    Stand,
    TopUp,
)
from server.table.ports import TableUpdates
from server.table.registry import Tables
from server.transport.limits import BucketTable, TokenBucket
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

    async def grant_chips(self, name: str, amount: int, by: AccountId | None) -> Reply:
        """Issue chips to an account (host)."""
        ...


# While the server stops, a hand in progress may still finish (it has a grace time): its players
# can still make their moves; nothing new (a seat, a top-up, a host command) is taken.
WHILE_STOPPING = frozenset({"snapshot", "join", "leave_table", "move", "leave"})


class Gateway:
    """Binds Socket.IO events to the tables."""

    def __init__(self, sio: socketio.AsyncServer, tables: Tables, accounts: AccountsPort, *,
                 rate: float = 20.0, burst: int = 40, reconnects: BucketTable | None = None,
                 presence_grace: float = 0.0, on_login: Callable[[Any], None] | None = None,
                 clock: Clock = SYSTEM_CLOCK) -> None:
        self.sio, self.tables, self.accounts, self.clock = sio, tables, accounts, clock
        self.rate, self.burst = rate, burst
        self.identities: dict[str, Identity] = {}
        self.sid_of_account: dict[AccountId, str] = {}
        self.buckets: dict[str, TokenBucket] = {}
        # Which session token opened each connection (as a digest: the token itself is a secret),
        # so that revoking a token closes its connections.
        self.token_of_sid: dict[str, str] = {}
        # The host token each host connection gave: checked again at every host command, so a
        # rotated token (hcf-server host-token, from another process) stops its connections too.
        self.host_token_of_sid: dict[str, str] = {}
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

    # ------------------------------------------------------------ connections

    async def on_connect(self, sid: str, environ: Any = None, auth: Any = None) -> Reply | None:
        """Authenticate (a spectator needs no token), rebuild rooms, replace an older connection."""
        structlog.contextvars.clear_contextvars()
        if self._as_event(sid):
            return p.error("request/unknown", "no request named 'connect'")
        auth = auth if isinstance(auth, dict) else {}
        token, host_token = auth.get("token"), auth.get("host_token")
        identity = Identity(None, None)
        try:
            seen = self._revocations
            if isinstance(token, str) and token:
                if not is_text(token):
                    raise Refusal("auth/token_invalid", "unknown or revoked session token")
                identity = await self.accounts.identify(token)
            if isinstance(host_token, str) and host_token:
                if not is_text(host_token) or not await self.accounts.is_host_token(host_token):
                    raise Refusal("auth/not_host", "that host token is not valid")
                identity = Identity(identity.account, identity.name, True)
            while isinstance(token, str) and identity.account is not None and self._revocations != seen:
                # a token was revoked while this one was being checked: it may be this one
                seen = self._revocations
                await self.accounts.identify(token)
            if identity.account is not None:
                self._check_reconnects(identity.account)
        except Refusal as exc:
            details: dict[str, Any] = {"code": exc.code, "message": exc.message}
            if isinstance(exc, ReconnectLimitedError):
                details["retry_after"] = exc.seconds
                if self._refusals_logged.take(str(identity.account)) == 0:
                    log.info("connect_refused", code=exc.code, account=identity.account)
            else:
                log.info("connect_refused", code=exc.code)
            raise socketio.exceptions.ConnectionRefusedError(f"{exc.code}: {exc.message}", details) from None
        self.identities[sid] = identity
        self.buckets[sid] = TokenBucket(self.rate, self.burst, self.clock)
        if (identity.account is not None or identity.host) and self.on_login is not None \
                and isinstance(environ, dict):
            self.on_login(environ.get("aiohttp.request"))
        if identity.host:
            assert isinstance(host_token, str)
            self.host_token_of_sid[sid] = host_token
        if identity.account is not None:
            assert isinstance(token, str)
            self.token_of_sid[sid] = token_digest(token)
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
        return await self._revoke([sid for sid, d in self.token_of_sid.items() if d == digest])

    async def close_account(self, account: AccountId, *, keep_token: str) -> int:
        """Close every connection of ``account`` opened with another token (a password change)."""
        self._revocations += 1
        keep = token_digest(keep_token)
        return await self._revoke([sid for sid, d in self.token_of_sid.items()
                                   if d != keep and self.identities.get(sid, Identity(None, None)).account == account])

    async def _revoke(self, sids: list[str], message: str = "this session was logged out (a logout or a "
                      "password change): log in again", *, after_reply: bool = False) -> int:
        for sid in sids:
            log.info("session_revoked", account=self.identities.get(sid, Identity(None, None)).account)
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
            await self.sio.emit(p.EV_REPLACED, {"message": "this account connected from somewhere else"},
                                to=old)
            await self.sio.disconnect(old)

    async def on_disconnect(self, sid: str, _reason: Any = None) -> Reply | None:
        """A dropped connection keeps the seat; only presence changes (docs/rules/hcf.md section 4)."""
        structlog.contextvars.clear_contextvars()
        if self._as_event(sid):
            return p.error("request/unknown", "no request named 'disconnect'")
        identity = self.identities.pop(sid, None)
        self.buckets.pop(sid, None)
        self.token_of_sid.pop(sid, None)
        self.host_token_of_sid.pop(sid, None)
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
        return bool(self.sio.manager.is_connected(sid, p.NAMESPACE))

    async def sweep_slow_consumers(self) -> None:
        """Forever: drop connections whose outgoing queue keeps growing (PITFALLS 5).

        A frozen client would otherwise hold every broadcast in memory; dropped,
        it reconnects and catches up from a snapshot.
        """
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            for sid in list(self.identities):
                if self._queued(sid) > MAX_QUEUED_PACKETS:
                    log.warning("slow_consumer_dropped", account=self.identities[sid].account)
                    await self.sio.disconnect(sid)

    def _queued(self, sid: str) -> int:
        eio_sid = self.sio.manager.eio_sid_from_sid(sid, p.NAMESPACE)
        socket = self.sio.eio.sockets.get(eio_sid) if eio_sid else None
        queue = getattr(socket, "queue", None)
        return queue.qsize() if queue is not None else 0

    # ------------------------------------------------------------ requests

    def _wrap(self, event: str) -> Callable[..., Awaitable[Reply]]:
        async def handler(sid: str, payload: Any = None, *more: Any) -> Reply:
            if more:  # several arguments: not the one JSON object a request takes
                payload = [payload, *more]
            structlog.contextvars.clear_contextvars()
            identity = self.identities.get(sid)
            structlog.contextvars.bind_contextvars(
                request=event, account=identity.account if identity else None,
                table=payload.get("table") if isinstance(payload, dict) else None)
            try:
                return await self._handle(sid, event, payload)
            except Refusal as exc:
                return p.error(exc.code, exc.message)
            except Exception:
                log.exception("request_failed")
                return p.error("request/internal")
        return handler

    async def _unknown(self, event: str, *_args: Any) -> Reply:
        # (event, sid, *args) for an unknown event; (sid, *args) for an event named "*" itself
        name = "*" if event in self.identities else event
        return p.error("request/unknown", f"no request named {name!r}")

    async def _handle(self, sid: str, event: str, payload: Any) -> Reply:
        bucket = self.buckets.get(sid)
        wait = bucket.take() if bucket is not None else 0.0
        if wait > 0:
            return p.error("rate/limited", retry_after=round(wait, 3))
        try:
            size = len(json.dumps(payload, default=str))
        except (RecursionError, ValueError):  # nested past any request of ours, or a number too long to print
            return p.error("request/malformed", f"{event}: the payload is nested too deeply or too large")
        if size > p.MAX_REQUEST_BYTES:
            return p.error("request/too_large")
        if not self.accepting and event not in WHILE_STOPPING:
            return p.error("server/shutting_down")
        request = p.parse_request(event, payload)
        identity = self.identities.get(sid, Identity(None, None))
        if isinstance(request, p.HostAction):
            return await self._host(sid, identity, request)
        assert isinstance(request, p.TableRequest)
        table = await self.tables.resolve(request.table)
        if event == "join":
            await self.sio.enter_room(sid, table_room(table))
            return p.ok(**await self.tables.submit(table, Snapshot(identity.account)))
        if event == "leave_table":
            await self.sio.leave_room(sid, table_room(table))
            return p.ok()
        if event == "snapshot":
            return p.ok(**await self.tables.submit(table, Snapshot(identity.account)))
        account = self._account(identity)
        if event == "sit":
            await self.sio.enter_room(sid, table_room(table))
        command = _table_command(event, request, account, identity.name or "")
        return p.ok(**await self.tables.submit(table, command))

    @staticmethod
    def _account(identity: Identity) -> AccountId:
        if identity.account is None:
            raise Refusal("auth/required", "log in to play (connect with your session token)")
        return identity.account

    async def _host(self, sid: str, identity: Identity, request: p.HostAction) -> Reply:
        if not identity.host:
            raise Refusal("auth/not_host", "only the host may do that")
        scope = await self.accounts.host_scope(self.host_token_of_sid.get(sid, ""))
        if scope is None:
            await self._revoke([sid], "the host token was replaced (hcf-server host-token) or its floor "
                               "invite revoked: connect with a valid one", after_reply=True)
            raise Refusal("auth/not_host", "that host token is no longer valid")
        return p.ok(**await host_command(self.tables, self.accounts, request, identity.account, scope))


async def host_command(tables: Tables, accounts: AccountsPort, request: p.HostAction,
                       by: AccountId | None, scope: str = EVERY_TABLE) -> Reply:
    """Carry out a host command (shared by the socket and HTTP faces); ``scope``: where the token runs the floor."""
    table = None if request.action in ("create_table", "grant_chips") else request.table
    await check_scope(tables, scope, table, request.action)
    if request.action == "create_table":
        if not request.table:
            raise Refusal("request/malformed", "create_table needs a table name")
        runner = await tables.create(request.table, request.settings or {}, by)
        return {"table": runner.lobby_entry()}
    if request.action == "grant_chips":
        if not request.account or not request.amount:
            raise Refusal("request/malformed", "grant_chips needs an account name and an amount")
        return await accounts.grant_chips(request.account, request.amount, by)
    if not request.table:
        raise Refusal("request/malformed", f"{request.action} needs a table")
    args = tuple((k, v) for k, v in request.model_dump().items()
                 if k not in ("action", "table") and v is not None)
    command = Host(request.action, by, args, floor_link=scope != EVERY_TABLE)
    return await tables.submit(await tables.resolve(request.table), command)


def _table_command(event: str, request: p.Request, account: AccountId, name: str) -> Any:
    if isinstance(request, p.Sit):
        return Sit(account, name, request.seat, request.buy_in)
    if isinstance(request, p.TopUp):
        return TopUp(account, request.amount)
    if isinstance(request, p.SitOut):
        return SetSitOut(account, request.sitting_out)
    if isinstance(request, p.WillingToBank):
        return SetWilling(account, request.willing)
    if event == "stand":
        return Stand(account)
    if isinstance(request, p.Drill):
        return DrillRequest(account, name, request.action, request.answer)
    if isinstance(request, p.Move):
        # Only what the client sent: a game tells an absent key from a zero.
        sent = request.model_dump(exclude_unset=True, exclude_none=True, exclude={"table", "action"})
        return Play(account, request.action, tuple(sent.items()))
    args = tuple((k, v) for k, v in request.model_dump().items() if k != "table")
    return Play(account, event, args)


class ReconnectLimitedError(Refusal):
    """Too many connections of one account: ``rate/limited``, with the seconds to wait."""

    def __init__(self, seconds: int) -> None:
        super().__init__("rate/limited", f"too many connections of this account: try again in {seconds} s")
        self.seconds = seconds


def token_digest(token: str) -> str:
    """A session token's digest: what the gateway keeps instead of the token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def is_text(value: str) -> bool:
    """Whether a string can be encoded as UTF-8 (JSON can carry lone surrogates, which cannot)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def table_room(table: str) -> str:
    """Everyone watching or playing at a table."""
    return f"table:{table}"


def account_room(account: AccountId) -> str:
    """Every connection of one account (for its private cards)."""
    return f"account:{account}"


class SocketPublisher:
    """Sends each batch's updates to this process's connections at the table, each the one that is its own.

    A connection of an account with a personal update gets that one (found through the
    account's room); every other connection in the table's room gets the spectator's.
    Each payload is encoded once, however many connections receive it. Only this
    process's connections: with several processes, ``server/cluster`` carries the
    updates to the others, which call this too.
    """

    def __init__(self, sio: socketio.AsyncServer) -> None:
        self.sio = sio

    async def table_update(self, table: str, updates: TableUpdates) -> None:
        """One ``table_update`` per connection at the table, but none to the accounts in ``updates.skip``."""
        manager = self.sio.manager
        viewers = list(manager.get_participants(p.NAMESPACE, table_room(table)))
        if not viewers:
            return
        account_of: dict[str, AccountId] = {}
        for known in (*updates.accounts, *updates.skip):
            for sid, _eio in manager.get_participants(p.NAMESPACE, account_room(known)):
                account_of[sid] = known
        frames: dict[AccountId | None, list[engineio.packet.Packet]] = {}
        for sid, eio_sid in viewers:
            account: AccountId | None = account_of.get(sid)
            if account in updates.skip:
                continue  # its update went with the answer to its own request
            key = account if account in updates.accounts else None
            if key not in frames:
                frames[key] = _frames(self.sio, p.EV_UPDATE,
                                      updates.spectator if key is None else updates.accounts[key])
            await _send(self.sio, eio_sid, frames[key])


def _frames(sio: socketio.AsyncServer, event: str, data: Mapping[str, Any]) -> list[engineio.packet.Packet]:
    """The engine.io packets of one Socket.IO event, encoded once for any number of connections."""
    packet = sio.packet_class(socketio.packet.EVENT, namespace=p.NAMESPACE, data=[event, data])
    encoded = packet.encode()
    return [engineio.packet.Packet(engineio.packet.MESSAGE, part)
            for part in (encoded if isinstance(encoded, list) else [encoded])]


async def _send(sio: socketio.AsyncServer, eio_sid: str, frames: list[engineio.packet.Packet]) -> None:
    """Put the packets on one connection's queue (engine.io's writer task for it does the writing).

    Not ``sio.emit``: its manager starts one task per recipient and waits for them all,
    for sends that only queue a packet; done here in turn, a connection closing
    meanwhile is skipped as before, without holding up the others.
    """
    for frame in frames:
        try:
            await sio.eio.send_packet(eio_sid, frame)
        except Exception as exc:  # a closed socket (SocketIsClosedError): the others still get theirs
            log.debug("send_skipped", error=type(exc).__name__)
            return
