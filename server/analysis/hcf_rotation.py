"""What the bank is worth to a player over time under each rotation (docs/rules/hcf.md section 9; docs/odds.md).

For each table size it gives the hands a player can expect to bank per hour when the
bank goes round evenly, and the most one player can bank when every other player
refuses it as often as the rotation lets them, each with its worth in chips: hands
times the DP's expected result per hand at that table size (the banking figures).

The most one player can bank: with ``bank_keep`` k from 2 up, another player (or the
third-party banker) must bank one hand after each k, so k of every k + 1 hands; at 1
the DP who just banked is asked last and may take every hand nobody else wants. A
rotation window of W minutes needing d other dealers leaves at most the window's
hands less d to the one who banks most; with fewer than d others seated the game
ends with the first window (the figures are None).

>>> from server.rules.hcf.settings import HcfSettings
>>> most_hands_per_hour(HcfSettings.from_mapping({"bank_keep": 2}), 30.0)
20.0
>>> most_hands_per_hour(HcfSettings.from_mapping({"rotation_window_minutes": 40}), 30.0)
27.0
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, Final

from server.rules.hcf.settings import HcfSettings

PACE: Final = 30.0
"""Hands an hour the figures assume: a full table with quick players deals about this many."""
ROTATIONS: Final[tuple[tuple[str, dict[str, Any]], ...]] = (
    ("the bank moves every hand, no window", {"bank_keep": 1, "rotation_window_minutes": None}),
    ("two hands in a row at most (the 2019 approved rules)", {"bank_keep": 2, "rotation_window_minutes": None}),
    ("two other dealers every 40 minutes (the February 2026 rules)",
     {"bank_keep": 1, "rotation_window_minutes": 40, "rotation_window_dealers": 2}),
)


def most_hands_per_hour(settings: HcfSettings, pace: float) -> float:
    """The most hands an hour one player can bank under the table's rotation, at ``pace`` hands an hour."""
    keep = settings.bank_keep
    share = 1.0 if keep == 1 else keep / (keep + 1)
    most = pace * share
    minutes = settings.rotation_window_minutes
    if minutes is not None:
        window_hands = pace * minutes / 60
        most = min(most, pace * max(window_hands - settings.rotation_window_dealers, 0.0) / window_hands)
    return most


def _rotation_rows(settings: HcfSettings, dp_per_hand: Mapping[int, float], pace: float) -> list[dict[str, Any]]:
    most = most_hands_per_hour(settings, pace)
    rows: list[dict[str, Any]] = []
    for seated in sorted(n + 1 for n in dp_per_hand if n + 1 <= settings.seats):
        worth = dp_per_hand[seated - 1]
        even = pace / seated
        window = settings.rotation_window_minutes is not None
        if window and seated - 1 < settings.rotation_window_dealers:  # too few others: the first window ends it
            rows.append({"seated": seated, "even_hands_per_hour": None, "even_worth_per_hour": None,
                         "most_hands_per_hour": None, "most_worth_per_hour": None})
            continue
        rows.append({"seated": seated, "even_hands_per_hour": even, "even_worth_per_hour": even * worth,
                     "most_hands_per_hour": most, "most_worth_per_hour": most * worth})
    return rows


def rotation_report(settings: HcfSettings, by_players: Sequence[Mapping[str, Any]],
                    pace: float = PACE) -> dict[str, Any]:
    """The table's own rotation and the public ones, each by table size (``by_players``: the banking rows)."""
    dp_per_hand = {int(row["players"]): float(row["simulated_expected_with_cap"]) for row in by_players}
    own = [("this table's rules", settings)]
    others = [(name, dataclasses.replace(settings, **values)) for name, values in ROTATIONS]
    return {
        "pace_hands_per_hour": pace,
        "method": "hands an hour at the stated pace; worth is those hands times the DP's simulated result per hand "
                  "with the funds cap, at the same stakes as the banking figures",
        "rotations": [{"rotation": name, "by_seated": _rotation_rows(rules, dp_per_hand, pace)}
                      for name, rules in (*own, *others)],
    }
