"""``stay`` at the real server: a leave asked during a hand can be taken back, unless the host stood the player up.

docs/protocol.md (stay): the seat is kept after the hand; a leave that has not acted on
the hand yet is taken back there too (the seat plays its turn), and one that already
folded the seat stands (docs/rules/hcf.md section 4).
"""

from __future__ import annotations

import pytest

from .conftest import Server
from .helpers import Policy, events_of, hand_events, replay_table, reply_fields, silent

# bob, first to act, lets his clock run: the hand is still on when carol asks.
SLOW_BOB = pytest.mark.parametrize("table_overrides", [{"action_seconds": 2}])


@SLOW_BOB
async def test_a_player_who_stays_keeps_the_seat_and_the_stack_after_the_hand(server: Server) -> None:
    host, (_alice, _bob, carol) = await server.table(Policy(), Policy(bank=False, decide=silent), None)
    mark = host.mark()
    await host.host("resume")
    await host.event("betting_opened", since=mark)
    await carol.call("move", {"table": "main", "action": "bet", "ante": 20})
    assert (await carol.call("leave", {"table": "main"}))["standing"] == "after_hand"
    assert [s["leaving"] for s in (await carol.snapshot())["seats"]] == [False, False, True]

    stayed = await carol.call("stay", {"table": "main"})
    assert reply_fields(stayed) == {"ok": True, "leaving": False, "hand": "playing"}
    _, staying = await host.event("player_staying", since=mark)
    assert staying == {"type": "player_staying", "seat": 3, "name": carol.name}
    assert [s["leaving"] for s in (await carol.snapshot())["seats"]] == [False, False, False]
    await host.host("pause")
    _, revealed = await host.event("hand_revealed", since=mark)

    # The leave was taken back in the hand too: carol's own clock, not the leave, folded her at her turn.
    folds = events_of(hand_events(host, revealed["hand_id"]), "player_folded")
    assert {(e["seat"], e["reason"]) for e in folds} == {(2, "clock"), (3, "clock")}
    snapshot = await host.snapshot()
    assert [s["seat"] for s in snapshot["seats"]] == [1, 2, 3], "she kept her seat"
    assert snapshot["seats"][2]["stack"] == 1000 - 20 - 1
    assert not events_of(host.table_events(mark), "player_stood")


async def test_stay_without_a_leave_changes_nothing(server: Server) -> None:
    host, (_alice, _bob, carol) = await server.table(Policy(), Policy(bank=False), None)
    mark = host.mark()
    assert await carol.call("stay", {"table": "main"}) == {"ok": True, "leaving": False}, "no event, no update"
    assert await host.snapshot()
    assert not events_of(host.table_events(mark), "player_staying")


@SLOW_BOB
async def test_a_player_the_host_removes_during_a_hand_cannot_stay_and_is_told_it_was_the_host(
        server: Server) -> None:
    host, (_alice, _bob, carol) = await server.table(Policy(), Policy(bank=False, decide=silent), None)
    mark = host.mark()
    await host.host("resume")
    await host.event("betting_opened", since=mark)
    await carol.call("move", {"table": "main", "action": "bet", "ante": 20})
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


@SLOW_BOB
async def test_a_leave_taken_back_before_the_turn_lets_the_player_raise_at_it(server: Server) -> None:
    host, (_alice, bob, carol) = await server.table(Policy(), Policy(bank=False, decide=silent), None)
    mark = host.mark()
    await host.host("resume")
    await host.event("betting_opened", since=mark)
    await carol.call("move", {"table": "main", "action": "bet", "ante": 20})
    await host.event("turn_started", since=mark, where=lambda e: e["seat"] == bob.seat)
    # Decisions are on and bob thinks: carol presses Ctrl-C, then takes it back before her turn.
    assert (await carol.call("leave", {"table": "main"}))["standing"] == "after_hand"
    stayed = await carol.call("stay", {"table": "main"})
    assert reply_fields(stayed) == {"ok": True, "leaving": False, "hand": "playing"}
    assert not (await carol.snapshot())["hand"]["seats"][str(carol.seat)]["leaving"]
    await host.event("turn_started", since=mark, where=lambda e: e["seat"] == carol.seat)
    await carol.call("move", {"table": "main", "action": "raise", "amount": 20})
    await host.host("pause")
    _, revealed = await host.event("hand_revealed", since=mark)

    events = hand_events(host, revealed["hand_id"])
    assert [e["seat"] for e in events_of(events, "leave_withdrawn")] == [carol.seat]
    assert [(e["seat"], e["amount"]) for e in events_of(events, "player_raised")] == [(carol.seat, 20)]
    assert [s["seat"] for s in (await host.snapshot())["seats"]] == [1, 2, 3]
    reports = await replay_table(server.database_url, "main")
    assert reports, "the hand is in the log"
    assert all(r.ok for r in reports), [r.problems for r in reports if not r.ok]


@SLOW_BOB
async def test_a_leave_that_folded_the_hand_stands_but_the_seat_stays(server: Server) -> None:
    # dave, after carol, keeps the hand going once the leave has folded her.
    host, (_alice, _bob, carol, _dave) = await server.table(
        Policy(), Policy(bank=False, decide=silent), None, Policy(bank=False, decide=silent))
    mark = host.mark()
    await host.host("resume")
    await host.event("betting_opened", since=mark)
    await carol.call("move", {"table": "main", "action": "bet", "ante": 20})
    await host.event("turn_started", since=mark, where=lambda e: e["seat"] == carol.seat, timeout=10)
    # At her own turn the leave folds her at once: taking it back keeps the seat, not the hand.
    assert (await carol.call("leave", {"table": "main"}))["standing"] == "after_hand"
    assert reply_fields(await carol.call("stay", {"table": "main"})) == {"ok": True, "leaving": False, "hand": "folded"}
    await host.host("pause")
    _, revealed = await host.event("hand_revealed", since=mark)
    folds = events_of(hand_events(host, revealed["hand_id"]), "player_folded")
    assert (carol.seat, "left") in {(e["seat"], e["reason"]) for e in folds}
    assert [s["seat"] for s in (await host.snapshot())["seats"]] == [1, 2, 3, 4]
    assert not events_of(host.table_events(mark), "player_stood")
