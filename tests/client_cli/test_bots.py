"""End to end: ``hcf bot`` against a real server, with ``hcf host`` and ``hcf watch`` beside it."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from client_cli.api import request_json
from tests.client_cli.conftest import ROOT, Server, client_env, hcf


def _host(server: Server, config: Path, *args: str) -> dict[str, object]:
    done = subprocess.run(hcf("host", "--server", server.url, *args, "--json"), cwd=ROOT,
                          env=client_env(config, HCF_HOST_TOKEN=server.host_token),
                          capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    reply: dict[str, object] = json.loads(done.stdout)
    return reply


def _bots(server: Server, config: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(hcf("bot", "--server", server.url, *args), cwd=ROOT, env=client_env(config),
                          capture_output=True, text=True, timeout=timeout, check=False)


@pytest.mark.timeout(90)
def test_three_basic_bots_play_three_hands_and_say_so_in_json(server: Server, tmp_path: Path) -> None:
    reply = _host(server, tmp_path, "create-table", "bots3", "--set", "pause_seconds=0.2")
    assert reply["ok"] is True
    watch = subprocess.Popen(hcf("watch", "--server", server.url, "--table", "bots3"), cwd=ROOT,
                             env=client_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        done = _bots(server, tmp_path, "--table", "bots3", "--count", "3", "--hands", "3", "--fast", "--json")
    finally:
        watch.send_signal(signal.SIGINT)
        seen, _ = watch.communicate(timeout=20)
    assert done.returncode == 0, done.stdout + done.stderr
    summary = json.loads(done.stdout)
    assert set(summary) == {"hands", "bots", "errors"}
    assert summary["errors"] == 0
    assert summary["hands"] >= 3
    assert len(summary["bots"]) == 3
    for bot in summary["bots"]:
        assert set(bot) == {"name", "hands", "net"}
        assert bot["hands"] >= 3
        assert isinstance(bot["net"], int)
    # Chips are conserved: what the bots lost together is the house's fees.
    assert -3 * summary["hands"] * 2 <= sum(b["net"] for b in summary["bots"]) <= 0
    # The spectator (not a terminal) saw plain lines, every deal checked, and no colour codes.
    assert watch.returncode == 0, seen
    assert "\x1b[" not in seen
    assert "deal verified" in seen
    assert "DEAL NOT VERIFIED" not in seen


@pytest.mark.timeout(90)
def test_a_bot_that_finds_no_seat_says_so_in_the_servers_sentence(server: Server, tmp_path: Path) -> None:
    """Found by hand: a bot at a full table printed "ServerRefused: table main is full"."""
    _host(server, tmp_path, "create-table", "two", "--set", "seats=2", "--set", "pause_seconds=0.2")
    done = _bots(server, tmp_path, "--table", "two", "--count", "3", "--hands", "1", "--fast", "--prefix", "full")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "error: table two is full (all 2 seats are taken)" in done.stdout, done.stdout
    assert "ServerRefused" not in done.stdout + done.stderr


@pytest.mark.timeout(90)
def test_random_and_stubborn_bots_share_a_table_and_the_clocks_answer_for_the_stubborn(
        server: Server, tmp_path: Path) -> None:
    _host(server, tmp_path, "create-table", "clocks", "--settings",
          json.dumps({"offer_seconds": 1, "bet_seconds": 1, "action_seconds": 1, "pause_seconds": 0.2}))
    stubborn = subprocess.Popen(
        hcf("bot", "--server", server.url, "--table", "clocks", "--strategy", "stubborn", "--hands", "2",
            "--json", "--prefix", "mule-"),
        cwd=ROOT, env=client_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # The others only once the mule sits: on a loaded machine they could play their 3 hands and leave before
        # it had started, and a bot alone waits for a second player for ever.
        _wait_seated(server, "clocks", 1, stubborn)
        players = _bots(server, tmp_path, "--table", "clocks", "--count", "2", "--hands", "3", "--strategy",
                        "random", "--fast", "--json", "--seed", "7")
    finally:
        try:
            out, err = stubborn.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            stubborn.kill()  # never left running into the next tests
            stubborn.communicate()
            raise
    assert players.returncode == 0, players.stdout + players.stderr
    assert json.loads(players.stdout)["errors"] == 0
    assert stubborn.returncode == 0, out + err
    mule = json.loads(out)
    assert mule["bots"][0]["name"] == "mule-1"
    assert mule["bots"][0]["hands"] >= 2


def test_hcf_host_refuses_without_the_host_token(server: Server, tmp_path: Path) -> None:
    done = subprocess.run(hcf("host", "--server", server.url, "pause", "--host-token", "not-it"), cwd=ROOT,
                          env=client_env(tmp_path), capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 1
    assert done.stdout.strip() == "error: that is not the host token"  # a sentence, not the code


def test_every_command_has_help_with_examples() -> None:
    for command in ("play", "watch", "bot", "host", "history", "account"):
        done = subprocess.run(hcf(command, "--help"), cwd=ROOT, capture_output=True, text=True, timeout=30,
                              check=True)
        assert "example" in done.stdout, command


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_six_fast_random_bots_play_thirty_hands_at_a_table_without_pause(server: Server, tmp_path: Path) -> None:
    """Issue 15: with pause_seconds 0 our own fast bots once ran into rate/limited (a snapshot after every burst).

    Now they act on the choices of each update and ask no snapshot; a rate/limited answer is retried by the
    connection and is never an error.
    """
    _host(server, tmp_path, "create-table", "nopause", "--set", "pause_seconds=0")
    done = _bots(server, tmp_path, "--table", "nopause", "--count", "6", "--fast", "--strategy", "random",
                 "--hands", "30", "--json", "--seed", "15", timeout=220)
    assert done.returncode == 0, done.stdout + done.stderr
    summary = json.loads(done.stdout)
    assert summary["errors"] == 0
    assert summary["hands"] >= 30
    assert len(summary["bots"]) == 6
    assert all(bot["hands"] >= 30 for bot in summary["bots"]), summary


@pytest.mark.timeout(120)
async def test_bots_ask_no_snapshot_during_play(server: Server, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Every request the bots send is counted at the socket: join and sit, moves, leave; never a snapshot."""
    import socketio

    from client_cli.bots import BotOptions, run_bots
    from client_cli.store import TokenStore

    sent: Counter[str] = Counter()
    real_call = socketio.AsyncClient.call

    async def counting(self: socketio.AsyncClient, event: str, *args: Any, **kwargs: Any) -> Any:
        sent[event] += 1
        return await real_call(self, event, *args, **kwargs)

    monkeypatch.setattr(socketio.AsyncClient, "call", counting)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    _host(server, tmp_path, "create-table", "nosnap", "--set", "pause_seconds=0")
    report = await run_bots(BotOptions(server.url, table="nosnap", count=3, hands=5, strategy="random", fast=True,
                                       seed=3), TokenStore())
    assert report.ok, [b.errors for b in report.bots]
    assert report.hands >= 5
    assert sent["snapshot"] == 0, sent
    assert sent["join"] == 3
    assert sent["move"] >= 5


def _wait_seated(server: Server, table: str, count: int, process: subprocess.Popen[str],
                 timeout: float = 30.0) -> None:
    """Wait until ``count`` players sit at ``table`` (the lobby says), or fail if ``process`` ended first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, "the bot ended before it sat"
        tables = request_json("GET", f"{server.url}/api/tables")["tables"]
        if any(t["name"] == table and len(t["seats"]) >= count for t in tables):
            return
        time.sleep(0.1)  # polling the lobby, not waiting for a clock
    raise AssertionError(f"nobody sat at {table} within {timeout} s")

