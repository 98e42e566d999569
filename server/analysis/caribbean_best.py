"""Caribbean Stud's best strategy for a table's own pay table and cap, and its strategy card.

The counts of :mod:`server.analysis.caribbean_upcard` (per player hand and up card, the
dealer's other four cards by outcome) do not depend on the settings; here the table's
Back Bet pays and ``max_payout``, at an Ante of ``min_ante``, decide each row: raise when
raising does strictly better than folding, fold otherwise. Everything is in whole chips,
so the figures are exact fractions.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from server.analysis.caribbean_upcard import DEALS, OTHER_FOUR, UP_KINDS, Ints, group_words
from server.rules.caribbean.settings import CaribbeanSettings
from server.rules.poker import CLASSES

BEST: Final = ("the best strategy: raise or fold for each hand and the dealer's up card, whichever does better "
               "on the Ante and Back Bet")


def outcome_chips(settings: CaribbeanSettings) -> dict[str, Any]:
    """What a raised hand nets on the Ante and Back Bet at an Ante of ``min_ante``, by outcome: ``unqualified``,
    ``tie``, ``lose``, and ``win`` per hand class (the pay table and ``max_payout``, as the table pays them)."""
    ante = settings.min_ante
    cap = settings.max_payout

    def won(chips: int) -> int:
        return chips if cap is None else min(chips, cap)

    return {"unqualified": won(ante), "tie": 0, "lose": -3 * ante,
            "win": [won(ante + 2 * ante * settings.bet_pay(name)) for name in CLASSES]}


def _raise_chips(settings: CaribbeanSettings, rows: dict[str, Ints]) -> Ints:
    """Per row: the player's total result in chips over the dealer's other four cards, raising."""
    chips = outcome_chips(settings)
    per_class = np.array(chips["win"], dtype=np.int64)
    return np.asarray(rows["unqualified"] * chips["unqualified"] + rows["win"] * per_class[rows["klass"]]
                      + chips["lose"] * rows["lose"], dtype=np.int64)


def raises(settings: CaribbeanSettings, rows: dict[str, Ints]) -> npt.NDArray[np.bool_]:
    """Per row: whether the best strategy raises (ties go to the fold, the smaller bet)."""
    return np.asarray(_raise_chips(settings, rows) > -settings.min_ante * OTHER_FOUR)


def best_return(settings: CaribbeanSettings, rows: dict[str, Ints]) -> Fraction:
    """The best strategy's exact return per Ante (a fraction over every deal)."""
    ante = settings.min_ante
    chips = np.where(raises(settings, rows), _raise_chips(settings, rows), -ante * OTHER_FOUR)
    return Fraction(int((rows["weight"].astype(object) * chips.astype(object)).sum()), DEALS * ante)


def main_bets(settings: CaribbeanSettings, rows: dict[str, Ints]) -> dict[str, Any]:
    """Ante and Back Bet per Ante under the best strategy, exactly, with the outcomes' probabilities."""
    play = raises(settings, rows)
    weight = rows["weight"].astype(object)
    total = best_return(settings, rows)
    played = Fraction(int(weight[play].sum()) * OTHER_FOUR, DEALS)

    def share(column: str, klass: int | None = None) -> Fraction:
        mask = play if klass is None else play & (rows["klass"] == klass)
        return Fraction(int((weight[mask] * rows[column][mask].astype(object)).sum()), DEALS)

    chips, ante = outcome_chips(settings), settings.min_ante
    outcomes = [("fold", -1.0, 1 - played), ("dealer does not qualify", chips["unqualified"] / ante,
                                             share("unqualified")),
                ("tie (push)", 0.0, share("tie")), ("lose", -3.0, share("lose"))]
    outcomes += [(f"win with {name}", chips["win"][i] / ante, share("win", i)) for i, name in enumerate(CLASSES)]
    return {
        "simulated": False,
        "strategy": BEST,
        "return_per_ante": float(total),
        "house_edge_per_ante": float(-total),
        "element_of_risk": float(-total / (1 + 2 * played)),
        "played_share": float(played),
        "outcomes": [{"outcome": name, "net": net, "probability": float(p)} for name, net, p in outcomes if p],
        "method": "exact: every player hand (up to the suits) and up card against all 163,185 other four "
                  "cards of the dealer, by inclusion-exclusion over the player's cards",
    }


def strategy_card(settings: CaribbeanSettings, rows: dict[str, Ints]) -> list[dict[str, str]]:
    """What the best strategy does with each kind of hand, at this table's pays: rows of (hand, play) sentences.

    A kind of hand whose every case gets the same decision is one row; ace-king and pairs whose decision
    turns on the cards are split: ace-king by how the up card stands to the player's cards and by the
    third card, pairs by the pair and whether the up card's rank is one of the player's; a row still mixed
    says how often it raises.
    """
    play = raises(settings, rows)
    weight = rows["weight"]
    card: list[dict[str, str]] = []
    for klass, name in enumerate(CLASSES):
        mine = rows["klass"] == klass
        if not mine.any():
            continue
        groups = np.unique(rows["group"][mine]).tolist()
        if klass == 0:
            below = rows["group"] == 0
            card.append({"hand": group_words(0), "play": _decision(weight[below], play[below])})
            groups = [g for g in groups if g]
            if _uniform(weight, play, mine & ~below) is not None:
                card.append({"hand": "ace-king, no pair", "play": _decision(weight[mine & ~below],
                                                                            play[mine & ~below])})
                continue
        elif _uniform(weight, play, mine) is not None:
            card.append({"hand": _class_words(name), "play": _decision(weight[mine], play[mine])})
            continue
        if klass == 0:
            card += _ace_king_rows(weight, play, rows["group"])
            continue
        for g in reversed(groups):
            rows_g = rows["group"] == g
            card.append({"hand": group_words(g), "play": _decision(weight[rows_g], play[rows_g])})
    return card


def _ace_king_rows(weight: Ints, play: npt.NDArray[np.bool_], group: Ints) -> list[dict[str, str]]:
    """Ace-king by how the up card stands to the player's cards, then by the third card, high to low; third
    cards in a row with the same play share one line ("ace-king-ten down to ace-king-4")."""
    out: list[dict[str, str]] = []
    for kind in reversed(range(len(UP_KINDS))):
        run: list[tuple[int, str]] = []
        for third in range(10, 1, -1):
            rows_g = group == 1 + 4 * third + kind
            if rows_g.any():
                run.append((third, _decision(weight[rows_g], play[rows_g])))
        for first, last, decision in _runs(run):
            hand = f"ace-king-{_rank(first)}" + ("" if first == last else f" down to ace-king-{_rank(last)}")
            out.append({"hand": f"{hand}, no pair, {UP_KINDS[kind]}", "play": decision})
    return out


def _runs(rows: list[tuple[int, str]]) -> list[tuple[int, int, str]]:
    """(first, last, decision) of each run of rows with the same decision."""
    out: list[tuple[int, int, str]] = []
    for third, decision in rows:
        if out and out[-1][2] == decision:
            out[-1] = (out[-1][0], third, decision)
        else:
            out.append((third, third, decision))
    return out


def _rank(rank: int) -> str:
    return {10: "queen", 9: "jack", 8: "ten"}.get(rank, "23456789"[rank] if rank < 8 else "?")


def _class_words(name: str) -> str:
    from server.analysis.render import HAND_NAMES
    return "any pair" if name == "pair" else HAND_NAMES[name]


def _uniform(weight: Ints, play: npt.NDArray[np.bool_], mask: npt.NDArray[np.bool_]) -> bool | None:
    chosen = play[mask & (weight > 0)]
    if chosen.all():
        return True
    return False if not chosen.any() else None


def _decision(weight: Ints, play: npt.NDArray[np.bool_]) -> str:
    """Raise, fold, or how often it raises, as a sentence."""
    if play.all():
        return "Raise."
    if not play.any():
        return "Fold."
    share = int(weight[play].sum()) / int(weight.sum())
    usually = "Usually raise" if share >= 0.5 else "Usually fold"
    return f"{usually}: the best strategy raises {share:.1%} of these hands (the other cards and the up card decide)."
