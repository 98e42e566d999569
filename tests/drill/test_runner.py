"""The offline runner at its in-process table: the injected irregularity, the right ruling whatever the answer,
and the table's own records."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from server.drill.play import dry_run
from server.drill.scenario import load
from server.drill_runner import run
from server.persistence.database import open_database
from server.rules.cards import card_text


async def records(url: str) -> tuple[list[dict[str, Any]], list[str]]:
    database = await open_database(url)
    try:
        async with database.transaction(write=False) as tx:
            events = [dict(e.payload) for e in await tx.table_events("drill")]
        hands = [h.status for h in reversed(await database.recent_hands("drill", 100))]
        return events, hands
    finally:
        await database.close()


def test_a_miscount_is_announced_with_the_stubs_card_and_the_seat_is_dead_whatever_the_answer(tmp_path: Path) -> None:
    scenario = load("miscount-seat")
    url = f"sqlite:///{tmp_path / 'drill.db'}"
    answers: list[Any] = [None, None, None, {"ruling": "play_on"}]  # the trainee gets the ruling wrong
    report = run(scenario, answers, url)
    assert report["steps"][3]["mistake"] == "wrong"
    assert report["ledger"] == "ok"
    events, hands = asyncio.run(records(url))
    # without its say spec (the message id and arguments, docs/i18n.md)
    announced = [{k: v for k, v in e.items() if k != "say"} for e in events if e["type"] == "drill_irregularity"]
    stub = dry_run(scenario)[0].deck[4 * 7]  # three players and the DP were dealt seven cards each
    assert announced == [{"type": "drill_irregularity", "kind": "miscount", "seat": 3, "card": card_text(stub),
                          "message": f"drill: seat 3 is dealt an extra card from the stub ({card_text(stub)})"}]
    dead = [e for e in events if e["type"] == "seat_dead"]
    assert [(e["seat"], e["reason"]) for e in dead] == [(3, "floor")]
    assert hands == ["settled", "settled"]


def test_a_shuffler_fault_voids_the_hand_and_the_button_stays(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'drill.db'}"
    report = run(load("shuffler-fault"), [], url)
    assert (report["right"], report["ledger"]) == (0, "ok")
    assert {s["mistake"] for s in report["steps"]} == {"no answer"}
    events, hands = asyncio.run(records(url))
    assert hands == ["void", "settled"]
    assert [e["reason"] for e in events if e["type"] == "hand_voided"] == ["shuffler_fault"]
    assert [e["seat"] for e in events if e["type"] == "bank_accepted"] == [1, 1]
