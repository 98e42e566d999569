"""``hcf-server serve`` with its web port: the announcement, the pages there, and a busy web port."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp

from server.web.routes import CONTENT_SECURITY_POLICY
from tests.support.postgres import free_port

ROOT = Path(__file__).resolve().parents[2]


@contextlib.asynccontextmanager
async def serving(tmp_path: Path, port: int, web_port: int) -> AsyncIterator[list[str]]:
    """The server in its own process, until its ``web:`` line; yields what it printed so far."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HCF_")}
    env.update({"PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(tmp_path)})
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "server.cli", "serve", "--port", str(port), "--web-port", str(web_port),
        "--db", f"sqlite:///{tmp_path}/hcf.db", cwd=ROOT, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    assert proc.stdout is not None
    lines: list[str] = []
    try:
        async with asyncio.timeout(60):
            while not lines or not lines[-1].startswith("web:"):
                line = await proc.stdout.readline()
                assert line, f"the server ended before announcing its web port: {lines}"
                lines.append(line.decode().rstrip("\n"))
        yield lines
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
            async with asyncio.timeout(30):
                await proc.communicate()


async def test_the_start_names_the_web_port_and_the_pages_are_there(tmp_path: Path) -> None:
    port, web_port = free_port(), free_port()
    async with serving(tmp_path, port, web_port) as lines, aiohttp.ClientSession() as http:
        assert f"serving on http://127.0.0.1:{port} (stop with Ctrl-C or SIGTERM)" in lines
        assert lines[-1] == f"web: http://127.0.0.1:{web_port}/"
        async with http.get(f"http://127.0.0.1:{web_port}/table/main") as response:
            assert response.status == 200
            assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
        async with http.get(f"http://127.0.0.1:{web_port}/healthz") as response:
            assert (await response.json())["ok"] is True


async def test_a_busy_web_port_leaves_the_pages_on_the_main_port(tmp_path: Path) -> None:
    port = free_port()
    with socket.create_server(("127.0.0.1", 0)) as busy:
        web_port = busy.getsockname()[1]
        async with serving(tmp_path, port, web_port) as lines, aiohttp.ClientSession() as http:
            assert lines[-1].startswith(f"web: port {web_port} is not available (")
            assert lines[-1].endswith(f"the pages are served at http://127.0.0.1:{port}/")
            async with http.get(f"http://127.0.0.1:{port}/") as response:
                assert response.status == 200


def test_the_page_may_connect_to_its_own_origin_only() -> None:
    directives = dict(part.strip().split(" ", 1) for part in CONTENT_SECURITY_POLICY.split(";"))
    assert directives["connect-src"].split() == ["'self'"]  # no "ws:" or "wss:": any host's websocket
