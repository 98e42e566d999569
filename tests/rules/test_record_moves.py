"""A move whose command is a plain record (High Card Flush's raise, fold and pass) is found by its name and its
arguments' names, and the rules judge its values where they judge the move (issue 24, one raise's path).

:meth:`~server.rules.moves.Moves.record` never reads a value, so the amount goes from the table into the rules
in one call; these tests hold the rules to judging every value a client may send: each is a legal raise or a
refusal with a listed code and a sentence, never a crash, and whatever the game's moves admit is built alike on
both ways (the record, or :meth:`~server.rules.moves.Moves.command`).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.rules.errors import RuleError, Violation
from server.rules.hcf.game import HCF
from server.rules.hcf.hand import decide
from server.rules.hcf.messages import Event, PlayerRaised, Raise
from server.rules.vocabulary import is_refusal_code
from tests.rules.test_hand import four_seat_decisions

ANY_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                                     max_size=3), max_leaves=6)


def as_recorded(action: str, args: dict[str, Any], seat: int) -> object:
    """The command the hand desk builds for a record move (server/table/hands.py: ``HandDesk.play``)."""
    record = HCF.moves.record(action, args.keys())
    assert record is not None
    return record.of(seat, **{**record.defaults, **args})


@given(amount=ANY_JSON)
def test_the_rules_judge_every_amount_a_raise_may_carry(amount: Any) -> None:
    """Seat 2 (a four-card flush, Ante 10) raises anything a client may send: a raise of 10 or a refusal."""
    outcome = judged(as_recorded("raise", {"amount": amount}, 2))
    if isinstance(outcome, Violation):
        assert is_refusal_code(outcome.code), outcome
        assert outcome.message
    else:
        assert outcome[0] == PlayerRaised(2, 10)
        assert type(amount) is int
        assert amount == 10


def judged(command: object) -> list[Event] | Violation:
    """The events the rules give ``command`` at a four-seat hand's decisions, or their refusal."""
    try:
        return decide(four_seat_decisions(), command)
    except Violation as refused:
        return refused


@pytest.mark.parametrize(("action", "args", "said"), [
    ("raise", {"amount": 10, "ante": 5}, "raise takes amount, not 'ante'"),
    ("fold", {"amount": 10}, "fold takes nothing more, not 'amount'"),
    ("pass", {"seed": "x"}, "pass takes nothing more, not 'seed'"),
])
def test_a_record_move_with_an_argument_it_does_not_take_is_refused_by_name(
        action: str, args: dict[str, Any], said: str) -> None:
    with pytest.raises(RuleError) as refused:
        HCF.moves.record(action, args.keys())
    assert refused.value.code == "request/malformed"
    assert refused.value.message == said


def test_a_move_the_game_builds_itself_has_no_record() -> None:
    assert HCF.moves.record("bet", {"ante": 10}.keys()) is None
    assert HCF.moves.record("dance", {}.keys()) is None  # refused by name where it is built: Moves.command


@given(amount=st.integers(0, 10**9))
def test_a_raise_the_moves_admit_is_built_alike_either_way(amount: int) -> None:
    built = HCF.moves.command(HCF, "raise", {"amount": amount}, lambda: 2)
    assert built == as_recorded("raise", {"amount": amount}, 2) == Raise(2, amount)
