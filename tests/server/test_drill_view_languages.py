"""A live drill's question over Socket.IO carries its view's sentences as specs (``say``), so the trainee's
terminal and page say the table line, the dealer and each seat's state in their own language (issue 28 item 5)."""

from __future__ import annotations

from typing import Any

import pytest

from client_cli.drill.screen import dealer_lines
from server.i18n import use_language
from server.rules.drill.views import view_from_json
from tests.support.clock import ManualClock

from .conftest import Server

DRILL = "drill"
SETTINGS: dict[str, Any] = {"pause_seconds": 0, "min_bank": 100, "fee_mode": "players", "fee": 1,
                            "drill": {"trainee": "tina", "mode": "training", "step_seconds": 30}}


@pytest.mark.parametrize("server_clock", ["manual"], indirect=True)
async def test_the_first_steps_view_comes_with_its_specs_and_reads_in_german(server: Server) -> None:
    host = await server.host()
    account = await server.account("tina")
    tina = await server.client(name="tina", token=account["token"], account_id=account["account_id"])
    await host.host("create_table", table=DRILL, settings=SETTINGS)
    await tina.join(DRILL)
    for name, seat in (("alice", 1), ("bob", 2)):
        await server.player(name, table=DRILL, seat=seat, buy_in=500)
    mark = tina.mark()
    assert isinstance(server.clock, ManualClock)
    server.clock.advance(1.0)  # the table's pause before a hand
    await tina.event("drill_step", since=mark, where=lambda e: e["step"] == "offer_bank")
    asked = (await tina.call("drill", {"table": DRILL, "action": "question"}))["step"]
    view = asked["view"]
    assert view["dealer"] == "no DP yet"
    assert view["say"]["dealer"] == {"id": "no DP yet"}
    assert view["say"]["table"]["id"] == "High Card Flush, California: {fee}; min bank {low}"
    use_language("de")
    try:
        lines = dealer_lines(view_from_json(view), "Schritt 1", asked["step"])
    finally:
        use_language("en")
    assert "Gebührenmodus players, Gebühr 1; Mindestbank 100" in lines[1]
    assert "noch kein designierter Spieler" in lines[2]
    assert lines[-1] == "Wem wird die Bank angeboten?"
