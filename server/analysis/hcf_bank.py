"""What banking is worth to the designated player (California profile), against 1 to 6 players.

The expected result without the funds cap is exact by linearity: every player's
expected result is the same (the players' hands are not independent, but each one's
own distribution is that of a random hand against the DP's), so the DP expects minus
``n`` times one player's result, less the DP's own fee. Players' fees go to the house.

The spread, and the mean once the DP's funds cap the action, depend on how the
players' hands and the DP's hand fall together (shared cards, one DP hand for all,
the cap in settlement order), so those are simulated by the vectorized engine
(:mod:`server.simulation.vectorized`, the rules' own settlement) with the DP holding
exactly ``min_bank`` chips, the least that may bank: the case where the cap bites most.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from math import sqrt
from typing import Any, Final

from server.analysis.hcf_rotation import rotation_report
from server.rules.hcf.fee_schedule import tier_for
from server.rules.hcf.fees import dealer_fee, player_fee
from server.rules.hcf.settings import HcfSettings
from server.simulation import vectorized
from server.simulation.decks import DeckStream
from server.simulation.scenario import Scenario
from server.simulation.strategies import strategy_named

HANDS: Final = 100_000
"""Simulated hands per player count; about 12 s for all six on one core."""
BATCH: Final = 20_000
PLAYERS: Final = range(1, 7)
SEED: Final = "0dd5"
Z95: Final = 1.959964


def banking(settings: HcfSettings, player_result: float, progress: Callable[[float, str], None] | None = None,
            *, hands: int = HANDS) -> dict[str, Any]:
    """Per player count: the DP's exact mean (no cap), and the simulated mean with the cap and the spread.

    ``player_result`` is one basic-strategy player's exact expected result per hand, in chips.
    """
    dp_fee = dealer_fee(settings, [settings.min_ante])  # every player bets min_ante: the largest Ante's tier
    stack = settings.min_bank
    # The simulation charges one flat fee; the DP's result only sees the DP's own, so it simulates that one.
    flat = dataclasses.replace(settings, fee=_tier_dp_fee(settings), fee_schedule=None)
    rows = []
    for n in PLAYERS:
        mean, sd = _simulate(flat, n, stack, hands)
        rows.append({
            "players": n,
            "expected": -n * player_result - dp_fee,
            "simulated_expected_with_cap": mean,
            "simulated_interval_95": [mean - Z95 * sd / sqrt(hands), mean + Z95 * sd / sqrt(hands)],
            "simulated_spread": sd,
        })
        if progress is not None:
            progress(n / len(PLAYERS), "simulating the bank")
    return {
        "stakes": "each player bets the Ante and both bonuses at min_ante and plays the basic strategy",
        "dp_fee": dp_fee,
        "player_fee": player_fee(settings, settings.min_ante),
        "fee_schedule": settings.fee_schedule is not None,
        "fee_mode": settings.fee_mode,
        "dp_stack": stack,
        "expected_method": "exact, without the funds cap",
        "simulated_method": f"simulated, {hands:,} hands per row, the DP holding min_bank ({stack}) chips, "
                            "so the funds cap applies as at the table",
        "by_players": rows,
        "rotation": rotation_report(settings, rows),
    }


def _tier_dp_fee(settings: HcfSettings) -> int:
    """The DP's fee at the analysis's stakes before ``fee_mode`` is applied (the simulation applies it)."""
    schedule = settings.fee_schedule
    return settings.fee if schedule is None else tier_for(schedule, settings.min_ante).dp


def _simulate(settings: HcfSettings, players: int, stack: int, hands: int) -> tuple[float, float]:
    """(mean, standard deviation) of the DP's result per hand, in chips."""
    table = dataclasses.replace(settings, seats=max(settings.seats, players + 1), default_buy_in=stack)
    scenario = Scenario(table, players + 1, strategy_named("basic"))
    decks = DeckStream(SEED)
    total = squares = 0
    done = 0
    while done < hands:
        count = min(BATCH, hands - done)
        net = vectorized.play(scenario, decks.take(count)).dealer_net
        total += int(net.sum())
        squares += int((net * net).sum())
        done += count
    mean = total / hands
    return mean, sqrt(max(squares / hands - mean * mean, 0.0))
