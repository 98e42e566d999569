"""What the game says of the house rules for the bank (docs/rules/hcf.md section 9.6): the rotation's status,
the posted fees, the warning and why a game ended, in sentences every client can show as they are."""

from __future__ import annotations

import re
from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from server.rules.game import SEAT_NAMES, TABLE_CLOCK, Player
from server.rules.hcf.bank_rules import keep_sentence, window_sentence
from server.rules.hcf.rotation import RECORD, BankRecord
from server.rules.hcf.settings import HcfSettings
from tests.rules.bank_table import HCF, Table

CODE = re.compile(r"\b[a-z]+_[a-z_]+\b|[{}\[\]]|\w+/\w+")
SCHEDULE = [{"ante_to": 20, "player": 1, "dp": 2}, {"ante_to": 500, "player": 3, "dp": 6}]


def test_section9_6_the_dp_who_banked_every_hand_allowed_hears_the_bank_moves_on() -> None:
    s = HcfSettings.from_mapping({"bank_keep": 2})
    assert keep_sentence(s, BankRecord(last="alice", run=2)) == "alice has banked 2 of 2 hands: the bank moves on"
    assert keep_sentence(s, BankRecord(last="alice", run=1)) == \
        "alice has banked 1 of 2 hands: alice is asked first whether to keep the bank"


def test_section9_6_the_window_says_how_many_more_dealers_it_needs_and_when() -> None:
    s = HcfSettings.from_mapping({"rotation_window_minutes": 40})
    record = BankRecord(window_start=0.0, banked=((0.0, "alice"), (60.0, "bob"), (120.0, "carol")))
    assert window_sentence(s, record, 1860.0, 2400.0) == "the window needs 1 more dealer in 9 min"
    assert window_sentence(s, record, 1860.0, 2400.0, ["dave", "erin"]) == \
        "the window needs 1 more dealer in 9 min: dave or erin could bank"


def test_section9_6_every_screen_shows_the_rules_the_rotation_and_the_posted_fees() -> None:
    s = HcfSettings.from_mapping({"bank_keep": 2, "rotation_window_minutes": 40, "fee_schedule": SCHEDULE})
    record = BankRecord(last="alice", run=2, window_start=0.0, banked=((0.0, "alice"), (60.0, "bob")), as_of=600.0)
    notes = HCF.table_view(s, {RECORD: record.as_json(), TABLE_CLOCK: 1860.0})["notes"]
    assert [note["title"] for note in notes] == ["House rules for the bank", "The bank's rotation", "Posted fees"]
    assert notes[1]["lines"] == ["alice has banked 2 of 2 hands: the bank moves on",
                                 "the window needs 2 more dealers in 9 min"]
    assert notes[1]["until"] == 2400.0
    assert notes[2]["lines"] == ["Ante 1 to 20: each player pays 1, the DP pays 2",
                                 "Ante 21 to 500: each player pays 3, the DP pays 6"]


def test_section9_6_without_the_table_clock_the_status_is_as_of_the_last_hand() -> None:
    s = HcfSettings.from_mapping({"rotation_window_minutes": 40})
    record = BankRecord(window_start=0.0, banked=((0.0, "alice"), (60.0, "bob"), (120.0, "carol")), as_of=1860.0)
    notes = HCF.table_view(s, {RECORD: record.as_json()})["notes"]
    assert notes[1]["lines"] == ["the window needs 1 more dealer in 9 min"]


def test_section9_4_the_seats_are_warned_once_when_a_quarter_of_the_window_remains() -> None:
    s = HcfSettings.from_mapping({"rotation_window_minutes": 40})
    players = [Player(1, 1000), Player(2, 1000), Player(3, 1000), Player(4, 1000)]
    names = {"1": "alice", "2": "bob", "3": "carol", "4": "dave"}
    record = BankRecord(window_start=0.0, banked=((0.0, "alice"), (60.0, "bob"), (120.0, "carol")))
    notices = []
    for now in (1700.0, 1860.0, 1900.0):
        carry = {RECORD: record.as_json(), TABLE_CLOCK: now, SEAT_NAMES: names}
        state = HCF.new_hand(s, players, bytes(32), offer_from=1, arranged_deck=None, carry=carry)
        for event in HCF.decide(state, HCF.move(1, "bank", {"accept": False})):
            state = HCF.evolve(state, event)
        after = HCF.after_hand(state, carry)
        notices.append(after.notice)
        record = BankRecord.from_carry(after.carry)
    assert notices[0] == "", "more than a quarter of the window remains"
    assert notices[1] == "the window needs 1 more dealer in 9 min: dave could bank"
    assert notices[2] == "", "the seats heard it already"


def test_section9_6_a_hand_record_says_who_refused_who_kept_and_why_the_game_ended() -> None:
    s = HcfSettings.from_mapping({"nobody_banks": "end"})
    state = HCF.new_hand(s, [Player(1, 1000), Player(2, 1000)], bytes(32), offer_from=1, arranged_deck=None,
                         carry={})
    for seat in (1, 2):
        for event in HCF.decide(state, HCF.move(seat, "bank", {"accept": False})):
            state = HCF.evolve(state, event)
    assert HCF.summary(state)["bank"] == {"refused": [1, 2], "kept": False, "third_party": False,
                                          "game_ends": "the bank went round the table and nobody took it: "
                                                       "the game ends"}
    after = HCF.after_hand(state, {})
    assert after.ends_game
    assert after.message == "the game ends: the bank went round the table and nobody took it"


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(3, 7), st.integers(1, 3), st.sampled_from(["wait", "end", "third_party"]),
       st.integers(5, 15))
def test_section9_6_everything_said_is_a_sentence_in_words(seed: int, seats: int, keep: int, nobody: str,
                                                          minutes: int) -> None:
    s = HcfSettings.from_mapping({"bank_keep": keep, "nobody_banks": nobody, "third_party_banker": "grace",
                                  "rotation_window_minutes": minutes, "fee_schedule": SCHEDULE, "fee_mode": "all"})
    table = Table(s, Random(seed), {seat: f"player{seat}" for seat in range(1, seats + 1)})
    table.names[seats] = "grace"
    said: list[str] = []
    for _ in range(30):
        hand = table.play()
        said += [hand.after.message, hand.after.notice]
        said += [line for note in HCF.table_view(s, table.carry)["notes"] for line in note["lines"]]
        if table.ended:
            break
    assert [line for line in said if CODE.search(line)] == []
