"""What a page on another site could make a visitor's browser do to our API (issue 23, item 21).

A browser sends a ``text/plain``, form or untyped POST to any site without asking
first; the API read such a body as JSON, so a foreign page could register an account
or redeem an invite in the visitor's name. Only a body declared JSON is read now (a
browser asks before sending one across sites, and we never say yes). JSON answers
carry ``nosniff``, so no browser runs one as a script or a page.
"""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import pytest

from .conftest import Server
from .test_http import call, code

FOREIGN_TYPES = ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded",
                 "multipart/form-data; boundary=x", None]


async def post(server: Server, path: str, body: dict[str, Any], content_type: str | None) -> tuple[int, Any]:
    """A POST of ``body`` as JSON text under ``content_type`` (None: no Content-Type at all)."""
    headers = {"Content-Type": content_type} if content_type else {}
    async with aiohttp.ClientSession() as session, session.post(
            f"{server.url}{path}", data=json.dumps(body).encode(), headers=headers,
            skip_auto_headers=["Content-Type"]) as response:
        return response.status, await response.json(content_type=None)


@pytest.mark.parametrize("content_type", FOREIGN_TYPES)
async def test_a_body_not_declared_json_registers_nobody_and_redeems_nothing(server: Server,
                                                                            content_type: str | None) -> None:
    status, answer = await post(server, "/api/register", {"name": "mallory", "password": "password123"},
                                content_type)
    assert (status, code(answer)) == (400, "request/malformed")
    assert answer["error"]["message"] == "send the body as JSON, with the header 'Content-Type: application/json'"
    _, invite = await call(server, "POST", "/api/invites", {"table": "main", "role": "player", "uses": 1},
                           token=server.host_token)
    token = invite["url"].partition("#")[2]
    status, answer = await post(server, "/api/invites/redeem", {"token": token, "name": "mallory"}, content_type)
    assert (status, code(answer)) == (400, "request/malformed")
    # nothing happened: the name is free and the one-use link still works
    status, _ = await post(server, "/api/invites/redeem", {"token": token, "name": "mallory"},
                           "application/json; charset=utf-8")
    assert status == 200
    status, answer = await post(server, "/api/register", {"name": "mallory2", "password": "password123"},
                                "application/json")
    assert status == 200, answer


async def test_every_json_answer_says_nosniff(server: Server) -> None:
    async with aiohttp.ClientSession() as session:
        for path in ("/healthz", "/api/tables", "/api/hands/999", "/api/account"):
            async with session.get(f"{server.url}{path}") as response:
                assert response.content_type == "application/json", path
                assert response.headers.get("X-Content-Type-Options") == "nosniff", path
