"""A move's arguments are made once, at the edge: the request's model drops what was not sent (docs/protocol.md,
``move``: a null argument is the same as leaving it out), and the table carries that mapping to the game as it is."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from server import protocol as p
from server.rules.vocabulary import AccountId
from server.table.commands import Play

NAMES = st.from_regex(r"\A[a-z_]{1,10}\Z")
FIELDS = st.dictionaries(NAMES, st.none() | st.integers(0, 100), max_size=4)
VALUES = st.none() | st.booleans() | st.integers(0, 10**6) | st.text(max_size=10) | st.lists(FIELDS, max_size=3)


@given(st.dictionaries(NAMES, VALUES, max_size=6))
def test_the_validated_move_holds_no_null_argument_nor_null_field(args: dict[str, object]) -> None:
    move = p.parse_request("move", {"table": "main", "action": "bet", "args": args})
    assert isinstance(move, p.Move)
    assert move.args == p.sent(args)
    assert None not in move.args.values()
    assert all(None not in entry.values() for v in move.args.values() if isinstance(v, list)
               for entry in v if isinstance(entry, dict))


def test_a_play_carries_the_validated_mapping_itself() -> None:
    move = p.parse_request("move", {"table": "main", "action": "raise", "amount": 53, "seed": None})
    assert isinstance(move, p.Move)
    play = Play(AccountId(2), move.action, move.args)
    assert play.named() is move.args
    assert play.arg("amount") == 53
    assert play.arg("seed") is None
    assert Play(AccountId(2), "raise", (("amount", 53),)).named() == {"amount": 53}
