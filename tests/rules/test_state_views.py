"""A hand view every viewer shares is built once per state, even when other tables' states come between (issue 25).

Between a batch's first viewers (the requesters, answered at once) and the rest, the event loop
runs other tables' batches, which ask their games' views for their own states.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from server.rules.caribbean import view as caribbean
from server.rules.hcf import view as hcf
from server.rules.sixcard import view as sixcard
from server.rules.state_views import KEPT, PerState
from tests.rules.caribbean.live import run as caribbean_run
from tests.rules.sixcard.live import run as sixcard_run
from tests.rules.test_hand import dealt_to_betting, four_seat_decisions


class State:
    """An immutable stand-in for a hand state (compared by identity, as the states are)."""

    __slots__ = ("n",)

    def __init__(self, n: int) -> None:
        self.n = n


@given(st.integers(1, 6), st.lists(st.integers(0, 9), max_size=60))
def test_each_view_is_its_states_and_the_last_states_are_not_built_again(kept: int, asks: list[int]) -> None:
    states = [State(n) for n in range(10)]
    built: list[int] = []

    def build(state: State) -> tuple[int]:
        built.append(state.n)
        return (state.n,)

    views = PerState(build, kept)
    recent: list[int] = []  # the states built since, newest last: what the cache should still hold
    for n in asks:
        before = len(built)
        assert views(states[n]) == (n,)
        assert (len(built) == before) == (n in recent[-kept:]), "built again only once it was forgotten"
        if len(built) > before:
            recent.append(n)


def test_a_states_view_survives_other_tables_asking_for_theirs_in_between() -> None:
    hcf_a, hcf_b = dealt_to_betting(), four_seat_decisions()
    carib_a, carib_b = caribbean_run().state, caribbean_run([(2, 500)]).state
    six_a, six_b = sixcard_run().state, sixcard_run([(2, 500)]).state
    for hand_view, first, other in ((hcf.hand_view, hcf_a, hcf_b), (caribbean.hand_view, carib_a, carib_b),
                                    (sixcard.hand_view, six_a, six_b)):
        seen = hand_view(first, None)  # type: ignore[arg-type]
        for _ in range(KEPT // 2):
            hand_view(other, None)  # type: ignore[arg-type]
        assert hand_view(first, None) is seen  # type: ignore[arg-type]
