"""The socket's Origin check: a page of the server's own origin (or a configured one) connects; others do not.

Real python-socketio clients, sending the ``Origin`` header a browser would.
"""

from __future__ import annotations

import asyncio

import pytest
import socketio

from server.transport.limits import parse_networks
from server.transport.origins import OriginCheck

from .conftest import Web


async def connects(url: str, origin: str | None, **more: str) -> bool:
    """Whether a websocket-only Socket.IO client with this Origin (None: none sent) and ``more`` headers
    (``X_Forwarded_Host="..."``) is let in."""
    client = socketio.AsyncClient(reconnection=False)
    headers = {"Origin": origin} if origin is not None else {}
    headers |= {name.replace("_", "-"): value for name, value in more.items()}
    try:
        async with asyncio.timeout(10):  # PITFALLS 6: connect() may hang instead of failing
            await client.connect(url, transports=["websocket"], headers=headers, wait_timeout=5)
    except socketio.exceptions.ConnectionError:
        http = client.eio.http  # a refused connection leaves the client's own HTTP session open
        if http is not None and not http.closed:
            await http.close()
        return False
    try:
        return bool(client.connected)
    finally:
        await client.disconnect()


async def test_the_servers_own_origin_is_accepted_on_either_port(web: Web) -> None:
    assert await connects(web.url, web.url)
    assert await connects(web.main, web.main)


async def test_no_origin_is_accepted_as_the_terminal_client_sends_none(web: Web) -> None:
    assert await connects(web.url, None)


@pytest.mark.parametrize("origin", ["http://evil.example", "http://127.0.0.1:1", "null", "https://127.0.0.1"])
async def test_a_foreign_origin_is_refused(web: Web, origin: str) -> None:
    assert not await connects(web.url, origin)


async def test_the_other_port_of_the_same_server_is_a_foreign_origin(web: Web) -> None:
    # same-origin means scheme, host and port: a page of the web port talks to the web port
    assert not await connects(web.main, web.url)


@pytest.mark.parametrize("config_overrides", [{"allowed_origins": "https://cards.example, http://10.0.0.5:8080/"}])
async def test_a_configured_origin_is_accepted_and_others_still_refused(web: Web) -> None:
    assert await connects(web.url, "https://cards.example")
    assert await connects(web.url, "http://10.0.0.5:8080")
    assert await connects(web.url, web.url)
    assert not await connects(web.url, "https://cards.example.evil")


def test_the_check_by_itself() -> None:
    check = OriginCheck(["https://Cards.Example"])
    environ = {"wsgi.url_scheme": "http", "HTTP_HOST": "127.0.0.1:8080"}
    assert check(None, environ)
    assert check("", environ)
    assert check("http://127.0.0.1:8080", environ)
    assert check("https://cards.example", environ)
    assert not check("http://127.0.0.1:8081", environ)
    proxied = {**environ, "HTTP_X_FORWARDED_PROTO": "https", "HTTP_X_FORWARDED_HOST": "play.example",
               "REMOTE_ADDR": "10.0.0.1"}
    assert not check("https://play.example", proxied)  # forwarded by anyone: not believed
    behind = OriginCheck([], trusted=parse_networks("10.0.0.0/8"))
    assert behind("https://play.example", proxied)
    assert not behind("https://play.example", {**proxied, "REMOTE_ADDR": "203.0.113.9"})


FORGED = {"X_Forwarded_Host": "evil.example", "X_Forwarded_Proto": "http"}


async def test_a_forwarded_host_from_a_peer_that_is_no_trusted_proxy_is_not_believed(web: Web) -> None:
    assert not await connects(web.url, "http://evil.example", **FORGED)
    assert await connects(web.url, web.url, **FORGED)  # the request's own Host still counts


@pytest.mark.parametrize("config_overrides", [{"trusted_proxies": "127.0.0.1"}])
async def test_a_forwarded_host_from_a_trusted_proxy_is_the_servers_own_origin(web: Web) -> None:
    assert await connects(web.url, "http://evil.example", **FORGED)  # the proxy said so: believed
