"""A server whose log reader has gone away still stops (issue 23, the shutdown that hung).

Seen in tmux: ``hcf-server serve ... 2>&1 | tee log`` with three bots; the bots stopped
mid-hand, Ctrl-C killed ``tee``, and the server was still alive a minute after SIGINT and
SIGTERM. The first log line written into the dead pipe raised ``BrokenPipeError`` inside the
table's task, which ended mid-hand; the graceful stop then waited for it forever.

Here a real server writes its output into a pipe read by ``cat`` (as by ``tee``), bots play
fast, the bots are killed mid-hand, ``cat`` is killed, and SIGINT then SIGTERM must end the server within
its shutdown bound. The test only polls the process; it waits for no clock.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.durability.helpers import ROOT, free_port

GRACE = 4.0  # HCF_SHUTDOWN_GRACE: the hand left by the bots is voided after this
# The grace, the table's wait for its last command (5 s), aiohttp's shutdown (5 s), a margin.
EXIT_WITHIN = GRACE + 5 + 5 + 8
FAST = {"pause_seconds": 0, "offer_seconds": 1, "bet_seconds": 1, "action_seconds": 1}


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HCF_") and k != "DATABASE_URL"}
    env.update({"PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(tmp_path / "data"),
                "XDG_CONFIG_HOME": str(tmp_path / "config"), "HCF_SHUTDOWN_GRACE": str(GRACE)})
    return env


def _poll(what: str, check: Callable[[], bool], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout} s")
        time.sleep(0.05)


def _healthy(url: str) -> bool:
    with contextlib.suppress(OSError, ValueError), urllib.request.urlopen(f"{url}/healthz", timeout=2) as answer:
        return bool(json.loads(answer.read()).get("ok"))
    return False


@contextlib.contextmanager
def _started(argv: list[str], **kwargs: Any) -> Iterator[subprocess.Popen[bytes]]:
    process: subprocess.Popen[bytes] = subprocess.Popen(argv, **kwargs)
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)


@pytest.mark.timeout(120)
def test_a_server_whose_log_pipe_is_closed_stops_on_sigterm_with_a_hand_left_by_its_players(
        tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = tmp_path / "log"
    read_end, write_end = os.pipe()
    with log.open("wb") as log_file, \
            _started(["cat"], stdin=read_end, stdout=log_file) as tee, \
            _started([sys.executable, "-m", "server.cli", "serve", "--port", str(port), "--web-port", "0",
                      "--db", f"sqlite:///{tmp_path / 'games' / 'hcf.db'}", "--table-defaults", json.dumps(FAST)],
                     cwd=ROOT, env=_env(tmp_path), stdout=write_end, stderr=subprocess.STDOUT) as server:
        os.close(read_end)
        os.close(write_end)
        _poll("the server's start", lambda: _healthy(url) or server.poll() is not None, 60)
        assert server.poll() is None, log.read_text()
        with _started([sys.executable, "-m", "client_cli.cli", "bot", "--server", url, "--count", "3",
                       "--hands", "1000", "--fast"], cwd=ROOT, env=_env(tmp_path),
                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as bots:
            _poll("a hand", lambda: "player_raised" in log.read_text() or "player_folded" in log.read_text(), 60)
            bots.kill()  # the players leave mid-hand: the hand waits for its clocks
            bots.wait(10)
        tee.kill()  # Ctrl-C in tmux: the reader of the server's output goes with the server's SIGINT
        tee.wait(10)
        server.send_signal(signal.SIGINT)
        started = time.monotonic()
        server.send_signal(signal.SIGTERM)  # as the operator did when nothing happened
        _poll("the server's exit after SIGINT and SIGTERM", lambda: server.poll() is not None, EXIT_WITHIN)
        assert server.returncode == 0, f"exit status {server.returncode} after {time.monotonic() - started:.1f} s"
    with contextlib.closing(sqlite3.connect(tmp_path / "games" / "hcf.db")) as books:
        statuses = dict(books.execute("SELECT status, count(*) FROM hand GROUP BY status").fetchall())
    assert "in_progress" not in statuses, f"the hand left by the players was not voided: {statuses}"
