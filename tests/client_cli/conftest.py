"""A real table server for the client's end-to-end tests, and a relay whose links a test can cut.

The server runs as a subprocess on a free port of 127.0.0.1 with a fresh SQLite
file and quick table clocks; its host token is read from its first lines.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from server.i18n import use_language

ROOT = Path(__file__).resolve().parents[2]
TABLE_DEFAULTS = {"pause_seconds": 0.5, "offer_seconds": 10, "bet_seconds": 10, "action_seconds": 10}


@dataclass(frozen=True)
class Server:
    """A running server."""

    url: str
    port: int
    host_token: str
    log: Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def client_env(config_home: Path, **extra: str) -> dict[str, str]:
    """The environment for an ``hcf`` subprocess: its own config dir, nothing inherited that matters."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HCF_")}
    env.pop("NO_COLOR", None)
    env.update({"XDG_CONFIG_HOME": str(config_home), "PYTHONPATH": str(ROOT)})
    env.update(extra)
    return env


def hcf(*args: str) -> list[str]:
    """The command line of ``hcf ARGS`` (run from the source tree)."""
    return [sys.executable, "-m", "client_cli.cli", *args]


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the session (tests use their own tables, or ``main`` for the terminal test)."""
    work = tmp_path_factory.mktemp("server")
    port = free_port()
    log = work / "server.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith("HCF_")}
    env.update({"XDG_DATA_HOME": str(work), "PYTHONPATH": str(ROOT)})
    # Every client test registers and logs in from 127.0.0.1 against this one server: the per-address
    # limit on password routes (tested in tests/server) would refuse them on a slow machine.
    env.update({"HCF_LOGIN_BURST": "100000", "HCF_LOGIN_RATE_PER_SECOND": "1000"})
    # Stopped with hands in progress, it would give them the default 20 s to end: no test here is about that.
    env["HCF_SHUTDOWN_GRACE"] = "1"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "server.cli", "serve", "--port", str(port), "--web-port", "0", "--db", f"sqlite:///{work}/hcf.db",
             "--log-format", "json", "--table-defaults", json.dumps(TABLE_DEFAULTS)],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        token = _wait_ready(port, log, proc)
        yield Server(f"http://127.0.0.1:{port}", port, token, log)
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def _wait_ready(port: int, log: Path, proc: subprocess.Popen[bytes]) -> str:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited: {log.read_text()}")
        match = re.search(r"host token \(shown once\): (\S+)", log.read_text())
        if match:
            with contextlib.suppress(OSError), \
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return match.group(1)
        time.sleep(0.1)
    raise RuntimeError(f"the server did not start: {log.read_text()}")


@pytest.fixture
def relay(server: Server) -> Iterator[Relay]:
    """A relay to the server (cut its links to drop the connections of the clients behind it)."""
    r = Relay(server.port)
    try:
        yield r
    finally:
        r.close()



class Relay:
    """Relays 127.0.0.1:<port> to 127.0.0.1:<target>."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.links: list[socket.socket] = []
        self.lock = threading.Lock()
        self.accepted = 0
        self._stop = False
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        """The URL clients use."""
        return f"http://127.0.0.1:{self.port}"

    def _accept(self) -> None:
        while not self._stop:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                client.close()
                continue
            with self.lock:
                if self._stop:
                    client.close()
                    upstream.close()
                    return
                self.links += [client, upstream]
                self.accepted += 1
            threading.Thread(target=self._pipe, args=(client, upstream), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client), daemon=True).start()

    @staticmethod
    def _pipe(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:  # one side ended: end the link both ways, and free both sockets
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()

    def cut(self) -> int:
        """Drop every open link; returns how many sockets were closed."""
        with self.lock:
            links, self.links = self.links, []
        for s in links:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                s.close()
        return len(links)

    def close(self) -> None:
        """Stop relaying."""
        with self.lock:
            self._stop = True
        with contextlib.suppress(OSError):
            self.listener.close()
        self.cut()


@contextlib.contextmanager
def _speaking(lang: str) -> Iterator[None]:
    """The terminal's language is ``lang`` meanwhile (the process's one language: server/i18n.use_language)."""
    use_language(lang)
    try:
        yield
    finally:
        use_language("en")


@pytest.fixture
def german() -> Iterator[None]:
    """The terminal's language is German for the test."""
    with _speaking("de"):
        yield


@pytest.fixture
def spanish() -> Iterator[None]:
    """The terminal's language is Spanish for the test."""
    with _speaking("es"):
        yield


@pytest.fixture
def lang(request: pytest.FixtureRequest) -> Iterator[str]:
    """The terminal's language is the test's parameter (``indirect``); English again after it."""
    use_language(request.param)
    try:
        yield request.param
    finally:
        use_language("en")
