"""The odds of a 6 Card Poker table's own settings (docs/odds.md).

The bonus is paid on the box's original five cards (docs/rules/sixcard.md section 6),
so it is exact from the class counts, with the table's ``max_payout`` cap. The main
bets (Ante and Bet, the basic strategy, the dealer exchange included) are exact from
:mod:`server.analysis.sixcard_exact`'s counts when given them (the command and the
server do), else simulated with a 95% interval.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any, Final

from server.analysis import sixcard_exact, strategy_cards
from server.analysis.interval import BATCHES, interval
from server.analysis.poker_counts import HANDS, class_counts
from server.rules.sixcard.settings import BONUS_CLASSES, SixcardSettings
from server.rules.sixcard.strategy import STRATEGIES
from server.simulation import sixcard as sim

SIM_HANDS: Final = 400_000
SEED: Final = "0dd5"


def bonus(settings: SixcardSettings) -> dict[str, Any]:
    """The bonus bet at a stake of ``min_ante``: outcomes, return and house edge, exactly."""
    counts = class_counts()
    stake = settings.min_ante
    ev = Fraction(0)
    paid = Fraction(0)
    outcomes = []
    for name in BONUS_CLASSES:
        p = Fraction(counts[name], HANDS)
        pays = settings.bonus_pay(name)
        ev += p * Fraction(min(stake * pays, settings.max_payout), stake)
        paid += p
        outcomes.append({"outcome": name, "pays": pays, "probability": float(p)})
    outcomes.append({"outcome": "lose", "pays": -1, "probability": float(1 - paid)})
    ev -= 1 - paid
    return {"stake": stake, "return": float(ev), "house_edge": float(-ev), "outcomes": outcomes,
            "strategy": "any strategy: the bonus goes by the box's first five cards, whatever it does next",
            "method": "exact: class counts of all 2,598,960 five-card hands"}


def main_bets(settings: SixcardSettings, hands: int = SIM_HANDS,
              progress: Callable[[float, str], None] | None = None) -> dict[str, Any]:
    """Ante and Bet under the basic strategy, simulated in batches (one player, one box)."""
    strategy = STRATEGIES["basic"]
    per_batch = max(hands // BATCHES, 1)
    per_ante, per_wager = [], []
    for b in range(BATCHES):
        tally = sim.simulate(settings, strategy, per_batch, f"{SEED}{b:02x}", 1)
        report = sim.report(settings, strategy, tally, seed=SEED, seconds=1.0)["ante_bet"]
        per_ante.append(report["per_ante"])
        per_wager.append(report["per_wager"])
        if progress is not None:
            progress((b + 1) / BATCHES, "simulating the main bets")
    return {
        "simulated": True,
        "hands": per_batch * BATCHES,
        "strategy": strategy_cards.SIXCARD_BASIC,
        "house_edge_per_ante": interval([-x for x in per_ante]),
        "element_of_risk": interval([-x for x in per_wager]),
        "method": f"simulated: {per_batch * BATCHES:,} hands in {BATCHES} batches, 95% interval from the "
                  "batch means",
    }


def analyze(settings: SixcardSettings, progress: Callable[[float, str], None] | None = None,
            *, hands: int = SIM_HANDS, counts: dict[str, Any] | None = None) -> dict[str, Any]:
    """The report for ``settings``: with ``counts`` (:func:`server.analysis.sixcard_exact.counts`) the main
    bets are exact, else simulated."""
    return {
        "game": "sixcard",
        "dealer_qualifies": float(Fraction(HANDS - class_counts()["high_card"], HANDS)),
        "bonus": bonus(settings),
        "ante_bet": sixcard_exact.main_bets(settings, counts) if counts is not None
        else main_bets(settings, hands, progress),
        "strategy_cards": [strategy_cards.sixcard_basic(settings)],
    }
