"""Strategy cards (issue 27 item 8): what each strategy does with each kind of hand, for the table's own pays."""

from __future__ import annotations

from collections import Counter

from server.analysis import strategy_cards
from server.analysis.hcf import Totals
from server.rules.sixcard.settings import SixcardSettings


def test_the_optimal_card_counts_every_hand_once_with_the_optimal_raise(totals: Totals) -> None:
    by_raise: Counter[int] = Counter()
    for (_, _, _, raise_by), hands in totals.optimal_groups.items():
        by_raise[raise_by] += hands
    assert by_raise == totals.raised["optimal"]
    assert sum(by_raise.values()) == 133_784_560


def test_the_optimal_card_in_sentences(totals: Totals) -> None:
    card = {row["hand"]: row["play"] for row in strategy_cards.hcf_optimal(totals.optimal_groups)["rows"]}
    assert card["a flush of 7 cards"] == card["a flush of 6 cards"] == "Raise 3 Antes."
    assert card["a flush of 5 cards"] == "Raise 2 Antes."
    assert card["a flush of 4 cards"] == "Raise 1 Ante."
    assert card["a 3-card flush headed by an ace down to a jack"] == "Raise 1 Ante."
    assert card["a 3-card flush headed by a ten"].startswith(
        "It turns on the other cards; the share of these hands raised 1 Ante, by the second card: 9, 66%")
    assert card["a 3-card flush headed by a 9 down to a 4"] == card["only 2 cards of a suit"] == "Fold."


def test_the_basic_card_gives_the_raise_limits() -> None:
    card = {row["hand"]: row["play"] for row in strategy_cards.hcf_basic()["rows"]}
    assert card["a flush of 6 cards"] == "Raise 3 Antes, the most allowed."
    assert card["a 3-card flush of ten-8-6 or better"] == "Raise 1 Ante."


def test_the_sixcard_card_quotes_the_tables_own_pays() -> None:
    pays = {"royal": 100, "straight_flush": 50, "quads": 20, "full_house": 7, "flush": 5, "straight": 4,
            "trips": 6, "two_pair": 2, "pair": 2}
    card = strategy_cards.sixcard_basic(SixcardSettings.from_mapping({"bet_pays": pays}))
    plays = [row["play"] for row in card["rows"]]
    assert "the Bet pays 2 to 1 on one pair and 2 to 1 on two pair." in plays[1]
    assert "the Bet pays 6 to 1 on three of a kind, 4 to 1 on a straight," in plays[2]
