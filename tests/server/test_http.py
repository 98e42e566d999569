"""The HTTP face: health, the lobby, finished hands, accounts and the host route."""

from __future__ import annotations

import hashlib
from typing import Any

import aiohttp

from .conftest import Server
from .helpers import Policy, run_hands


async def call(server: Server, method: str, path: str, body: Any = None, token: str | None = None,
               raw: bytes | None = None) -> tuple[int, dict[str, Any]]:
    """(status, JSON answer) of one HTTP request."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if raw is not None:
        headers["Content-Type"] = "application/json"  # what the raw bytes claim to be
    async with aiohttp.ClientSession() as session, session.request(
            method, f"{server.url}{path}", json=body if raw is None else None, data=raw, headers=headers) as r:
        data = await r.json(content_type=None)
    assert isinstance(data, dict)
    return r.status, data


def code(answer: dict[str, Any]) -> str:
    assert answer.get("ok") is False, answer
    value: str = answer["error"]["code"]
    return value


async def test_health_and_the_lobby(server: Server) -> None:
    status, health = await call(server, "GET", "/healthz")
    assert (status, health) == (200, {"ok": True, "tables": 1})
    await server.table(Policy(), Policy())
    status, lobby = await call(server, "GET", "/api/tables")
    assert status == 200
    assert isinstance(lobby["tables"], list)
    (table,) = lobby["tables"]
    assert {"name", "settings", "seats", "phase"} <= set(table)
    assert table["name"] == "main"
    assert table["phase"] == "paused"
    assert table["settings"]["min_ante"] == 5
    assert table["settings"]["pause_seconds"] == 0
    assert [(s["seat"], s["name"], s["stack"]) for s in table["seats"]] == [(1, "alice", 1000), (2, "bob", 1000)]
    status, answer = await call(server, "GET", "/api/tables/nope/hands")
    assert (status, code(answer)) == (404, "table/unknown")  # (a closed table's hands stay listed)


async def test_a_finished_hand_is_public_with_its_seeds_and_an_unknown_one_is_404(server: Server) -> None:
    host, _ = await server.table(Policy(flush_bonus=2), Policy(flush_bonus=2))
    (revealed,) = await run_hands(host, 1)
    hand_id = revealed["hand_id"]
    status, hand = await call(server, "GET", f"/api/hands/{hand_id}")
    assert status == 200
    assert hand["hand_id"] == hand_id
    assert hand["status"] == "settled"
    assert hand["hand_no"] == 1
    assert hand["dealer_cards"] == revealed["dealer_cards"]
    assert hand["shown"] == revealed["shown"]
    assert hand["settlement"] == revealed["settlement"]
    assert hashlib.sha256(bytes.fromhex(hand["server_seed"])).hexdigest() == hand["commitment"]
    assert hand["player_seeds"] == revealed["player_seeds"]
    assert hand["deal_order"] == revealed["deal_order"]
    assert hand["ended_at"] >= hand["started_at"] > 0
    status, listing = await call(server, "GET", "/api/tables/main/hands")
    assert status == 200
    assert [h["hand_id"] for h in listing["hands"]] == [hand_id]
    for path in ("/api/hands/99999", "/api/hands/abc"):
        status, answer = await call(server, "GET", path)
        assert status == 404
        assert code(answer) == "hand/unknown"


async def test_a_hand_in_progress_is_not_public_yet(server: Server) -> None:
    host, _ = await server.table(Policy(), Policy(ante=None))
    mark = host.mark()
    await host.host("resume")
    _, opened = await host.event("betting_opened", since=mark)
    await host.host("pause")
    status, answer = await call(server, "GET", f"/api/hands/{opened['hand_id']}")
    assert status == 404
    assert code(answer) == "hand/unknown"
    assert "server_seed" not in str(answer)


async def test_register_refuses_taken_and_bad_names_and_weak_passwords(server: Server) -> None:
    status, registered = await call(server, "POST", "/api/register", {"name": "alice", "password": "password123"})
    assert status == 200
    assert registered["ok"]
    assert registered["name"] == "alice"
    assert registered["token"]
    registered["token"]
    for body, expected in (({"name": "alice", "password": "password123"}, (409, "auth/name_taken")),
                           ({"name": "bad name!", "password": "password123"}, (400, "auth/bad_name")),
                           ({"name": "bob", "password": "short"}, (400, "auth/weak_password")),
                           ({"name": "bob"}, (400, "request/malformed"))):
        status, answer = await call(server, "POST", "/api/register", body)
        assert (status, code(answer)) == expected, body
    status, answer = await call(server, "POST", "/api/register", raw=b"[not json")
    assert (status, code(answer)) == (400, "request/malformed")


async def test_login_logout_and_change_password(server: Server) -> None:
    # (routes that check passwords allow bursts of 10 per address: this test stays under that)
    status, registered = await call(server, "POST", "/api/register", {"name": "alice", "password": "password123"})
    first = registered["token"]
    status, answer = await call(server, "POST", "/api/login", {"name": "alice", "password": "wrong-password"})
    assert (status, code(answer)) == (401, "auth/bad_credentials")
    status, answer = await call(server, "POST", "/api/login", {"name": "nobody", "password": "password123"})
    assert (status, code(answer)) == (401, "auth/bad_credentials")
    status, login = await call(server, "POST", "/api/login", {"name": "alice", "password": "password123"})
    second = login["token"]
    assert status == 200
    assert second != first
    assert login["account_id"] == registered["account_id"]

    status, answer = await call(server, "POST", "/api/password",
                                {"old_password": "not-it-at-all", "new_password": "new-password-1"}, token=second)
    assert (status, code(answer)) == (401, "auth/bad_credentials")
    status, answer = await call(server, "POST", "/api/password",
                                {"old_password": "password123", "new_password": "new-password-1"}, token=second)
    assert status == 200
    assert answer["ok"]
    status, answer = await call(server, "GET", "/api/account", token=first)
    assert (status, code(answer)) == (401, "auth/token_invalid"), "other sessions end with a password change"
    status, account = await call(server, "GET", "/api/account", token=second)
    assert status == 200
    assert account["name"] == "alice"
    status, answer = await call(server, "POST", "/api/login", {"name": "alice", "password": "password123"})
    assert status == 401
    status, answer = await call(server, "POST", "/api/login", {"name": "alice", "password": "new-password-1"})
    assert status == 200
    assert answer["ok"]

    status, answer = await call(server, "POST", "/api/logout", token=second)
    assert status == 200
    assert answer["ok"]
    status, answer = await call(server, "GET", "/api/account", token=second)
    assert (status, code(answer)) == (401, "auth/token_invalid")
    status, answer = await call(server, "GET", "/api/account")
    assert (status, code(answer)) == (401, "auth/required")


async def test_the_account_shows_balance_stacks_and_movements(server: Server) -> None:
    host, (alice, _bob) = await server.table(Policy(), Policy())
    status, account = await call(server, "GET", "/api/account", token=alice.token)
    assert status == 200
    assert account["balance"] == 9000
    assert account["stacks"] == {"main": 1000}
    assert [(m["kind"], m["amount"]) for m in account["movements"]] == [("buy_in", -1000), ("issue", 10_000)]
    (revealed,) = await run_hands(host, 1)
    status, answer = await call(server, "POST", "/api/host",
                                {"action": "grant_chips", "account": "alice", "amount": 500}, token=server.host_token)
    assert status == 200
    assert answer["balance"] == 9500
    status, answer = await call(server, "POST", "/api/host", {"action": "grant_chips", "account": "alice",
                                                              "amount": 500}, token=alice.token)
    assert (status, code(answer)) == (403, "auth/not_host")
    status, answer = await call(server, "POST", "/api/host", {"action": "nope"}, token=server.host_token)
    assert (status, code(answer)) == (400, "request/malformed")
    await alice.call("stand", {"table": "main"})
    status, account = await call(server, "GET", "/api/account", token=alice.token)
    won = revealed["settlement"]["dealer"]["net"]  # alice banked the hand
    assert account["balance"] == 9500 + 1000 + won
    assert account["stacks"] == {}
    assert [m["kind"] for m in account["movements"]][:2] == ["cash_out", "issue"]


async def test_password_guessing_is_rate_limited(server: Server) -> None:
    await call(server, "POST", "/api/register", {"name": "alice", "password": "password123"})
    statuses = [(await call(server, "POST", "/api/login", {"name": "alice", "password": f"guess-{i:04d}"}))
                for i in range(30)]
    codes = [code(answer) for _, answer in statuses]
    assert codes.count("rate/limited") >= 3
    assert set(codes) == {"auth/bad_credentials", "rate/limited"}
    assert {status for status, answer in statuses if code(answer) == "rate/limited"} == {429}
