"""Who may open a table's replay links (issue 28, item 4): the host's ``replays`` setting (anyone, players, host),
checked by every history route of a real server; a refusal is a sentence with its code."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from .conftest import Server
from .helpers import Policy, run_hands

ROUTES = ("/api/tables/main/hands", "/api/tables/main/hands/1")


async def get(server: Server, path: str, token: str | None) -> tuple[int, dict[str, Any]]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with aiohttp.ClientSession() as http, http.get(server.url + path, headers=headers) as response:
        return response.status, await response.json()


async def set_replays(server: Server, replays: Any, token: str | None = None) -> tuple[int, dict[str, Any]]:
    headers = {"Authorization": f"Bearer {token or server.host_token}"}
    async with aiohttp.ClientSession() as http, http.post(
            f"{server.url}/api/tables/main/replays", json={"replays": replays}, headers=headers) as response:
        return response.status, await response.json()


async def opened_by(server: Server, token: str | None, hand_id: int) -> set[tuple[int, str | None]]:
    """What each history route answers the token's holder: (status, refusal code)."""
    answers = [await get(server, path, token) for path in (*ROUTES, f"/api/hands/{hand_id}")]
    return {(status, (answer.get("error") or {}).get("code")) for status, answer in answers}


async def played_hand(server: Server) -> tuple[dict[str, str | None], int]:
    """A finished hand at main, and the tokens of each kind of reader."""
    _host, (alice, _bob) = await server.table(Policy(), Policy(bank=False))
    (revealed,) = await run_hands(_host, 1)
    stranger = await server.account("mallory")
    return {"nobody": None, "stranger": stranger["token"], "player": alice.token,
            "host": server.host_token}, revealed["hand_id"]


ALLOWED = {"anyone": {"nobody", "stranger", "player", "host"}, "players": {"player", "host"}, "host": {"host"}}


@pytest.mark.parametrize("replays", ["anyone", "players", "host"])
async def test_each_setting_lets_exactly_its_readers_open_the_replays(server: Server, replays: str) -> None:
    tokens, hand_id = await played_hand(server)
    if replays != "anyone":  # the default: nothing to set
        status, answer = await set_replays(server, replays)
        assert status == 200, answer
    assert (await get(server, "/api/tables/main/replays", server.host_token))[1]["replays"] == replays
    for who, token in tokens.items():
        answers = await opened_by(server, token, hand_id)
        if who in ALLOWED[replays]:
            assert answers == {(200, None)}, (who, answers)
        else:
            assert len(answers) == 1, (who, answers)
            assert next(iter(answers))[0] in (401, 403), (who, answers)


async def test_a_refusal_says_who_may_open_them_in_a_sentence(server: Server) -> None:
    tokens, _ = await played_hand(server)
    await set_replays(server, "players")
    status, answer = await get(server, ROUTES[1], None)
    assert (status, answer["error"]["code"]) == (401, "auth/required")
    assert answer["error"]["message"] == ("the host lets only the people who played at main open its replays: "
                                          "log in with the account you played with")
    status, answer = await get(server, ROUTES[1], tokens["stranger"])
    assert (status, answer["error"]["code"]) == (403, "hand/not_allowed")
    assert answer["error"]["message"] == ("the host lets only the people who played at main open its replays, "
                                          "and this account has not played there")
    await set_replays(server, "host")
    status, answer = await get(server, ROUTES[1], tokens["player"])
    assert (status, answer["error"]["message"]) == (
        403, "the host keeps the replays of main to themselves: ask the host to show you the hand")


async def test_a_bad_setting_or_a_non_host_changes_nothing(server: Server) -> None:
    tokens, _ = await played_hand(server)
    status, answer = await set_replays(server, "friends")
    assert (status, answer["error"]["message"]) == (400, "replays is one of anyone, players or host")
    status, answer = await set_replays(server, "host", token=tokens["player"])
    assert (status, answer["error"]["code"]) == (403, "auth/not_host")
    assert (await get(server, "/api/tables/main/replays", server.host_token))[1]["replays"] == "anyone"
    assert (await get(server, ROUTES[0], None))[0] == 200
