"""Small scenarios for the drill tests, built from one High Card Flush hand."""

from __future__ import annotations

from typing import Any

DP = "9h 5h 2h Kc Qd Js 3s"
FOUR_CLUBS = "Ac Tc 8c 6c 4d 3d 2s"
SIX_DIAMONDS = "Ad Kd 9d 7d 5d 2d 3h"
WEAK = "7c 6d 3c 2c Th 8d 4h"


def one_hand(**hand: Any) -> dict[str, Any]:
    """A three-player table (the DP at seat 1), one hand; ``hand`` replaces parts of it."""
    base: dict[str, Any] = {
        "deck": {"dp": DP, "2": FOUR_CLUBS, "3": WEAK},
        "bets": {"2": {"ante": 10}, "3": {"ante": 10}},
        "decide": {"2": 10, "3": "fold"},
    }
    return {"name": "small", "game": "hcf", "table": {"fee_mode": "players", "fee": 1},
            "seats": [{"seat": 1, "name": "ann", "stack": 1000}, {"seat": 2, "name": "bob", "stack": 1000},
                      {"seat": 3, "name": "cy", "stack": 1000}],
            "hands": [base | hand]}
