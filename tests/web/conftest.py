"""The browser tests' fixtures: one real server (with a real SQLite file) and one Debian chromium per module.

The server is ``hcf-server serve`` as a subprocess, on free loopback ports: the pages are
opened on its web port, the same app as its main port. Chromium is Debian's package,
driven by Playwright; it is never downloaded. Without /usr/bin/chromium these tests
fail, naming the package: they never skip.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ROOT = Path(__file__).resolve().parents[2]
# Clocks long enough for a browser to click in time, short pauses between hands.
TABLE_DEFAULTS = {"pause_seconds": 0.3, "offer_seconds": 30, "bet_seconds": 30, "action_seconds": 40}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


@dataclass
class WebServer:
    """The running server: its URL and host token, and JSON over HTTP for the test's own setup."""

    url: str
    host_token: str
    process: subprocess.Popen[str]

    def call(self, method: str, path: str, body: dict[str, Any] | None = None,
             token: str | None = None) -> dict[str, Any]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = json.dumps(body).encode() if body is not None else None
        for _ in range(4):  # the host's requests share the address's budget with the pages': a busy answer waits
            request = urllib.request.Request(self.url + path, data=data, headers=headers, method=method)
            try:
                with urllib.request.urlopen(request, timeout=10) as response:
                    answer: dict[str, Any] = json.load(response)
            except urllib.error.HTTPError as exc:
                answer = json.load(exc)
            error = answer.get("error") or {}
            if error.get("code") != "rate/limited":
                break
            time.sleep(min(5, int(error.get("retry_after") or 1)))
        return answer

    def host(self, action: str, **args: Any) -> dict[str, Any]:
        return self.call("POST", "/api/host", {"action": action, **args}, self.host_token)

    def invite(self, table: str, role: str) -> str:
        url: str = self.call("POST", "/api/invites", {"table": table, "role": role}, self.host_token)["url"]
        return url


def _read_host_token(process: subprocess.Popen[str], timeout: float = 30.0) -> str:
    assert process.stdout is not None
    deadline = time.monotonic() + timeout
    token = None
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        assert line, "the server ended before it was ready"
        found = re.search(r"host token \(shown once\): (\S+)", line)
        if found:
            token = found.group(1)
        if line.startswith("web: http://"):  # the last line it prints when it serves
            assert token, "the server printed no host token"
            return token
    raise AssertionError("the server did not come up")


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """A real server on a loopback port with a fresh SQLite database, for the whole module."""
    port, web_port = free_port(), free_port()
    db = tmp_path_factory.mktemp("web") / "hcf.db"
    env = {k: v for k, v in os.environ.items() if not k.startswith("HCF_")}
    env["XDG_CACHE_HOME"] = os.environ.get("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
    # A module often ends with a hand in progress: stopped, the server would give it the default 20 s to
    # end (docs/server.md, stopping the server) while the worker waits. No test here is about that grace.
    env["HCF_SHUTDOWN_GRACE"] = "1"
    process = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "serve", "--port", str(port), "--web-port", str(web_port),
         "--db", f"sqlite:///{db}", "--table-defaults", json.dumps(TABLE_DEFAULTS)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        token = _read_host_token(process)
        # keep reading what the server prints, so that a full pipe never blocks it
        threading.Thread(target=process.stdout.read if process.stdout else None, daemon=True).start()
        yield WebServer(f"http://127.0.0.1:{web_port}", token, process)
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
        if process.stdout is not None:
            process.stdout.close()


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    """Debian's chromium (the deploy/apt-packages.txt package), headless; never a downloaded one."""
    if not CHROMIUM.exists():
        pytest.fail("/usr/bin/chromium is missing: install the Debian package `chromium` "
                    "(deploy/apt-packages.txt); the browser tests never download a browser", pytrace=False)
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    try:
        yield browser
    finally:
        browser.close()
