"""A table command's trip between processes (server/cluster/codec.py) keeps a move's arguments as they were.

A ``Play`` from the wire carries the mapping its request's model validated (server/table/commands.py);
one from a drill's script, pairs. Either comes back from another process as it went.
"""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from server.cluster.codec import decode_command, dumps, encode_command
from server.rules.vocabulary import AccountId
from server.table.commands import Host, Play

NAMES = st.from_regex(r"\A[a-z_]{1,12}\Z")
VALUES = st.none() | st.booleans() | st.integers(-10**9, 10**9) | st.text(max_size=20) \
    | st.lists(st.dictionaries(NAMES, st.integers(0, 100), max_size=3), max_size=3)


def trip(command: Play | Host) -> object:
    """The command as the owner's process reads it."""
    return decode_command(json.loads(dumps(encode_command(command))))


@given(st.dictionaries(NAMES, VALUES, max_size=6), NAMES)
def test_a_moves_validated_mapping_comes_back_as_it_went(args: dict[str, object], action: str) -> None:
    played = trip(Play(AccountId(7), action, args))
    assert isinstance(played, Play)
    assert (played.account, played.action, dict(played.named())) == (7, action, args)


@given(st.lists(st.tuples(NAMES, st.integers(0, 100)), max_size=4, unique_by=lambda pair: pair[0]))
def test_pairs_come_back_as_pairs(pairs: list[tuple[str, int]]) -> None:
    assert trip(Play(AccountId(3), "bet", tuple(pairs))) == Play(AccountId(3), "bet", tuple(pairs))
    assert trip(Host("pause", None, tuple(pairs))) == Host("pause", None, tuple(pairs))
