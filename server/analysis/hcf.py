"""The exact odds of a High Card Flush table's own settings (docs/odds.md).

:func:`totals` runs the count (:mod:`server.analysis.hcf_counts`) once and keeps every
sum as an exact integer over C(52, 7) x C(45, 7) player-and-dealer deals;
:func:`analyze` turns them into the report: each bet's outcomes with their
probabilities, its return and house edge, for the table's pay tables and profile,
and in the California profile what banking is worth.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from typing import Any, Final

import numpy as np

from server.analysis import hcf_bank, strategy_cards
from server.analysis.hcf_counts import DEALER_HANDS, QUALIFY_FROM, Chunk, basic_raises, chunks, raise_limit
from server.rules.hcf.settings import HcfSettings

PLAYER_HANDS: Final = comb(52, 7)
DEALS: Final = PLAYER_HANDS * DEALER_HANDS
Progress = Callable[[float, str], None]


@dataclass
class Totals:
    """Exact counts over every (player hand, dealer hand) deal, by outcome."""

    unqualified: int = 0
    # Ante + Raise, per strategy: (net in Antes) -> deals
    main: dict[str, Counter[int]] = field(default_factory=lambda: {"basic": Counter(), "optimal": Counter()})
    raised: dict[str, Counter[int]] = field(default_factory=lambda: {"basic": Counter(), "optimal": Counter()})
    flush_size: Counter[int] = field(default_factory=Counter)       # player hands (x C(45,7))
    run_length: Counter[int] = field(default_factory=Counter)
    flush_versus: Counter[tuple[str, int]] = field(default_factory=Counter)  # ("win"|"push", size) -> deals
    run_versus: Counter[tuple[str, int]] = field(default_factory=Counter)
    # (flush size, top rank, second rank, optimal raise) -> player hands; ranks only for 3 cards or fewer
    optimal_groups: Counter[tuple[int, int, int, int]] = field(default_factory=Counter)

    def add(self, chunk: Chunk) -> None:
        """Count one pattern's classes."""
        w, total = chunk.weight, DEALER_HANDS
        qualified = chunk.flush_key >= QUALIFY_FROM
        nq = chunk.unqualified
        win = np.where(qualified, chunk.below - nq, 0)
        tie = np.where(qualified, chunk.not_above - chunk.below, 0)
        lose = np.where(qualified, total - chunk.not_above, total - nq)
        self.unqualified += int((w * nq).sum())
        limit = raise_limit(chunk.size)
        basic = np.where(basic_raises(chunk.flush_key), limit, 0)
        # The best choice per hand: the value is linear in the raise, so fold, 1x or the limit.
        values = [-total * np.ones_like(nq), nq + 2 * (win - lose), nq + (1 + limit) * (win - lose)]
        best = np.argmax(np.stack(values), axis=0)  # ties go to the smaller bet
        optimal = np.array([0, 1, limit])[best]
        for name, raise_by in (("basic", basic), ("optimal", optimal)):
            self._main(name, w, raise_by, nq, win, tie, lose)
        self._groups(chunk, w, optimal)
        self.flush_size[chunk.size] += int(w.sum())
        length = chunk.run_key >> 4
        for n in np.unique(length).tolist():
            self.run_length[n] += int(w[length == n].sum())
        plays = basic > 0
        if chunk.size >= 4:
            self.flush_versus["win", chunk.size] += int((w * chunk.below).sum())
            self.flush_versus["push", chunk.size] += int((w * (chunk.not_above - chunk.below)).sum())
        for n in range(3, 8):
            rows = plays & (length == n)
            self.run_versus["win", n] += int((w * chunk.run_below)[rows].sum())
            self.run_versus["push", n] += int((w * (chunk.run_not_above - chunk.run_below))[rows].sum())

    def _groups(self, chunk: Chunk, w: Any, optimal: Any) -> None:
        """The optimal raise by kind of hand, for the strategy card."""
        mask = chunk.flush_key & 0x1FFF
        top = np.log2(mask).astype(np.int64)
        rest = mask ^ (1 << top)
        second = np.where(rest > 0, np.log2(np.maximum(rest, 1)).astype(np.int64), -1)
        small = chunk.size <= 3
        # One integer per (top, second, raise), each in a few values: unique over integers, not over columns,
        # which numpy sorts as raw bytes (most of a count's time before).
        keys = ((np.where(small, top, -1) + 1) * 14 + np.where(small, second, -1) + 1) * 4 + optimal
        unique, inverse = np.unique(keys, return_inverse=True)
        sums = np.zeros(len(unique), dtype=np.int64)
        np.add.at(sums, inverse.ravel(), w)
        for key, n in zip(unique.tolist(), sums.tolist(), strict=True):
            ranks, r = divmod(key, 4)
            self.optimal_groups[chunk.size, ranks // 14 - 1, ranks % 14 - 1, r] += n

    def _main(self, name: str, w: Any, raise_by: Any, nq: Any, win: Any, tie: Any, lose: Any) -> None:
        main, raised = self.main[name], self.raised[name]
        folds = raise_by == 0
        main[-1] += int(w[folds].sum()) * DEALER_HANDS
        raised[0] += int(w[folds].sum())
        for r in (1, 2, 3):
            rows = raise_by == r
            if not rows.any():
                continue
            ww = w[rows]
            raised[r] += int(ww.sum())
            main[1] += int((ww * nq[rows]).sum())
            main[1 + r] += int((ww * win[rows]).sum())
            main[0] += int((ww * tie[rows]).sum())
            main[-1 - r] += int((ww * lose[rows]).sum())


    def as_json(self) -> dict[str, Any]:
        """A JSON form (for the cache: the counts do not depend on the settings)."""
        def pairs(counter: Counter[Any]) -> list[list[Any]]:
            return [[list(k) if isinstance(k, tuple) else k, v] for k, v in sorted(counter.items())]

        return {"unqualified": self.unqualified,
                "main": {k: pairs(v) for k, v in self.main.items()},
                "raised": {k: pairs(v) for k, v in self.raised.items()},
                "flush_size": pairs(self.flush_size), "run_length": pairs(self.run_length),
                "flush_versus": pairs(self.flush_versus), "run_versus": pairs(self.run_versus),
                "optimal_groups": pairs(self.optimal_groups)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Totals:
        """The inverse of :meth:`as_json`."""
        def counter(rows: list[list[Any]]) -> Counter[Any]:
            return Counter({tuple(k) if isinstance(k, list) else k: v for k, v in rows})

        return cls(data["unqualified"], {k: counter(v) for k, v in data["main"].items()},
                   {k: counter(v) for k, v in data["raised"].items()}, counter(data["flush_size"]),
                   counter(data["run_length"]), counter(data["flush_versus"]), counter(data["run_versus"]),
                   counter(data["optimal_groups"]))


def totals(progress: Progress | None = None) -> Totals:
    """Count every deal (about 10 s on one core)."""
    out = Totals()

    def step(done: int, of: int) -> None:
        if progress is not None:
            progress(done / of, "counting hands")

    for chunk in chunks(step):
        out.add(chunk)
    return out


def _share(n: int, of: int = DEALS) -> float:
    return float(Fraction(n, of))


def _main_report(t: Totals, name: str) -> dict[str, Any]:
    counts = t.main[name]
    ev = Fraction(sum(net * n for net, n in counts.items()), DEALS)
    raised = t.raised[name]
    average_raise = Fraction(sum(r * n for r, n in raised.items()), PLAYER_HANDS)
    labels = {-4: "lose, raised 3x", -3: "lose, raised 2x", -2: "lose, raised 1x", -1: "fold",
              0: "tie (push)", 1: "dealer does not qualify", 2: "win, raised 1x", 3: "win, raised 2x",
              4: "win, raised 3x"}
    return {
        "return_per_ante": float(ev),
        "house_edge_per_ante": float(-ev),
        "element_of_risk": float(-ev / (1 + average_raise)),
        "average_raise": float(average_raise),
        "raise_shares": {str(r): _share(raised[r], PLAYER_HANDS) for r in (0, 1, 2, 3)},
        "outcomes": [{"outcome": labels[net], "net": net, "probability": _share(counts[net])}
                     for net in sorted(counts) if counts[net]],
    }


def _win_per_unit(settings: HcfSettings, odds: int, stake: int) -> Fraction:
    cap = settings.max_bonus_win
    win = stake * odds if cap is None else min(stake * odds, cap)
    return Fraction(win, stake)


def _bonus_report(settings: HcfSettings, name: str, t: Totals, stake: int) -> dict[str, Any]:
    runs = name == "straight_flush_bonus"
    pays = dict(settings.straight_flush_pays if runs else settings.flush_pays)
    noun = "straight flush of" if runs else "flush of"
    rows: list[dict[str, Any]] = []
    ev = Fraction(0)
    won = Fraction(0)
    if settings.house_banked:
        shares = t.run_length if runs else t.flush_size
        for n in sorted(pays, reverse=True):
            p = Fraction(shares[n], PLAYER_HANDS)
            rows.append({"outcome": f"{noun} {n} cards", "pays": pays[n], "probability": float(p)})
            ev += p * _win_per_unit(settings, pays[n], stake)
            won += p
        judged = "on the player's own hand (standard profile)"
        strategy = "any strategy: the bonus goes by the player's own hand, played or folded"
        push = Fraction(0)
    else:
        versus = t.run_versus if runs else t.flush_versus
        for n in sorted(pays, reverse=True):
            p = Fraction(versus["win", n], DEALS)
            rows.append({"outcome": f"{noun} {n} cards beating the DP's", "pays": pays[n],
                         "probability": float(p)})
            ev += p * _win_per_unit(settings, pays[n], stake)
            won += p
        push = Fraction(sum(n for (kind, _), n in versus.items() if kind == "push"), DEALS)
        rows.append({"outcome": "push (equal to the DP's)", "pays": 0, "probability": float(push)})
        judged = "against the DP's hand, lost on a fold (California profile; basic strategy)"
        strategy = strategy_cards.HCF_BASIC
    lose = 1 - won - push
    rows.append({"outcome": "lose", "pays": -1, "probability": float(lose)})
    ev -= lose
    return {"judged": judged, "strategy": strategy, "return": float(ev), "house_edge": float(-ev), "outcomes": rows}


def analyze(settings: HcfSettings, progress: Progress | None = None, *, bank_hands: int = hcf_bank.HANDS,
            totals_cache: Totals | None = None) -> dict[str, Any]:
    """The report for ``settings`` (JSON-ready; shares of a whole, money per unit staked)."""
    t = totals_cache or totals(progress)
    stake = settings.min_ante
    ante = {name: _main_report(t, name) for name in ("basic", "optimal")}
    ante["basic"]["strategy"], ante["optimal"]["strategy"] = strategy_cards.HCF_BASIC, strategy_cards.HCF_OPTIMAL
    bonuses = {name: _bonus_report(settings, name, t, stake) for name in ("flush_bonus", "straight_flush_bonus")}
    report: dict[str, Any] = {
        "game": "hcf",
        "profile": settings.profile,
        "exact": True,
        "method": "every player hand against every dealer hand from the 45 cards left (docs/odds.md)",
        "stakes": {"ante": stake, "each_bonus": stake},
        "dealer_qualifies": float(1 - Fraction(t.unqualified, DEALS)),
        "ante_raise": ante,
        **bonuses,
        "flush_size_shares": {str(n): _share(c, PLAYER_HANDS) for n, c in sorted(t.flush_size.items())},
        "straight_flush_length_shares": {str(n): _share(c, PLAYER_HANDS) for n, c in sorted(t.run_length.items())},
        "strategy_cards": [strategy_cards.hcf_basic(), strategy_cards.hcf_optimal(t.optimal_groups)],
    }
    if not settings.house_banked:
        per_player = (ante["basic"]["return_per_ante"] + bonuses["flush_bonus"]["return"]
                      + bonuses["straight_flush_bonus"]["return"]) * stake
        report["banking"] = hcf_bank.banking(settings, per_player, progress, hands=bank_hands)
    return report
