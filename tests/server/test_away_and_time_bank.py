"""The away switch and the time bank on a real server (issue 28 item 6): real Socket.IO clients, a real SQLite
file, and the server's injected clock, which only the test moves: nothing here waits for a clock to run out."""

from __future__ import annotations

from typing import Any

import pytest

from server.rules.game import AccountId
from tests.support.clock import ManualClock

from .conftest import Server
from .helpers import Client, Policy, silent

STEP = 0.05  # what the test moves the server's clock by, between looks at the table


def manual(server: Server) -> ManualClock:
    assert isinstance(server.clock, ManualClock)
    return server.clock


async def until(server: Server, client: Client, kind: str, since: int, *, most: float,
                where: Any = None) -> tuple[dict[str, Any], float]:
    """The next ``kind`` event, the server's clock moved on a step at a time (at most ``most`` seconds): the event
    and the seconds the clock moved for it."""
    moved = 0.0
    while True:
        try:
            _, event = await client.event(kind, since=since, timeout=0.2, where=where)
            return event, moved
        except AssertionError:
            if moved >= most:
                raise
        manual(server).advance(STEP)
        moved += STEP


async def away(client: Client, on: bool) -> dict[str, Any]:
    return await client.call("away", {"table": "main", "on": on})


@pytest.mark.parametrize("server_clock", ["manual"], indirect=True)
async def test_an_away_player_declines_the_bank_and_passes_without_a_clock_and_comes_back(server: Server) -> None:
    host, (alice, _bob) = await server.table(None, Policy(bank=True))
    assert (await away(alice, True))["away"] is True
    mark = host.mark()
    _, tagged = await host.event("player_away", since=0)
    assert (tagged["name"], tagged["away"]) == ("alice", True)
    assert [s["away"] for s in (await host.snapshot())["seats"]] == [True, False]
    await host.host("resume")
    declined, moved = await until(server, host, "bank_declined", mark, most=1.0)
    assert (declined["seat"], declined["reason"]) == (1, "away")
    passed, more = await until(server, host, "bets_passed", mark, most=1.0, where=lambda e: e["seat"] == 1)
    assert moved + more < 2, "the offer's and the bets' clocks are 2 s: neither ran out"
    assert passed["seat"] == 1
    back = await away(alice, False)
    assert back["away"] is False
    await host.event("player_away", since=mark, where=lambda e: e["away"] is False)
    await host.host("pause")


@pytest.mark.parametrize("server_clock", ["manual"], indirect=True)
async def test_going_away_at_ones_turn_folds_at_once_and_the_hand_settles(server: Server) -> None:
    host, (_alice, bob) = await server.table(Policy(bank=True), Policy(bank=False, decide=silent))
    mark = host.mark()
    await host.host("resume")
    turn, _ = await until(server, host, "turn_started", mark, most=1.0)
    assert turn["seat"] == 2
    at_turn = manual(server).now()
    await away(bob, True)
    _, folded = await host.event("player_folded", since=mark)
    assert (folded["seat"], folded["reason"]) == (2, "away")
    _, revealed = await host.event("hand_revealed", since=mark)
    assert revealed["status"] == "settled"
    assert manual(server).now() == at_turn, "no clock ran out: the table acted at once"
    await host.host("pause")
    await away(bob, False)


@pytest.mark.parametrize("table_overrides", [{"time_bank_seconds": 5}])
@pytest.mark.parametrize("server_clock", ["manual"], indirect=True)
async def test_the_time_bank_runs_on_after_the_clock_and_a_restarted_server_remembers_what_is_left(
        server: Server) -> None:
    host, (_alice, bob) = await server.table(Policy(bank=True), Policy(bank=False, decide=silent))
    mark = host.mark()
    await host.host("resume")
    turn, _ = await until(server, host, "turn_started", mark, most=1.0)
    deadline = turn["deadline"]
    drawn, _ = await until(server, host, "time_bank_drawn", mark, most=3.0)
    assert (drawn["name"], drawn["left"]) == ("bob", 5)
    assert drawn["deadline"] == pytest.approx(deadline + 5)
    assert (await host.snapshot())["hand"]["clock"]["deadline"] == pytest.approx(deadline + 5)
    manual(server).advance(deadline + 2 - manual(server).now())  # two of the bank's seconds used
    await bob.call("move", {"table": "main", "action": "raise", "amount": 10})
    _, used = await host.event("time_bank_used", since=mark)
    assert used["left"] == pytest.approx(3, abs=0.01)
    assert "_account" not in used
    await host.event("hand_revealed", since=mark)
    await host.host("pause")
    assert bob.account_id is not None
    again = await server.restart()
    assert again.tables.runners["main"].table.time_banks == {AccountId(bob.account_id): pytest.approx(3, abs=0.01)}
