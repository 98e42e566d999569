"""Running totals of a simulation, and the report they make.

Totals are int chips; the report divides by the unit (the table's ``min_ante``).
Bets of a dead seat go back to it, so they count as neither wagered nor won.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from server.rules.hcf.evaluate import HAND_SIZE, MIN_RUN
from server.simulation.scenario import Scenario
from server.simulation.vectorized import Ints, Outcome

FLUSH_SIZES = range(2, HAND_SIZE + 1)
RUN_LENGTHS = (0, *range(MIN_RUN, HAND_SIZE + 1))


def _zeros(size: int) -> Ints:
    return np.zeros(size, dtype=np.int64)


@dataclass
class Tally:
    """Chips and counts over every hand played so far; arrays are per position."""

    positions: int
    hands: int = 0
    dealer_qualified: int = 0
    dealer_net: int = 0
    house: int = 0
    antes: Ints = field(init=False)
    raised_count: Ints = field(init=False)
    raised: Ints = field(init=False)
    ante_raise: Ints = field(init=False)
    flush_wagered: Ints = field(init=False)
    flush_net: Ints = field(init=False)
    straight_flush_wagered: Ints = field(init=False)
    straight_flush_net: Ints = field(init=False)
    dead: Ints = field(init=False)
    flush_sizes: Ints = field(default_factory=lambda: _zeros(HAND_SIZE + 1))
    run_lengths: Ints = field(default_factory=lambda: _zeros(HAND_SIZE + 1))

    def __post_init__(self) -> None:
        for name in ("antes", "raised_count", "raised", "ante_raise", "flush_wagered", "flush_net",
                     "straight_flush_wagered", "straight_flush_net", "dead"):
            setattr(self, name, _zeros(self.positions))

    def add(self, scenario: Scenario, outcome: Outcome) -> None:
        """Count one batch of hands."""
        live = ~outcome.dead
        unit = scenario.unit
        self.hands += len(outcome.dealer_net)
        self.dealer_qualified += int(outcome.dealer_qualifies.sum())
        self.dealer_net += int(outcome.dealer_net.sum())
        self.house += int(outcome.house.sum())
        self.antes += live.sum(axis=0) * unit
        self.raised_count += (live & ~outcome.folded).sum(axis=0)
        self.raised += np.where(live, outcome.raised, 0).sum(axis=0)
        self.ante_raise += (outcome.ante + outcome.raise_result).sum(axis=0)
        self.flush_wagered += live.sum(axis=0) * unit
        self.flush_net += outcome.flush_bonus.sum(axis=0)
        self.straight_flush_wagered += live.sum(axis=0) * unit
        self.straight_flush_net += outcome.straight_flush_bonus.sum(axis=0)
        self.dead += outcome.dead.sum(axis=0)
        self.flush_sizes += np.bincount((outcome.flush >> 13).ravel(), minlength=HAND_SIZE + 1)
        self.run_lengths += np.bincount((outcome.run >> 4).ravel(), minlength=HAND_SIZE + 1)


def _bet(wagered: int, net: int, unit: int, name: str = "per_unit") -> dict[str, float]:
    return {"wagered": wagered / unit, "net": net / unit, name: net / wagered if wagered else 0.0}


def report(scenario: Scenario, tally: Tally, *, seed: str, seconds: float) -> dict[str, Any]:
    """The JSON object of ``simulate --json`` (money in units; shares of a whole)."""
    unit, hands = scenario.unit, tally.hands
    antes, ante_raise, raised = int(tally.antes.sum()), int(tally.ante_raise.sum()), int(tally.raised.sum())
    bets = {
        "flush_bonus": _bet(int(tally.flush_wagered.sum()), int(tally.flush_net.sum()), unit),
        "straight_flush_bonus": _bet(int(tally.straight_flush_wagered.sum()),
                                     int(tally.straight_flush_net.sum()), unit),
    }
    all_wagered = antes + raised + int(tally.flush_wagered.sum() + tally.straight_flush_wagered.sum())
    all_net = ante_raise + int(tally.flush_net.sum() + tally.straight_flush_net.sum())
    dealt = int(tally.flush_sizes.sum())
    seat_hands = hands * tally.positions
    return {
        "hands": hands,
        "profile": scenario.settings.profile,
        "strategy": scenario.strategy.name,
        "players": scenario.players,
        "seed": seed,
        "unit_chips": unit,
        "settings": scenario.settings.as_dict(),
        "ante_raise": {
            "antes": antes / unit,
            "raises": raised / unit,
            "net": ante_raise / unit,
            "per_ante": ante_raise / antes if antes else 0.0,
            "per_wager": ante_raise / (antes + raised) if antes else 0.0,
            "raised_share": int(tally.raised_count.sum()) / (antes // unit) if antes else 0.0,
        },
        **bets,
        "all_bets": _bet(all_wagered, all_net, unit),
        "flush_size_freq": {str(n): int(tally.flush_sizes[n]) / dealt for n in FLUSH_SIZES},
        "straight_flush_length_freq": {str(n): int(tally.run_lengths[n]) / dealt for n in RUN_LENGTHS},
        "dealer_qualified": tally.dealer_qualified / hands if hands else 0.0,
        "fees": tally.house / unit,
        "fee_chips": tally.house,
        "dealer": {
            "who": "house" if scenario.house_banked else "designated player",
            "net": tally.dealer_net / unit,
            "per_hand": tally.dealer_net / unit / hands if hands else 0.0,
            "per_player_ante": tally.dealer_net / antes if antes else 0.0,
        },
        "dead_seats": {"count": int(tally.dead.sum()),
                       "share": int(tally.dead.sum()) / seat_hands if seat_hands else 0.0},
        "positions": [_position(tally, p, unit) for p in range(tally.positions)],
        "seconds": seconds,
        "hands_per_second": hands / seconds if seconds > 0 else 0.0,
    }


def _position(tally: Tally, p: int, unit: int) -> dict[str, Any]:
    def per(net: Ints, wagered: Ints) -> float:
        return int(net[p]) / int(wagered[p]) if wagered[p] else 0.0

    return {
        "position": p + 1,
        "antes": int(tally.antes[p]) / unit,
        "ante_raise_per_ante": per(tally.ante_raise, tally.antes),
        "flush_bonus_per_unit": per(tally.flush_net, tally.flush_wagered),
        "straight_flush_bonus_per_unit": per(tally.straight_flush_net, tally.straight_flush_wagered),
        "dead": int(tally.dead[p]),
    }
