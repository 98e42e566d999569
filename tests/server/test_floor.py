"""The floor's procedures at the real server (docs/rules/hcf.md section 5): a dead seat, a misdeal, a shuffler fault."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from .conftest import Server
from .helpers import (
    Client,
    Policy,
    events_of,
    expected_stacks,
    hand_events,
    one,
    raise_max,
    run_hands,
    seat_result,
    silent,
    stacks_of,
)


async def _during_turn(host: Client, turn: int, action: str, **args: Any) -> dict[str, Any]:
    """Play one hand; when it is seat ``turn``'s decision, the host does ``action``."""
    mark = host.mark()
    hand = asyncio.create_task(run_hands(host, 1))
    await host.event("turn_started", since=mark, where=lambda e: e["seat"] == turn)
    await host.host(action, **args)
    (revealed,) = await hand
    return revealed


@pytest.mark.parametrize("table_overrides", [{"fee_mode": "all"}])
async def test_a_seat_the_floor_declares_dead_gets_its_bets_and_fee_back(server: Server) -> None:
    host, _ = await server.table(Policy(), Policy(bank=False, flush_bonus=2),
                                 Policy(bank=False, straight_flush_bonus=3, decide=silent))
    before = stacks_of(await host.snapshot())
    revealed = await _during_turn(host, 3, "declare_dead", seat=3)
    events = hand_events(host, revealed["hand_id"])
    assert one(events, "seat_dead") == {"type": "seat_dead", "seat": 3, "reason": "floor",
                                        "hand_id": revealed["hand_id"], "number": 1}
    assert revealed["status"] == "settled"
    dead = seat_result(revealed, 3)
    # (the rules core reports "folded": true for a dead seat that had not raised yet: not asserted here)
    assert {k: v for k, v in dead.items() if k != "folded"} == {
        "seat": 3, "dead": True, "ante": 0, "raise": 0, "straight_flush_bonus": 0, "flush_bonus": 0, "fee": 0, "net": 0,
        "dead_reason": "floor"}
    assert "3" not in revealed["shown"]
    assert seat_result(revealed, 2)["fee"] == -1
    assert revealed["settlement"]["dealer"]["fee"] == -1
    after = stacks_of(await host.snapshot())
    assert after[3] == before[3], "the dead seat's Ante, bonus and fee all came back"
    assert after == expected_stacks(before, [revealed])


@pytest.mark.parametrize("table_overrides", [{"fee_mode": "all"}])
async def test_a_misdeal_or_shuffler_fault_voids_the_hand_and_the_button_stays(server: Server) -> None:
    host, _ = await server.table(Policy(), Policy(flush_bonus=2, decide=silent), Policy(straight_flush_bonus=1))
    before = stacks_of(await host.snapshot())
    voided = []
    for action in ("misdeal", "shuffler_fault"):
        revealed = await _during_turn(host, 2, action)
        voided.append(revealed)
        events = hand_events(host, revealed["hand_id"])
        assert one(events, "hand_voided")["reason"] == action
        assert revealed["status"] == "void"
        assert revealed["reason"] == action
        assert "settlement" not in revealed
        assert revealed["dealer"] == 1, "the DP keeps the button"
        assert [e["seat"] for e in events_of(events, "bank_offered")] == [1]
        assert one(events, "fees_collected")["fees"] == [[1, 1], [2, 1], [3, 1]]
        assert stacks_of(await host.snapshot()) == before, "every bet and fee went back"
    assert [one(hand_events(host, h["hand_id"]), "hand_started")["offer_from"] for h in voided] == [1, 1]
    server.bots[1].policy.decide = raise_max
    (settled,) = await run_hands(host, 1)
    assert settled["status"] == "settled"
    assert settled["dealer"] == 1
    assert stacks_of(await host.snapshot()) == expected_stacks(before, [settled])


async def test_the_host_cannot_void_a_hand_that_is_not_running(server: Server) -> None:
    host, _ = await server.table(Policy(), Policy())
    assert await host.refused("host", {"action": "misdeal", "table": "main"}) == "hand/none"
    assert await host.refused("host", {"action": "declare_dead", "table": "main", "seat": 2}) == "hand/none"
    assert await host.refused("host", {"action": "arrange_deck", "table": "main", "cards": "Ah Ah"}) \
        == "cards/invalid"
    assert await host.refused("host", {"action": "arrange_deck", "table": "main", "cards": "Zz"}) == "cards/invalid"
    assert (await host.snapshot())["arranged_next"] is False
