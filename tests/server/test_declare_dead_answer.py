"""``declare_dead`` answers with what really happened (issue 23 item 16, part; docs/server.md, declare_dead).

On the DP's seat it voids the whole hand and every bet goes back; it used to answer as if one seat had died.
"""

from __future__ import annotations

import asyncio
from typing import Any

from .conftest import Server
from .helpers import Client, Policy, run_hands, silent


async def _declare_dead_at_turn(host: Client, turn: int, seat: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Play one hand; at seat ``turn``'s decision the host declares ``seat`` dead: (the answer, the hand)."""
    mark = host.mark()
    hand = asyncio.create_task(run_hands(host, 1))
    await host.event("turn_started", since=mark, where=lambda e: e["seat"] == turn)
    reply = await host.host("declare_dead", seat=seat)
    (revealed,) = await hand
    return reply, revealed


async def test_declaring_the_dps_seat_dead_answers_that_the_whole_hand_is_void(server: Server) -> None:
    host, _ = await server.table(Policy(), Policy(bank=False), Policy(bank=False, decide=silent))
    reply, revealed = await _declare_dead_at_turn(host, 3, 1)
    assert revealed["status"] == "void", "seat 1 banked: the whole hand is void"
    assert {k: reply[k] for k in ("dead", "seat", "message")} == {
        "dead": "hand", "seat": 1,
        "message": "seat 1 is the DP's: the whole hand is void, every bet and fee goes back"}
    reply, revealed = await _declare_dead_at_turn(host, 3, 3)
    assert revealed["status"] == "settled"
    assert {k: reply[k] for k in ("dead", "seat", "message")} == {
        "dead": "seat", "seat": 3, "message": "seat 3's hand is dead: its bets and fee go back"}
