"""The basic strategy, and the strategy registry the simulator reads."""

from __future__ import annotations

import itertools

import pytest

from server.rules.cards import RANKS, make_card, parse_cards
from server.rules.hcf.evaluate import compare, evaluate
from server.rules.hcf.strategy import basic_raise, should_accept_bank
from server.simulation.strategies import STRATEGIES, Strategy, register, strategy_named

T86 = parse_cards("Th 8h 6h 9c 7c 5d 4s")


@pytest.mark.parametrize(
    ("text", "chips"),
    [
        ("Jh 3h 2h 9c 7c 5d 4s", 10),  # J-3-2 raises
        ("Th 8h 6h 9c 7c 5d 4s", 10),  # T-8-6 raises
        ("Th 9h 2h 8c 7c 5d 4s", 10),  # T-9-2 beats T-8-6
        ("Th 8h 5h 9c 7c 6d 4s", 0),   # T-8-5 folds
        ("9h 8h 7h Tc 6c 5d 4s", 0),   # 9-high folds
        ("Ah Kc Qd Js 9h 8c 7d", 0),   # a 2-card flush folds
        ("5h 4h 3h 2h Kc Qd Js", 10),  # any 4-card flush, the 1x limit
        ("7h 5h 4h 3h 2h Kd Qs", 20),  # 5 cards: 2x
        ("8h 7h 5h 4h 3h 2h Qs", 30),  # 6 cards: 3x
        ("9h 8h 7h 5h 4h 3h 2h", 30),  # 7 cards: 3x
    ],
)
def test_basic_raises_the_most_with_4_cards_and_t86_or_better(text: str, chips: int) -> None:
    assert basic_raise(evaluate(parse_cards(text)), 10) == chips


def test_basic_three_card_threshold_is_the_flush_comparison() -> None:
    # Every 3-card flush (with four off-suit cards making no better group): raised iff it
    # is not beaten by T-8-6.
    off_suit = [make_card(r, s) for r, s in ((12, 0), (11, 1), (10, 3), (0, 0))]
    for ranks in itertools.combinations(range(len(RANKS)), 3):
        flush = [make_card(r, 2) for r in ranks]
        hand = evaluate([*flush, *off_suit])
        assert set(hand.flush_cards()) == set(flush)
        raised = basic_raise(hand, 5) > 0
        assert raised == (compare(hand.cards, T86) != 2), [RANKS[r] for r in ranks]


def test_bots_always_take_the_bank() -> None:
    assert should_accept_bank() is True


def test_the_registry_knows_basic_and_refuses_duplicates_and_unknowns() -> None:
    assert strategy_named("basic").decide is basic_raise
    with pytest.raises(ValueError, match="already registered"):
        register(Strategy("basic", "again", basic_raise))
    with pytest.raises(ValueError, match="unknown strategy 'nope'"):
        strategy_named("nope")
    assert list(STRATEGIES) == ["basic"]
