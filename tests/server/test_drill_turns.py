"""Several trainees at one live drill table (issue 27, item 6): they deal in turn, each answers only the steps
of the hands they deal, the trainer's view names them all and whose turn it is, and each one's report is kept in
their own history, read through ``/api/trainees/{name}`` after a restart.

The table's clock is a manual one: a hand starts only when the test moves it; bots play the seats.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.clock import ManualClock

from .conftest import Server
from .helpers import Client, Policy
from .test_http import call

DRILL = "turns"
SETTINGS: dict[str, Any] = {"pause_seconds": 0, "min_bank": 100,
                            "drill": {"trainees": ["ana", "ben"], "trainee_turn": 1, "steps": ["offer_bank"],
                                      "step_seconds": 30}}


async def _trainee(server: Server, name: str) -> Client:
    account = await server.account(name)
    return await server.client(name=name, token=account["token"], account_id=account["account_id"])


async def _asked(server: Server, host: Client, since: int, number: int) -> tuple[int, dict[str, Any]]:
    """The hand's ``number`` first step, once the test's clock starts it."""
    assert isinstance(server.clock, ManualClock)
    server.clock.advance(1.0)
    return await host.event("drill_step", since=since, where=lambda e: e["hand"] == number)


@pytest.mark.parametrize("server_clock", ["manual"], indirect=True)
async def test_two_trainees_deal_in_turn_and_each_ones_report_is_their_own_after_a_restart(server: Server) -> None:
    host = await server.host()
    ana, ben = await _trainee(server, "ana"), await _trainee(server, "ben")
    await host.host("create_table", table=DRILL, settings=SETTINGS)
    await host.join(DRILL)
    for trainee in (ana, ben):
        await trainee.join(DRILL)
        assert await trainee.refused("sit", {"table": DRILL, "buy_in": 500}) == "drill/trainee"
    for name, seat in (("alice", 1), ("bob", 2)):
        await server.player(name, table=DRILL, seat=seat, buy_in=500, policy=Policy())

    # Hand 1 is ana's: ben may not answer it; the trainer's view names both and whose turn it is.
    mark = host.mark()
    mark, asked = await _asked(server, host, mark, 1)
    assert asked["trainee"] == "ana"
    assert asked["message"] == "drill: the table waits for ana, the dealer (the bank offer)"
    watch = (await host.snapshot(DRILL))["drill"]
    assert (watch["trainees"], watch["trainee"], watch["waiting"]["trainee"]) == (["ana", "ben"], "ana", "ana")
    assert await ben.refused("drill", {"table": DRILL, "action": "answer", "answer": {"seat": 1}}) \
        == "drill/not_trainee"
    assert (await ana.call("drill", {"table": DRILL, "action": "answer", "answer": {"seat": 1}}))["right"] is True
    await host.event("hand_revealed", since=mark, where=lambda e: e.get("number") == 1)

    # Hand 2 is ben's: he answers it (wrong), ana may not.
    mark, asked = await _asked(server, host, mark, 2)
    assert asked["trainee"] == "ben"
    assert (await host.snapshot(DRILL))["drill"]["trainee"] == "ben", "the view says whose turn it is"
    assert await ana.refused("drill", {"table": DRILL, "action": "answer", "answer": {"seat": 2}}) \
        == "drill/not_trainee"
    question = (await ben.call("drill", {"table": DRILL, "action": "question"}))["step"]
    wrong = 1 if question["view"]["button"] != 1 else 2  # any seat but the right one: not worth computing here
    ben_reply = await ben.call("drill", {"table": DRILL, "action": "answer", "answer": {"seat": wrong}})
    await host.event("hand_revealed", since=mark, where=lambda e: e.get("number") == 2)
    await host.host("pause", table=DRILL)

    own = (await ben.call("drill", {"table": DRILL, "action": "report"}))["report"]
    assert (own["trainee"], own["total"], own["right"]) == ("ben", 1, int(ben_reply["right"]))
    ended = await host.host("drill_end", table=DRILL)
    assert (ended["report"]["total"], ended["report"]["trainee"]) == (2, "ana and ben")
    assert {name: (r["total"], r["right"]) for name, r in ended["reports"].items()} == \
        {"ana": (1, 1), "ben": (1, int(ben_reply["right"]))}

    restarted = await server.restart()
    for name, right in (("ana", 1), ("ben", int(ben_reply["right"]))):
        status, history = await call(restarted, "GET", f"/api/trainees/{name}", token=restarted.host_token)
        assert status == 200, history
        (session,) = history["sessions"]
        assert (session["source"], session["total"], session["right"]) == ("live", 1, right), name
