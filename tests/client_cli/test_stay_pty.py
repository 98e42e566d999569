"""A person in a terminal takes back a Ctrl-C with ``stay``, leaves for real, and starts again without ``--name``
(issue 14: A.5, B.15). A stubborn bot holds the other seat: it never answers, so the clocks end each hand and
nothing races the person's keys."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import TextIO

import pexpect
import pytest

from client_cli.api import request_json
from client_cli.reasons import stay_effect
from tests.client_cli.conftest import ROOT, Server, client_env, hcf
from tests.support.pty import tear_down

TABLE = "stay-pty"
# The betting clock holds the hand while she presses Ctrl-C and types 'stay': 3 s ran out first on a loaded machine,
# the hand ended and the leave took effect before 'stay' came.
CLOCKS = {"offer_seconds": 3, "bet_seconds": 8, "action_seconds": 3, "pause_seconds": 0.5}


def _spawn(config: Path, screen: TextIO, *args: str) -> pexpect.spawn:
    argv = hcf("play", *args)
    child = pexpect.spawn(argv[0], argv[1:], cwd=str(ROOT), env=client_env(config, TERM="xterm-256color"),
                          dimensions=(24, 80), encoding="utf-8", timeout=30)
    child.logfile_read = screen  # what the person saw, for a failure
    return child


def _end(child: pexpect.spawn) -> int | None:
    child.expect(pexpect.EOF, timeout=20)
    child.close()
    return child.exitstatus


@pytest.mark.timeout(150)
def test_ctrl_c_then_stay_keeps_the_seat_and_a_restart_says_where_the_stack_went(server: Server,
                                                                                  tmp_path: Path) -> None:
    request_json("POST", f"{server.url}/api/host", {"action": "create_table", "table": TABLE, "settings": CLOCKS},
                 token=server.host_token)
    config = tmp_path / "config"
    screen = (tmp_path / "screen.log").open("w", encoding="utf-8")
    child = _spawn(config, screen, "--server", server.url, "--table", TABLE, "--name", "stella", "--seat", "1",
                   "--buy-in", "1000")
    mule = None
    try:
        child.expect("Password for stella")
        child.sendline("a-good-password")
        child.expect("Type it again to register")  # a new account: asked twice
        child.sendline("a-good-password")
        child.expect("you sit at seat 1 with 1000 chips")
        with (tmp_path / "mule.log").open("wb") as out:
            mule = subprocess.Popen(hcf("bot", "--server", server.url, "--table", TABLE, "--strategy", "stubborn",
                                        "--count", "1", "--hands", "1000", "--prefix", "stay-mule-"),
                                    cwd=ROOT, env=client_env(tmp_path / "mule"), stdout=out,
                                    stderr=subprocess.STDOUT)
        child.expect(r"The bank is offered to you: accept \(y\)")
        child.send("bank yes\r")  # the guide's words work as well as 'y'
        child.expect("Bets are open|bets open")

        # Ctrl-C during the hand asks to leave; 'stay' takes it back, and the DP still banks the hand.
        child.sendintr()
        child.expect("leaving after this hand: 'stay' takes it back")
        child.send("stay\r")
        child.expect("you stay at seat 1 and still bank this hand")
        # Still seated: the next hand offers her the bank again (nobody placed an Ante in this one).
        child.expect(r"The bank is offered to you: accept \(y\)", timeout=30)
        assert "you stood up" not in (child.before or "")

        # Now she leaves for real: the offer passes on, and she stands up after the hand with her chips.
        child.sendintr()
        child.expect(r"you stood up from stay-pty: your 1000 chips went back to your account; bye", timeout=30)
        assert _end(child) == 0

        # Starting again without --name: the one saved session, named; where the old stack went; the buy-in.
        child = _spawn(config, screen, "--server", server.url, "--table", TABLE)
        child.expect("playing as stella: the one session saved on this machine")
        child.expect(r"when you last left stay-pty, your stack of 1000 chips went back to your account "
                     r"\(balance now 10000\)")
        child.expect(r"Buy-in at stay-pty: 100 to 10000 chips \(Enter: 1000\): ")
        child.sendline("700")
        child.expect("you sit at seat 1 with 700 chips")
        child.sendintr()
        child.expect("you stood up from stay-pty", timeout=30)
        assert _end(child) == 0
    finally:
        tear_down(child, mule, screen)



SNAPSHOT = {"you": {"seat": 3}, "hand": {"phase": "decisions", "dealer": 1, "seats": {"3": {"decision": None}}}}


@pytest.mark.parametrize(("hand", "said"), [
    ("playing", "you stay at seat 3 and play this hand: the leave is taken back"),
    ("folded", "you stay at seat 3 for the next hands; this hand the leave already folded or passed you, "
               "and that stands"),
    ("none", "you stay at seat 3"),
])
def test_stay_says_what_the_server_answered_for_the_hand(hand: str, said: str) -> None:
    # The server's "hand" answer decides (docs/protocol.md, stay): the snapshot alone cannot tell a fold to come.
    assert stay_effect(SNAPSHOT, hand) == said
