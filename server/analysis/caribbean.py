"""The odds of a Caribbean Stud table's own settings (docs/odds.md).

The jackpot wager is judged on the hand's own five cards (docs/rules/caribbean.md
section 4), so its return is exact from the class counts: the fixed awards, plus the
meter's share for a straight flush or royal. The main bets (Ante and Back Bet, the
"play A-K or better" rule) are exact from :mod:`server.analysis.caribbean_exact`'s
counts when given them (the command and the server do), else simulated with the
vectorized engine, with a 95% interval.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from math import floor
from typing import Any, Final

from server.analysis import caribbean_best, caribbean_exact, strategy_cards
from server.analysis.interval import BATCHES, interval
from server.analysis.poker_counts import HANDS, ak_qualifying, class_counts
from server.rules.caribbean.settings import CaribbeanSettings
from server.simulation import caribbean as sim

SIM_HANDS: Final = 1_000_000
SIMPLE: Final = caribbean_exact.SIMPLE
SEED: Final = "0dd5"


def jackpot(settings: CaribbeanSettings, meter_chips: Fraction) -> dict[str, Any]:
    """The jackpot wager: outcomes, return at ``meter_chips``, break-even meter and long-run return."""
    counts = class_counts()
    wager = settings.jackpot_wager
    fixed = Fraction(0)
    per_meter = Fraction(0)
    outcomes: list[dict[str, Any]] = []
    names: list[str] = []
    for name in ("royal", "straight_flush", "quads", "full_house", "flush"):
        pay = settings.jackpot_pay(name)
        p = Fraction(counts[name], HANDS)
        if pay is None:
            continue
        kind, amount = pay
        if kind == "chips":
            fixed += p * amount
            award: str | int = amount
        else:
            per_meter += p * Fraction(amount, 100)
            award = f"{amount}% of the meter"
        outcomes.append({"outcome": name, "award": award, "probability": float(p)})
        names.append(name)
    paid = sum((Fraction(counts[name], HANDS) for name in names), Fraction(0))
    outcomes.append({"outcome": "no award", "award": 0, "probability": float(1 - paid)})
    at_meter = (fixed + per_meter * meter_chips) / wager - 1
    break_even = (wager - fixed) / per_meter if per_meter else None
    royal = Fraction(counts["royal"], HANDS)
    long_run = (fixed + Fraction(settings.jackpot_rate * wager, 100) + royal * settings.jackpot_seed) / wager - 1
    return {
        "offered": settings.jackpot,
        "wager": wager,
        "meter": float(meter_chips),
        "return_at_meter": float(at_meter),
        "house_edge_at_meter": float(-at_meter),
        "break_even_meter": float(break_even) if break_even is not None else None,
        "break_even_meter_chips": floor(break_even) if break_even is not None else None,
        "long_run_return": float(long_run),
        "outcomes": outcomes,
        "strategy": "any strategy: the award goes by the hand's own five cards, played or folded",
        "method": "exact: class counts of all 2,598,960 hands; meter shares taken exactly (awards are "
                  "rounded down to whole chips at the table)",
    }


def main_bets(settings: CaribbeanSettings, hands: int = SIM_HANDS,
              progress: Callable[[float, str], None] | None = None) -> dict[str, Any]:
    """Ante and Back Bet under "play A-K or better", simulated in batches (one player, one spot)."""
    per_batch = max(hands // BATCHES, 1)
    per_ante, per_wager, played = [], [], []
    plain = _without_jackpot(settings)
    for b in range(BATCHES):
        tally = sim.simulate(per_batch, f"{SEED}{b:02x}", "ak", players=1, settings=plain)
        report = sim.report(tally, plain, strategy="ak", seed=SEED, seconds=1.0)["ante_bet"]
        per_ante.append(report["per_ante"])
        per_wager.append(report["per_wager"])
        played.append(report["played_share"])
        if progress is not None:
            progress((b + 1) / BATCHES, "simulating the main bets")
    edge = interval([-x for x in per_ante])
    return {
        "simulated": True,
        "hands": per_batch * BATCHES,
        "strategy": SIMPLE,
        "house_edge_per_ante": edge,
        "element_of_risk": interval([-x for x in per_wager]),
        "played_share": interval(played),
        "method": f"simulated: {per_batch * BATCHES:,} hands in {BATCHES} batches, 95% interval from the "
                  "batch means",
    }


def _without_jackpot(settings: CaribbeanSettings) -> CaribbeanSettings:
    # The meter does not touch the main bets; leaving it out keeps the fast engine on every hand.
    return CaribbeanSettings.from_mapping({"jackpot": False}, base=settings)


def analyze(settings: CaribbeanSettings, meter_hundredths: int | None = None,
            progress: Callable[[float, str], None] | None = None, *, hands: int = SIM_HANDS,
            play_counts: dict[str, int] | None = None, best_rows: dict[str, Any] | None = None) -> dict[str, Any]:
    """The report for ``settings``; the meter defaults to ``jackpot_seed`` (a new table).

    With ``play_counts`` (:func:`server.analysis.caribbean_exact.play_counts`) the main bets under the
    simple strategy are exact; without, simulated. With ``best_rows``
    (:func:`server.analysis.caribbean_upcard.count_rows`) the report adds the best strategy, exactly,
    and its strategy card for this table's pays.
    """
    meter = Fraction(settings.jackpot_seed if meter_hundredths is None else Fraction(meter_hundredths, 100))
    counts = class_counts()
    main = caribbean_exact.main_bets(settings, play_counts) if play_counts else main_bets(settings, hands, progress)
    report: dict[str, Any] = {
        "game": "caribbean",
        "dealer_qualifies": float(Fraction(ak_qualifying(), HANDS)),
        "hand_class_shares": {name: float(Fraction(n, HANDS)) for name, n in counts.items()},
        "jackpot": jackpot(settings, meter),
        "ante_bet": main,
    }
    report["strategy_cards"] = [strategy_cards.caribbean_simple()]
    if best_rows is not None:
        report["ante_bet_best"] = caribbean_best.main_bets(settings, best_rows)
        report["strategy_cards"].append({"strategy": caribbean_best.BEST,
                                         "rows": caribbean_best.strategy_card(settings, best_rows)})
    return report
