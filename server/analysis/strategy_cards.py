"""Strategy cards: what to do with each kind of hand, in sentences, for a table's own settings.

Caribbean Stud's best-strategy card is in :mod:`server.analysis.caribbean_best` (it needs the
up-card counts); here are the others: High Card Flush's basic and optimal strategies (the
optimal one read from the exact counts, by kind of hand) and the named strategies of
Caribbean Stud and 6 Card Poker.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Final

from server.analysis.hcf_counts import raise_limit
from server.rules.sixcard.settings import SixcardSettings

Card = dict[str, Any]
_RANKS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "ten", "jack", "queen", "king", "ace")
HCF_BASIC: Final = ("the basic strategy: raise the most allowed with a flush of 4 cards or more, raise 1x with a "
                    "3-card flush of ten-8-6 or better, fold the rest")
HCF_OPTIMAL: Final = ("the optimal strategy: for each 7-card hand, whichever of fold, raise 1x or raise the most "
                      "does best on the Ante and Raise")
SIXCARD_BASIC: Final = ("the basic strategy: raise a pair or better, fold the rest, never buy or exchange cards, "
                        "ask for the dealer exchange with three of a kind or better")


def _raise(antes: int) -> str:
    return "Fold." if antes == 0 else f"Raise {antes} Ante{'s' if antes > 1 else ''}."


def hcf_basic() -> Card:
    """The basic strategy's card (the raise limits are the rules': docs/rules/hcf.md section 3)."""
    rows = [{"hand": f"a flush of {size} cards", "play": _raise(raise_limit(size))[:-1] + ", the most allowed."}
            for size in (7, 6, 5, 4)]
    rows += [{"hand": "a 3-card flush of ten-8-6 or better", "play": "Raise 1 Ante."},
             {"hand": "a 3-card flush below ten-8-6, or only 2 cards of a suit", "play": "Fold."}]
    return {"strategy": HCF_BASIC, "rows": rows}


def hcf_optimal(groups: Counter[tuple[int, int, int, int]]) -> Card:
    """The optimal strategy's card from the exact counts (flush size, top, second, raise) -> hands."""
    rows: list[dict[str, str]] = []
    for size in (7, 6, 5, 4):
        rows.append({"hand": f"a flush of {size} cards", "play": _mix({r: n for (s, _, _, r), n in groups.items()
                                                                        if s == size})})
    for top in range(12, 1, -1):
        by_second = {second: {r: n for (s, t, sec, r), n in groups.items() if s == 3 and t == top and sec == second}
                     for second in range(top - 1, 0, -1)}
        by_second = {k: v for k, v in by_second.items() if v}
        if not by_second:
            continue
        rows.append({"hand": f"a 3-card flush headed by {_article(_RANKS[top])}", "play": _headed(by_second)})
    rows.append({"hand": "only 2 cards of a suit", "play": _mix({r: n for (s, _, _, r), n in groups.items()
                                                                 if s <= 2})})
    return {"strategy": HCF_OPTIMAL, "rows": _merge(rows)}


def _article(rank: str) -> str:
    """ "an ace", "an 8", "a ten"."""
    return f"an {rank}" if rank in ("ace", "8") else f"a {rank}"


def _mix(raises: dict[int, int]) -> str:
    """One decision, or how often each is made."""
    made = {r: n for r, n in raises.items() if n}
    if len(made) == 1:
        return _raise(next(iter(made)))
    total = sum(made.values())
    parts = [f"{'fold' if r == 0 else f'raise {r}x'} {n / total:.0%}" for r, n in sorted(made.items(), reverse=True)]
    return "It depends on the other cards: " + ", ".join(parts) + " of these hands."


def _headed(by_second: dict[int, dict[int, int]]) -> str:
    """A 3-card flush with a given top card: one decision, or the second card from which it raises."""
    decisions = {second: _mix(raises) for second, raises in by_second.items()}
    if len(set(decisions.values())) == 1:
        return next(iter(decisions.values()))
    raising = [s for s, d in decisions.items() if d == "Raise 1 Ante."]
    folding = [s for s, d in decisions.items() if d == "Fold."]
    if raising and folding and len(raising) + len(folding) == len(decisions) and min(raising) > max(folding):
        return f"Raise 1 Ante with a second card of {_RANKS[min(raising)]} or higher; fold below."
    parts = []
    for second, raises in by_second.items():
        total = sum(raises.values())
        parts.append(f"{_RANKS[second]}, {sum(n for r, n in raises.items() if r) / total:.0%}")
    return "It turns on the other cards; the share of these hands raised 1 Ante, by the second card: " \
        + "; ".join(parts) + "."


def _merge(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    """Consecutive 3-card rows with the same play become one ("headed by a 9 down to a 4")."""
    out: list[dict[str, str]] = []
    for row in rows:
        last = out[-1] if out else None
        if last is not None and last["play"] == row["play"] and "headed by" in row["hand"] \
                and "headed by" in last["hand"]:
            low = row["hand"].rsplit(" ", 1)[1]
            last["hand"] = last["hand"].split(" down to")[0] + f" down to {_article(low)}"
            continue
        out.append(dict(row))
    return out


def caribbean_simple() -> Card:
    """Caribbean Stud's simple strategy (server/rules/caribbean/strategy.py, ``ak``)."""
    return {"strategy": "the simple strategy: play (raise) with ace-king or better, fold the rest",
            "rows": [{"hand": "a pair or better", "play": "Raise (place the Back Bet)."},
                     {"hand": "ace-king, no pair", "play": "Raise (place the Back Bet)."},
                     {"hand": "no pair, below ace-king", "play": "Fold."}]}


def sixcard_basic(settings: SixcardSettings) -> Card:
    """6 Card Poker's basic strategy, with what the table's Bet pays each raised hand."""
    from server.analysis.render import HAND_NAMES

    def pays(names: tuple[str, ...]) -> str:
        lines = [f"{settings.bet_pay(n)} to 1 on {_article_hand(HAND_NAMES[n])}" for n in names]
        return "Against a dealer who qualifies, the Bet pays " + ", ".join(lines[:-1]) + f" and {lines[-1]}."

    return {"strategy": SIXCARD_BASIC, "rows": [
        {"hand": "no pair", "play": "Fold; do not buy or exchange cards."},
        {"hand": "one pair or two pair", "play": "Raise; if the dealer does not qualify, Continue (the Ante is "
                                                  "paid 1 to 1). " + pays(("pair", "two_pair"))},
        {"hand": "three of a kind or better", "play": "Raise; if the dealer does not qualify, ask for the dealer "
                                                      "exchange. " + pays(("trips", "straight", "flush",
                                                                           "full_house", "quads",
                                                                           "straight_flush", "royal"))},
    ]}


def _article_hand(name: str) -> str:
    """ "one pair" stays, "a straight", "three of a kind" stays."""
    return name if name.split()[0] in ("one", "two", "three", "four") else f"a {name}"
