"""End to end: a person plays each of the three games through the real terminal client, ``hcf play``.

A real ``hcf-server serve`` (subprocess, free loopback port, fresh SQLite). At each
game's table a person types into ``hcf play`` (plain lines on a pipe) what its
prompts ask, a fast ``hcf bot`` beside them at High Card Flush (the bank needs a
second player); each plays until a hand they bet in is settled and its deal
checked. Everything the person sees comes from the client's table model, updated
by the server's ``table_update``s (protocol v2): the client asks for no snapshot
during play, and offers only the moves the server's choices list.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from client_cli.api import request_json
from tests.client_cli.conftest import ROOT, Server, client_env, hcf
from tests.client_cli.conftest import server as server
from tests.client_cli.test_house_live import Person
from tests.support.pty import stop_bot

CLOCKS = {"bet_seconds": 30, "action_seconds": 30, "pause_seconds": 0.2}
GAME_CLOCKS = {"hcf": {"offer_seconds": 30}, "caribbean": {}, "sixcard": {"exchange_seconds": 30}}
HAND_OVER = r"deal verified|DEAL NOT VERIFIED"


def _create(server: Server, table: str, settings: dict[str, object]) -> None:
    # Over HTTP: `hcf host create-table` also waits for the table's odds, which a loaded machine may take long over.
    request_json("POST", f"{server.url}/api/host", {"action": "create_table", "table": table, "settings": settings},
                 token=server.host_token)


def _bot(server: Server, config: Path, table: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(hcf("bot", "--server", server.url, "--table", table, "--count", "1", "--hands", "1000",
                                "--fast", "--prefix", f"{table}-bot-"),
                            cwd=ROOT, env=client_env(config), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)



HCF_PROMPTS = r"^> (The bank is offered to you|Bets are open: bet ANTE|Your turn: fold \(f\))|" + HAND_OVER


def _play_hcf(person: Person) -> None:
    """Take the bank when offered, bet when bets open, raise the most at the turn: until a hand bet in is checked."""
    bet = False
    for _ in range(60):
        line = person.expect(HCF_PROMPTS, timeout=60).group(0)
        if "DEAL NOT VERIFIED" in line:
            pytest.fail("the client warned about a deal")
        if "deal verified" in line:
            if bet:
                return
        elif "bank is offered" in line:
            person.type("y")
        elif "Bets are open" in line:
            person.type("bet 10 1 1")
            bet = True
        else:
            person.type("r max")
    pytest.fail("no hand with a bet of the person's was checked")


def _play_caribbean(person: Person) -> None:
    person.expect(r"^> Bets are open: bet SPOT:ANTE\[j\]")
    person.type("fold")  # not among the choices now: said, never sent
    person.expect(r"^! it is not your turn to fold\. Now you may: .*bet")
    person.type("bet 1:10j")
    person.expect(r"^> Your bets 1:10j: deal \(d\)")
    person.type("deal")
    person.expect(r"^> Your turn on spot 1 \(.+\): play \(p\)")
    person.type("play")
    person.expect(r"^Hand #\d+ · Dealer: ")
    person.expect(HAND_OVER)


def _play_sixcard(person: Person) -> None:
    person.expect(r"^> Bets are open: bet BOX:ANTE\[\+BONUS\]")
    person.type("bet 1:10")
    person.expect(r"^> Your bets 1:10: deal \(d\)")
    person.type("d")
    person.expect(r"^> Box 1 \(.+\): raise \(r\) = Bet 20, fold \(f\), buy")
    person.type("r")
    match = person.expect(r"^(> Dealer exchange: ask BOX|Hand #\d+ · Dealer)")
    if match.group(1).startswith(">"):
        person.type("continue")
        person.expect(r"^Hand #\d+ · Dealer")
    person.expect(HAND_OVER)


@pytest.mark.slow
@pytest.mark.timeout(180)
@pytest.mark.parametrize("game", ["hcf", "caribbean", "sixcard"])
def test_a_person_plays_each_game_through_the_terminal_client(server: Server, tmp_path: Path, game: str) -> None:
    table = f"term-{game}"
    _create(server, table, {"game": game, **CLOCKS, **GAME_CLOCKS[game]})
    bot = _bot(server, tmp_path / "bots", table) if game == "hcf" else None
    person = Person(server, tmp_path, table, f"{game}-person")
    try:
        {"hcf": _play_hcf, "caribbean": _play_caribbean, "sixcard": _play_sixcard}[game](person)
    finally:
        seen = person.leave()
        if bot is not None:
            stop_bot(bot)
    assert person.proc.returncode == 0, seen
    assert "DEAL NOT VERIFIED" not in seen
    assert "client error" not in seen
    assert "refused:" not in seen, seen  # every move sent was among the server's choices
    assert re.search(r"deal verified", seen)
