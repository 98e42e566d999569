"""A bank offer left to run out is a refusal, nothing more (issue 23 item 3; docs/rules/hcf.md section 4).

A person in a terminal bets and raises every hand but never answers a bank offer: over six hands they are never
sat out. A stubborn bot beside them does nothing at all: it is sat out after two hands, as section 4 says. A basic
bot banks.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pexpect
import pytest

from client_cli.api import request_json
from tests.client_cli.conftest import ROOT, Server, client_env, hcf
from tests.support.pty import stop_bot

TABLE = "offers-pty"
CLOCKS = {"offer_seconds": 2, "bet_seconds": 3, "action_seconds": 3, "pause_seconds": 0.5}
HEADER = rf"Table {TABLE} · hand #(\d+) · "
BANK = r"The bank is offered to you: accept \(y\)"
BETS = r"Bets are open: bet ANTE"
TURN = r"Your turn: fold \(f\)"
VERIFIED = r"hand #(\d+): deal verified"
SAT_OUT = r"(?:\x1b\[[0-9;]*m|\s)([A-Za-z][A-Za-z0-9_.-]*) sits out \(([^)]*)\)"  # after a colour code or a space
PATTERNS = [HEADER, BANK, BETS, TURN, VERIFIED, SAT_OUT]


def _bot(server: Server, tmp_path: Path, strategy: str) -> subprocess.Popen[bytes]:
    with (tmp_path / f"{strategy}.log").open("wb") as out:
        return subprocess.Popen(
            hcf("bot", "--server", server.url, "--table", TABLE, "--strategy", strategy, "--count", "1",
                "--hands", "1000", "--prefix", f"offers-{strategy}-"),
            cwd=ROOT, env=client_env(tmp_path / strategy), stdout=out, stderr=subprocess.STDOUT)



@pytest.mark.timeout(240)
def test_a_player_who_bets_and_raises_but_never_banks_is_never_sat_out(server: Server, tmp_path: Path) -> None:
    request_json("POST", f"{server.url}/api/host", {"action": "create_table", "table": TABLE, "settings": CLOCKS},
                 token=server.host_token)
    argv = hcf("play", "--server", server.url, "--table", TABLE, "--name", "pat", "--seat", "1",
               "--buy-in", "1000")
    child = pexpect.spawn(argv[0], argv[1:], cwd=str(ROOT), env=client_env(tmp_path / "config", TERM="xterm-256color"),
                          dimensions=(24, 80), encoding="utf-8", timeout=30)
    screen = (tmp_path / "screen.log").open("w", encoding="utf-8")  # what the person saw, for a failure
    child.logfile_read = screen
    bots: list[subprocess.Popen[bytes]] = []
    hand, answered, offers, raised, verified = 0, set(), set(), set(), set()
    sat_out: set[tuple[str, str]] = set()
    try:
        child.expect("Password for pat")
        child.sendline("a-good-password")
        child.expect("Type it again to register")  # a new account: asked twice
        child.sendline("a-good-password")
        child.expect("you sit at seat 1 with 1000 chips")
        bots = [_bot(server, tmp_path, "basic"), _bot(server, tmp_path, "stubborn")]
        while len(raised & verified) < 6:
            index = child.expect(PATTERNS, timeout=60)
            if index == 0:
                hand = int(child.match.group(1))
            elif index == 1:
                offers.add(hand)  # never answered: the offer runs out
            elif index in (2, 3) and (hand, index) not in answered:
                answered.add((hand, index))
                child.send("bet 5\r" if index == 2 else "r max\r")
                if index == 3:
                    raised.add(hand)
            elif index == 4:
                verified.add(int(child.match.group(1)))
            elif index == 5:
                sat_out.add((child.match.group(1), child.match.group(2)))
        assert offers, "the bank was offered to the person, who let it run out"
        assert all(name != "pat" for name, _ in sat_out), f"the person was sat out: {sat_out}"
        assert {(re.sub(r"\d+$", "", name), why) for name, why in sat_out} == \
            {("offers-stubborn-", "the clock ran out two hands in a row")}, \
            "the bot that does nothing is sat out after two hands"
    finally:
        if child.isalive():
            child.terminate(force=True)
        for bot in bots:
            stop_bot(bot)
        screen.close()
