"""Raw protocol abuse, beyond ``tests/server/test_errors.py``: each refused with its code, nothing changed.

``test_errors.py`` already covers, over a normal client: malformed payloads, unknown
events, a 5 KB request, a garbage or revoked session token and a wrong host token at
connect, a player's ``resume`` and ``grant_chips``, and a flood between hands. Here:

* frames no client library would send, written by hand over a bare websocket:
  undecodable frames, JSON nested 30,000 deep, binary junk, a message over 64 KiB
  (the connection is dropped), and events named ``connect``, ``disconnect`` or ``*``,
  with several arguments or none;
* requests over 4 KiB that would act at the table, in the middle of a hand;
* a flood of bets in the middle of a hand at the production rate limit: one bet
  counts, the hand goes on, and a ``connect`` event does not refill the bucket;
* tokens: a session token revoked by a password change (stolen, then changed by its
  owner), an expired session (made already expired in the database itself), the host
  token as a session token and the reverse, tokens and ``auth`` of the wrong type;
* a player sending every host command, over the socket and over HTTP;
* HTTP bodies over 4 KiB, with and without ``Content-Length``, and over 64 KiB;
* a huge, infinite or deeply nested value in every key of every Socket.IO request, and
  in every HTTP route's path, query and body (issue 14, C.25).

After each group, the table as its players and the host see it, the ledger, and
the gateway's connections are what they were before.
"""

from __future__ import annotations

import asyncio
import json
import time
import typing
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from types import TracebackType
from typing import Any

import aiohttp
import pytest
import socketio
import structlog

from client_cli.connection import ServerRefused, http_json
from server import protocol as p
from server.app import DATABASE, GATEWAY
from server.persistence.database import open_database
from tests.server.conftest import Server
from tests.server.helpers import Client
from tests.support.clock import ManualClock

from .conftest import Coverage

SLOW = {"offer_seconds": 60, "bet_seconds": 60, "action_seconds": 60}
PRODUCTION_RATE = {"rate_per_second": 20.0, "rate_burst": 40}
QUICK_HEARTBEAT = {"ping_interval": 1.0, "ping_timeout": 1.0}  # a dead websocket is found in about 2 s
T = {"table": "main"}
HOST_ACTIONS = typing.get_args(p.HostAction.model_fields["action"].annotation)
HOST_ARGS: dict[str, dict[str, Any]] = {
    "create_table": {"table": "mine", "settings": {}}, "change_settings": {"settings": {"min_ante": 1}},
    "remove_player": {"seat": 2}, "grant_chips": {"account": "alice", "amount": 1_000_000},
    "declare_dead": {"seat": 2}, "arrange_deck": {"cards": "Ah Kh Qh Jh Th"},
}


async def state(server: Server, *viewers: Client) -> Any:
    """What must not change: the viewers' snapshots (but the time), the ledger, who is connected."""
    snapshots = []
    for viewer in viewers:
        snapshot = await viewer.snapshot()
        snapshot.pop("server_time")
        snapshots.append(snapshot)
    report = await server.app[DATABASE].ledger_check(tables_in_play=["main"])
    assert report.ok, report.discrepancies
    gateway = server.app[GATEWAY]
    return snapshots, report.transfers, report.totals, sorted(gateway.sid_of_account)


class RawSocket:
    """A Socket.IO client written by hand over a bare websocket, to send what no library would."""

    def __init__(self, url: str) -> None:
        self.url = url.replace("http://", "ws://") + "/socket.io/?EIO=4&transport=websocket"
        self.session: aiohttp.ClientSession | None = None
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.close_code: int | None = None

    async def __aenter__(self) -> RawSocket:
        self.session = aiohttp.ClientSession()
        self.ws = await self.session.ws_connect(self.url)
        return self

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.session is not None:
            await self.session.close()

    async def connect(self, auth: Any) -> str | None:
        """The Engine.IO handshake, then a Socket.IO CONNECT with ``auth``: the server's answer."""
        opening = await self.receive()
        assert opening is not None, "closed at once"
        assert opening.startswith("0{"), opening
        await self.send("40" + json.dumps(auth))
        return await self.receive()

    async def send(self, frame: str | bytes) -> None:
        assert self.ws is not None
        if isinstance(frame, bytes):
            await self.ws.send_bytes(frame)
        else:
            await self.ws.send_str(frame)

    async def receive(self, timeout: float = 5.0) -> str | None:
        """The next text frame (answering pings), None once the server closed the connection."""
        assert self.ws is not None
        while True:
            message = await asyncio.wait_for(self.ws.receive(), timeout)
            if message.type == aiohttp.WSMsgType.TEXT:
                if message.data == "2":
                    await self.ws.send_str("3")
                    continue
                return str(message.data)
            if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSING, aiohttp.WSMsgType.CLOSED,
                                aiohttp.WSMsgType.ERROR):
                self.close_code = self.ws.close_code
                return None

    async def answer(self, ack: int, timeout: float = 5.0) -> Any:
        """The acknowledgement ``ack`` (skipping pushes); raises TimeoutError if none comes."""
        prefix = f"43{ack}["
        deadline = time.monotonic() + timeout
        while True:
            frame = await self.receive(max(0.01, deadline - time.monotonic()))
            if frame is None:
                raise ConnectionError(f"closed by the server (code {self.close_code})")
            if frame.startswith(prefix):
                return json.loads(frame[len(prefix) - 1:])[0]

    async def answer_before(self, ack: int, probe: int, event: str, payload: Any,
                            timeout: float = 5.0) -> tuple[Any, Any]:
        """(the answer to ``ack`` or None, the answer to ``event`` sent now as ``probe``): the answer to a
        request sent earlier on this connection comes before the probe's, or not at all."""
        await self.send(f"42{probe}" + json.dumps([event, payload]))
        prefix, probed = f"43{ack}[", f"43{probe}["
        deadline = time.monotonic() + timeout
        reply = None
        while True:
            frame = await self.receive(max(0.01, deadline - time.monotonic()))
            if frame is None:
                raise ConnectionError(f"closed by the server (code {self.close_code})")
            if frame.startswith(prefix):
                reply = json.loads(frame[len(prefix) - 1:])[0]
            elif frame.startswith(probed):
                return reply, json.loads(frame[len(probed) - 1:])[0]

    async def request(self, ack: int, event: str, payload: Any, timeout: float = 5.0) -> Any:
        await self.send(f"42{ack}" + json.dumps([event, payload]))
        return await self.answer(ack, timeout)


@pytest.fixture
async def seated(server: Server) -> tuple[Client, Client, Client]:
    """The host (the main table paused) and alice and bob seated, nobody playing."""
    host, (alice, bob) = await server.table(None, None)
    return host, alice, bob


def no_error_logs(logs: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [entry for entry in logs if entry.get("log_level") in ("error", "critical", "exception")]


# (more bad frames than the default max_bad_frames lets one connection send: each must change nothing first;
# tests/server/test_undecodable_frames.py holds the limit itself)
@pytest.mark.parametrize("config_overrides", [{**QUICK_HEARTBEAT, "max_bad_frames": 1000}])
@pytest.mark.parametrize("table_overrides", [SLOW])
async def test_frames_no_library_would_send_change_nothing(server: Server, seated: tuple[Client, Client, Client],
                                                           coverage: Coverage) -> None:
    host, alice, _bob = seated
    before = await state(server, host, alice)
    survived: list[str | bytes] = [
        "42garbage", "4x", "9", "420", '421["join"', "42[]", "42[1,2]", "42{}", '42"x"', "423[null]",
        '424[["join"]]', '40{"token": 5}', "43999[]", "4", "0", "5", "6", "45-1[]", "42\x00",
        '420["join",' + "[" * 30_000 + "]" * 30_000 + "]",  # nested deeper than the JSON decoder goes
        b"\x00\x01\x02\xff", b"4" * 1000,
    ]
    answered: dict[str, Any] = {}
    async with RawSocket(server.url) as raw:
        assert (await raw.connect({}) or "").startswith("40{"), "a spectator connects without a token"
        for i, frame in enumerate(survived):
            await raw.send(frame)
            # after each bad frame the connection still works: a request is answered
            answered[repr(frame)[:40]] = await raw.request(100 + i, "snapshot", T)
        # events a library sends only by mistake: reserved names, no argument, several arguments
        odd: list[tuple[list[Any], str]] = [
            (["connect", {"token": "x"}], "request/unknown"), (["disconnect", "bye"], "request/unknown"),
            (["*"], "request/unknown"), (["join"], "request/malformed"),
        ]
        for i, (event, code) in enumerate(odd):
            await raw.send(f"42{200 + i}" + json.dumps(event))
            reply = await raw.answer(200 + i)
            assert reply["error"]["code"] == code, (event, reply)
        await raw.send("42300" + json.dumps(["join", T, {"extra": 1}, 3]))
        assert (await raw.answer(300))["error"]["code"] == "request/malformed"
        too_large = await raw.request(301, "sit", {"table": "main", "seed": "x" * 5000})
        assert too_large["error"]["code"] == "request/too_large"
    assert all(a["ok"] for a in answered.values()), answered
    # an empty frame, a message over 64 KiB, and the protocol's own goodbyes (Engine.IO close, Socket.IO
    # disconnect) end that one connection: no answer after them, and nothing left behind
    dropping = ["", '420["join",{"table":"' + "x" * 70_000 + '"}]', "1", "41"]
    for frame in dropping:
        async with RawSocket(server.url) as raw:
            await raw.connect({})
            await raw.send(frame)
            with pytest.raises((ConnectionError, TimeoutError)):
                await raw.request(1, "snapshot", T, timeout=1.0)
        # (an empty frame kills the websocket under Engine.IO's feet: the heartbeat finds it)
        for _ in range(100):
            if len(server.app[GATEWAY].identities) == 3:
                break
            await asyncio.sleep(0.05)
        assert len(server.app[GATEWAY].identities) == 3, f"{frame[:20]!r} left an identity behind"
    assert (await http_json("GET", f"{server.url}/healthz"))["ok"] is True
    assert alice.connected
    assert await state(server, host, alice) == before
    coverage(f"abuse: {len(survived)} undecodable or malformed Socket.IO frames, 6 odd events (reserved "
             f"names, no or several arguments, 5 KB), {len(dropping)} frames that end their connection: "
             "the server stayed up, the table, the ledger and the other connections unchanged",
             {"bad_frames": len(survived) + 6 + len(dropping)})


@pytest.mark.parametrize("table_overrides", [SLOW])
async def test_connect_and_disconnect_events_change_no_identity_and_no_presence(
        server: Server, seated: tuple[Client, Client, Client]) -> None:
    host, alice, bob = seated
    before = await state(server, host, alice, bob)
    for client, auth in ((alice, {"token": bob.token}), (host, {}), (bob, {"host_token": server.host_token})):
        assert await client.refused("connect", auth) == "request/unknown"
        assert await client.refused("disconnect", "client namespace disconnect") == "request/unknown"
        assert await client.refused("*", {}) == "request/unknown"
        assert await client.refused("snapshot", None) == "request/malformed"
        reply = await client.conn.sio.call("snapshot", (T, T), timeout=5)
        assert reply["error"]["code"] == "request/malformed"
    # still who they were: alice plays as alice, the host is the host, bob is not
    assert (await alice.snapshot())["you"]["account"] == alice.account_id
    assert (await host.host("pause"))["paused"] is True
    assert await bob.refused("host", {"action": "pause", "table": "main"}) == "auth/not_host"
    assert await state(server, host, alice, bob) == before, "a presence or seat changed"


@pytest.mark.parametrize("config_overrides", [PRODUCTION_RATE])
@pytest.mark.parametrize("table_overrides", [SLOW])
@pytest.mark.parametrize("server_clock", ["manual"], indirect=True)
async def test_a_flood_of_bets_during_a_hand_counts_one_bet_and_the_hand_goes_on(
        server: Server, seated: tuple[Client, Client, Client]) -> None:
    host, alice, bob = seated
    mark = host.mark()
    await host.host("resume")
    manual(server).advance(0.1)  # the next hand starts a moment after a resume
    await host.event("bank_offered", since=mark, where=lambda e: e["seat"] == 1)
    await host.host("pause")
    await alice.call("move", {"table": "main", "action": "bank", "accept": True})
    _, opened = await host.event("betting_opened", since=mark)
    before = await state(server, host)
    bet = {"table": "main", "action": "bet", "ante": 10, "seed": "flood"}
    replies = await asyncio.gather(*(bob.conn.raw_call("move", bet) for _ in range(150)))
    codes = [r["error"]["code"] if not r["ok"] else "ok" for r in replies]
    assert codes.count("ok") == 1, codes
    assert set(codes) <= {"ok", "bet/already_answered", "phase/wrong", "rate/limited"}, set(codes)
    assert codes.count("rate/limited") >= 50, codes  # a burst of 40, then 20 a second
    # the bucket is empty: a "connect" event must not refill it (to its burst of 40). The server's
    # clock stands still (no token comes back with time), so every one of 30 more requests is refused.
    await bob.refused("connect", {"token": bob.token})
    burst = await asyncio.gather(*(bob.conn.raw_call("snapshot", T) for _ in range(30)))
    limited = sum(1 for r in burst if not r["ok"] and r["error"]["code"] == "rate/limited")
    assert limited == 30, f"the bucket was refilled: only {limited} of 30 refused"
    bets = [t for t in await transfers(server, opened["hand_id"]) if t.kind == "bet"]
    assert [(t.src.split(":")[-1], t.amount) for t in bets] == [(str(bob.account_id), 10)]
    placed = [e for e in host.table_events(mark) if e["type"] == "bets_placed"]
    assert [e["seat"] for e in placed] == [2], placed
    after = await state(server, host)
    assert after[1] == before[1] + 2, "one bet and its fee, nothing else"
    manual(server).advance(1.0)  # the bucket refills; the hand goes on to its end
    await bob.call("snapshot", T)
    await host.event("turn_started", since=mark, where=lambda e: e["seat"] == 2)
    await bob.call("move", {"table": "main", "action": "raise", "amount": 10})
    _, revealed = await host.event("hand_revealed", since=mark)
    assert revealed["status"] == "settled"


def manual(server: Server) -> ManualClock:
    """The test's server clock, which moves only when told to."""
    assert isinstance(server.clock, ManualClock), "parametrize server_clock with 'manual'"
    return server.clock


async def transfers(server: Server, hand_id: int) -> list[Any]:
    async with server.app[DATABASE].transaction(write=False) as tx:
        return list(await tx.hand_transfers(hand_id))


async def refused_at_connect(server: Server, auth: Any) -> str:
    """Connect with ``auth``: the code of the refusal."""
    client = socketio.AsyncClient(reconnection=False)
    reasons: list[Any] = []

    async def because(data: Any) -> None:
        reasons.append(data)

    client.on("connect_error", because)
    try:
        with pytest.raises(socketio.exceptions.ConnectionError):
            await client.connect(server.url, auth=auth, transports=["websocket"], wait_timeout=5)
    finally:
        await client.disconnect()
    assert reasons, f"{auth!r} was not refused with a reason"
    code: str = reasons[0]["data"]["code"]
    return code


async def http_refusal(method: str, url: str, token: str | None, body: dict[str, Any] | None = None) -> str:
    with pytest.raises(ServerRefused) as refused:
        await http_json(method, url, body, token=token)
    return refused.value.code


@pytest.mark.parametrize("table_overrides", [SLOW])
async def test_stolen_expired_and_mistyped_tokens_are_refused(server: Server, seated: tuple[Client, Client, Client],
                                                              coverage: Coverage) -> None:
    host, alice, bob = seated
    # "stolen": carol's token, and then carol changes her password, which logs out every other session
    carol = await server.account("carol")
    second = await http_json("POST", f"{server.url}/api/login", {"name": "carol", "password": "password123"})
    await http_json("POST", f"{server.url}/api/password",
                    {"old_password": "password123", "new_password": "password456"}, token=second["token"])
    # expired: a session made 31 days ago, written by the database layer itself (sessions last 30 days)
    await server.account("dave")
    past = await open_database(server.database_url, clock=lambda: time.time() - 31 * 86400)
    try:
        _, expired = await past.login("dave", "password123")
    finally:
        await past.close()
    before = await state(server, host, alice, bob)
    connect_cases: list[tuple[Any, str]] = [
        ({"token": carol["token"]}, "auth/token_invalid"),
        ({"token": expired}, "auth/token_expired"),
        ({"token": server.host_token}, "auth/token_invalid"),  # the host token is not a session
        ({"host_token": alice.token}, "auth/not_host"),  # nor a session token the host token
        ({"token": alice.token, "host_token": "guess"}, "auth/not_host"),  # a good token does not carry a bad one
        ({"token": "x" * 10_000}, "auth/token_invalid"),
        ({"token": "\ud800"}, "auth/token_invalid"),
    ]
    for auth, code in connect_cases:
        assert await refused_at_connect(server, auth) == code, auth
    # tokens of the wrong type, and an auth that is not an object, are no identity: a spectator
    for auth in ({"token": 12345}, {"token": ["a"]}, {"token": None, "host_token": {"x": 1}}, "token", [1, 2]):
        client = socketio.AsyncClient(reconnection=False)
        try:
            await client.connect(server.url, auth=auth, transports=["websocket"], wait_timeout=5)
            reply = await client.call("sit", T, timeout=5)
            assert reply["error"]["code"] == "auth/required", (auth, reply)
            reply = await client.call("host", {"action": "pause", "table": "main"}, timeout=5)
            assert reply["error"]["code"] == "auth/not_host", (auth, reply)
        finally:
            await client.disconnect()
    http_cases = [
        ("GET", "/api/account", carol["token"], "auth/token_invalid"),
        ("GET", "/api/account", expired, "auth/token_expired"),
        ("GET", "/api/account", server.host_token, "auth/token_invalid"),
        ("POST", "/api/host", alice.token, "auth/not_host"),
        ("POST", "/api/host", expired, "auth/not_host"),
        ("POST", "/api/password", expired, "auth/token_expired"),
    ]
    for method, path, token, code in http_cases:
        body = {"action": "pause", "table": "main"} if path == "/api/host" else \
            {"old_password": "password123", "new_password": "password789"} if path == "/api/password" else None
        assert await http_refusal(method, f"{server.url}{path}", token, body) == code, (path, token)
    assert await state(server, host, alice, bob) == before
    coverage(f"abuse: {len(connect_cases)} bad tokens refused at connect and {len(http_cases)} over HTTP "
             "with their codes (a token revoked by a password change, an expired session, the host token as a "
             "session and the reverse, 10 KB, a lone surrogate), 5 of the wrong type taken as no identity "
             "(may not sit nor give host commands): nothing changed",
             {"bad_tokens": len(connect_cases) + 5 + len(http_cases)})


@pytest.mark.parametrize("table_overrides", [SLOW])
@pytest.mark.parametrize("server_clock", ["manual"], indirect=True)
async def test_a_player_sending_any_host_command_is_refused_and_nothing_changes(
        server: Server, seated: tuple[Client, Client, Client], coverage: Coverage) -> None:
    host, alice, bob = seated
    mark = host.mark()
    await host.host("resume")
    manual(server).advance(0.1)  # the next hand starts a moment after a resume
    await host.event("bank_offered", since=mark)  # with a hand in progress too
    before = await state(server, host, alice)
    for action in HOST_ACTIONS:
        payload = {"action": action, "table": "main", **HOST_ARGS.get(action, {})}
        if action == "grant_chips":
            del payload["table"]
        assert await bob.refused("host", payload) == "auth/not_host", action
        code = await http_refusal("POST", f"{server.url}/api/host", bob.token, payload)
        if code == "rate/limited":  # that route allows 10 at once, then 2 a second, per address
            manual(server).advance(0.6)
            code = await http_refusal("POST", f"{server.url}/api/host", bob.token, payload)
        assert code == "auth/not_host", action
    assert await state(server, host, alice) == before
    coverage(f"abuse: a player sent each of the {len(HOST_ACTIONS)} host commands over the socket and over "
             "HTTP: auth/not_host every time, nothing changed", {"host_commands": 2 * len(HOST_ACTIONS)})


async def chunks(size: int) -> AsyncIterator[bytes]:
    for _ in range(size // 1000):
        yield b"x" * 1000


@pytest.mark.parametrize("config_overrides", [PRODUCTION_RATE])
@pytest.mark.parametrize("server_clock", ["manual"], indirect=True)
async def test_http_bodies_too_large_or_not_utf8_are_refused_with_their_code(server: Server,
                                                                             coverage: Coverage) -> None:
    cases: list[tuple[str, Callable[[], Any], int, str]] = [
        ("5 KB", lambda: b"{" + b" " * 5000 + b"}", 413, "request/too_large"),
        ("5 KB chunked", lambda: chunks(5000), 413, "request/too_large"),
        ("70 KB", lambda: b"x" * 70_000, 413, "request/too_large"),
        ("70 KB chunked", lambda: chunks(70_000), 413, "request/too_large"),
        ("not UTF-8", lambda: b'{"name": "\xff\xfe", "password": "password123"}', 400, "request/malformed"),
        ("a lone surrogate", lambda: b'{"name": "zed", "password": "pass\\ud800word"}', 400, "request/malformed"),
    ]
    headers = {"Authorization": f"Bearer {server.host_token}"}
    with structlog.testing.capture_logs() as logs:
        async with aiohttp.ClientSession() as session:
            for what, body, status, code in cases:
                for path in ("/api/register", "/api/host"):
                    for _ in range(2):  # those routes allow 10 at once, then 2 a second, per address
                        async with session.post(f"{server.url}{path}", data=body(), headers=headers) as response:
                            answer = await response.json(content_type=None)
                        if response.status != 429:
                            break
                        manual(server).advance(0.6)
                    assert (response.status, answer["error"]["code"]) == (status, code), (what, path, answer)
    assert not no_error_logs(logs), no_error_logs(logs)
    assert (await http_json("GET", f"{server.url}/healthz"))["ok"] is True
    coverage(f"abuse: {2 * len(cases)} HTTP bodies over 4 KiB (with and without Content-Length, up to 70 KB), "
             "not UTF-8, or with a lone surrogate: 413 request/too_large or 400 request/malformed, no error logged",
             {"bad_bodies": 2 * len(cases)})


HUGE_VALUES: list[str] = [
    "99999999999999999999999", "18446744073709551616", "-1" + "0" * 40, "1e400", "-1e400", "NaN", "Infinity",
    "9" * 4000,  # longer than Python's int-from-text limit still fits under 4 KiB: the decoder refuses it
    "[" * 900 + "1" + "]" * 900,  # nested as deep as the decoder goes, but within the request size
    '{"a":' * 450 + "1" + "}" * 450,
]


@pytest.mark.parametrize("config_overrides", [{"max_bad_frames": 10_000}])  # some values do not decode: all are sent
@pytest.mark.parametrize("table_overrides", [SLOW])
async def test_huge_numbers_and_deep_nesting_in_every_request_get_a_listed_code(
        server: Server, seated: tuple[Client, Client, Client], coverage: Coverage) -> None:
    """Issue 14, C.25: every Socket.IO request's parsing, with every key it takes, given what overflows."""
    host, alice, _bob = seated
    carol = await server.account("carol")  # her own account: alice's connection must stay to compare
    before = await state(server, host, alice)
    fields: dict[str, set[str]] = {event: set(model.model_fields) - {"table"} | {"x"}
                                   for event, model in p.REQUESTS.items()}
    fields["move"] |= {"bets"}
    answers: dict[str, int] = {}
    unanswered = 0
    ack = 1000
    with structlog.testing.capture_logs() as logs:
        async with RawSocket(server.url) as raw:
            assert (await raw.connect({"token": carol["token"]}) or "").startswith("40{")
            for event, keys in sorted(fields.items()):
                for key in sorted(keys):
                    for value in HUGE_VALUES:
                        ack += 1
                        extra = ', "action": "bet"' if event in ("move", "host") and key != "action" else ""
                        await raw.send(f'42{ack}["{event}", {{"table": "main"{extra}, "{key}": {value}}}]')
                        # One client's requests are handled and answered in the order sent (async_handlers off,
                        # PITFALLS 1): once a snapshot asked next is answered, a request with no answer got none.
                        reply, probe = await raw.answer_before(ack, ack + 1, "snapshot", T)
                        ack += 1
                        assert probe["ok"], probe
                        if reply is None:
                            unanswered += 1  # not decodable as JSON: no request to answer (reliability.md)
                            continue
                        assert reply["ok"] is False, (event, key, value[:30], reply)
                        code = reply["error"]["code"]
                        assert code in p.ERROR_CODES, code
                        assert code != "request/internal", (event, key, value[:30], reply)
                        answers[code] = answers.get(code, 0) + 1
            assert (await raw.request(1, "snapshot", T))["ok"], "the connection still works"
    assert not [e for e in no_error_logs(logs) if e.get("event") == "request_failed"]
    assert await state(server, host, alice) == before
    total = sum(answers.values())
    assert total > unanswered > 0
    coverage(f"abuse: {total + unanswered} requests with a huge, infinite or deeply nested value in each key of "
             f"each request: {total} refused with a listed code ({answers}), {unanswered} not decodable and "
             "dropped; no request/internal, nothing changed", {"huge_values": total + unanswered})


@pytest.mark.parametrize("config_overrides", [{"login_burst": 10**6, "account_login_burst": 10**6}])
async def test_every_http_route_answers_overflowing_input_with_a_4xx_and_a_listed_code(
        server: Server, coverage: Coverage) -> None:
    """Issue 14, C.25 over HTTP: every route, its path, query and body, given what overflows."""
    alice = await server.account("alice")
    keys = ["name", "password", "old_password", "new_password", "action", "table", "account", "amount", "seat",
            "settings", "cards"]
    requests: list[tuple[str, str, bytes | None]] = []
    for path in ("/api/register", "/api/login", "/api/logout", "/api/password", "/api/host"):
        for key in keys:
            for value in HUGE_VALUES:
                requests.append(("POST", path, f'{{"action": "grant_chips", "{key}": {value}}}'.encode()))
        requests.append(("POST", path, b"[" * 2000 + b"]" * 2000))
    for value in ("99999999999999999999999", "9" * 5000, "-1", "1e9", "NaN", "%00", "%F0%9F%82%A1"):
        requests += [("GET", f"/api/hands/{value}", None), ("GET", f"/api/tables/{value}/hands", None),
                     ("GET", f"/api/tables/main/hands?limit={value}", None),
                     ("GET", f"/api/account?limit={value}", None)]
    requests.append(("GET", "/api/tables/" + "x" * 5000 + "/hands", None))
    statuses: dict[int, int] = {}
    with structlog.testing.capture_logs() as logs:
        async with aiohttp.ClientSession() as session:
            for method, path, body in requests:
                token = server.host_token if path == "/api/host" else alice["token"]
                headers = {"Authorization": f"Bearer {token}"}
                async with session.request(method, f"{server.url}{path}", data=body, headers=headers) as r:
                    answer = await r.json(content_type=None)
                assert 400 <= r.status < 500 or (r.status == 200 and answer["ok"]), (path, body and body[:40], answer)
                if r.status >= 400:
                    assert answer["error"]["code"] in p.ERROR_CODES
                statuses[r.status] = statuses.get(r.status, 0) + 1
    assert not [e for e in no_error_logs(logs) if e.get("event") == "http_failed"]
    coverage(f"abuse: {len(requests)} HTTP requests with huge, infinite or deeply nested values in every route's "
             f"path, query and body keys: {statuses} (no 5xx, every refusal a listed code)",
             {"http_overflow": len(requests)})
