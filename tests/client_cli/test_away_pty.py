"""A person in a terminal types ``away``: the table declines the bank for them at once and their seat line says
so; ``back`` returns them (issue 28 item 6). A stubborn bot holds the other seat and never answers."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pexpect
import pytest

from client_cli.api import request_json
from tests.client_cli.conftest import ROOT, Server, client_env, hcf
from tests.support.pty import tear_down

TABLE = "away-pty"
CLOCKS = {"offer_seconds": 12, "bet_seconds": 12, "action_seconds": 12, "pause_seconds": 0.5}


@pytest.mark.timeout(120)
def test_away_declines_the_bank_at_once_and_back_returns(server: Server, tmp_path: Path) -> None:
    request_json("POST", f"{server.url}/api/host", {"action": "create_table", "table": TABLE, "settings": CLOCKS},
                 token=server.host_token)
    request_json("POST", f"{server.url}/api/host", {"action": "pause", "table": TABLE}, token=server.host_token)
    argv = hcf("play", "--server", server.url, "--table", TABLE, "--name", "ana", "--seat", "1", "--buy-in", "1000")
    screen = (tmp_path / "screen.log").open("w", encoding="utf-8")
    child = pexpect.spawn(argv[0], argv[1:], cwd=str(ROOT), env=client_env(tmp_path / "config", TERM="xterm-256color"),
                          dimensions=(24, 100), encoding="utf-8", timeout=30)
    child.logfile_read = screen
    mule = None
    try:
        child.expect("Password for ana")
        child.sendline("a-good-password")
        child.expect("Type it again to register")
        child.sendline("a-good-password")
        child.expect("you sit at seat 1 with 1000 chips")
        with (tmp_path / "mule.log").open("wb") as out:
            mule = subprocess.Popen(hcf("bot", "--server", server.url, "--table", TABLE, "--strategy", "stubborn",
                                        "--count", "1", "--hands", "1000", "--prefix", "away-mule-"),
                                    cwd=ROOT, env=client_env(tmp_path / "mule"), stdout=out,
                                    stderr=subprocess.STDOUT)
        child.send("help\r")
        child.expect("away / back")
        child.send("away\r")
        child.expect("you are away: the table passes, folds and declines the bank for you at once")
        child.expect("ana is away")
        request_json("POST", f"{server.url}/api/host", {"action": "resume", "table": TABLE}, token=server.host_token)
        # The offer's clock is 12 s: the decline comes at once, and the offer goes on to the other seat.
        child.expect("ana declines the bank", timeout=6)
        child.send("back\r")
        child.expect("you are back: the table waits for your moves again")
        child.expect("ana is back")
        child.sendintr()
        child.expect("you stood up from away-pty", timeout=40)
        child.expect(pexpect.EOF, timeout=20)
    finally:
        tear_down(child, mule, screen)
