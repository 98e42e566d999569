"""Issue 14 A.4, end to end: a person at a Caribbean Stud table with two fast bots gets the whole betting clock.

Before the fix the bots bet and dealt at once, and betting closed about a second
after it opened, before the person had typed anything. Now the betting waits for
every player of the hand to deal or pass, or for its clock (``bet_seconds``, kept
short here). The person reads the live view in a pseudo-terminal as people do:
the first hand they let the clock run out, the second they pass and the third they bet
and deal; then the hand is dealt at once.
"""

from __future__ import annotations

import json
import re
import subprocess
import time
import urllib.request
from pathlib import Path

import pexpect
import pytest

from client_cli.api import request_json
from tests.client_cli.conftest import ROOT, Server, client_env, hcf
from tests.support.pty import stop_bot

TABLE = "ps"
# Long enough for a terminal drawn late on a busy machine to see the betting open and answer in time: two hands in
# a row whose clock runs out sit a player out (seen at 3 s with four test processes on two cores).
BET_SECONDS = 6.0
HEADER = r"hand #(\d+) · (bets open|decisions|settled|void|not dealt)"
BETS = r"Bets are open: bet SPOT:ANTE"
BOT_DEALS = r"ptyh-\d deals \(bets confirmed\)"
TURN = r"Your turn on spot (\d+)"


def _create_table(server: Server, config: Path) -> None:  # noqa: ARG001
    settings = {"game": "caribbean", "bet_seconds": BET_SECONDS, "action_seconds": 10, "pause_seconds": 0.3}
    # Over HTTP: `hcf host create-table` also waits for the new table's odds (slow on a loaded machine).
    request_json("POST", f"{server.url}/api/host", {"action": "create_table", "table": TABLE, "settings": settings},
                 token=server.host_token)


def _bots_seated(server: Server, count: int = 2, timeout: float = 60) -> None:
    """Wait until the bots sit: on a slow machine they may sit after her, and her first hand is then hers alone."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with urllib.request.urlopen(f"{server.url}/api/tables", timeout=10) as answer:
            tables = json.loads(answer.read())["tables"]
        seats = next((t["seats"] for t in tables if t["name"] == TABLE), [])
        if len(seats) >= count:
            return
        time.sleep(0.2)  # polling the lobby, not waiting for a clock
    raise AssertionError(f"the bots did not sit at {TABLE} within {timeout:g} s")


def _start_bots(server: Server, config: Path, log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        return subprocess.Popen(
            hcf("bot", "--server", server.url, "--table", TABLE, "--count", "2", "--hands", "1000", "--fast",
                "--strategy", "random", "--prefix", "ptyh-"),
            cwd=ROOT, env=client_env(config), stdout=out, stderr=subprocess.STDOUT)



class Screen:
    """What the person has seen: the hand the header shows, and when its betting closed."""

    def __init__(self, child: pexpect.spawn) -> None:
        self.child = child
        self.hand = 0

    def until_bets_open(self, timeout: float = 40) -> tuple[int, float]:
        """Wait for this person's betting prompt: the hand and when it appeared."""
        while True:
            index = self.child.expect([HEADER, BETS], timeout=timeout)
            if index == 0:
                self._header()
            elif self.hand:
                return self.hand, time.monotonic()

    def until_closed(self, hand: int, timeout: float = 20) -> tuple[float, bool]:
        """Wait until ``hand`` is no longer open for bets: when that showed, and whether a bot had dealt first."""
        bot_dealt = False
        while True:
            index = self.child.expect([HEADER, BOT_DEALS], timeout=timeout)
            if index == 1:
                bot_dealt = True
                continue
            phase = self._header()
            if self.hand > hand or (self.hand == hand and phase != "bets open"):
                return time.monotonic(), bot_dealt

    def _header(self) -> str:
        self.hand = int(self.child.match.group(1))
        return str(self.child.match.group(2))


@pytest.mark.timeout(150)
def test_a_person_gets_the_whole_betting_clock_at_a_table_of_fast_bots(server: Server, tmp_path: Path) -> None:
    _create_table(server, tmp_path / "host")
    bots = _start_bots(server, tmp_path / "bots-config", tmp_path / "bots.log")
    _bots_seated(server)
    argv = hcf("play", "--server", server.url, "--name", "carol", "--table", TABLE)
    child = pexpect.spawn(argv[0], argv[1:], cwd=str(ROOT), env=client_env(tmp_path / "config", TERM="xterm-256color"),
                          dimensions=(30, 120), encoding="utf-8", timeout=30)
    screen_log = (tmp_path / "screen.log").open("w", encoding="utf-8")  # what the person saw, for a failure
    child.logfile_read = screen_log
    try:
        child.expect("Password for carol")
        child.sendline("a-good-password")
        child.expect("Type it again to register")  # a new account: asked twice
        child.sendline("a-good-password")
        child.expect(r"Buy-in at .*: ")  # asked with the table's limits; Enter takes the default
        child.sendline("")
        child.expect(r"you sit at seat \d+")
        screen = Screen(child)

        # She types nothing: the bots bet and deal at once, yet betting stays open for the whole clock.
        hand, opened = screen.until_bets_open()
        closed, bot_dealt = screen.until_closed(hand)
        assert closed - opened >= BET_SECONDS - 0.6, f"betting closed {closed - opened:.1f} s after it opened"
        assert bot_dealt, "the bots dealt while she had not answered"

        # The next hand she passes: nobody is left to wait for, so the hand is dealt at once.
        hand, _ = screen.until_bets_open()
        child.send("pass\r")
        passed_at = time.monotonic()
        child.expect(r"carol passes this hand")
        closed, _ = screen.until_closed(hand)
        assert closed - passed_at < BET_SECONDS - 1, "her Pass did not close the betting"

        # The next hand she bets and deals: the hand is dealt as soon as she has.
        hand, _ = screen.until_bets_open()
        child.send("bet 10\r")
        child.expect(r"Your bets \d+:10")
        child.send("d\r")
        dealt_at = time.monotonic()
        child.expect(TURN, timeout=BET_SECONDS + 5)
        assert time.monotonic() - dealt_at < BET_SECONDS, "her Deal closed the betting"
        child.send("p\r")
        child.expect(r"carol plays spot \d+")  # as a person would: Ctrl-C once the move is seen taken
        child.sendintr()
        child.expect("you stood up from ps", timeout=40)
        child.expect(pexpect.EOF, timeout=15)
    finally:
        if child.isalive():
            child.terminate(force=True)
        stop_bot(bots)
        screen_log.close()
    bot_log = (tmp_path / "bots.log").read_text()
    assert "refused" not in bot_log, bot_log
    assert re.search(r"Your bets \d+:10", (tmp_path / "screen.log").read_text())
