"""The hand's fast copy-with-changes (``evolve._replace``) builds exactly what ``dataclasses.replace`` builds."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.rules.game import Player
from server.rules.hcf.evolve import _FIELDS, _replace
from server.rules.hcf.settings import HcfSettings
from server.rules.hcf.state import HandState, new_hand

STATE = new_hand(HcfSettings(), [Player(seat, 1000) for seat in (1, 3, 5)], bytes(range(32)), offer_from=3)


def _value(name: str) -> object:
    """A value for the field that no fresh hand holds, so a change shows."""
    return ("changed", name)


@given(st.sets(st.sampled_from(_FIELDS)))
def test_replace_equals_dataclasses_replace(changed: set[str]) -> None:
    changes = {name: _value(name) for name in changed}
    fast = _replace(STATE, **changes)
    slow = dataclasses.replace(STATE, **changes)  # type: ignore[arg-type]  # deliberately wrong types: sentinels
    assert type(fast) is HandState
    assert all(getattr(fast, name) is getattr(slow, name) for name in _FIELDS)
    assert fast == slow
    assert fast is not STATE
    assert new_hand(HcfSettings(), [Player(seat, 1000) for seat in (1, 3, 5)], bytes(range(32)),
                             offer_from=3) == STATE  # the original is untouched


def test_every_field_is_copied() -> None:
    assert tuple(f.name for f in dataclasses.fields(HandState)) == _FIELDS
    assert all(f.init for f in dataclasses.fields(HandState))  # what __init__ would build, nothing left out
    assert not hasattr(HandState, "__post_init__")


def test_a_name_that_is_no_field_is_refused() -> None:
    with pytest.raises(AttributeError):
        _replace(STATE, no_such_field=1)
