"""Sitting down or coming back during a bank offer says why you have no moves (issue 23 item 8).

It used to leave the player out of that hand with the client's own "you cannot bet now" and no reason.
"""

from __future__ import annotations

import pytest

from .conftest import Server

NEXT_HAND = "this hand began before you sat down or came back: you play from the next hand"


@pytest.mark.parametrize("table_overrides", [{"offer_seconds": 60}])  # the offer outlasts the test
async def test_a_player_who_sits_down_or_comes_back_during_the_bank_offer_is_told_they_play_from_the_next_hand(
        server: Server) -> None:
    host, (alice, _bob) = await server.table(None, None)
    mark = host.mark()
    await host.host("resume")
    await host.event("bank_offered", since=mark)  # nobody answers: the offer stands while carol sits
    carol = await server.player("carol", sit=False)
    reply = await carol.call("sit", {"table": "main"})
    assert reply["message"] == NEXT_HAND
    assert reply["update"]["choices"]["next_hand"] == NEXT_HAND
    refused = await carol.conn.raw_call("move", {"table": "main", "action": "bet", "ante": 10})
    assert refused == {"ok": False, "error": {"code": "seat/not_in_hand", "message": NEXT_HAND}}
    await carol.call("sit_out", {"table": "main", "sitting_out": True})
    back = await carol.call("sit_out", {"table": "main", "sitting_out": False})
    assert back["message"] == NEXT_HAND, "coming back during the hand says the same"
    snapshot = await carol.snapshot()
    assert snapshot["choices"]["next_hand"] == NEXT_HAND
    assert snapshot["hand"] is not None
    assert "3" not in snapshot["hand"]["seats"], "she takes no part in the hand"
    mine = await alice.snapshot()
    assert "next_hand" not in mine["choices"], "a player in the hand has moves, and no such note"
    await host.host("pause")


def test_the_terminal_shows_the_servers_reason_instead_of_you_cannot_bet_now() -> None:
    from client_cli.parse import InputError, legal_choices, parse_line

    snapshot = {"you": {"seat": 3}, "seats": [{"seat": 3, "stack": 1000}],
                "hand": {"phase": "offer", "offered": 1, "seats": {}},
                "choices": {"seat": 3, "deadline": None, "moves": [], "next_hand": NEXT_HAND}}
    for line in ("bet 10", "pass", "fold", "r max"):
        said = parse_line(line, legal_choices(snapshot))
        assert isinstance(said, InputError)
        assert said.message == NEXT_HAND
