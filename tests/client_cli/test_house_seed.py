"""A seed the server dropped with the bets it sent back (the clock, Pass) is not a reason to warn about the deal.

With the whole betting clock now theirs, people bet in its last second: the
clock then sends their unconfirmed bets back, seed included, and the client used
to warn ``DEAL NOT VERIFIED: your seed is missing``. The same for a bet followed
by *Pass*.
"""

from __future__ import annotations

import pytest

from client_cli.tracker import Tracker
from server.rules.commands import CloseBets
from tests.client_cli.house_samples import HAND_ID, Table, caribbean


def _hand(ann_after_bet: str) -> Table:
    table = caribbean()
    table.move(1, "bet", {"bets": [{"spot": 2, "ante": 10}], "seed": "ann's seed"})
    table.move(2, "bet", {"bets": [{"spot": 1, "ante": 10}], "seed": "bob's"})
    table.move(2, "deal")
    if ann_after_bet == "pass":
        table.move(1, "pass")
    else:
        table.run(CloseBets())  # the betting clock ran out before ann pressed Deal
    while table.state.phase == "decisions":
        table.move(table.state.turn.seat, "play")
    return table


@pytest.mark.parametrize("ann_after_bet", ["pass", "clock"])
def test_a_bet_that_went_back_leaves_the_deal_verified(ann_after_bet: str) -> None:
    table = _hand(ann_after_bet)
    tracker = Tracker(symbols=False)
    tracker.on_snapshot(table.snapshot(1), 0.0)
    tracker.note_bet(HAND_ID, 1, "ann's seed")
    for event in table.public:
        tracker.on_event(event)
    tracker.on_event(table.reveal())
    assert tracker.verdict is not None
    assert tracker.verdict.ok is True, tracker.verdict
