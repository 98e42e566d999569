"""Redis, nginx and ``hcf-server serve`` processes for the scale-out test, on loopback.

Started as tests/support/postgres.py starts PostgreSQL: from Debian's binaries, in
a temporary directory, on free ports of 127.0.0.1. Missing binaries raise
:class:`ServiceMissing` naming the Debian package; the test turns it into a
failure, never a skip.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from tests.support.postgres import HOST, free_port

REPO: Final = Path(__file__).resolve().parents[2]
NGINX_CONF: Final = REPO / "deploy" / "nginx.conf"


class ServiceMissing(RuntimeError):  # noqa: N818 - reads better at the raise site
    """A server binary is not installed."""


def binary(name: str, package: str) -> str:
    """The path of a Debian-installed binary (raises ServiceMissing naming its package)."""
    for candidate in (shutil.which(name), f"/usr/sbin/{name}", f"/usr/bin/{name}"):
        if candidate and Path(candidate).is_file():
            return candidate
    raise ServiceMissing(f"`{name}` is not installed: install the Debian package `{package}` "
                         f"(apt-get install -y {package}); .ci/run installs it from deploy/apt-packages.txt")


def _wait(ready: Any, process: subprocess.Popen[bytes], what: str, log: Path, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited ({process.returncode}); its log:\n{_tail(log)}")
        with contextlib.suppress(OSError):
            if ready():
                return
        time.sleep(0.05)
    raise RuntimeError(f"{what} was not ready after {timeout:.0f} s; its log:\n{_tail(log)}")


def _tail(log: Path, lines: int = 40) -> str:
    with contextlib.suppress(OSError):
        return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])
    return "(no log)"


def _stop(process: subprocess.Popen[bytes], *, first: int = signal.SIGTERM, wait: float = 10.0) -> None:
    for sig, patience in ((first, wait), (signal.SIGKILL, 5.0)):
        if process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, sig)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(patience)


def _port_open(port: int) -> bool:
    import socket
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex((HOST, port)) == 0


@contextlib.contextmanager
def running_redis() -> Iterator[str]:
    """A throwaway redis-server (no persistence); yields its URL."""
    exe = binary("redis-server", "redis-server")
    root = Path(tempfile.mkdtemp(prefix="hcf-redis-"))
    port = free_port()
    log = root / "redis.log"
    with log.open("ab") as out:
        process = subprocess.Popen(
            [exe, "--port", str(port), "--bind", HOST, "--save", "", "--appendonly", "no", "--dir", str(root),
             "--protected-mode", "yes"],
            cwd=root, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        _wait(lambda: _port_open(port), process, "redis-server", log)
        yield f"redis://{HOST}:{port}/0"
    finally:
        _stop(process)
        shutil.rmtree(root, ignore_errors=True)


def nginx_conf(listen: int, upstreams: list[int]) -> str:
    """deploy/nginx.conf with its ports replaced: the listen port and the two server processes."""
    text = NGINX_CONF.read_text()
    text, listens = re.subn(r"listen 8080;", f"listen {HOST}:{listen};", text)
    assert listens == 1, "deploy/nginx.conf should listen on 8080 once"
    for old, new in zip(("127.0.0.1:8001", "127.0.0.1:8002"), upstreams, strict=True):
        assert old in text, f"deploy/nginx.conf should name {old}"
        text = text.replace(old, f"{HOST}:{new}")
    return text


def nginx_command(root: Path, conf: Path) -> list[str]:
    """Debian's nginx with a prefix and a pid file in ``root``."""
    return [binary("nginx", "nginx"), "-p", str(root), "-c", str(conf), "-g", f"daemon off; pid {root}/nginx.pid;"]


@contextlib.contextmanager
def running_nginx(upstreams: list[int]) -> Iterator[str]:
    """nginx with deploy/nginx.conf in front of ``upstreams``; yields its base URL."""
    root = Path(tempfile.mkdtemp(prefix="hcf-nginx-"))
    (root / "logs").mkdir()
    port = free_port()
    conf = root / "nginx.conf"
    conf.write_text(nginx_conf(port, upstreams))
    log = root / "nginx.log"
    with log.open("ab") as out:
        process = subprocess.Popen(nginx_command(root, conf), cwd=root, stdin=subprocess.DEVNULL, stdout=out,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    try:
        _wait(lambda: _port_open(port), process, "nginx", log)
        yield f"http://{HOST}:{port}"
    finally:
        _stop(process, first=signal.SIGQUIT)
        shutil.rmtree(root, ignore_errors=True)


@dataclass
class ServerProcess:
    """One ``hcf-server serve`` process with JSON logs in a file."""

    node: str
    port: int
    process: subprocess.Popen[bytes]
    log: Path
    _read: int = 0
    lines: list[dict[str, Any]] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def healthy(self) -> bool:
        with urllib.request.urlopen(f"{self.url}/healthz", timeout=1) as answer:
            return bool(answer.status == 200)

    def wait_ready(self, timeout: float = 60.0) -> None:
        _wait(self.healthy, self.process, f"hcf-server {self.node}", self.log, timeout)

    def events(self) -> list[dict[str, Any]]:
        """Every JSON log line so far."""
        with contextlib.suppress(OSError):
            text = self.log.read_text(errors="replace")
            for line in text[self._read:].splitlines(keepends=True):
                if not line.endswith("\n"):
                    break
                self._read += len(line)
                with contextlib.suppress(ValueError):
                    self.lines.append(json.loads(line))
        return self.lines

    def logged(self, event: str, **where: Any) -> list[dict[str, Any]]:
        return [e for e in self.events() if e.get("event") == event
                and all(e.get(k) == v for k, v in where.items())]

    def kill(self) -> None:
        """SIGKILL: no shutdown at all."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        """SIGTERM (a graceful stop), then SIGKILL if it lingers."""
        _stop(self.process, wait=30.0)

    def tail(self) -> str:
        return _tail(self.log)


def start_server(root: Path, node: str, database_url: str, redis_url: str,
                 extra_env: Mapping[str, str] | None = None) -> ServerProcess:
    """``hcf-server serve`` from this virtualenv, in the background (not waited for)."""
    port = free_port()
    log = root / f"{node}.log"
    env = {**os.environ, "DATABASE_URL": database_url, "HCF_REDIS_URL": redis_url, "HCF_NODE_ID": node,
           "HCF_PORT": str(port), "HCF_WEB_PORT": "0", "HCF_HOST": HOST, "HCF_LOG_FORMAT": "json",
           "HCF_DATA_DIR": str(root),
           **(extra_env or {})}
    exe = Path(sys.executable).with_name("hcf-server")
    with log.open("ab") as out:
        process = subprocess.Popen([str(exe), "serve"], cwd=root, env=env, stdin=subprocess.DEVNULL, stdout=out,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    return ServerProcess(node, port, process, log)
