"""A scenario that cannot be carried out is refused before anything is played (DRILLS section 7),
with a message naming the hand, the seat and the problem."""

from __future__ import annotations

from typing import Any

import pytest

from server.drill.play import dry_run
from server.drill.scenario import ScenarioError, parse
from tests.drill.helpers import DP, FOUR_CLUBS, WEAK, one_hand


def refused(data: dict[str, Any]) -> str:
    with pytest.raises(ScenarioError) as error:
        dry_run(parse(data))
    return str(error.value)


def test_a_seat_that_does_not_exist() -> None:
    assert refused(one_hand(bets={"6": {"ante": 10}})) == \
        "scenario small, hand 1, seat 6: bets for a seat nobody sits at (seated: 1, 2, 3)"
    data = one_hand()
    data["seats"].append({"seat": 9, "name": "zed", "stack": 1000})
    assert refused(data) == "scenario small: seat 9: there is no such seat; the seats are 1 to 7"


def test_a_deck_with_a_duplicate_card_or_too_few_cards() -> None:
    assert refused(one_hand(deck="Ah Kh Ah")) == "scenario small, hand 1: deck: duplicate card Ah (given as 'Ah')"
    assert refused(one_hand(deck={"dp": DP, "2": FOUR_CLUBS, "3": "Ac 6d 3c 2c Th 8d 4h"})) == \
        "scenario small, hand 1: deck: Ac is given twice"
    assert refused(one_hand(deck="Ah Kh Qh Jh Th 9h 8h 7h 6h 5h")) == \
        "scenario small, hand 1: deck: 10 cards are too few for the deal"


def test_a_bet_outside_the_tables_limits() -> None:
    assert refused(one_hand(bets={"2": {"ante": 1000}})) == \
        "scenario small, hand 1, seat 2: the Ante is at most 500, got 1000"
    assert refused(one_hand(bets={"2": {"ante": 10, "side": 5}})) == \
        "scenario small, hand 1, seat 2: no bet 'side' (the bets: ante, straight_flush_bonus, flush_bonus)"


def test_a_move_that_is_not_legal_when_it_comes() -> None:
    assert refused(one_hand(decide={"2": 30, "3": "fold"})) == \
        "scenario small, hand 1, seat 2: your flush allows a raise of up to 1x the Ante (10), got 30"
    assert refused(one_hand(decide={"2": 10})) == \
        "scenario small, hand 1, seat 3: decide is a raise in chips, \"max\", \"fold\" or \"walk_away\", got None"
    assert refused(one_hand(bets={"1": {"ante": 10}, "2": {"ante": 10}})) == \
        "scenario small, hand 1, seat 1: bets for the seat that banks this hand"


def test_an_irregularity_that_cannot_happen() -> None:
    assert refused(one_hand(irregularity={"kind": "miscount", "seat": 5})) == \
        "scenario small, hand 1, seat 5: a miscount at a seat that was dealt no hand"
    assert refused(one_hand(irregularity={"kind": "flood"})).startswith(
        "scenario small, hand 1: irregularity is null or an object whose kind is one of")
    exact = " ".join([DP, FOUR_CLUBS, WEAK])  # not yet in dealing order, but 21 cards: no stub card left
    assert refused(one_hand(deck=exact, irregularity={"kind": "miscount", "seat": 2})) == \
        "scenario small, hand 1: deck: 21 cards are too few for the deal and the miscount's extra card"


def test_the_shape_of_a_scenario() -> None:
    assert refused({"name": "x", "hands": []}) == "scenario x: seats is a list of at least one player"
    assert refused(one_hand() | {"steps": ["shuffle"]}).startswith("scenario small: steps: no step 'shuffle'")
    assert refused(one_hand() | {"table": {"fee_mode": "sometimes"}}).startswith("scenario small: table: fee_mode")
    assert refused(one_hand() | {"colour": "red"}).startswith("scenario small: unknown key 'colour'")
