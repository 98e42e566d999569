"""docs/rules/hcf.md section 1: card notation, parsing and printing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.rules.cards import (
    DECK_SIZE,
    FULL_DECK,
    RANKS,
    SUITS,
    CardError,
    card_text,
    cards_list,
    format_cards,
    make_card,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from server.rules.errors import RuleError


def test_section1_notation_ranks_2_to_ace_and_suits_cdhs() -> None:
    assert RANKS == "23456789TJQKA"
    assert SUITS == "cdhs"
    assert len(FULL_DECK) == DECK_SIZE == 52
    texts = [card_text(card) for card in FULL_DECK]
    assert len(set(texts)) == 52
    assert texts[:4] == ["2c", "2d", "2h", "2s"]
    assert texts[-1] == "As"


def test_section1_example_hand_parses_and_prints_back() -> None:
    text = "Ah Kh 9h 2c 3d 4s 5s"
    cards = parse_cards(text)
    assert len(cards) == 7
    assert format_cards(cards) == text
    assert cards_list(cards) == text.split()


@pytest.mark.parametrize("card", FULL_DECK)
def test_section1_every_card_round_trips(card: int) -> None:
    text = card_text(card)
    assert parse_card(text) == card
    assert parse_card(text.lower()) == card
    assert parse_card(text.upper()) == card
    assert make_card(rank_of(card), suit_of(card)) == card


@pytest.mark.parametrize(
    ("given", "expected"),
    [("ah", "Ah"), ("AH", "Ah"), ("aH", "Ah"), ("tD", "Td"), ("kS", "Ks"), ("  qc ", "Qc")],
)
def test_section1_parsing_is_case_insensitive(given: str, expected: str) -> None:
    assert card_text(parse_card(given)) == expected


@pytest.mark.parametrize("given", ["10h", "10H", "Th", "th"])
def test_section1_ten_accepted_as_10_for_t(given: str) -> None:
    assert card_text(parse_card(given)) == "Th"


def test_section1_ten_printed_as_t() -> None:
    assert format_cards(parse_cards("10c 10d 10h 10s")) == "Tc Td Th Ts"


def test_section1_parse_cards_accepts_commas_and_sequences() -> None:
    assert parse_cards("Ah,Kh, 2c") == parse_cards("Ah Kh 2c") == parse_cards(["Ah", "Kh", "2c"])


@pytest.mark.parametrize("given", ["1h", "Xh", "11h", "0s", "Bh", "AAh"])
def test_section1_unknown_rank_rejected_naming_the_card(given: str) -> None:
    with pytest.raises(CardError) as caught:
        parse_cards(f"2c {given} 3d")
    message = caught.value.message
    assert given in message
    assert "rank" in message


@pytest.mark.parametrize("given", ["Ax", "Kz", "10q", "2e"])
def test_section1_unknown_suit_rejected_naming_the_card(given: str) -> None:
    with pytest.raises(CardError) as caught:
        parse_cards(f"2c {given}")
    assert given in caught.value.message
    assert "suit" in caught.value.message


@pytest.mark.parametrize("given", ["A", "h", "", "   "])
def test_section1_truncated_card_rejected(given: str) -> None:
    with pytest.raises(CardError):
        parse_card(given)


@pytest.mark.parametrize("text", ["Ah Kh ah", "Ah 10c Tc", "2c 2C"])
def test_section1_duplicates_rejected_naming_the_card(text: str) -> None:
    with pytest.raises(CardError) as caught:
        parse_cards(text)
    message = caught.value.message
    assert "duplicate" in message
    duplicate = card_text(parse_card(text.split()[-1]))
    assert duplicate in message


@pytest.mark.parametrize("text", ["Ah Kh 9h 2c 3d 4s", "Ah Kh 9h 2c 3d 4s 5s 6s", ""])
def test_section1_wrong_card_count_rejected(text: str) -> None:
    with pytest.raises(CardError) as caught:
        parse_cards(text, count=7)
    message = caught.value.message
    assert "expected 7 cards" in message
    assert f"got {len(text.split())}" in message


def test_section1_exactly_seven_cards_accepted_with_count() -> None:
    assert len(parse_cards("Ah Kh 9h 2c 3d 4s 5s", count=7)) == 7


def test_card_errors_are_rule_errors_with_a_stable_code() -> None:
    with pytest.raises(RuleError) as caught:
        parse_card("Zz")
    assert caught.value.code == "cards/invalid"


@pytest.mark.parametrize("number", [-1, 52, 100])
def test_card_text_refuses_numbers_outside_the_deck(number: int) -> None:
    with pytest.raises(CardError, match=str(number)):
        card_text(number)


@given(st.lists(st.sampled_from(FULL_DECK), unique=True, max_size=52), st.booleans())
def test_section1_format_then_parse_is_identity(cards: list[int], lower: bool) -> None:
    text = format_cards(cards)
    assert parse_cards(text.lower() if lower else text) == tuple(cards)
