"""End to end: a person plays ``hcf play`` in a terminal against a real server, bots in the other seats.

The test reads the live view as a person would (24x80 pseudo-terminal) and
types answers: registers, sits, takes the bank, bets (after a refused bet that
is explained, never sent), raises, reads the results and "deal verified", loses
the connection and comes back to carry on, and leaves with Ctrl-C. Then the
saved session serves ``hcf account`` without a password, and ``hcf history``
shows and checks the hands.
"""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pexpect
import pytest

from tests.client_cli.conftest import ROOT, Relay, Server, client_env, hcf
from tests.support.pty import stop_bot

HEADER = r"Table main · hand #(\d+) · "
BANK = r"The bank is offered to you: accept \(y\)"
BETS = r"Bets are open: bet ANTE"
TURN = r"Your turn: fold \(f\)"
VERIFIED = r"hand #(\d+): deal verified"
WARNING = r"DEAL NOT VERIFIED"
PATTERNS = [HEADER, BANK, BETS, TURN, VERIFIED, WARNING]


@dataclass
class Person:
    """Answers the prompts of the live view, once per hand and prompt."""

    child: pexpect.spawn
    hand: int = 0
    answered: set[tuple[int, str]] = field(default_factory=set)
    banked: set[int] = field(default_factory=set)
    raised: set[int] = field(default_factory=set)
    verified: set[int] = field(default_factory=set)
    tried_a_bad_bet: bool = False

    def play_until(self, done: object, timeout: float = 60) -> None:
        """Answer prompts until ``done()`` is true."""
        assert callable(done)
        while not done():
            index = self.child.expect(PATTERNS, timeout=timeout)
            if index == 0:
                self.hand = int(self.child.match.group(1))
            elif index == 4:
                hand = int(self.child.match.group(1))
                if hand in self.raised and hand not in self.verified:
                    # The results are drawn above the check: every seat's line with its net.
                    assert re.search(rf"Hand #{hand} · DP", self.child.before), self.child.before[-2000:]
                    assert "net " in self.child.before
                self.verified.add(hand)
            elif index == 5:
                pytest.fail(f"the client warned about a deal: {self.child.before[-2000:]}")
            else:
                self._answer(("bank", "bets", "turn")[index - 1])

    def _answer(self, prompt: str) -> None:
        key = (self.hand, prompt)
        if key in self.answered:
            return  # a redraw of a prompt already answered
        self.answered.add(key)
        if prompt == "bank":
            self.child.send("y\r")
            self.banked.add(self.hand)
        elif prompt == "bets":
            if not self.tried_a_bad_bet:
                self.tried_a_bad_bet = True
                self.child.send("bet 1\r")
                self.child.expect(r"the Ante is 5 to \d+ chips here")
            self.child.send("bet 10 5 5\r")
        else:
            self.child.send("r max\r")
            self.raised.add(self.hand)


def _start_bots(server: Server, config: Path, log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        return subprocess.Popen(
            hcf("bot", "--server", server.url, "--count", "2", "--hands", "1000", "--fast", "--prefix", "ptybot-"),
            cwd=ROOT, env=client_env(config), stdout=out, stderr=subprocess.STDOUT)



@pytest.mark.timeout(150)
def test_a_person_plays_a_session_in_a_terminal(server: Server, relay: Relay, tmp_path: Path) -> None:
    config = tmp_path / "config"
    argv = hcf("play", "--server", relay.url, "--name", "alice", "--seat", "1")
    child = pexpect.spawn(argv[0], argv[1:], cwd=str(ROOT), env=client_env(config, TERM="xterm-256color"),
                          dimensions=(24, 80), encoding="utf-8", timeout=30)
    screen = (tmp_path / "screen.log").open("w", encoding="utf-8")  # what the person saw, for a failure
    child.logfile_read = screen
    bots = None
    try:
        child.expect("Password for alice")
        child.sendline("a-good-password")
        child.expect("Type it again to register")  # a new account: asked twice
        child.sendline("a-good-password")
        child.expect("registered a new account: alice")
        # Asked for the buy-in with the table's limits; a refused amount is explained and asked again.
        child.expect(r"Buy-in at main: 100 to 10000 chips \(Enter: 1000\): ")
        child.sendline("50")
        child.expect("the buy-in is 100 to 10000 chips here")
        child.expect(r"Buy-in at main: 100 to 10000 chips \(Enter: 1000\): ")
        child.sendline("")
        child.expect("you sit at seat 1 with 1000 chips")
        child.send("help\r")
        child.expect("Commands \\(type them and press Enter\\)")
        bots = _start_bots(server, tmp_path / "bots-config", tmp_path / "bots.log")
        person = Person(child)

        # The first hand offers the bank from seat 1: she banks one hand and plays another.
        person.play_until(lambda: (person.banked & person.verified) and (person.raised & person.verified))

        # The connection drops; the client comes back by itself and carries on.
        before = max(person.verified)
        assert relay.cut() > 0
        child.expect("CONNECTION LOST|connection lost")
        child.expect("reconnected", timeout=20)
        person.play_until(lambda: any(h > before for h in person.raised & person.verified))
        assert relay.accepted >= 2

        # Ctrl-C leaves cleanly: now between hands, or after the current one.
        child.sendintr()
        child.expect("you stood up from main", timeout=40)
        child.expect(pexpect.EOF, timeout=15)
        child.close()
        assert child.exitstatus == 0, child.before
    finally:
        if child.isalive():
            child.terminate(force=True)
        if bots is not None:
            stop_bot(bots)
        screen.close()

    # Sessions are kept per server URL: she played through the relay.
    _the_session_was_kept(relay.url, config)
    _history_checks_the_hands(server, config, max(person.raised & person.verified))


def _the_session_was_kept(url: str, config: Path) -> None:
    sessions = config / "hcf-table" / "sessions.json"
    assert stat.S_IMODE(os.stat(sessions).st_mode) == 0o600
    # No password is needed (a wrong one would fail): the saved token logs in.
    done = subprocess.run(hcf("account", "--server", url, "--name", "alice", "--json"), cwd=ROOT,
                          env=client_env(config, HCF_PASSWORD="a-wrong-password"), capture_output=True,
                          text=True, timeout=30, check=False)
    assert done.returncode == 0, done.stderr
    account = json.loads(done.stdout)
    assert account["name"] == "alice"
    assert account["stacks"] == {}
    kinds = {m["kind"] for m in account["movements"]}
    assert {"buy_in", "cash_out"} <= kinds


def _history_checks_the_hands(server: Server, config: Path, hand: int) -> None:
    listing = subprocess.run(hcf("history", "--server", server.url, "--json"), cwd=ROOT, env=client_env(config),
                             capture_output=True, text=True, timeout=30, check=True)
    hands = json.loads(listing.stdout)["hands"]
    assert any(h["number"] == hand for h in hands)  # the table's own number, as the screen shows it
    full = subprocess.run(hcf("history", "--server", server.url, str(hand)), cwd=ROOT, env=client_env(config),
                          capture_output=True, text=True, timeout=30, check=True)
    assert f"hand #{hand}: deal verified" in full.stdout
    assert "alice" in full.stdout
    assert "\x1b[" not in full.stdout  # not a terminal: no colour codes


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))
