"""The client's memory of a table: events in, log lines, results and the check of the deal out."""

from __future__ import annotations

from client_cli.tracker import Tracker
from tests.client_cli.samples import HAND_ID, play_a_hand, snapshot


def _follow(tracker: Tracker, seat: int | None, *, skip_reveal: bool = False) -> None:
    played = play_a_hand()
    tracker.on_snapshot(snapshot(None, seat), 0.0)
    if seat is not None:
        tracker.note_bet(HAND_ID, seat, {2: "bob's seed", 3: "cy"}.get(seat, "x"))
    for event in played.events:
        tracker.on_event(event)
        if event["type"] == "cards_dealt" and seat is not None:
            tracker.on_private(played.own_cards(seat))
    if not skip_reveal:
        tracker.on_event(played.reveal)


def test_a_player_who_raised_sees_the_results_and_deal_verified() -> None:
    tracker = Tracker(symbols=False)
    _follow(tracker, 2)
    assert tracker.verdict is not None
    assert tracker.verdict.ok is True
    assert tracker.verdict.headline.startswith(f"hand #{HAND_ID}: deal verified (2 hands")
    assert tracker.results[0].plain.startswith(f"Hand #{HAND_ID} · DP ann")
    assert "bob raises 10" in tracker.log or "bob raises 20" in tracker.log or "bob raises 30" in tracker.log
    assert tracker.log[-1] == tracker.verdict.headline


def test_a_player_who_folded_still_checks_their_own_cards() -> None:
    tracker = Tracker(symbols=False)
    _follow(tracker, 3)
    assert tracker.verdict is not None
    assert tracker.verdict.ok is True
    assert tracker.hands[HAND_ID].cards[3]  # their own cards, never shown to anyone else


def test_cards_that_differ_from_the_seed_raise_the_alarm() -> None:
    tracker = Tracker(symbols=False)
    played = play_a_hand()
    tracker.on_snapshot(snapshot(None, 3), 0.0)
    for event in played.events:
        tracker.on_event(event)
        if event["type"] == "cards_dealt":
            cards = played.own_cards(3)
            tracker.on_private({**cards, "cards": [*cards["cards"][:-1], "2c" if "2c" not in cards["cards"] else "2d"]})
    tracker.on_event(played.reveal)
    assert tracker.verdict is not None
    assert tracker.verdict.ok is False
    assert "DEAL NOT VERIFIED" in tracker.log[-1]


def test_a_reveal_missed_during_a_drop_is_checked_from_the_rejoin_snapshot() -> None:
    tracker = Tracker(symbols=False)
    _follow(tracker, 2, skip_reveal=True)
    assert tracker.verdict is None
    rejoin = snapshot(None, 2)
    rejoin["last_hand"] = play_a_hand().reveal
    tracker.on_snapshot(rejoin, 1.0)  # an ordinary refresh does not re-check
    assert tracker.verdict is None
    tracker.on_snapshot(rejoin, 1.0, joined=True)
    assert tracker.verdict is not None
    assert tracker.verdict.ok is True
    tracker.on_event(play_a_hand().reveal)  # the late event changes nothing
    assert sum("deal verified" in line for line in tracker.log) == 1


def test_an_older_snapshot_answered_late_is_ignored() -> None:
    tracker = Tracker()
    newer = snapshot(None, 2)
    older = {**snapshot(None, 2), "seq": 3, "seats": []}
    tracker.on_snapshot(newer, 0.0)
    tracker.on_snapshot(older, 0.0)
    assert tracker.snapshot is newer


def test_the_server_clock_comes_from_the_snapshot() -> None:
    tracker = Tracker()
    tracker.on_snapshot(snapshot(None, 2, server_time=1000.0), 990.0)
    assert tracker.server_now(995.0) == 1005.0
