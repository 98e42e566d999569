"""The human form of an odds report (``hcf-server analyze`` without ``--json``)."""

from __future__ import annotations

import re
from typing import Any

from rich.console import Console
from rich.table import Table

_GAMES = {"hcf": "High Card Flush", "caribbean": "Caribbean Stud", "sixcard": "6 Card Poker 1-2-5"}
_PROFILES = {"california": "California", "standard": "standard"}
# The report keeps the rules' hand classes (the JSON's contract); people read the names they say at the table.
HAND_NAMES = {"high_card": "high card", "pair": "one pair", "two_pair": "two pair", "trips": "three of a kind",
              "straight": "straight", "flush": "flush", "full_house": "full house", "quads": "four of a kind",
              "straight_flush": "straight flush", "royal": "royal flush"}
_HAND_CLASS = re.compile(r"\b(" + "|".join(sorted(HAND_NAMES, key=len, reverse=True)) + r")\b")
_FEE_PAYERS = {"all": "every player and the DP pay the fee", "players": "the players pay the fee, the DP does not",
               "designated": "only the DP pays the fee", "none": "nobody pays a fee"}
HCF_STRATEGIES = ("Basic strategy: raise the most allowed with a flush of 4 cards or more, raise 1x with a "
                  "3-card flush of T-8-6 or better, fold the rest. Optimal strategy: for each 7-card hand, "
                  "whichever of fold, raise 1x or raise the most does best on the Ante and Raise.")


def hand_words(outcome: str) -> str:
    """An outcome with each hand class written as people say it.

    >>> hand_words("win with full_house"), hand_words("straight_flush"), hand_words("tie (push)")
    ('win with full house', 'straight flush', 'tie (push)')
    """
    return _HAND_CLASS.sub(lambda m: HAND_NAMES[m.group(1)], outcome)


def _pct(x: float) -> str:
    return f"{x:.4%}"


def _simulated(figure: dict[str, Any]) -> str:
    low, high = figure["interval_95"]
    return f"{figure['value']:.3%} (simulated, 95%: {low:.3%} to {high:.3%})"


def _outcomes(title: str, rows: list[dict[str, Any]], value: str) -> Table:
    table = Table(title=title)
    table.add_column("outcome")
    table.add_column(value, justify="right")
    table.add_column("probability", justify="right")
    for row in rows:
        table.add_row(hand_words(row["outcome"]), str(row.get(value, row.get("net", ""))), f"{row['probability']:.7f}")
    return table


def render(report: dict[str, Any], console: Console) -> None:
    """Print ``report`` as tables."""
    game = report["game"]
    profile = f", {_PROFILES.get(report['profile'], report['profile'])} profile" if game == "hcf" else ""
    cached = " (from the cache)" if report.get("cached") else ""
    console.print(f"[bold]{_GAMES[game]}[/]{profile}: the odds of this table's settings{cached}")
    {"hcf": _hcf, "caribbean": _caribbean, "sixcard": _sixcard}[game](report, console)
    strategy_cards(report, console)


def strategy_cards(report: dict[str, Any], console: Console) -> None:
    """Each strategy card of the report: what to do with each kind of hand, at this table's pays."""
    for card in report.get("strategy_cards", []):
        table = Table(title=f"Strategy card, {card['strategy']}")
        table.add_column("your hand")
        table.add_column("what to do")
        for row in card["rows"]:
            table.add_row(row["hand"], row["play"])
        console.print(table)


def _hcf(report: dict[str, Any], console: Console) -> None:
    console.print(f"Exact, over every player and dealer hand. Dealer qualifies {report['dealer_qualifies']:.7f} "
                  "(whatever the player's strategy).")
    console.print(HCF_STRATEGIES)
    edges = Table(title="House edge")
    for header in ("bet", "house edge", "per"):
        edges.add_column(header, justify="left" if header == "bet" else "right")
    for name in ("basic", "optimal"):
        main = report["ante_raise"][name]
        edges.add_row(f"Ante + Raise, {name} strategy", _pct(main["house_edge_per_ante"]), "Ante")
        edges.add_row(f"Ante + Raise, {name} strategy (element of risk)", _pct(main["element_of_risk"]),
                      "Ante + Raise bet")
    edges.add_row("Flush bonus", _pct(report["flush_bonus"]["house_edge"]), "bonus bet")
    edges.add_row("Straight Flush bonus", _pct(report["straight_flush_bonus"]["house_edge"]), "bonus bet")
    console.print(edges)
    console.print(_outcomes("Ante + Raise, basic strategy (net in Antes)", report["ante_raise"]["basic"]["outcomes"],
                            "net"))
    for name, title in (("flush_bonus", "Flush bonus"), ("straight_flush_bonus", "Straight Flush bonus")):
        bonus = report[name]
        console.print(_outcomes(f"{title}, judged {bonus['judged']}; {bonus['strategy']}", bonus["outcomes"],
                                "pays"))
    bank = report.get("banking")
    if bank:
        payers = _FEE_PAYERS.get(bank["fee_mode"], bank["fee_mode"])
        if bank.get("fee_schedule"):
            payers += f"; from the posted schedule, each player's fee {bank.get('player_fee')}"
        table = Table(title=f"Banking: the DP's result per hand in chips (the DP's own fee {bank['dp_fee']}; "
                            f"{payers})")
        headers = ("players", "exact, no cap", f"with cap, stack {bank['dp_stack']} (simulated)", "95% interval",
                   "spread (sd, simulated)")
        for header in headers:
            table.add_column(header, justify="right")
        for row in bank["by_players"]:
            low, high = row["simulated_interval_95"]
            table.add_row(str(row["players"]), f"{row['expected']:+.3f}", f"{row['simulated_expected_with_cap']:+.3f}",
                          f"{low:+.3f} to {high:+.3f}", f"{row['simulated_spread']:.2f}")
        console.print(table)
        console.print(f"Each player bets the Ante and both bonuses at the table's minimum Ante "
                      f"({report['settings']['min_ante']} chips) and plays the basic strategy; the DP starts "
                      f"each hand with {bank['dp_stack']} chips, the table's minimum bank, so the cap on what "
                      "the DP can cover applies as at the table.")
        if bank.get("rotation"):
            _rotation(bank["rotation"], console)


def _rotation(rotation: dict[str, Any], console: Console) -> None:
    pace = rotation["pace_hands_per_hour"]
    table = Table(title=f"The bank over an hour, at {pace:g} hands an hour: hands a player banks and what they "
                        "are worth in chips")
    for header in ("rotation", "seated", "evenly: hands", "evenly: worth", "the most: hands", "the most: worth"):
        table.add_column(header, justify="left" if header == "rotation" else "right")
    for entry in rotation["rotations"]:
        for row in entry["by_seated"]:
            if row["even_hands_per_hour"] is None:
                table.add_row(entry["rotation"], str(row["seated"]), "the game ends", "", "", "")
                continue
            table.add_row(entry["rotation"], str(row["seated"]), f"{row['even_hands_per_hour']:.1f}",
                          f"{row['even_worth_per_hour']:+.2f}", f"{row['most_hands_per_hour']:.1f}",
                          f"{row['most_worth_per_hour']:+.2f}")
    console.print(table)
    console.print("Evenly: the bank goes round and each player takes their turn. The most: every other player "
                  "refuses the bank as often as the rotation allows, so one player banks as many hands as it lets "
                  "them (section 9 of the High Card Flush rules). The game ends: too few players are seated for "
                  "the rotation window's dealers, so the first window ends the game.")


def _caribbean(report: dict[str, Any], console: Console) -> None:
    jackpot, main = report["jackpot"], report["ante_bet"]
    console.print(f"Dealer qualifies {report['dealer_qualifies']:.6f} (exact, whatever the player's strategy).")
    if main.get("simulated"):
        console.print(f"Ante + Back Bet ({main['strategy']}): house edge per Ante "
                      f"{_simulated(main['house_edge_per_ante'])}; element of risk "
                      f"{_simulated(main['element_of_risk'])}.")
    else:
        console.print(f"Ante + Back Bet, exact, under {main['strategy']}. House edge per Ante "
                      f"{_pct(main['house_edge_per_ante'])}; element of risk {_pct(main['element_of_risk'])}.")
        console.print(_outcomes(f"Ante + Back Bet ({main['strategy']})", main["outcomes"], "net"))
    best = report.get("ante_bet_best")
    if best:
        console.print(f"Ante + Back Bet, exact, under {best['strategy']}. House edge per Ante "
                      f"{_pct(best['house_edge_per_ante'])}; element of risk {_pct(best['element_of_risk'])}; "
                      f"it plays {best['played_share']:.2%} of hands.")
        console.print(_outcomes(f"Ante + Back Bet ({best['strategy']})", best["outcomes"], "net"))
    if jackpot["break_even_meter"] is not None:
        chips = "1 chip" if jackpot["wager"] == 1 else f"{jackpot['wager']} chips"
        console.print(f"Jackpot wager ({chips}, exact; the same whatever the player's strategy): "
                      f"at the meter of {jackpot['meter']:,.2f} "
                      f"chips it returns {jackpot['return_at_meter']:+.4%} (house edge "
                      f"{jackpot['house_edge_at_meter']:.4%}); it breaks even at a meter of "
                      f"{jackpot['break_even_meter_chips']:,} chips. "
                      f"Long-run return {jackpot['long_run_return']:+.4%}.")
    console.print(_outcomes("Jackpot awards", jackpot["outcomes"], "award"))


def _sixcard(report: dict[str, Any], console: Console) -> None:
    bonus, main = report["bonus"], report["ante_bet"]
    console.print(f"Dealer qualifies {report['dealer_qualifies']:.6f} (exact, whatever the player's strategy).")
    if main.get("simulated"):
        console.print(f"Ante + Bet ({main['strategy']}): house edge per Ante "
                      f"{_simulated(main['house_edge_per_ante'])}.")
    else:
        console.print(f"Ante + Bet, exact, the dealer exchange included, under {main['strategy']}. House edge per Ante "
                      f"{_pct(main['house_edge_per_ante'])}; element of risk {_pct(main['element_of_risk'])}.")
    console.print(f"Bonus (exact; judged on the original five cards, whatever the player's strategy): "
                  f"house edge {_pct(bonus['house_edge'])}.")
    console.print(_outcomes("Bonus, on the original five cards", bonus["outcomes"], "pays"))
