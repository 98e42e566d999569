"""End to end on a real server: Caribbean Stud and 6 Card Poker tables with ``hcf bot``, ``hcf watch`` and a
person typing into ``hcf play`` (plain lines on a pipe)."""

from __future__ import annotations

import json
import queue
import re
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from client_cli.api import request_json
from tests.client_cli.conftest import ROOT, Server, client_env, hcf

QUICK = {"bet_seconds": 4, "action_seconds": 4, "pause_seconds": 0.2}


def _create(server: Server, config: Path, name: str, settings: dict[str, object]) -> None:  # noqa: ARG001
    # Over HTTP: `hcf host create-table` (tested in test_bots.py) also waits for the new table's odds, which a
    # loaded machine may work out for longer than these tests wait.
    request_json("POST", f"{server.url}/api/host", {"action": "create_table", "table": name, "settings": settings},
                 token=server.host_token)


def _watch(server: Server, config: Path, table: str) -> subprocess.Popen[str]:
    return subprocess.Popen(hcf("watch", "--server", server.url, "--table", table), cwd=ROOT, env=client_env(config),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _bots(server: Server, config: Path, table: str, *args: str, timeout: float = 90) -> dict[str, object]:
    done = subprocess.run(hcf("bot", "--server", server.url, "--table", table, "--fast", "--json", *args), cwd=ROOT,
                          env=client_env(config), capture_output=True, text=True, timeout=timeout, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    summary: dict[str, object] = json.loads(done.stdout)
    return summary


def _stop(watch: subprocess.Popen[str]) -> str:
    watch.send_signal(signal.SIGINT)
    seen, _ = watch.communicate(timeout=20)
    assert watch.returncode == 0, seen
    return seen


def _checked(seen: str) -> None:
    assert "deal verified" in seen
    assert "DEAL NOT VERIFIED" not in seen
    assert "client error" not in seen
    assert "\x1b[" not in seen


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_caribbean_bots_play_and_a_spectator_sees_the_meter_and_checks_every_deal(server: Server,
                                                                                  tmp_path: Path) -> None:
    _create(server, tmp_path, "carib-bots", {"game": "caribbean", **QUICK})
    watch = _watch(server, tmp_path, "carib-bots")
    try:
        basic = _bots(server, tmp_path, "carib-bots", "--count", "2", "--hands", "3", "--ante", "10")
        randoms = _bots(server, tmp_path, "carib-bots", "--count", "2", "--hands", "2", "--strategy", "random",
                        "--seed", "11")
    finally:
        seen = _stop(watch)
    for summary in (basic, randoms):
        assert summary["errors"] == 0
        assert isinstance(summary["bots"], list)
        assert all(bot["hands"] >= 2 for bot in summary["bots"])
    _checked(seen)
    assert re.search(r"jackpot 10,0\d\d\.\d\d", seen)  # the meter, in every header, in chips with two decimals
    assert "Dealer: " in seen
    assert re.search(r"spot \d \S+ +(folded, )?ante [+-]\d+", seen)  # results per spot
    # A hand's meter line (whichever hand the spectator saw first: it may join after the first one).
    assert re.search(r"jackpot meter 10,0\d\d\.\d\d -> 10,0\d\d\.\d\d", seen)


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_sixcard_bots_draw_raise_fold_and_ask_and_a_spectator_checks_every_deal(server: Server,
                                                                                tmp_path: Path) -> None:
    _create(server, tmp_path, "six-bots", {"game": "sixcard", "exchange_seconds": 3, **QUICK})
    watch = _watch(server, tmp_path, "six-bots")
    try:
        randoms = _bots(server, tmp_path, "six-bots", "--count", "3", "--hands", "4", "--strategy", "random",
                        "--seed", "5")
        basic = _bots(server, tmp_path, "six-bots", "--count", "1", "--hands", "2")
    finally:
        seen = _stop(watch)
    for summary in (randoms, basic):
        assert summary["errors"] == 0
    _checked(seen)
    assert re.search(r"(buys a sixth card|exchanges cards) for box \d \(fee \d+\)", seen)
    assert re.search(r"box \d \S+ +(open|blind|bonus)", seen)


@pytest.mark.timeout(90)
def test_a_stubborn_bot_is_folded_by_the_clock_at_a_caribbean_table(server: Server, tmp_path: Path) -> None:
    _create(server, tmp_path, "carib-clock", {"game": "caribbean", "bet_seconds": 1, "action_seconds": 1,
                                             "pause_seconds": 0.2})
    stubborn = subprocess.Popen(hcf("bot", "--server", server.url, "--table", "carib-clock", "--strategy", "stubborn",
                                    "--hands", "2", "--json", "--prefix", "stud-mule-"),
                                cwd=ROOT, env=client_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
    try:
        players = _bots(server, tmp_path, "carib-clock", "--count", "1", "--hands", "3")
    finally:
        out, err = stubborn.communicate(timeout=60)
    assert players["errors"] == 0
    assert stubborn.returncode == 0, out + err
    assert json.loads(out)["bots"][0]["hands"] >= 2


class Person:
    """Someone typing into ``hcf play`` on a pipe, reading its plain lines."""

    def __init__(self, server: Server, config: Path, table: str, name: str) -> None:
        self.proc = subprocess.Popen(hcf("play", "--server", server.url, "--table", table, "--name", name), cwd=ROOT,
                                     env=client_env(config, HCF_PASSWORD="a good password"), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def expect(self, pattern: str, timeout: float = 30) -> re.Match[str]:
        """Read lines until one matches ``pattern``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            self.seen.append(line)
            match = re.search(pattern, line)
            if match:
                return match
        raise AssertionError(f"no line matched {pattern!r}; last lines:\n" + "\n".join(self.seen[-40:]))

    def expect_each(self, *patterns: str, timeout: float = 30) -> None:
        """Read lines until each of ``patterns`` matched one, in any order (a note and a prompt printed by two tasks
        come in either order on a loaded machine)."""
        deadline = time.monotonic() + timeout
        left = list(patterns)
        while left:
            match = self.expect("|".join(f"(?:{p})" for p in left), max(0.01, deadline - time.monotonic()))
            left = [p for p in left if not re.search(p, match.string)]

    def type(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def leave(self) -> str:
        self.type("leave")
        out, _ = self.proc.communicate(timeout=30)
        return "\n".join(self.seen) + out


@pytest.mark.timeout(120)
def test_a_person_plays_caribbean_stud_in_plain_lines(server: Server, tmp_path: Path) -> None:
    _create(server, tmp_path, "carib-play", {"game": "caribbean", "bet_seconds": 30, "action_seconds": 30,
                                            "pause_seconds": 0.2})
    person = Person(server, tmp_path, "carib-play", "stud-player")
    try:
        person.expect(r"^> Bets are open: bet SPOT:ANTE\[j\]")
        person.type("bet 1:600")
        person.expect(r"^! spot 1: the Ante is 5 to 333 chips, got 600")  # the server's limit: 3x it is covered
        person.type("bet 1:10j 3:5")
        person.expect(r"^> Your bets 1:10j 3:5: deal \(d\)")
        person.type("deal")
        for _ in range(2):
            spot = person.expect(r"^> Your turn on spot (\d) \((.+)\): play \(p\)").group(1)
            person.type("fold" if spot == "3" else "play")
        person.expect(r"^Hand #\d+ · Dealer: .* · (qualifies|does NOT qualify)")
        person.expect(r"^  jackpot meter 10,000\.00 -> 10,000\.50")
        person.expect(r"deal verified \(\d hands? checked")
    finally:
        seen = person.leave()
    assert "spot 1 stud-player" in seen
    assert "stud-player folds spot 3" in seen
    assert person.proc.returncode == 0, seen


@pytest.mark.timeout(120)
def test_a_person_plays_6_card_poker_in_plain_lines(server: Server, tmp_path: Path) -> None:
    _create(server, tmp_path, "six-play", {"game": "sixcard", "bet_seconds": 30, "action_seconds": 30,
                                          "exchange_seconds": 30, "pause_seconds": 0.2})
    person = Person(server, tmp_path, "six-play", "six-player")
    try:
        person.expect(r"^> Bets are open: bet BOX:ANTE\[\+BONUS\]")
        person.type("bet 1:10 2:60")
        person.expect(r"^! your largest Ante \(60\) may be at most 5x your smallest \(10\)")
        person.type("bet 1:10+1 2:20 3:5")
        person.expect(r"^> Your bets 1:10\+1 2:20 3:5 \(blind: 3\)")
        person.type("d")
        person.expect(r"^> Box 2 \(.+\): raise \(r\) = Bet 40, fold \(f\), buy, or x 1 3")  # the larger Ante first
        person.type("x 1 2 3")
        person.expect(r"^! an exchange replaces 1, 2 or 5 cards, not 3")
        person.type("buy")
        person.expect_each(r"box 2: a sixth card bought for a fee of 20 chips",
                           r"^> Box 2 \(.+, drawn\): raise \(r\) = Bet 40, or fold \(f\)")
        person.type("r")
        person.expect(r"^> Box 1 \(.+\): raise")
        person.type("x 1 5")
        person.expect(r"box 1: \S+ \S+ \(positions 1 5\) exchanged for a fee of 10 chips")
        person.type("fold")
        match = person.expect(r"^(> Dealer exchange: ask BOX|Hand #\d+ · Dealer)")
        if match.group(1).startswith(">"):
            person.type("ask 3")
            person.expect(r"box 3 asks for the dealer exchange: fee 5 chips")
            person.type("continue")
            person.expect(r"^Hand #\d+ · Dealer")
        person.expect(r"deal verified")
    finally:
        seen = person.leave()
    assert "six-player buys a sixth card for box 2 (fee 20)" in seen
    assert re.search(r"box 2 six-player +open  draw fee -20", seen)
    assert person.proc.returncode == 0, seen
