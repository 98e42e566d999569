"""An offer left to run out is a refusal of the bank, nothing more (docs/rules/hcf.md section 4; issue 23 item 3)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from server.rules.commands import ClockExpired
from server.rules.game import Player
from server.rules.games import game_named

HCF = game_named("hcf")
SETTINGS = HCF.settings_from_mapping({})


@given(st.integers(2, 7), st.integers(1, 7), st.binary(min_size=32, max_size=32))
def test_a_bank_offer_run_out_makes_nobody_late(players: int, offer_from: int, seed: bytes) -> None:
    state = HCF.new_hand(SETTINGS, [Player(seat, 1000) for seat in range(1, players + 1)], seed,
                         offer_from=min(offer_from, players), arranged_deck=None, carry={})
    while state.phase == "offer":
        spec = HCF.clock(state)
        assert spec is not None
        assert spec.kind == "offer"
        assert spec.late_seats == (), "an offer left to run out counts toward nobody's sitting out"
        for event in HCF.decide(state, ClockExpired(spec.seat or 0)):
            state = HCF.evolve(state, event)
    assert state.phase == "not_dealt"
    after = HCF.after_hand(state, {})
    assert (after.waiting, after.retried) == ("no_bank", True), "the retry is the same hand for who is absent"


def test_a_hand_that_was_dealt_is_not_retried() -> None:
    state = HCF.new_hand(SETTINGS, [Player(1, 1000), Player(2, 1000)], bytes(32), offer_from=1,
                         arranged_deck=None, carry={})
    for event in HCF.decide(state, HCF.move(1, "bank", {"accept": True})):
        state = HCF.evolve(state, event)
    spec = HCF.clock(state)
    assert spec is not None
    assert (spec.kind, spec.late_seats) == ("bets", (2,)), "a betting clock run out still counts"
