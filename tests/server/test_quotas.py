"""New accounts per address and from everyone, live sessions per account, hand history per address
(issue 23, item 21), against the real server.

Before: 200 accounts with 2,000,000 chips were issued in under 22 s from 20 addresses,
one account held 200 live sessions, and 2,500 hand history requests slowed a table
tenfold. Addresses are told apart as behind a proxy (``X-Forwarded-For`` from the
trusted 127.0.0.1); the server's clock is a manual one, so no bucket refills meanwhile.
"""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from server.transport.quotas import wait_words
from tests.support.clock import ManualClock

from .conftest import Server
from .test_http import call

PROXIED = {"trusted_proxies": "127.0.0.1", "login_burst": 1000, "login_rate_per_second": 1000.0}


async def post(server: Server, path: str, body: dict[str, Any], address: str | None = None,
               token: str | None = None) -> tuple[int, dict[str, Any], str | None]:
    """(status, answer, Retry-After) of a POST from ``address`` (None: the loopback peer itself)."""
    headers = {"X-Forwarded-For": address} if address else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    async with aiohttp.ClientSession() as session, session.post(f"{server.url}{path}", json=body,
                                                                headers=headers) as r:
        return r.status, await r.json(), r.headers.get("Retry-After")


def manual(server: Server) -> ManualClock:
    assert isinstance(server.clock, ManualClock)
    return server.clock


async def register(server: Server, name: str, address: str | None) -> tuple[int, dict[str, Any], str | None]:
    return await post(server, "/api/register", {"name": name, "password": "password123"}, address)


@pytest.mark.parametrize("config_overrides", [{**PROXIED, "register_address_burst": 3,
                                                "register_address_per_hour": 10}])
@pytest.mark.parametrize("server_clock", ["manual"], indirect=True)
async def test_an_address_makes_a_few_accounts_and_then_waits(server: Server) -> None:
    for n in range(3):
        assert (await register(server, f"ann{n}", "203.0.113.1"))[0] == 200
    status, answer, after = await register(server, "ann3", "203.0.113.1")
    assert (status, answer["error"]["code"], after) == (429, "rate/limited", "360")
    assert answer["error"]["message"] == "too many new accounts from your address: try again in 6 minutes"
    assert (await register(server, "ann3", "203.0.113.2"))[0] == 200  # another address has its own
    # an attempt that makes no account costs nothing: a taken name, a bad one
    for _ in range(5):
        assert (await register(server, "ann0", "203.0.113.3"))[0] == 409
        assert (await register(server, "a b", "203.0.113.3"))[0] == 400
    for n in range(3):
        assert (await register(server, f"bea{n}", "203.0.113.3"))[0] == 200


@pytest.mark.parametrize("config_overrides", [{**PROXIED, "register_burst": 5,
                                                "register_per_hour": 200}])
@pytest.mark.parametrize("server_clock", ["manual"], indirect=True)
async def test_every_address_together_makes_a_bounded_number_of_accounts(server: Server) -> None:
    statuses = [(await register(server, f"bot{n}", f"198.51.100.{n + 1}"))[0] for n in range(8)]
    assert statuses == [200] * 5 + [429] * 3
    _, answer, _ = await register(server, "late", "198.51.100.99")
    assert answer["error"]["message"] == "too many new accounts on this server just now: try again in 18 s"
    # a refused attempt did not spend its address's own bucket: that address is refused for everyone's reason
    manual(server).advance(18)
    assert (await register(server, "late", "198.51.100.99"))[0] == 200


@pytest.mark.parametrize("config_overrides", [{**PROXIED, "register_address_burst": 2}])
@pytest.mark.parametrize("server_clock", ["manual"], indirect=True)
async def test_guests_from_invite_links_count_as_new_accounts_and_spectators_do_not(server: Server) -> None:
    links = {}
    for role in ("player", "spectator"):
        status, invite, _ = await post(server, "/api/invites", {"table": "main", "role": role},
                                       token=server.host_token)
        assert status == 200, invite
        links[role] = invite["url"].partition("#")[2]
    for _ in range(4):  # spectators make no account: never limited by it
        status, answer, _ = await post(server, "/api/invites/redeem", {"token": links["spectator"]}, "203.0.113.7")
        assert status == 200, answer
    for n, expected in enumerate((200, 200, 429)):
        status, answer, _ = await post(server, "/api/invites/redeem", {"token": links["player"], "name": f"g{n}"},
                                       "203.0.113.7")
        assert status == expected, answer


@pytest.mark.parametrize("config_overrides", [{"register_address_burst": 2, "register_burst": 2,
                                                "login_burst": 1000, "login_rate_per_second": 1000.0},
                                               {**PROXIED, "register_address_burst": 2, "register_burst": 2}])
async def test_the_servers_own_machine_is_not_counted(server: Server) -> None:
    # hcf bot and the operator on loopback, with no proxy in front or through one on this machine
    for n in range(6):
        assert (await register(server, f"local{n}", "127.0.0.1" if server.config.trusted_proxies else None))[0] == 200
    assert (await register(server, "away0", "203.0.113.9"))[0] == 200
    assert (await register(server, "away1", "203.0.113.9"))[0] == 200
    status, _, _ = await register(server, "away2", "203.0.113.9")
    assert status == (429 if server.config.trusted_proxies else 200)  # (no proxy: X-Forwarded-For is not believed)


@pytest.mark.parametrize("config_overrides", [{"max_sessions_per_account": 3}])
async def test_an_account_keeps_its_newest_sessions_and_the_oldest_go(server: Server) -> None:
    await call(server, "POST", "/api/register", {"name": "alice", "password": "password123"})  # session 1
    tokens = []
    for _ in range(5):
        status, answer = await call(server, "POST", "/api/login", {"name": "alice", "password": "password123"})
        assert status == 200
        tokens.append(answer["token"])
    live = []
    for token in tokens:
        status, answer = await call(server, "GET", "/api/account", token=token)
        live.append(status == 200 or answer["error"]["code"])
    assert live == ["auth/token_invalid", "auth/token_invalid", True, True, True]


@pytest.mark.parametrize("config_overrides", [{**PROXIED, "history_burst": 4, "history_rate_per_second": 0.5}])
@pytest.mark.parametrize("server_clock", ["manual"], indirect=True)
async def test_hand_history_requests_are_limited_per_address(server: Server) -> None:
    paths = ["/api/tables/main/hands", "/api/tables/main/hands/1", "/api/hands/1", "/api/tables/main/hands"]
    async with aiohttp.ClientSession() as session:
        async def get(path: str, address: str) -> tuple[int, dict[str, Any]]:
            async with session.get(f"{server.url}{path}", headers={"X-Forwarded-For": address}) as r:
                return r.status, await r.json()

        assert [(await get(path, "203.0.113.5"))[0] for path in paths] == [200, 404, 404, 200]
        status, answer = await get("/api/hands/1", "203.0.113.5")
        assert (status, answer["error"]["message"]) == (
            429, "too many hand history requests from your address: try again in 2 s")
        assert (await get("/api/tables", "203.0.113.5"))[0] == 200  # the lobby is not history
        assert (await get("/api/tables/main/hands", "203.0.113.6"))[0] == 200  # nor another address's
        manual(server).advance(2)
        assert (await get("/api/tables/main/hands", "203.0.113.5"))[0] == 200


def test_a_wait_is_said_in_the_unit_a_person_uses() -> None:
    assert [wait_words(s) for s in (1, 119, 120, 3599, 7200, 86400)] == [
        "1 s", "119 s", "2 minutes", "60 minutes", "2 hours", "24 hours"]
