"""Describing an invite link over real HTTP: what it invites to, in words, with nothing used up."""

from __future__ import annotations

import logging
import time
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from structlog.testing import capture_logs

from server.persistence.database import open_database
from server.transport.invites import time_left_words

from .conftest import Web, token_of

DESCRIBE_KEYS = {"ok", "table", "game", "game_name", "role", "role_words", "invitation", "expires_at",
                 "expires_in", "seconds_left", "uses_left"}


async def describe(web: Web, token: Any) -> tuple[int, dict[str, Any]]:
    return await web.call("POST", "/api/invites/describe", {"token": token}, base=web.url)


async def used(web: Web, invite_id: int) -> int:
    listed = (await web.host("GET", "/api/invites"))["invites"]
    (found,) = [i for i in listed if i["id"] == invite_id]
    count: int = found["used"]
    return count


@pytest.mark.parametrize(("role", "sentence", "words"), [
    ("player", "You are invited to play High Card Flush at table main.", "to play"),
    ("spectator", "You are invited to watch High Card Flush at table main.", "to watch"),
    ("floor", "You are invited to run table main (High Card Flush) as floor staff.",
     "to run the table as floor staff"),
])
async def test_a_link_names_its_table_game_and_role_and_uses_nothing_up(web: Web, role: str, sentence: str,
                                                                        words: str) -> None:
    invite = await web.invite(role, expires_seconds=12 * 3600, uses=3)
    for _ in range(3):  # as often as the page is reloaded
        status, got = await describe(web, token_of(invite["url"]))
        assert status == 200, got
        assert set(got) == DESCRIBE_KEYS
        assert (got["table"], got["game"], got["game_name"], got["role"]) == ("main", "hcf", "High Card Flush", role)
        assert (got["invitation"], got["role_words"], got["uses_left"]) == (sentence, words, 3)
        assert got["expires_at"] == invite["expires_at"]
        assert got["expires_in"] in ("12 hours", "11 hours and 59 minutes")
        assert await used(web, invite["id"]) == 0
    assert (await web.redeem(invite["url"], f"{role[:3]}1"))[0] == 200
    assert (await describe(web, token_of(invite["url"])))[1]["uses_left"] == 2


async def test_another_game_is_named_in_words_and_any_number_of_uses_is_null(web: Web) -> None:
    await web.host("POST", "/api/host", {"action": "create_table", "table": "stud",
                                         "settings": {"game": "caribbean"}})
    invite = await web.host("POST", "/api/invites", {"table": "stud", "role": "spectator", "expires_seconds": 90})
    status, got = await describe(web, token_of(invite["url"]))
    assert status == 200
    assert got["invitation"] == "You are invited to watch Caribbean Stud at table stud."
    assert (got["game"], got["game_name"], got["uses_left"], got["expires_in"]) == \
        ("caribbean", "Caribbean Stud", None, "1 minute")


async def _expired(web: Web) -> str:
    past = await open_database(web.server.database_url, clock=lambda: time.time() - 86400)
    try:
        _, token = await past.create_invite("main", "player", time.time() - 86400 + 60, None)
    finally:
        await past.close()
    return token


async def _revoked(web: Web) -> str:
    invite = await web.invite("player")
    await web.host("DELETE", f"/api/invites/{invite['id']}")
    return token_of(invite["url"])


async def _used_up(web: Web) -> str:
    invite = await web.invite("player", uses=1)
    assert (await web.redeem(invite["url"], "ann"))[0] == 200
    return token_of(invite["url"])


async def _closed(web: Web) -> str:
    await web.host("POST", "/api/host", {"action": "create_table", "table": "high"})
    invite = await web.host("POST", "/api/invites", {"table": "high", "role": "spectator"})
    await web.host("POST", "/api/host", {"action": "close_table", "table": "high"})
    return token_of(invite["url"])


async def _changed(web: Web) -> str:
    token = token_of((await web.invite("player"))["url"])
    return token[:-1] + ("A" if token[-1] != "A" else "B")


@pytest.mark.parametrize(("make", "code"), [
    (_expired, "invite/expired"), (_revoked, "invite/revoked"), (_used_up, "invite/used_up"),
    (_closed, "invite/revoked"), (_changed, "invite/invalid"),
])
async def test_a_bad_link_is_refused_as_redeeming_refuses_it(web: Web, make: Any, code: str) -> None:
    token = await make(web)
    status, got = await describe(web, token)
    redeemed = await web.call("POST", "/api/invites/redeem", {"token": token, "name": "zed"})
    assert (status, got) == redeemed
    assert got["error"]["code"] == code
    assert got["error"]["message"].endswith(("ask the host for a new one", "ask for a new one",
                                             "as many times as it allows"))


@pytest.mark.parametrize("token", ["", "garbage", "a.b", 7, None, "x" * 500, "é.é"])
async def test_a_token_that_is_not_ours_is_refused(web: Web, token: Any) -> None:
    status, answer = await describe(web, token)
    assert (status, answer["error"]["code"]) == (400, "invite/invalid")
    assert answer["error"]["message"] == "that invite link is not valid: ask the host for a new one"


@pytest.mark.parametrize("config_overrides", [{"login_burst": 3, "login_rate_per_second": 0.001}])
async def test_describing_is_rate_limited_per_address(web: Web) -> None:
    url = (await web.invite("spectator"))["url"]
    for _ in range(2):  # making the invite spent one attempt of this address
        assert (await describe(web, token_of(url)))[0] == 200
    async with web.http.post(f"{web.url}/api/invites/describe", json={"token": token_of(url)}) as response:
        answer = await response.json()
        assert response.status == 429
        assert int(response.headers["Retry-After"]) >= 1
    assert answer["error"]["code"] == "rate/limited"


async def test_describing_logs_no_token(web: Web, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    invite = await web.invite("floor")
    with capture_logs() as entries:
        assert (await describe(web, token_of(invite["url"])))[0] == 200
        assert (await describe(web, token_of(invite["url"]) + "x"))[0] == 400
    lines = [repr(e) for e in entries] + [r.getMessage() + repr(r.__dict__) for r in caplog.records]
    assert not any(token_of(invite["url"]) in line for line in lines)


@given(st.integers(min_value=0, max_value=40 * 86400))
def test_the_time_left_is_said_in_at_most_two_units_never_more_than_it_is(seconds: int) -> None:
    said = time_left_words(seconds)
    if seconds < 60:
        assert said == "less than a minute"
        return
    parts = said.split(" and ")
    assert 1 <= len(parts) <= 2
    sizes = {"day": 86400, "hour": 3600, "minute": 60}
    total = sum(int(n) * sizes[unit.rstrip("s")] for n, unit in (part.split(" ") for part in parts))
    assert total <= seconds
    assert total > seconds - (3600 if "day" in said else 60)
