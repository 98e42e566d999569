"""Invite links over real HTTP: the host makes, lists and revokes them; friends redeem them as guests."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta
from typing import Any

import pytest
from structlog.testing import capture_logs

from tests.server.helpers import Client

from .conftest import Web, token_of

INVITE_KEYS = {"ok", "id", "url", "table", "role", "created_at", "expires_at", "uses", "used", "revoked"}


async def test_an_invite_link_points_at_the_web_port_with_the_token_in_the_fragment(web: Web) -> None:
    invite = await web.invite("player", expires_seconds=3600, uses=5)
    assert set(invite) == INVITE_KEYS
    assert invite["url"].startswith(f"{web.url}/join#")  # asked on the main port, pointing at the pages
    assert (invite["table"], invite["role"], invite["uses"], invite["used"]) == ("main", "player", 5, 0)
    assert invite["expires_at"].endswith("Z")
    assert invite["expires_at"] > invite["created_at"]
    assert "?" not in invite["url"]
    assert len(token_of(invite["url"])) > 40


@pytest.mark.parametrize("config_overrides", [{"public_url": "https://cards.example/"}])
async def test_behind_a_proxy_the_link_names_the_public_address(web: Web) -> None:
    invite = await web.invite()
    assert invite["url"].startswith("https://cards.example/join#")


async def test_only_the_host_makes_lists_and_revokes_invites(web: Web) -> None:
    guest = (await web.redeem((await web.invite())["url"]))[1]
    for token, code in ((None, "auth/required"), ("nope", "auth/not_host"), (guest["token"], "auth/not_host")):
        for method, path, body in (("POST", "/api/invites", {"table": "main", "role": "floor"}),
                                   ("GET", "/api/invites?table=main", None), ("DELETE", "/api/invites/1", None)):
            status, answer = await web.call(method, path, body, token=token)
            assert answer["error"]["code"] == code, (method, path, token)
            assert status == (401 if code == "auth/required" else 403)


@pytest.mark.parametrize(("body", "code", "words"), [
    ({"table": "main", "role": "dealer"}, "request/malformed", "role is one of player, spectator, floor"),
    ({"table": "nowhere", "role": "player"}, "table/unknown", "nowhere"),
    ({"role": "player"}, "request/malformed", "table is required"),
    ({"table": "main", "expires_seconds": 10}, "request/malformed",
     "an invite lasts from 1 minute to 30 days, not 10 seconds"),
    ({"table": "main", "expires_seconds": 40 * 86400}, "request/malformed",
     "an invite lasts from 1 minute to 30 days, not 40 days"),
    ({"table": "main", "expires_seconds": "12h"}, "request/malformed",
     "an invite lasts from 1 minute to 30 days: send how long in whole seconds"),
    ({"table": "main", "uses": 0}, "request/malformed", "uses is a whole number from 1"),
    ({"table": "main", "uses": True}, "request/malformed", "uses is a whole number"),
    ({"table": "main", "colour": "red"}, "request/malformed", "unknown key 'colour'"),
])
async def test_a_bad_invite_request_is_refused_with_a_sentence(web: Web, body: dict[str, Any], code: str,
                                                                words: str) -> None:
    status, answer = await web.call("POST", "/api/invites", body, token=web.server.host_token)
    assert answer["error"]["code"] == code
    assert words in answer["error"]["message"]
    assert status == (404 if code == "table/unknown" else 400)


async def test_a_null_expiry_or_uses_means_the_default(web: Web) -> None:
    invite = await web.invite("player", expires_seconds=None, uses=None)
    plain = await web.invite("player")
    assert invite["uses"] is None
    lasts = [datetime.fromisoformat(i["expires_at"]) - datetime.fromisoformat(i["created_at"]) for i in (invite, plain)]
    assert lasts[0] == lasts[1] == timedelta(hours=12)


async def test_a_player_link_makes_a_guest_who_sits_with_the_starting_chips(web: Web) -> None:
    status, got = await web.redeem((await web.invite("player"))["url"], "ann")
    assert status == 200
    assert set(got) == {"ok", "role", "table", "name", "account", "token", "host_token"}
    assert (got["role"], got["table"], got["name"], got["host_token"]) == ("player", "main", "ann", None)
    status, account = await web.call("GET", "/api/account", token=got["token"])
    assert (status, account["name"], account["balance"]) == (200, "ann", web.server.config.starting_chips)
    client = Client(web.url, token=got["token"], name="ann", account_id=got["account"])
    await client.connect()
    try:
        await client.join("main")
        assert (await client.sit("main", buy_in=500))["ok"]
        await client.call("leave", {"table": "main"})
    finally:
        await client.close()
    # no password yet: no login from elsewhere, whatever is typed
    status, answer = await web.call("POST", "/api/login", {"name": "ann", "password": "anything1"})
    assert (status, answer["error"]["code"]) == (401, "auth/bad_credentials")


async def test_a_guest_adds_a_password_and_logs_in_from_another_device(web: Web) -> None:
    got = (await web.redeem((await web.invite("player"))["url"], "bea"))[1]
    status, answer = await web.call("POST", "/api/password", {"new": "short"}, token=got["token"])
    assert (status, answer["error"]["code"]) == (400, "auth/weak_password")
    body = {"old_password": "", "new": "bea-secret-1"}  # a form's empty field: no old password
    status, answer = await web.call("POST", "/api/password", body, token=got["token"])
    assert (status, answer) == (200, {"ok": True})
    status, login = await web.call("POST", "/api/login", {"name": "bea", "password": "bea-secret-1"})
    assert status == 200
    assert login["token"]
    # now that it has one, changing it takes the old one
    status, answer = await web.call("POST", "/api/password", {"new": "bea-secret-2"}, token=got["token"])
    assert (status, answer["error"]["code"]) == (400, "request/malformed")
    assert "old_password" in answer["error"]["message"]
    body = {"old_password": "bea-secret-1", "new_password": "bea-secret-2"}
    assert (await web.call("POST", "/api/password", body, token=got["token"]))[0] == 200


async def test_a_taken_name_is_refused_and_does_not_use_the_link_up(web: Web) -> None:
    await web.call("POST", "/api/register", {"name": "bob", "password": "password123"})
    invite = await web.invite("player", uses=1)
    status, answer = await web.redeem(invite["url"], "BOB")
    assert (status, answer["error"]["code"]) == (409, "auth/name_taken")
    assert "choose another" in answer["error"]["message"]
    status, answer = await web.redeem(invite["url"], "bad name!")
    assert (status, answer["error"]["code"]) == (400, "auth/bad_name")
    listed = (await web.host("GET", "/api/invites?table=main"))["invites"]
    assert [(i["id"], i["used"]) for i in listed] == [(invite["id"], 0)]
    assert (await web.redeem(invite["url"], "carol"))[0] == 200
    status, answer = await web.redeem(invite["url"], "dave")
    assert (status, answer["error"]["code"]) == (410, "invite/used_up")


async def test_a_player_link_needs_a_name(web: Web) -> None:
    invite = await web.invite("player", uses=1)
    for name in (None, ""):
        status, answer = await web.redeem(invite["url"], name)
        assert (status, answer["error"]["code"]) == (400, "request/malformed")
        assert "name is required" in answer["error"]["message"]
    status, answer = await web.call("POST", "/api/invites/redeem", {"token": token_of(invite["url"]), "name": 5})
    assert (status, answer["error"]["code"]) == (400, "request/malformed")
    assert (await web.redeem(invite["url"], "zed"))[0] == 200  # the refusals used nothing up


async def test_a_spectator_link_gives_no_account_and_no_token(web: Web) -> None:
    invite = await web.invite("spectator")
    for name in (None, "viewer"):
        status, got = await web.redeem(invite["url"], name)
        assert status == 200
        assert (got["role"], got["table"], got["account"], got["token"], got["host_token"]) == \
            ("spectator", "main", None, None, None)
    status, _answer = await web.call("POST", "/api/login", {"name": "viewer", "password": "password123"})
    assert status == 401  # no account was made


async def test_a_floor_link_gives_the_floors_powers_until_it_is_revoked(web: Web) -> None:
    invite = await web.invite("floor")
    status, got = await web.redeem(invite["url"], "flo")
    assert status == 200
    assert got["role"] == "floor"
    assert got["token"]
    assert got["host_token"]
    assert got["host_token"] != web.server.host_token
    status, answer = await web.call("POST", "/api/host", {"action": "show_settings", "table": "main"},
                                    token=got["host_token"])
    assert status == 200
    assert answer["table"] == "main"
    floor = Client(web.url, token=got["token"], host_token=got["host_token"], name="flo")
    await floor.connect()
    try:
        assert (await floor.call("host", {"action": "pause", "table": "main"}))["ok"]
        revoked = await web.host("DELETE", f"/api/invites/{invite['id']}")
        assert (revoked["id"], revoked["revoked"]) == (invite["id"], True)
        assert await floor.refused("host", {"action": "resume", "table": "main"}) == "auth/not_host"
    finally:
        await floor.close()
    status, answer = await web.call("POST", "/api/host", {"action": "resume", "table": "main"},
                                    token=got["host_token"])
    assert (status, answer["error"]["code"]) == (403, "auth/not_host")
    status, answer = await web.redeem(invite["url"], "flo2")
    assert (status, answer["error"]["code"]) == (410, "invite/revoked")
    assert (await web.call("POST", "/api/host", {"action": "resume", "table": "main"},
                           token=web.server.host_token))[0] == 200  # the host's own token is untouched


async def test_a_floor_link_runs_its_own_table_only(web: Web) -> None:
    await web.host("POST", "/api/host", {"action": "create_table", "table": "high"})
    other = await web.host("POST", "/api/invites", {"table": "high", "role": "spectator"})
    invite = await web.invite("floor")  # for main
    floor = (await web.redeem(invite["url"], "flo"))[1]["host_token"]

    async def floor_call(method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        status, answer = await web.call(method, path, body, token=floor)
        return status, answer.get("error", {}).get("code") if isinstance(answer, dict) else answer

    assert (await floor_call("POST", "/api/host", {"action": "pause", "table": "main"}))[0] == 200
    for body in ({"action": "pause", "table": "high"}, {"action": "create_table", "table": "mine"},
                 {"action": "grant_chips", "account": "flo", "amount": 1000}):
        assert await floor_call("POST", "/api/host", body) == (403, "auth/not_host"), body
    assert await floor_call("POST", "/api/invites", {"table": "high", "role": "player"}) == (403, "auth/not_host")
    assert (await floor_call("POST", "/api/invites", {"table": "main", "role": "player"}))[0] == 200
    status, listed = await web.call("GET", "/api/invites", token=floor)
    assert status == 200
    assert {i["table"] for i in listed["invites"]} == {"main"}, "a floor link sees its own table's links"
    assert await floor_call("DELETE", f"/api/invites/{other['id']}") == (403, "auth/not_host")
    client = Client(web.url, host_token=floor, name="flo")
    await client.connect()
    try:
        assert await client.refused("host", {"action": "pause", "table": "high"}) == "auth/not_host"
        assert (await client.call("host", {"action": "resume", "table": "main"}))["ok"]
    finally:
        await client.close()


async def test_the_host_lists_invites_by_table_and_revokes_them(web: Web) -> None:
    await web.host("POST", "/api/host", {"action": "create_table", "table": "high"})
    first = await web.invite("player")
    other = await web.host("POST", "/api/invites", {"table": "high", "role": "spectator"})
    everything = (await web.host("GET", "/api/invites"))["invites"]
    assert [i["id"] for i in everything] == [other["id"], first["id"]]
    assert all("url" not in i and "token" not in i for i in everything)
    assert [i["id"] for i in (await web.host("GET", "/api/invites?table=main"))["invites"]] == [first["id"]]
    await web.host("DELETE", f"/api/invites/{first['id']}")
    assert (await web.host("GET", "/api/invites?table=main"))["invites"][0]["revoked"] is True
    for path in ("/api/invites/999", "/api/invites/abc", "/api/invites/99999999999999999999"):
        status, answer = await web.call("DELETE", path, token=web.server.host_token)
        assert (status, answer["error"]["code"]) == (404, "invite/unknown")


@pytest.mark.parametrize("token", ["", "garbage", "a.b", 7, None, "x" * 500, "é.é"])
async def test_a_token_that_is_not_ours_is_refused(web: Web, token: Any) -> None:
    status, answer = await web.call("POST", "/api/invites/redeem", {"token": token, "name": "eve"})
    assert (status, answer["error"]["code"]) == (400, "invite/invalid")
    assert "not valid" in answer["error"]["message"]


async def test_uses_are_counted_once_each_under_concurrent_redeems(web: Web) -> None:
    invite = await web.invite("player", uses=3)
    answers = await asyncio.gather(*(web.redeem(invite["url"], f"g{i}") for i in range(10)))
    assert sorted(status for status, _ in answers) == [200] * 3 + [410] * 7
    assert {a["error"]["code"] for s, a in answers if s != 200} == {"invite/used_up"}
    assert (await web.host("GET", "/api/invites"))["invites"][0]["used"] == 3


@pytest.mark.parametrize("config_overrides", [{"login_burst": 3, "login_rate_per_second": 0.001}])
async def test_redeeming_is_rate_limited_per_address(web: Web) -> None:
    url = (await web.invite("spectator"))["url"]
    for _ in range(2):  # making the invite spent one attempt of this address
        assert (await web.redeem(url, None))[0] == 200
    async with web.http.post(f"{web.main}/api/invites/redeem", json={"token": token_of(url)}) as response:
        answer = await response.json()
        assert response.status == 429
        assert int(response.headers["Retry-After"]) >= 1
    assert answer["error"]["code"] == "rate/limited"
    assert answer["error"]["retry_after"] >= 1


async def test_no_token_reaches_a_log_line(web: Web, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    with capture_logs() as entries:
        player = await web.invite("player")
        floor = await web.invite("floor")
        got = (await web.redeem(player["url"], "lou"))[1]
        boss = (await web.redeem(floor["url"], "fay"))[1]
        await web.call("POST", "/api/password", {"new": "lou-secret-1"}, token=got["token"])
        await web.redeem(player["url"], "lou")  # refused: the name is taken
        await web.host("DELETE", f"/api/invites/{floor['id']}")
    assert any(e["event"] == "invite_redeemed" for e in entries)  # the log was captured
    secrets = [token_of(player["url"]), token_of(floor["url"]), got["token"], boss["token"], boss["host_token"],
               web.server.host_token]
    lines = [repr(e) for e in entries] + [r.getMessage() + repr(r.__dict__) for r in caplog.records]
    assert lines
    for secret in secrets:
        assert not any(secret in line for line in lines)


async def test_closing_a_table_ends_its_invite_links_and_the_floor_tokens_they_gave(web: Web) -> None:
    await web.host("POST", "/api/host", {"action": "create_table", "table": "high"})
    player = await web.host("POST", "/api/invites", {"table": "high", "role": "player"})
    floor = await web.host("POST", "/api/invites", {"table": "high", "role": "floor"})
    boss = (await web.redeem(floor["url"], "fay"))[1]
    assert (await web.call("GET", "/api/invites", token=boss["host_token"]))[0] == 200
    other = await web.invite("player")  # main's link is not touched
    assert (await web.host("POST", "/api/host", {"action": "close_table", "table": "high"}))["closed"] == "now"
    status, answer = await web.redeem(player["url"], "lou")
    assert (status, answer["error"]["code"]) == (410, "invite/revoked")
    assert answer["error"]["message"] == "the host has revoked that invite link: ask for a new one"
    status, answer = await web.call("GET", "/api/invites", token=boss["host_token"])
    assert (status, answer["error"]["code"]) == (403, "auth/not_host")
    listed = {i["id"]: i["revoked"] for i in (await web.host("GET", "/api/invites"))["invites"]}
    assert listed == {player["id"]: True, floor["id"]: True, other["id"]: False}
    assert (await web.redeem(other["url"], "lou"))[0] == 200
