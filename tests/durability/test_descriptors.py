"""At the descriptor limit the log does not flood (issue 14, C.23), and the server comes back after it.

A real ``hcf-server serve`` in a subprocess with RLIMIT_NOFILE lowered; loopback
connections fill its descriptors, and every accept() that fails is reported by
the event loop about once a second. The log says it once per
``log_repeat_seconds`` (short here), with how many were not shown.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import resource
import socket
import subprocess
import sys
import time
from pathlib import Path

from client_cli.connection import http_json

from .helpers import ROOT, free_port

NOFILE = 96


def _lower_limit() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (NOFILE, NOFILE))


async def test_a_full_descriptor_table_is_logged_once_per_interval_with_a_count(tmp_path: Path) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("HCF_") and k != "DATABASE_URL"}
    env.update({"PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(tmp_path), "HCF_LOG_REPEAT_SECONDS": "2.5",
                "HCF_MAX_CONNECTIONS_PER_ADDRESS": "100000", "HCF_MAX_PENDING_CONNECTIONS": "100000",
                "HCF_HEADER_TIMEOUT": "120"})  # no cap and no timeout: reach the limit itself
    err = tmp_path / "server.err"
    with err.open("wb") as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-m", "server.cli", "serve", "--port", str(port), "--web-port", "0", "--db", f"sqlite:///{tmp_path}/hcf.db",
             "--log-format", "json"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=stderr,
            preexec_fn=_lower_limit)  # only setrlimit, before exec
    held: list[socket.socket] = []
    try:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(Exception):
                if (await http_json("GET", f"http://127.0.0.1:{port}/healthz")).get("ok"):
                    break
            assert proc.poll() is None, err.read_text()
            assert time.monotonic() < deadline, "the server did not start"
            await asyncio.sleep(0.05)
        for _ in range(2 * NOFILE):  # more than it may open: the kernel queues the rest unaccepted
            s = socket.socket()
            s.setblocking(False)
            with contextlib.suppress(BlockingIOError):
                s.connect(("127.0.0.1", port))
            held.append(s)
        await asyncio.sleep(5.5)  # the server retries accept() about once a second meanwhile
        lines = [line for line in err.read_text(errors="replace").splitlines() if "out of system resource" in line]
        assert 1 <= len(lines) <= 3, f"{len(lines)} lines of the same error in 5.5 s"
        entries = [json.loads(line) for line in lines]
        assert any(e.get("repeats_not_shown", 0) > 0 for e in entries[1:]), entries
        assert err.stat().st_size < 50_000
        for s in held:
            s.close()
        held.clear()
        deadline = time.monotonic() + 20
        while True:  # and once the descriptors are free it serves again
            with contextlib.suppress(Exception):
                if (await http_json("GET", f"http://127.0.0.1:{port}/healthz")).get("ok"):
                    break
            assert time.monotonic() < deadline, "the server did not come back"
            await asyncio.sleep(0.1)
    finally:
        for s in held:
            s.close()
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
