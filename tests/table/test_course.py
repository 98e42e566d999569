"""The course of hands on the pure core (server/table/course.py): numbers, what carries over, the arranged deck."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given
from hypothesis import strategies as st

from server.rules.cards import parse_cards
from server.rules.game import AfterHand
from server.table import course, hand_start
from server.table.roster import Roster, Seated

ROSTER = Roster(4, {1: Seated(1, 11, "ann"), 2: Seated(2, 12, "bob")})
DECK = tuple(parse_cards("As Kd Qh"))


def start(c: course.Course, deck: hand_start.Deck | None = None) -> course.Course:
    hand = hand_start.new_hand(ROSTER, {}, house_banked=False, offer_from=c.offer_from, hands_dealt=c.hands_dealt,
                               hands_played=c.hands_played, arranged=deck)
    assert hand is not None
    return course.begun(c, hand, "state", {"meter": 1})


def end(c: course.Course, *, not_dealt: bool = False, retried: bool = False) -> course.Course:
    after = AfterHand(0.0, 2, {}, "no_bank" if retried else None, retried=retried)
    return course.ended(c, {"carry": {"meter": 2}}, after, not_dealt=not_dealt)


def test_a_dealt_hand_takes_the_next_number_and_an_attempt_nobody_banked_none() -> None:
    c = course.recorded(start(course.Course()), "dealt", hand_id=7, dealt=1)
    assert (c.hand_id, c.hands_played, c.hands_dealt, c.hand_numbered, c.hand_number) == (7, 1, 1, True, 1)
    c = end(c)
    assert (c.hand_id, c.last_hand_id, c.carry, c.offer_from) == (None, 7, {"meter": 2}, 2)
    attempt = end(course.recorded(start(c), "offered", hand_id=8, dealt=None), not_dealt=True, retried=True)
    assert (attempt.hands_played, attempt.hands_dealt, attempt.hand_retried) == (2, 1, True)
    assert attempt.waiting_reason == "no_bank"
    assert start(attempt).hand_number == 2, "the next dealt hand takes the number the attempt did not"


def test_an_arranged_deck_is_in_play_once_begun_and_waits_again_when_nothing_was_dealt() -> None:
    c = course.arranged(course.Course(), DECK, 5)
    begun = start(c, c.arranged_next)
    assert (begun.arranged_next, begun.arranged_in_play) == (None, DECK)
    assert end(begun, not_dealt=True).arranged_next == DECK
    assert end(begun).arranged_next is None
    assert end(begun).arranged_in_play is None


@given(st.lists(st.tuples(st.booleans(), st.booleans()), max_size=30))
def test_hands_played_counts_every_recorded_hand_and_numbers_only_dealt_ones(hands: list[tuple[bool, bool]]) -> None:
    c = course.Course()
    for n, (dealt, recorded) in enumerate(hands, start=1):
        c = start(c)
        number = c.hand_number if dealt else None
        c = end(course.recorded(c, "s", hand_id=n if recorded else None, dealt=number), not_dealt=not dealt)
    assert c.hands_played == sum(1 for _, recorded in hands if recorded)
    assert c.hands_dealt == sum(1 for dealt, _ in hands if dealt)
    assert c.hand_id is None


@dataclass(frozen=True)
class Phase:
    """A hand state as far as the table looks at it: its phase."""

    phase: str


@given(phase=st.sampled_from(["offer", "betting", "decisions", "settled", "void"]))
def test_a_hand_is_in_play_until_its_phase_is_one_the_game_ends_hands_with(phase: str) -> None:
    terminal = frozenset({"settled", "void"})
    assert not course.in_play(course.Course(), terminal), "no hand yet"
    assert course.in_play(course.Course(state=Phase(phase)), terminal) == (phase not in terminal)
