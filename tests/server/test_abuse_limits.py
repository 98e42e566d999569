"""The limits the hostile client walked around (issue 14, section C), against the real server.

Each test uses the server as the attacker did: real Socket.IO clients, raw TCP
sockets on loopback, curl-like HTTP calls. Short timeouts come from settings; a
test waits for the server to act (a socket closing), never for a clock.
"""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import aiohttp
import pytest
import socketio
import structlog

from client_cli.connection import ServerRefused
from server.app import GATEWAY, GUARD

from .conftest import Server
from .helpers import Client
from .test_http import call, code

T = {"table": "main"}


async def closed_by_server(sock: socket.socket, within: float = 5.0) -> bool:
    """Whether the server closes ``sock`` (EOF or reset) within ``within`` seconds."""
    loop = asyncio.get_running_loop()
    sock.setblocking(False)
    try:
        async with asyncio.timeout(within):
            while True:
                data = await loop.sock_recv(sock, 4096)
                if not data:
                    return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False


def raw(server: Server) -> socket.socket:
    host, port = server.url.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=5)


# ------------------------------------------------------------------ C.21 revoked tokens


async def test_a_password_change_and_a_logout_close_the_sockets_opened_with_the_old_tokens(server: Server) -> None:
    host = await server.host()
    await host.host("pause")
    thief = await server.player("alice")  # the "stolen" token's socket, seated
    status, owner = await call(server, "POST", "/api/login", {"name": "alice", "password": "password123"})
    assert status == 200
    status, _ = await call(server, "POST", "/api/password",
                           {"old_password": "password123", "new_password": "password456"}, token=owner["token"])
    assert status == 200
    _, entry = await thief.wait_for(lambda e: e.get("kind") == "revoked", timeout=5)
    assert "log in again" in entry["message"]
    for _ in range(100):
        if not thief.connected:
            break
        await asyncio.sleep(0.02)
    assert not thief.connected, "the socket of a revoked token still works"
    with pytest.raises(socketio.exceptions.BadNamespaceError):
        await thief.conn.raw_call("stand", T)  # nobody can cash out through it any more
    snapshot = await host.snapshot()
    assert [s["name"] for s in snapshot["seats"]] == ["alice"], "the seat and its chips stay"

    # the owner's own socket (the token that changed the password) stays; a logout closes it
    mine = await server.client(name="alice", token=owner["token"])
    await mine.join()
    gateway = server.app[GATEWAY]
    assert len(gateway.token_of_sid) == 1
    status, _ = await call(server, "POST", "/api/logout", token=owner["token"])
    assert status == 200
    await mine.wait_for(lambda e: e.get("kind") == "revoked", timeout=5)
    assert not gateway.token_of_sid


# ------------------------------------------------------------------ C.27 reconnects


@pytest.mark.parametrize("config_overrides", [{"reconnect_burst": 3, "reconnect_rate_per_second": 0.01,
                                                "presence_grace": 30.0}])
async def test_reconnects_are_limited_per_account_and_a_quick_return_publishes_no_presence(server: Server) -> None:
    host = await server.host()
    await host.host("pause")
    alice = await server.player("alice")  # connection 1 of 3
    mark = host.mark()
    codes: list[str] = []
    retry: list[int] = []
    with structlog.testing.capture_logs() as logs:
        await refuse_and_return(alice, server, codes, retry)
    assert codes == ["connected", "connected", "rate/limited", "rate/limited", "rate/limited", "rate/limited"]
    assert all(isinstance(r, int) and r >= 1 for r in retry), retry
    assert len([e for e in logs if e.get("event") == "connect_refused"]) == 1, "a reconnect flood floods the log"
    presence = [e for e in host.table_events(since=mark) if e.get("type") == "presence"]
    assert presence == [], f"drops and returns within the grace published {presence}"


async def refuse_and_return(alice: Client, server: Server, codes: list[str], retry: list[int]) -> None:
    for _ in range(6):
        await alice.close()
        client = socketio.AsyncClient(reconnection=False)
        refusal: list[Any] = []

        async def because(data: Any, into: list[Any] = refusal) -> None:
            into.append(data)

        client.on("connect_error", because)
        try:
            await client.connect(server.url, auth={"token": alice.token}, transports=["websocket"], wait_timeout=5)
            codes.append("connected")
            await client.disconnect()
        except socketio.exceptions.ConnectionError:
            codes.append(refusal[0]["data"]["code"])
            retry.append(refusal[0]["data"]["retry_after"])


# ------------------------------------------------------------------ C.24 logins


@pytest.mark.parametrize("config_overrides", [{"trusted_proxies": "127.0.0.1", "login_burst": 5,
                                                "account_login_burst": 10}])
async def test_guesses_at_one_account_from_many_addresses_are_limited_per_account(server: Server) -> None:
    await call(server, "POST", "/api/register", {"name": "alice", "password": "password123"})
    results = []
    async with aiohttp.ClientSession() as session:
        for n in range(20):  # 20 addresses behind the trusted proxy, 10 guesses each: the attack of the issue
            for i in range(10):
                headers = {"X-Forwarded-For": f"198.51.100.{n + 1}"}
                async with session.post(f"{server.url}/api/login", headers=headers,
                                        json={"name": "alice", "password": f"guess-{n}-{i}"}) as r:
                    results.append((r.status, (await r.json())["error"]["code"], r.headers.get("Retry-After")))
    wrong = [r for r in results if r[1] == "auth/bad_credentials"]
    assert len(wrong) == 10, f"{len(wrong)} guesses were checked, not the account's burst of 10"
    assert all(status == 429 and after and int(after) >= 1 for status, c, after in results if c == "rate/limited")
    # another account is not locked by alice's attacker
    await call(server, "POST", "/api/register", {"name": "bob", "password": "password123"})
    status, answer = await call(server, "POST", "/api/login", {"name": "bob", "password": "password123"})
    assert status == 200, answer


# every spelling of "alice" that is the same account: letter case, full-width letters, Cyrillic look-alikes
ALICE_SPELLINGS = ["alice", "ALICE", "\uff41lice", "\u0430lice", "\u0430li\u0441\u0435", "Alic\u0435"]


@pytest.mark.parametrize("config_overrides", [{"trusted_proxies": "127.0.0.1", "login_burst": 100,
                                                "account_login_burst": 4}])
async def test_guesses_under_other_spellings_of_a_name_share_its_limit(server: Server) -> None:
    await call(server, "POST", "/api/register", {"name": "alice", "password": "password123"})
    codes = []
    for n, spelling in enumerate(ALICE_SPELLINGS * 2):
        _, answer = await call(server, "POST", "/api/login", {"name": spelling, "password": f"guess-{n}"})
        codes.append(code(answer))
    assert codes == ["auth/bad_credentials"] * 4 + ["rate/limited"] * 8


@pytest.mark.parametrize("config_overrides", [{"login_burst": 3}])
async def test_x_forwarded_for_from_an_untrusted_peer_is_not_believed(server: Server) -> None:
    statuses = []
    async with aiohttp.ClientSession() as session:
        for n in range(6):
            async with session.post(f"{server.url}/api/login", headers={"X-Forwarded-For": f"203.0.113.{n}"},
                                    json={"name": f"nobody{n}", "password": "password123"}) as r:
                statuses.append(r.status)
    assert statuses == [401, 401, 401, 429, 429, 429]


# ------------------------------------------------------------------ C.25 parsing


async def test_deep_json_and_huge_numbers_are_refused_with_a_listed_code(server: Server) -> None:
    deep = b"[" * 2000 + b"]" * 2000
    for path in ("/api/login", "/api/register", "/api/host"):
        status, answer = await call(server, "POST", path, raw=deep, token=server.host_token)
        assert (status, code(answer)) == (400, "request/malformed"), (path, answer)
    deep_object = b'{"a":' * 1500 + b"1" + b"}" * 1500
    status, answer = await call(server, "POST", "/api/host", raw=deep_object[:4000], token=server.host_token)
    assert (status, code(answer)) == (400, "request/malformed")
    for path in ("/api/hands/99999999999999999999999", "/api/hands/9223372036854775808", "/api/hands/-1",
                 "/api/hands/" + "9" * 5000, "/api/hands/\uff11\uff12"):
        status, answer = await call(server, "GET", path)
        assert (status, code(answer)) == (404, "hand/unknown"), path
    for query in ("limit=" + "9" * 5000, "limit=99999999999999999999999", "limit=1e9"):
        status, answer = await call(server, "GET", f"/api/tables/main/hands?{query}")
        assert status in (200, 400), (query, answer)
        if status == 400:
            assert code(answer) == "request/malformed"
    alice = await server.player("alice", sit=False)
    nested: Any = 1
    for _ in range(150):  # (deeper, the client library cannot encode it; test_abuse.py sends 30,000 raw)
        nested = [nested]
    for payload in ({"table": "main", "seat": 10**30}, {"table": "main", "buy_in": 2**64},
                    {"table": "main", "seat": nested}, {"table": "main", "seat": -(10**40)}):
        assert await alice.refused("sit", payload) in ("request/malformed", "request/too_large"), payload
    assert await alice.refused("host", {"action": "pause", "table": "main", "settings": {"a": nested}}) \
        in ("auth/not_host", "request/malformed", "request/too_large")


# ------------------------------------------------------------------ C.22 idle, half-open, per address


@pytest.mark.parametrize("config_overrides", [{"header_timeout": 0.3, "idle_timeout": 0.6}])
async def test_silent_half_sent_and_idle_connections_are_closed(server: Server) -> None:
    silent, half = raw(server), raw(server)
    half.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
    kept = raw(server)
    kept.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    try:
        assert await closed_by_server(silent)
        assert await closed_by_server(half)
        # the kept-alive one answered, then idled out
        assert await closed_by_server(kept)
        assert server.app[GUARD].timed_out >= 2
    finally:
        for s in (silent, half, kept):
            s.close()


@pytest.mark.parametrize("config_overrides", [{"max_connections_per_address": 8, "header_timeout": 30.0}])
async def test_the_cap_per_address_keeps_a_seated_player_able_to_reconnect(server: Server) -> None:
    host = await server.host()  # the host's socket logged in (host token): it does not count
    await host.host("pause")
    alice = await server.player("alice")  # nor does a player's
    guard = server.app[GUARD]
    assert guard.open_counted() == 0
    idle = []
    try:
        for _ in range(20):  # an attacker on the same address opens 20 idle connections
            idle.append(raw(server))
        closed = [s for s in idle if await closed_by_server(s, within=0.3)]
        assert len(closed) == 12, "the cap is 8 connections that have not logged in: the oldest 12 went"
        assert closed == idle[:12]
        assert guard.open_counted() == 8
        await alice.close()
        back = Client(server.url, token=alice.token, name="alice", account_id=alice.account_id)
        server.clients.append(back)
        await back.connect()  # at once: it displaces the attacker's oldest idle connection
        snapshot = await back.join()
        assert [s["name"] for s in snapshot["seats"]] == ["alice"]
        assert guard.open_counted() == 7, "logged in, the player no longer counts"
        status, _ = await call(server, "GET", "/healthz")
        assert status == 200
    finally:
        for s in idle:
            s.close()


@pytest.mark.parametrize("config_overrides", [{"reconnect_burst": 1, "reconnect_rate_per_second": 0.25}])
async def test_the_client_waits_the_retry_after_it_was_given_before_its_next_attempt(server: Server) -> None:
    from client_cli.connection import Connection

    account = await server.account("alice")
    first = Connection(server.url, token=account["token"], reconnect=False)
    await first.connect()
    await first.close()
    waits: list[float] = []

    async def recorded(seconds: float) -> None:  # the client's sleep, on the test's clock
        waits.append(seconds)

    second = Connection(server.url, token=account["token"], reconnect=False)
    second.sleep = recorded
    with pytest.raises(ServerRefused) as refused:
        await second.connect()
    assert refused.value.code == "rate/limited"
    assert "try again in 4 s" in refused.value.message
    assert waits == []
    with pytest.raises(ServerRefused):
        await second.connect()  # (no time passed on the server either: refused again, after waiting)
    assert len(waits) == 1
    assert 3.5 < waits[0] <= 4.0, waits
    assert second.sio.reconnection_delay_max >= 4


async def test_a_rotated_host_token_stops_the_host_connections_opened_with_the_old_one(server: Server) -> None:
    host = await server.host()
    assert (await host.host("pause"))["ok"]
    await server.app_database().rotate_host_token()  # what `hcf-server host-token` does, from anywhere
    reply = await host.conn.raw_call("host", {"action": "resume", "table": "main"})
    assert reply["error"]["code"] == "auth/not_host"
    _, entry = await host.wait_for(lambda e: e.get("kind") == "revoked", timeout=5)
    assert "host token" in entry["message"]
    for _ in range(100):
        if not host.connected:
            break
        await asyncio.sleep(0.02)
    assert not host.connected
    assert (await server.client()).connected  # the server carries on


@pytest.mark.parametrize("config_overrides", [{"max_pending_connections": 10, "max_connections_per_address": 1000,
                                                "header_timeout": 30.0}])
async def test_connections_from_all_addresses_together_are_capped_and_the_player_still_gets_in(
        server: Server) -> None:
    host = await server.host()
    await host.host("pause")
    alice = await server.player("alice")
    guard = server.app[GUARD]
    assert guard.total == 10
    idle = [raw(server) for _ in range(30)]
    try:
        closed = [s for s in idle if await closed_by_server(s, within=0.3)]
        assert closed == idle[:20], "the oldest 20 went, the newest 10 stay"
        await alice.close()
        back = await server.client(name="alice", token=alice.token, account_id=alice.account_id)
        assert [s["name"] for s in (await back.join())["seats"]] == ["alice"]
        assert guard.open_counted() == 9
    finally:
        for s in idle:
            s.close()


async def test_a_token_revoked_while_its_connect_is_being_checked_is_refused(server: Server) -> None:
    account = await server.account("alice")
    gateway = server.app[GATEWAY]
    real, checked, go = gateway.accounts.identify, asyncio.Event(), asyncio.Event()

    async def slow_first(token: str) -> Any:  # the connect's check, held until the logout is through
        identity = await real(token)
        if not checked.is_set():
            checked.set()
            await go.wait()
        return identity

    gateway.accounts.identify = slow_first  # type: ignore[method-assign]
    try:
        connecting = asyncio.create_task(
            Client(server.url, token=account["token"], name="alice").connect())
        await checked.wait()
        status, _ = await call(server, "POST", "/api/logout", token=account["token"])
        assert status == 200
        go.set()
        with pytest.raises(ServerRefused) as refused:
            await connecting
        assert refused.value.code == "auth/token_invalid"
        assert not gateway.token_of_sid
    finally:
        gateway.accounts.identify = real  # type: ignore[method-assign]
