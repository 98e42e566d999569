"""``stay`` at the real server: a leave asked during a hand can be taken back, unless the host stood the player up.

docs/protocol.md (stay): the seat is kept after the hand, and what the leave did to
the hand in progress stands (docs/rules/hcf.md section 4: a leaving seat folds at its
turn).
"""

from __future__ import annotations

import pytest

from .conftest import Server
from .helpers import Policy, events_of, hand_events, silent

# bob, first to act, lets his clock run: the hand is still on when carol asks.
SLOW_BOB = pytest.mark.parametrize("table_overrides", [{"action_seconds": 2}])


@SLOW_BOB
async def test_a_player_who_stays_keeps_the_seat_and_the_stack_after_the_hand(server: Server) -> None:
    host, (_alice, _bob, carol) = await server.table(Policy(), Policy(bank=False, decide=silent), None)
    mark = host.mark()
    await host.host("resume")
    await host.event("betting_opened", since=mark)
    await carol.call("bet", {"table": "main", "ante": 20})
    assert (await carol.call("leave", {"table": "main"}))["standing"] == "after_hand"
    assert [s["leaving"] for s in (await carol.snapshot())["seats"]] == [False, False, True]

    assert await carol.call("stay", {"table": "main"}) == {"ok": True, "leaving": False}
    _, staying = await host.event("player_staying", since=mark)
    assert staying == {"type": "player_staying", "seat": 3, "name": carol.name}
    assert [s["leaving"] for s in (await carol.snapshot())["seats"]] == [False, False, False]
    await host.host("pause")
    _, revealed = await host.event("hand_revealed", since=mark)

    # The leave already told the hand: carol's hand folded at her turn, and she lost her Ante and fee.
    folds = events_of(hand_events(host, revealed["hand_id"]), "player_folded")
    assert {(e["seat"], e["reason"]) for e in folds} == {(2, "clock"), (3, "left")}
    snapshot = await host.snapshot()
    assert [s["seat"] for s in snapshot["seats"]] == [1, 2, 3], "she kept her seat"
    assert snapshot["seats"][2]["stack"] == 1000 - 20 - 1
    assert not events_of(host.table_events(mark), "player_stood")


async def test_stay_without_a_leave_changes_nothing(server: Server) -> None:
    host, (_alice, _bob, carol) = await server.table(Policy(), Policy(bank=False), None)
    mark = host.mark()
    assert await carol.call("stay", {"table": "main"}) == {"ok": True, "leaving": False}
    assert await host.snapshot()
    assert not events_of(host.table_events(mark), "player_staying")


@SLOW_BOB
async def test_a_player_the_host_removes_during_a_hand_cannot_stay_and_is_told_it_was_the_host(
        server: Server) -> None:
    host, (_alice, _bob, carol) = await server.table(Policy(), Policy(bank=False, decide=silent), None)
    mark = host.mark()
    await host.host("resume")
    await host.event("betting_opened", since=mark)
    await carol.call("bet", {"table": "main", "ante": 20})
    assert (await host.host("remove_player", seat=3))["removed"] == "after_hand"
    assert await carol.refused("stay", {"table": "main"}) == "seat/removed"
    await host.host("pause")
    _, stood = await host.event("player_stood", since=mark)
    assert (stood["seat"], stood["reason"]) == (3, "removed")


async def test_a_closed_table_says_so_when_it_stands_everyone_up(server: Server) -> None:
    host, (_alice, _bob) = await server.table(Policy(), Policy(bank=False))
    mark = host.mark()
    await host.host("close_table")
    _, stood = await host.event("player_stood", since=mark)
    assert stood["reason"] == "closed"
