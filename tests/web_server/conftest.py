"""The real server (tests/server/conftest.py) with its web port listening too, and an HTTP client on it."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest

from server.app import start_web_site
from server.listening import listening_socket
from tests.server.conftest import Server, database_url, server, server_clock, table_overrides

__all__ = ["database_url", "server", "server_clock", "table_overrides"]


@pytest.fixture
def config_overrides() -> dict[str, Any]:
    """Settings a test changes; by default the per-address limit of the password, host and invite routes is
    out of the way (these tests make many host calls from one address; test_invites.py sets it back)."""
    return {"login_burst": 100_000, "login_rate_per_second": 1e6}


@dataclass
class Web:
    """The server's two addresses and an aiohttp client session; ``call`` answers (status, JSON)."""

    server: Server
    url: str  # the web port's
    http: aiohttp.ClientSession

    @property
    def main(self) -> str:
        return self.server.url

    async def call(self, method: str, path: str, body: Any = None, *, token: str | None = None,
                   base: str | None = None) -> tuple[int, dict[str, Any]]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with self.http.request(method, f"{base or self.main}{path}", json=body, headers=headers) as response:
            return response.status, await response.json()

    async def host(self, method: str, path: str, body: Any = None) -> dict[str, Any]:
        """A host call that must succeed."""
        status, answer = await self.call(method, path, body, token=self.server.host_token)
        assert status == 200, answer
        assert answer["ok"], answer
        return answer

    async def invite(self, role: str = "player", **extra: Any) -> dict[str, Any]:
        return await self.host("POST", "/api/invites", {"table": "main", "role": role, **extra})

    async def redeem(self, url: str, name: str | None = "ann") -> tuple[int, dict[str, Any]]:
        return await self.call("POST", "/api/invites/redeem", {"token": token_of(url), "name": name})


def token_of(url: str) -> str:
    """The token in an invite link's fragment."""
    _, _, token = url.partition("#")
    assert token, url
    return token


@pytest.fixture
async def web(server: Server) -> AsyncIterator[Web]:
    """The running server's web port (a free one), as ``serve`` starts it beside the main port."""
    sock = listening_socket("127.0.0.1", 0)
    port = await start_web_site(server.app, server.runner, int(server.url.rsplit(":", 1)[1]), io.StringIO(),
                                sock=sock)
    assert port is not None
    async with aiohttp.ClientSession() as http:
        yield Web(server, f"http://127.0.0.1:{port}", http)
