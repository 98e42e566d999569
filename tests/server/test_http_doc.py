"""Every HTTP refusal docs/protocol.md lists, made against the real server: the doc and the server agree.

Section 10 lists, under each route, its refusals as `` `STATUS code` ``; each one is
provoked here by a recipe and must answer that status and code. A refusal added to
the doc without a recipe fails (``test_every_documented_refusal_has_a_recipe``), and
section 8's HTTP column must be the status the server gives each code.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from server.transport.http import STATUS

from .conftest import Server
from .test_http import call, code

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
HTTP = DOC[DOC.index("## 10. HTTP API"):DOC.index("## 11.")]
CODES = DOC[DOC.index("## 8. Error codes"):DOC.index("## 9. Limits")]


def documented() -> list[tuple[str, int, str]]:
    """(route, status, code) for every `` `NNN family/name` `` under each ``### METHOD path`` of section 10."""
    found = []
    for block in re.split(r"^### ", HTTP, flags=re.MULTILINE)[1:]:
        route = block.splitlines()[0].strip()
        for status, error in re.findall(r"`(\d{3}) ([a-z_]+/[a-z_]+)`", block):
            found.append((route, int(status), error))
    return sorted(set(found))


Recipe = Callable[[Server], Awaitable[tuple[int, dict[str, Any]]]]
PW = {"name": "alice", "password": "password123"}


async def _alice(server: Server) -> str:
    status, answer = await call(server, "POST", "/api/register", PW)
    if status == 409:
        status, answer = await call(server, "POST", "/api/login", PW)
    token: str = answer["token"]
    return token


async def _expired(server: Server) -> str:
    import time

    from server.persistence.database import open_database
    await _alice(server)
    past = await open_database(server.database_url, clock=lambda: time.time() - 400 * 86400)
    try:
        _, token = await past.login("alice", "password123")
    finally:
        await past.close()
    return token


async def _flood_logins(server: Server) -> tuple[int, dict[str, Any]]:
    await _alice(server)
    answer: tuple[int, dict[str, Any]] = (0, {})
    for i in range(40):
        answer = await call(server, "POST", "/api/login", {"name": "alice", "password": f"guess-{i}"})
        if answer[0] == 429:
            break
    return answer


async def _host(server: Server, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    return await call(server, "POST", "/api/host", body, token=server.host_token)


async def _invite(server: Server, role: str = "player", **extra: Any) -> str:
    """A new invite's token (from its link's fragment)."""
    status, answer = await call(server, "POST", "/api/invites", {"table": "main", "role": role, **extra},
                                token=server.host_token)
    assert status == 200, answer
    token: str = answer["url"].partition("#")[2]
    return token


async def _redeem(server: Server, token: str, name: str = "ann") -> tuple[int, dict[str, Any]]:
    return await call(server, "POST", "/api/invites/redeem", {"token": token, "name": name})


async def _expired_invite(server: Server) -> str:
    import time

    from server.persistence.database import open_database
    past = await open_database(server.database_url, clock=lambda: time.time() - 86400)
    try:
        _, token = await past.create_invite("main", "player", time.time() - 86400 + 60, None)
    finally:
        await past.close()
    return token


async def _describe(server: Server, token: str, _name: str = "") -> tuple[int, dict[str, Any]]:
    return await call(server, "POST", "/api/invites/describe", {"token": token})


async def _revoked_invite(server: Server, then: Callable[..., Awaitable[tuple[int, dict[str, Any]]]] = _redeem,
                          ) -> tuple[int, dict[str, Any]]:
    token = await _invite(server)
    listed = (await call(server, "GET", "/api/invites", token=server.host_token))[1]["invites"]
    await call(server, "DELETE", f"/api/invites/{listed[0]['id']}", token=server.host_token)
    return await then(server, token)


async def _used_up_invite(server: Server, then: Callable[..., Awaitable[tuple[int, dict[str, Any]]]] = _redeem,
                          ) -> tuple[int, dict[str, Any]]:
    token = await _invite(server, uses=1)
    await _redeem(server, token, "ann")
    return await then(server, token, "bea")


async def _flood(server: Server, method: str, path: str, body: dict[str, Any],
                 token: str | None = None) -> tuple[int, dict[str, Any]]:
    answer: tuple[int, dict[str, Any]] = (0, {})
    for _ in range(40):
        answer = await call(server, method, path, body, token=token)
        if answer[0] == 429:
            break
    return answer


async def _flood_history(server: Server) -> tuple[int, dict[str, Any]]:
    answer: tuple[int, dict[str, Any]] = (0, {})
    for _ in range(200):  # bursts of 60, then 10 a second
        answer = await call(server, "GET", "/api/tables/main/hands")
        if answer[0] == 429:
            break
    return answer


RECIPES: dict[tuple[str, str], Recipe] = {
    ("POST /api/invites", "auth/required"): lambda s: call(s, "POST", "/api/invites", {"table": "main"}),
    ("POST /api/invites", "auth/not_host"): lambda s: call(s, "POST", "/api/invites", {"table": "main"}, token="no"),
    ("POST /api/invites", "table/unknown"): lambda s: call(
        s, "POST", "/api/invites", {"table": "nosuch"}, token=s.host_token),
    ("POST /api/invites", "request/malformed"): lambda s: call(
        s, "POST", "/api/invites", {"table": "main", "role": "dealer"}, token=s.host_token),
    ("POST /api/invites", "rate/limited"): lambda s: _flood(s, "POST", "/api/invites", {"table": "main"},
                                                            s.host_token),
    ("DELETE /api/invites/{id}", "invite/unknown"): lambda s: call(
        s, "DELETE", "/api/invites/999", token=s.host_token),
    ("POST /api/invites/redeem", "invite/invalid"): lambda s: _redeem(s, "not.ours"),
    ("POST /api/invites/redeem", "invite/expired"): lambda s: _then(
        _expired_invite(s), None, lambda t: _redeem(s, t)),
    ("POST /api/invites/redeem", "invite/revoked"): _revoked_invite,
    ("POST /api/invites/redeem", "invite/used_up"): _used_up_invite,
    ("POST /api/invites/redeem", "auth/name_taken"): lambda s: _then(
        _alice(s), None, lambda _t: _then(_invite(s), None, lambda t: _redeem(s, t, "ALICE"))),
    ("POST /api/invites/redeem", "auth/bad_name"): lambda s: _then(
        _invite(s), None, lambda t: _redeem(s, t, "bad name!")),
    ("POST /api/invites/redeem", "rate/limited"): lambda s: _flood(
        s, "POST", "/api/invites/redeem", {"token": "not.ours"}),
    ("POST /api/invites/describe", "invite/invalid"): lambda s: _describe(s, "not.ours"),
    ("POST /api/invites/describe", "invite/expired"): lambda s: _then(
        _expired_invite(s), None, lambda t: _describe(s, t)),
    ("POST /api/invites/describe", "invite/revoked"): lambda s: _revoked_invite(s, _describe),
    ("POST /api/invites/describe", "invite/used_up"): lambda s: _used_up_invite(s, _describe),
    ("POST /api/invites/describe", "rate/limited"): lambda s: _flood(
        s, "POST", "/api/invites/describe", {"token": "not.ours"}),
    ("POST /api/register", "auth/name_taken"): lambda s: _then(
        _alice(s), call(s, "POST", "/api/register", {"name": "Alice", "password": "password123"})),
    ("POST /api/register", "auth/bad_name"): lambda s: call(
        s, "POST", "/api/register", {"name": "bad name!", "password": "password123"}),
    ("POST /api/register", "auth/weak_password"): lambda s: call(
        s, "POST", "/api/register", {"name": "bob", "password": "short"}),
    ("POST /api/register", "request/malformed"): lambda s: call(s, "POST", "/api/register", raw=b"[not json"),
    ("POST /api/login", "auth/bad_credentials"): lambda s: _then(
        _alice(s), call(s, "POST", "/api/login", {"name": "alice", "password": "wrong-one"})),
    ("POST /api/login", "request/malformed"): lambda s: call(s, "POST", "/api/login", {"name": "alice"}),
    ("POST /api/login", "rate/limited"): _flood_logins,
    ("POST /api/logout", "auth/required"): lambda s: call(s, "POST", "/api/logout"),
    ("POST /api/password", "auth/bad_credentials"): lambda s: _with_token(s, lambda t: call(
        s, "POST", "/api/password", {"old_password": "not-it-at-all", "new_password": "password456"}, token=t)),
    ("POST /api/password", "auth/weak_password"): lambda s: _with_token(s, lambda t: call(
        s, "POST", "/api/password", {"old_password": "password123", "new_password": "short"}, token=t)),
    ("POST /api/password", "auth/required"): lambda s: call(
        s, "POST", "/api/password", {"old_password": "password123", "new_password": "password456"}),
    ("POST /api/password", "auth/token_invalid"): lambda s: call(
        s, "POST", "/api/password", {"old_password": "password123", "new_password": "password456"}, token="nope"),
    ("GET /api/account", "auth/required"): lambda s: call(s, "GET", "/api/account"),
    ("GET /api/account", "auth/token_invalid"): lambda s: call(s, "GET", "/api/account", token="nope"),
    ("GET /api/account", "auth/token_expired"): lambda s: _then(
        _expired(s), None, lambda t: call(s, "GET", "/api/account", token=t)),
    ("GET /api/tables/{name}/hands", "rate/limited"): _flood_history,
    ("GET /api/tables/{name}/hands", "table/unknown"): lambda s: call(s, "GET", "/api/tables/nosuch/hands"),
    ("GET /api/tables/{name}/hands", "request/malformed"): lambda s: call(
        s, "GET", "/api/tables/main/hands?limit=many"),
    ("GET /api/tables/{name}/hands/{number}", "hand/unknown"): lambda s: call(
        s, "GET", "/api/tables/main/hands/999999"),
    ("GET /api/tables/{name}/odds", "table/unknown"): lambda s: call(s, "GET", "/api/tables/nosuch/odds"),
    ("GET /api/trainees", "auth/required"): lambda s: call(s, "GET", "/api/trainees"),
    ("GET /api/trainees", "auth/not_host"): lambda s: call(s, "GET", "/api/trainees", token="not-the-host-token"),
    ("GET /api/trainees/{name}", "auth/not_host"): lambda s: call(
        s, "GET", "/api/trainees/tina", token="not-the-host-token"),
    ("GET /api/trainees/{name}", "account/unknown"): lambda s: call(
        s, "GET", "/api/trainees/nobody", token=s.host_token),
    ("GET /api/drill-history", "auth/required"): lambda s: call(s, "GET", "/api/drill-history"),
    ("GET /api/drill-history", "auth/token_invalid"): lambda s: call(s, "GET", "/api/drill-history", token="nope"),
    ("GET /api/drill-history", "account/unknown"): lambda s: _with_token(s, lambda t: call(
        s, "GET", "/api/drill-history", token=t)),
    ("GET /api/trainees/{name}/certificates/{session}", "auth/required"): lambda s: call(
        s, "GET", "/api/trainees/tina/certificates/1"),
    ("GET /api/trainees/{name}/certificates/{session}", "auth/not_host"): lambda s: _with_token(s, lambda t: call(
        s, "GET", "/api/trainees/tina/certificates/1", token=t)),
    ("GET /api/trainees/{name}/certificates/{session}", "account/unknown"): lambda s: call(
        s, "GET", "/api/trainees/nobody/certificates/1", token=s.host_token),
    ("GET /api/trainees/{name}/certificates/{session}", "drill/no_certificate"): lambda s: call(
        s, "GET", "/api/trainees/nobody/certificates/0", token=s.host_token),
    ("POST /api/drill-reports", "rate/limited"): lambda s: _with_token(s, lambda t: _flood(
        s, "POST", "/api/drill-reports", {"source": "offline", "mode": "training", "partial": False,
                                          "report": {"right": 0, "total": 0, "by_step": {}}}, token=t)),
    ("POST /api/drill-reports", "request/too_large"): lambda s: _with_token(s, lambda t: call(
        s, "POST", "/api/drill-reports", {"source": "offline", "pad": "x" * 50_000}, token=t)),
    ("POST /api/drill-reports", "auth/required"): lambda s: call(s, "POST", "/api/drill-reports", {}),
    ("POST /api/drill-reports", "request/malformed"): lambda s: _with_token(s, lambda t: call(
        s, "POST", "/api/drill-reports", {"source": "offline", "report": {"right": 3, "total": 2}}, token=t)),
    ("GET /api/tables/{name}/settle-up", "request/malformed"): lambda s: call(
        s, "GET", "/api/tables/main/settle-up?day=2026-12-5", token=s.host_token),
    ("GET /api/tables/{name}/settle-up", "auth/not_host"): lambda s: call(
        s, "GET", "/api/tables/main/settle-up", token="not-the-host-token"),
    ("GET /api/tables/{name}/settle-up", "table/unknown"): lambda s: call(
        s, "GET", "/api/tables/nosuch/settle-up", token=s.host_token),
    ("GET /api/hands/{hand_id}", "hand/unknown"): lambda s: call(s, "GET", "/api/hands/99999999999999999999999"),
    ("GET /api/tables/{name}/hands", "auth/required"): lambda s: _kept_replays(s, None),
    ("GET /api/tables/{name}/hands", "hand/not_allowed"): lambda s: _with_token(s, lambda t: _kept_replays(s, t)),
    ("Sessions and replay links", "request/malformed"): lambda s: call(
        s, "POST", "/api/tables/main/replays", {"replays": "friends"}, token=s.host_token),
    ("Sessions and replay links", "auth/not_host"): lambda s: call(
        s, "POST", "/api/tables/main/session", {"action": "open"}, token="not-the-host-token"),
    ("Sessions and replay links", "table/unknown"): lambda s: call(
        s, "POST", "/api/tables/nosuch/session", {"action": "open"}, token=s.host_token),
    ("POST /api/host", "auth/not_host"): lambda s: call(
        s, "POST", "/api/host", {"action": "pause", "table": "main"}, token="not-the-host-token"),
    ("POST /api/host", "auth/required"): lambda s: call(s, "POST", "/api/host", {"action": "pause"}),
    ("POST /api/host", "request/malformed"): lambda s: _host(s, {"action": "pause"}),
    ("POST /api/host", "request/too_large"): lambda s: _host(s, {"action": "pause", "table": "x" * 5000}),
    ("POST /api/host", "table/unknown"): lambda s: _host(s, {"action": "pause", "table": "nosuch"}),
    ("POST /api/host", "account/unknown"): lambda s: _host(
        s, {"action": "grant_chips", "account": "nobody", "amount": 5}),
}


async def _then(first: Awaitable[Any], second: Awaitable[tuple[int, dict[str, Any]]] | None,
                after: Callable[[Any], Awaitable[tuple[int, dict[str, Any]]]] | None = None,
                ) -> tuple[int, dict[str, Any]]:
    value = await first
    if after is not None:
        return await after(value)
    assert second is not None
    return await second


async def _kept_replays(server: Server, token: str | None) -> tuple[int, dict[str, Any]]:
    """The main table's hands, once the host keeps its replays to the players who played there."""
    status, answer = await call(server, "POST", "/api/tables/main/replays", {"replays": "players"},
                                token=server.host_token)
    assert status == 200, answer
    return await call(server, "GET", "/api/tables/main/hands", token=token)


async def _with_token(server: Server, use: Callable[[str], Awaitable[tuple[int, dict[str, Any]]]],
                      ) -> tuple[int, dict[str, Any]]:
    return await use(await _alice(server))


def test_every_documented_refusal_has_a_recipe() -> None:
    listed = documented()
    assert len(listed) >= 20, listed
    missing = [(route, error) for route, _, error in listed if (route, error) not in RECIPES]
    assert not missing, f"documented in protocol.md section 10 but never tried here: {missing}"


@pytest.mark.parametrize(("route", "status", "error"), documented())
async def test_the_server_answers_each_documented_refusal(server: Server, route: str, status: int,
                                                          error: str) -> None:
    answered, answer = await RECIPES[(route, error)](server)
    assert (answered, code(answer)) == (status, error), (route, answer)
    assert "Traceback" not in str(answer)


def test_section_8_gives_the_status_the_server_answers() -> None:
    rows = re.findall(r"^\| `([a-z_]+/[a-z_]+)`[^|]*\|[^|]*\| (\d{3}) \|$", CODES, flags=re.MULTILINE)
    assert len(rows) > 40
    for error, status in rows:
        assert STATUS.get(error, 400) == int(status), error
    assert {e for e, _ in rows} >= set(STATUS)
