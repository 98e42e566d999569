"""A live drill over Socket.IO: a trainee answers each step, the trainer injects an irregularity (issue 16).

The table's own clock is a manual one: a step's time runs out only when the test
moves the clock (DRILLS section 6), and no other clock runs meanwhile. The report's
right answers are checked against the key read off the table's recorded log by the
same engine as the offline runner's, the trainee's answers against the judge, and
the players' updates for the answers they must never see.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from client_cli.connection import Connection
from client_cli.drill.grammar import parse_answer
from client_cli.drill.live import run_live
from server.drill_runner import recorded_key
from server.rules.drill.explain import STEP_NAMES
from server.rules.drill.irregularity import Irregularity
from server.rules.drill.judge import judge
from tests.support.clock import ManualClock

from .conftest import Server
from .helpers import Client, Policy, silent
from .test_http import call

DRILL = "drill"
SETTINGS: dict[str, Any] = {"pause_seconds": 0, "min_bank": 100, "fee_mode": "players", "fee": 1,
                            "drill": {"trainee": "tina", "mode": "training", "step_seconds": 30}}


def manual(server: Server) -> ManualClock:
    assert isinstance(server.clock, ManualClock)
    return server.clock


async def _trainee(server: Server) -> Client:
    """The trainee's account and connection, made before the drill table (it names an account that exists)."""
    account = await server.account("tina")
    return await server.client(name="tina", token=account["token"], account_id=account["account_id"])


async def _question(tina: Client, since: int, step: str) -> tuple[int, dict[str, Any]]:
    """Wait for the table to ask ``step``, then ask for the question and the dealer's view."""
    at, _ = await tina.event("drill_step", since=since, where=lambda e: e["step"] == step)
    asked = (await tina.call("drill", {"table": DRILL, "action": "question"}))["step"]
    assert asked["step"] == step
    return at + 1, asked


async def _answer(tina: Client, answer: dict[str, Any]) -> dict[str, Any]:
    reply: dict[str, Any] = await tina.call("drill", {"table": DRILL, "action": "answer", "answer": answer})
    return reply


async def _recorded_key(server: Server, hand_id: int, irregularity: Irregularity) -> list[dict[str, Any]]:
    """The hand's steps from the table's own log, through the drill engine (as ``hcf-server drill run`` reads it)."""
    key = await recorded_key("hcf", server.app_database(), hand_id, irregularity)
    return [{"step": s.step, "answer": s.answer} for s in key]


@pytest.mark.parametrize("server_clock", ["manual"], indirect=True)
async def test_a_live_drill_asks_judges_records_and_reports_every_step(server: Server) -> None:
    host = await server.host()
    tina = await _trainee(server)
    await host.host("create_table", table=DRILL, settings=SETTINGS)
    await host.join(DRILL)
    await tina.join(DRILL)
    assert await tina.refused("sit", {"table": DRILL, "buy_in": 500}) == "drill/trainee"
    alice, bob, carol = [await server.player(n, table=DRILL, seat=s, buy_in=500)
                         for n, s in (("alice", 1), ("bob", 2), ("carol", 3))]
    assert await bob.refused("drill", {"table": DRILL, "action": "question"}) == "drill/not_trainee"
    mark = tina.mark()
    manual(server).advance(1.0)  # the table's pause before a hand

    # 1. the bank offer: held until the trainee answers; the players may do nothing meanwhile
    mark, asked = await _question(tina, mark, "offer_bank")
    assert [s["name"] for s in asked["view"]["seats"]] == ["alice", "bob", "carol"]
    assert alice.model(DRILL)["hand"] is None, "the hand (and who is offered the bank) shows once it is recorded"
    assert alice.moves(DRILL) == []
    assert alice.model(DRILL)["drill"]["waiting"]["step"] == "offer_bank"
    assert await alice.refused("move", {"table": DRILL, "action": "bank", "accept": True}) == "drill/waiting"
    feedback = await _answer(tina, {"seat": 1})
    assert (feedback["right"], feedback["rule"]) == (True, "RULES 3.1")
    await alice.event("bank_offered", where=lambda e: e["seat"] == 1)
    await alice.call("move", {"table": DRILL, "action": "bank", "accept": True})
    await bob.event("betting_opened")
    for player in (bob, carol):
        await player.call("move", {"table": DRILL, "action": "bet", "ante": 10})

    # 2, 3. the fees and the first card, before the deal; the trainee gets the first card wrong
    mark, _ = await _question(tina, mark, "fees")
    assert (await _answer(tina, {"fees": {"2": 1, "3": 1}}))["right"] is True
    mark, _ = await _question(tina, mark, "first_card")
    wrong = await _answer(tina, {"seat": 3})
    assert (wrong["right"], wrong["mistake"], wrong["answer"]) == (False, "wrong", {"seat": 2})
    _, turn = await bob.event("turn_started")
    assert turn["seat"] == 2

    # 4. the trainer injects a miscount at carol's seat; the ruling kills it, whatever the trainee says
    reply = await host.host("inject", table=DRILL, kind="miscount", seat=3)
    assert reply["injected"] == "miscount"
    assert await host.refused("host", {"action": "inject", "table": DRILL, "kind": "none"}) == "drill/not_now"
    mark, asked = await _question(tina, mark, "irregularity")
    assert "seat 3 is dealt an extra card" in asked["view"]["note"]
    assert await bob.refused("move", {"table": DRILL, "action": "fold"}) == "drill/waiting"
    assert (await _answer(tina, {"ruling": "play_on"}))["right"] is False
    await bob.event("seat_dead", where=lambda e: e["seat"] == 3)

    # 5-7. bob raises: the DP's hand is shown; the trainee lets the qualifier's time run out
    cards = bob.model(DRILL)["hand"]["your_cards"]
    await bob.call("move", {"table": DRILL, "action": "raise", "amount": cards["raise_limit"] * 10})
    mark, asked = await _question(tina, mark, "qualify")
    assert len(asked["view"]["dealer_cards"]) == 7, "the DP's hand is shown to the dealer"
    manual(server).advance(30.0)
    mark, _ = await _question(tina, mark, "settle_seat")
    assert (await _answer(tina, {"seat": 3, "dead": True}))["mistake"] == "order"
    mark, _ = await _question(tina, mark, "bank_after")
    await _answer(tina, {"stack": 1})
    _, revealed = await host.event("hand_revealed", where=lambda e: e.get("number") == 1)

    report = (await host.host("drill_report", table=DRILL))["report"]
    steps = report["steps"]
    assert [s["step"] for s in steps] == ["offer_bank", "fees", "first_card", "irregularity", "qualify",
                                          "settle_seat", "bank_after"]
    key = await _recorded_key(server, revealed["hand_id"], Irregularity("miscount", 3))
    assert [{"step": s["step"], "answer": s["answer"]} for s in steps] == key, "the key is the recorded hand's"
    for s in steps:
        assert s["right"] == judge(s["step"], s["given"], s["answer"]).right
    assert [s["mistake"] for s in steps] == [None, None, "wrong", "wrong", "no answer", "order", "wrong"]
    assert steps[4]["given"] is None
    assert steps[0]["seconds"] is not None
    assert (report["right"], report["total"]) == (2, 7)
    assert report["by_step"]["first_card"] == {
        "right": 0, "total": 1, "median_seconds": steps[2]["seconds"], "worst_seconds": steps[2]["seconds"],
        "accuracy": 0.0, "standard_seconds": 5, "within_standard": int(steps[2]["seconds"] <= 5)}

    # The players saw the corrections, never an answer the trainee gave.
    answered = [e for e in bob.table_events() if e["type"] == "drill_answered"]
    assert [e["n"] for e in answered] == list(range(1, 8))
    assert answered[2]["correction"] == {"seat": 2}
    assert "correction" not in answered[0]
    for client in (alice, bob, carol, tina):
        for event in client.table_events():
            assert not any(k.startswith("_") or k == "given" for k in event), event

    # The answers are in the database: a restart keeps the session and its report.
    restarted = await server.restart()
    host2 = await restarted.host()
    again = (await host2.host("drill_report", table=DRILL))["report"]
    assert [(s["step"], s["given"], s["right"]) for s in again["steps"]] == \
        [(s["step"], s["given"], s["right"]) for s in steps]
    ended = (await host2.host("drill_end", table=DRILL))["report"]
    assert (ended["right"], ended["total"]) == (2, 7)
    assert await host2.refused("host", {"action": "inject", "table": DRILL, "kind": "none"}) == "drill/off"


@pytest.mark.parametrize("server_clock", ["manual"], indirect=True)
async def test_a_stop_while_a_step_is_asked_counts_it_unanswered_and_voids_the_hand(server: Server) -> None:
    host = await server.host()
    tina = await _trainee(server)
    await host.host("create_table", table=DRILL, settings=SETTINGS)
    await tina.join(DRILL)
    for name, seat in (("alice", 1), ("bob", 2)):
        await server.player(name, table=DRILL, seat=seat, buy_in=500)
    mark = tina.mark()
    manual(server).advance(1.0)
    await _question(tina, mark, "offer_bank")
    restarted = await server.restart()  # the stop's grace runs out on the wall clock: the hand is voided
    host2 = await restarted.host()
    report = (await host2.host("drill_report", table=DRILL))["report"]
    assert [(s["step"], s["mistake"]) for s in report["steps"]] == [("offer_bank", "no answer")]
    assert not await restarted.app_database().hands_in_progress()


@pytest.mark.parametrize("server_clock", ["manual"], indirect=True)
async def test_a_stop_at_a_later_step_asks_no_step_after_it(server: Server) -> None:
    """The stop releases the step asked as unanswered; the hand goes no further, so no later step is asked and
    counted against the trainee (docs/drills.md: its steps not yet answered are never asked)."""
    host = await server.host()
    tina = await _trainee(server)
    await host.host("create_table", table=DRILL, settings=SETTINGS)
    await tina.join(DRILL)
    alice, bob = [await server.player(n, table=DRILL, seat=s, buy_in=500) for n, s in (("alice", 1), ("bob", 2))]
    mark = tina.mark()
    manual(server).advance(1.0)
    mark, _ = await _question(tina, mark, "offer_bank")
    await _answer(tina, {"seat": 1})
    await alice.event("bank_offered", where=lambda e: e["seat"] == 1)
    await alice.call("move", {"table": DRILL, "action": "bank", "accept": True})
    await bob.event("betting_opened")
    await bob.call("move", {"table": DRILL, "action": "bet", "ante": 10})
    await _question(tina, mark, "fees")
    restarted = await server.restart()
    report = (await (await restarted.host()).host("drill_report", table=DRILL))["report"]
    assert [(s["step"], s["mistake"]) for s in report["steps"]] == [("offer_bank", None), ("fees", "no answer")]
    assert not await restarted.app_database().hands_in_progress()


LINES = {"offer_bank": "offer 1", "fees": "fees 2:1 3:1", "first_card": "first 3", "irregularity": "dead hand",
         "qualify": "q y", "settle_seat": "settle 2 +10 0 0 0", "bank_after": "bank 1000", "walk_away": "fold"}
"""What the test's trainee types at each step: some right, some wrong; the judge decides which."""


@pytest.mark.parametrize("server_clock", ["manual"], indirect=True)
async def test_the_trainees_client_plays_a_live_drill_with_bots_and_an_injected_irregularity(server: Server) -> None:
    """``hcf drill --table``'s session (client_cli/drill/live.py) against bots; the trainer injects a miscount."""
    host = await server.host()
    account = await server.account("tina")  # the trainee's account comes first (issue 23 item 21)
    await host.host("create_table", table=DRILL, settings=SETTINGS)
    await host.join(DRILL)
    for name, seat in (("alice", 1), ("bob", 2), ("carol", 3)):  # they bank, bet and leave decisions to the clock
        await server.player(name, table=DRILL, seat=seat, buy_in=500,
                            policy=Policy(bank=seat == 1, decide=silent))
    conn = Connection(server.url, token=account["token"])
    await conn.connect()
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    said: list[str] = []
    asked = asyncio.Event()

    def say(text: str) -> None:
        said.append(text)
        if re.match(r"--- hand \d+ · step \d+: .+ ---", text):
            asked.set()

    session = asyncio.create_task(run_live(conn, DRILL, lines, say))
    typed: list[str] = []

    async def answer_next(expect: str) -> None:
        await asyncio.wait_for(asked.wait(), 10)
        asked.clear()
        named = re.findall(r"step \d+: (.+) ---", "\n".join(said))[-1]
        step = next(kind for kind, name in STEP_NAMES.items() if name == named)  # the header names it in words
        assert step == expect, said[-12:]
        typed.append(LINES[step])
        await lines.put(LINES[step])

    mark = host.mark()
    manual(server).advance(1.0)
    for step in ("offer_bank", "fees", "first_card"):
        await answer_next(step)
    await host.event("turn_started", since=mark)
    await host.host("inject", table=DRILL, kind="miscount", seat=3)
    await answer_next("irregularity")
    await host.event("seat_dead", since=mark)
    manual(server).advance(3.0)  # bob's decision clock: he folds, the hand ends
    await answer_next("bank_after")
    await host.event("hand_revealed", since=mark)
    await host.host("pause", table=DRILL)
    ended = (await host.host("drill_end", table=DRILL))["report"]
    assert await asyncio.wait_for(session, 10) == 0
    await conn.close()

    assert [s["step"] for s in ended["steps"]] == ["offer_bank", "fees", "first_card", "irregularity", "bank_after"]
    assert [s["given"] for s in ended["steps"]] == [parse_answer(s["step"], line)
                                                    for s, line in zip(ended["steps"], typed, strict=True)]
    verdicts = [line for line in said if line == "right." or line.startswith("wrong")]
    assert [v == "right." for v in verdicts] == [s["right"] for s in ended["steps"]]
    assert ended["steps"][3]["answer"] == {"ruling": "dead_seat", "seat": 3}
    revealed = (await host.snapshot(DRILL))["last_hand"]
    key = await _recorded_key(server, revealed["hand_id"], Irregularity("miscount", 3))
    assert [{"step": s["step"], "answer": s["answer"]} for s in ended["steps"]] == key
    assert any(line.startswith("Report: drill (training):") for line in said), "the report ends the session"
    # The table keeps the report in the trainee's history once the drill's end is committed (issue 27, item 4).
    status, history = await call(server, "GET", "/api/trainees/tina", token=server.host_token)
    assert status == 200, history
    (session,) = history["sessions"]
    assert (session["source"], session["partial"]) == ("live", False)
    assert (session["right"], session["total"]) == (ended["right"], ended["total"])


async def test_a_drill_table_whose_trainee_has_no_account_is_refused(server: Server) -> None:
    """Issue 23 item 21: a trainee named before the account exists would be whoever registers that name first."""
    host = await server.host()
    reply = await host.conn.raw_call("host", {"action": "create_table", "table": DRILL, "settings": SETTINGS})
    assert reply == {"ok": False, "error": {"code": "account/unknown", "message": (
        "no account is named tina: the trainee registers (or takes an invite) first, "
        "then the drill table can be made")}}
    assert DRILL not in server.tables.runners, "nothing was made"
    await server.account("tina")
    assert (await host.host("create_table", table=DRILL, settings=SETTINGS))["table"]["name"] == DRILL


STUD_DRILL: dict[str, Any] = {
    "game": "caribbean", "pause_seconds": 0, "jackpot": False, "max_hands_while_waiting": 2,
    "chips": [1, 5, 25, 100, 500],
    "drill": {"trainee": "tina", "mode": "exam", "steps": ["payout"], "standards": {"payout": 20},
              "pass": {"right": 95, "within": 90}}}
STUD_HANDS = {"1": "2h 5h 8h Jh Kh", "2": "5c 6d 7s 8d 9c", "dp": "As Kd 7c 4h 2s"}
"""Spot 1 a flush (its Bet pays 5 to 1), spot 2 a straight (4 to 1), the dealer's ace-king qualifies."""


@pytest.mark.parametrize("server_clock", ["manual"], indirect=True)
async def test_a_live_drill_asks_each_payout_in_the_tables_chips_and_reports_standards_and_verdict(
        server: Server) -> None:
    """Issue 27: the table's ``chips`` reach the live drill: it asks every payout, judges its make-up against the
    chips in play (a chip the table lacks is ``chips``, however few), and the exam's report has its standards
    and its verdict."""
    host = await server.host()
    tina = await _trainee(server)
    created = await host.host("create_table", table=DRILL, settings=STUD_DRILL)
    assert created["table"]["settings"]["chips"] == [1, 5, 25, 100, 500]
    await host.join(DRILL)
    await tina.join(DRILL)
    ann = await server.player("ann", table=DRILL, seat=1, buy_in=1000)
    await host.host("arrange_deck", table=DRILL, hands=STUD_HANDS)
    mark = tina.mark()
    manual(server).advance(1.0)
    await ann.event("betting_opened")
    await ann.call("move", {"table": DRILL, "action": "bet", "seed": "ann",
                            "bets": [{"spot": 1, "ante": 10}, {"spot": 2, "ante": 10}]})
    turns = ann.mark()  # each turn found after the one before: its event may come in the answer's update or after
    await ann.call("move", {"table": DRILL, "action": "deal"})
    for _ in range(2):
        found, turn = await ann.event("turn_started", since=turns)
        turns = found + 1
        await ann.call("move", {"table": DRILL, "action": "play", "spot": turn["spot"]})

    given = [({"spot": 2, "bet": "ante", "amount": 10, "chips": {"8": 1, "2": 1}}, "chips"),  # as few, not in play
             ({"spot": 2, "bet": "bet", "amount": 80, "chips": {"25": 3, "5": 1}}, None),
             ({"spot": 1, "bet": "ante", "amount": 10, "chips": {"1": 10}}, "chips"),  # more than the fewest
             ({"spot": 1, "bet": "bet", "amount": 100, "chips": [100]}, None)]
    for answer, _ in given:
        mark, asked = await _question(tina, mark, "payout")
        assert "chips in play 1, 5, 25, 100, 500" in asked["view"]["table"]
        assert asked["chips"] == [1, 5, 25, 100, 500], "a client offers the chips in play to count out"
        reply = await _answer(tina, answer)
        assert (reply["n"], reply["recorded"], "right" in reply) == (asked["n"], True, False), "an exam tells nothing"
    _, revealed = await host.event("hand_revealed", where=lambda e: e.get("status") != "not_dealt")

    restarted = await server.restart()  # the answers' chips in play are recorded with them: judged the same after
    report = (await (await restarted.host()).host("drill_end", table=DRILL))["report"]
    steps = report["steps"]
    assert [(s["given"], s["mistake"]) for s in steps] == given
    assert [s["answer"]["chips"] for s in steps] == [{"5": 2}, {"25": 3, "5": 1}, {"5": 2}, {"100": 1}]
    key = await recorded_key("caribbean", restarted.app_database(), revealed["hand_id"], None, ["payout"],
                             (1, 5, 25, 100, 500))
    assert [s["answer"] for s in steps] == [k.answer for k in key], "the key is the recorded hand's"
    payout = report["by_step"]["payout"]
    assert (payout["right"], payout["total"], payout["accuracy"], payout["standard_seconds"]) == (2, 4, 50.0, 20)
    assert (payout["within_standard"], payout["worst_seconds"]) == (4, 0.0), "the clock never moved"
    assert report["exam"] == {"passed": False, "right_percent": 50.0, "within_percent": 100.0,
                              "marks": {"right": 95, "within": 90}}
