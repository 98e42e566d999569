"""A new hand's start on the pure core (server/table/hand_start.py): who plays, its numbers, what it records."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from server.rules.cards import parse_cards
from server.table import hand_start
from server.table.roster import Roster, Seated

ROSTER = Roster(6, {1: Seated(1, 11, "ann"), 3: Seated(3, 13, "bob", willing_to_bank=False),
                    4: Seated(4, 14, "cy", sitting_out=True), 5: Seated(5, 15, "di", leaving=True)})


def test_a_hand_is_played_by_the_seats_neither_sitting_out_nor_leaving_with_their_stacks() -> None:
    hand = hand_start.new_hand(ROSTER, {11: 300, 13: 40}, house_banked=False, offer_from=3, hands_dealt=6,
                               hands_played=9)
    assert hand is not None
    assert [(p.seat, p.stack, p.willing_to_bank) for p in hand.players] == [(1, 300, True), (3, 40, False)]
    assert (dict(hand.accounts), dict(hand.names)) == ({1: 11, 3: 13}, {1: "ann", 3: "bob"})
    assert hand_start.started(hand) == {"type": "hand_started", "hand_no": 10, "number": 7, "arranged": False,
                                        "seats": [1, 3], "offer_from": 3}


def test_a_player_banked_table_needs_two_players_and_a_house_banked_one() -> None:
    alone = Roster(6, {1: Seated(1, 11, "ann")})
    assert hand_start.new_hand(alone, {}, house_banked=False, offer_from=1, hands_dealt=0, hands_played=0) is None
    assert hand_start.new_hand(alone, {}, house_banked=True, offer_from=1, hands_dealt=0, hands_played=0)
    assert hand_start.waiting_sentence("players", "", house_banked=False) == (
        "waiting for players: a hand needs two, one to bank and one to play")
    assert hand_start.waiting_sentence("players", "", house_banked=True) == "waiting for players"
    assert hand_start.waiting_sentence("no_bank", "nobody took the bank", house_banked=False) == (
        "nobody took the bank")


def test_an_arranged_deck_is_recorded_with_who_arranged_it() -> None:
    deck = tuple(parse_cards("As Kd"))
    hand = hand_start.new_hand(ROSTER, {}, house_banked=False, offer_from=1, hands_dealt=0, hands_played=0,
                               arranged=deck, arranged_by=99)
    assert hand is not None
    recorded = hand_start.inputs(hand, game="hcf", settings={"seats": 6}, carry={})
    assert (recorded["arranged_deck"], recorded["arranged_by"]) == (["As", "Kd"], 99)
    assert recorded["players"] == [[1, 0, True, False], [3, 0, False, False]]
    assert hand_start.started(hand)["arranged"] is True
    random = hand_start.new_hand(ROSTER, {}, house_banked=False, offer_from=1, hands_dealt=0, hands_played=0,
                                 arranged_by=99)
    assert random is not None
    assert random.arranged_by is None  # nobody arranged the deck this hand plays


@given(st.dictionaries(st.integers(1, 8), st.tuples(st.booleans(), st.booleans()), max_size=8),
       st.booleans(), st.integers(0, 50), st.integers(0, 50))
def test_every_hand_takes_the_next_numbers_and_only_whoever_plays(
        seated: dict[int, tuple[bool, bool]], house: bool, dealt: int, played: int) -> None:
    roster = Roster(8, {n: Seated(n, 100 + n, f"p{n}", sitting_out=out, leaving=leaving)
                        for n, (out, leaving) in seated.items()})
    hand = hand_start.new_hand(roster, {}, house_banked=house, offer_from=1, hands_dealt=dealt, hands_played=played)
    playing = sorted(n for n, (out, leaving) in seated.items() if not out and not leaving)
    if len(playing) < (1 if house else 2):
        assert hand is None
        return
    assert hand is not None
    assert [p.seat for p in hand.players] == playing
    assert (hand.number, hand.hand_no) == (dealt + 1, played + 1)
