"""The browser client's files: on the web port and the main port, with their types, gzip and the security headers."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web as aioweb
from yarl import URL

from server.web.routes import CONTENT_SECURITY_POLICY, PAGES, STATIC, web_routes
from tests.server.helpers import Client

from .conftest import Web

SECURITY = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
PAGE_PATHS = ["/", *(page.replace("{name}", "main").replace("{number}", "2") for page in PAGES)]


def test_the_policy_is_the_one_the_pages_are_written_for() -> None:
    assert CONTENT_SECURITY_POLICY == (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")


@pytest.mark.parametrize("path", PAGE_PATHS)
async def test_every_page_route_is_the_single_page_with_the_security_headers(web: Web, path: str) -> None:
    index = (STATIC / "index.html").read_bytes()
    for base in (web.url, web.main):
        async with web.http.get(f"{base}{path}") as response:
            assert response.status == 200
            assert response.content_type == "text/html"
            assert await response.read() == index
            for header, value in SECURITY.items():
                assert response.headers[header] == value


async def test_the_web_port_serves_the_api_and_the_socket_too(web: Web) -> None:
    status, answer = await web.call("GET", "/healthz", base=web.url)
    assert (status, answer["ok"]) == (200, True)
    status, lobby = await web.call("GET", "/api/tables", base=web.url)
    assert status == 200
    assert [t["name"] for t in lobby["tables"]] == ["main"]
    client = Client(web.url)  # a spectator, through the web port's /socket.io
    await client.connect()
    try:
        assert client.connected
        assert (await client.join("main"))["table"] == "main"
    finally:
        await client.close()


@pytest.fixture
async def folder_site(tmp_path: Path) -> AsyncIterator[tuple[str, aiohttp.ClientSession]]:
    """Just the web routes over a folder of our own (the shipped folder's files are the browser client's)."""
    static = tmp_path / "static"
    (static / "js").mkdir(parents=True)
    (static / "index.html").write_text("<!doctype html><title>t</title>" + "<p>table</p>" * 400)
    (static / "js" / "app.js").write_text("export const x = 1;\n" * 300)
    (static / "js" / "socket.mjs").write_text("export const y = 2;\n")
    (static / "table.css").write_text("body { color: black; }\n" * 200)
    (static / "felt.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"></svg>')
    (tmp_path / "secret.txt").write_text("outside the folder")
    app = aioweb.Application()
    app.router.add_routes(web_routes(static))
    runner = aioweb.AppRunner(app)
    await runner.setup()
    site = aioweb.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        async with aiohttp.ClientSession(auto_decompress=False) as http:
            yield f"http://127.0.0.1:{port}", http
    finally:
        await runner.cleanup()


@pytest.mark.parametrize(("path", "kind"), [
    ("/static/js/app.js", "text/javascript"), ("/static/js/socket.mjs", "text/javascript"),
    ("/static/table.css", "text/css"), ("/static/felt.svg", "image/svg+xml"), ("/static/index.html", "text/html"),
])
async def test_each_file_has_its_content_type_and_the_headers(
        folder_site: tuple[str, aiohttp.ClientSession], path: str, kind: str) -> None:
    base, http = folder_site
    async with http.get(base + path) as response:
        assert response.status == 200
        assert response.content_type == kind
        for header, value in SECURITY.items():
            assert response.headers[header] == value


@pytest.mark.parametrize("raw", [
    "/static/../secret.txt", "/static/%2e%2e/secret.txt", "/static/..%2Fsecret.txt", "/static/js/../../secret.txt",
    "/static/%2Fetc%2Fpasswd", "/static//etc/passwd", "/static/..%5Csecret.txt", "/static/missing.js",
    "/static/js", "/static/%00",
])
async def test_nothing_outside_the_folder_is_served(folder_site: tuple[str, aiohttp.ClientSession], raw: str) -> None:
    base, http = folder_site
    async with http.get(URL(base + raw, encoded=True)) as response:
        assert response.status in (400, 404), raw
        assert b"outside the folder" not in await response.read()
        assert "root:" not in await response.text(errors="replace")


async def test_text_is_gzipped_only_for_a_client_that_accepts_it(
        folder_site: tuple[str, aiohttp.ClientSession]) -> None:
    base, http = folder_site
    async with http.get(base + "/static/js/app.js", headers={"Accept-Encoding": "gzip"}) as response:
        zipped = await response.read()
        assert response.headers["Content-Encoding"] == "gzip"
    async with http.get(base + "/static/js/app.js", headers={"Accept-Encoding": "identity"}) as response:
        plain = await response.read()
        assert "Content-Encoding" not in response.headers
    assert len(zipped) < len(plain) / 10
    assert plain == ("export const x = 1;\n" * 300).encode()
