"""The house rules for the bank (docs/rules/hcf.md section 9; issue 26), as properties over random tables:
players who take or refuse the bank at random, seats that change players, and the table's clock.
"""

from __future__ import annotations

from collections import Counter
from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from server.rules.hcf.fee_schedule import tier_for
from server.rules.hcf.settings import HcfSettings
from tests.rules.bank_table import HCF, Table

SCHEDULE = [{"ante_to": 20, "player": 1, "dp": 2}, {"ante_to": 100, "player": 2, "dp": 4},
            {"ante_to": 500, "player": 3, "dp": 6}]
NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace")


def _table(seed: int, seats: int, **values: object) -> Table:
    s = HcfSettings.from_mapping({"seats": 7, **values})
    return Table(s, Random(seed), {seat: NAMES[seat - 1] for seat in range(1, seats + 1)})


def _eligible(table: Table, hand_index: int) -> set[int]:
    hand = table.hands[hand_index]
    s = table.settings
    return {p.seat for p in hand.players if p.present and p.willing_to_bank and p.stack >= s.min_bank}


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 7), st.integers(2, 4), st.sampled_from(["wait", "end"]))
def test_section9_1_no_player_banks_more_than_bank_keep_hands_in_a_row(seed: int, seats: int, keep: int,
                                                                      nobody: str) -> None:
    table = _table(seed, seats, bank_keep=keep, nobody_banks=nobody)
    run: Counter[str] = Counter()
    last = None
    for _ in range(40):
        if table.ended:
            break
        hand = table.play()
        table.change_seats()
        if hand.state.phase != "settled" or hand.state.dealer is None:
            continue
        dealer = hand.names[hand.state.dealer]
        run[dealer] = run[dealer] + 1 if dealer == last else 1
        last = dealer
        assert run[dealer] <= keep, f"{dealer} banked {run[dealer]} hands in a row; the house allows {keep}"


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 7))
def test_section9_1_silence_keeps_the_bank_and_a_refusal_sends_it_on(seed: int, seats: int) -> None:
    table = _table(seed, seats, bank_keep=3)
    for _ in range(30):
        hand = table.play()
        state = hand.state
        if state.keeper is not None and state.keeper not in hand.refused and state.dealer is not None:
            assert state.dealer == state.keeper, "a DP asked to keep the bank who does not refuse keeps it"
        if state.keeper is not None and state.keeper in hand.refused:
            assert state.dealer != state.keeper, "a DP who refused to keep the bank does not bank this hand"


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(3, 7), st.booleans(), st.booleans(), st.integers(1, 2))
def test_section9_3_the_third_party_banks_only_when_every_present_player_refused(
        seed: int, seats: int, plays: bool, consecutive: bool, keep: int) -> None:
    table = _table(seed, seats, nobody_banks="third_party", third_party_banker="Grace", third_party_plays=plays,
                   third_party_consecutive=consecutive, bank_keep=keep)
    table.names[seats] = "grace"
    last_by_third_party = False
    for index in range(40):
        hand = table.play()
        table.change_seats(keep={"grace"})
        state = hand.state
        banker = state.third_party
        assert banker == seats, "the account named third_party_banker is the third-party banker wherever it sits"
        if state.dealer == banker and state.phase != "offer":
            asked = [seat for seat in state.offers if seat != banker]
            assert set(asked) <= set(hand.refused), "every player asked refused before the third party banked"
            barred = {s for s in _eligible(table, index) if s not in state.offers}
            assert all(hand.names[s] == _last_dealer(table, index) for s in barred - {banker}), \
                "a player able to bank was skipped only for banking too many hands in a row"
            assert consecutive or not last_by_third_party, "the third party banked two hands in a row"
        if state.dealer is not None and state.dealer != banker and not plays:
            assert banker not in state.bettors, "the third party plays while another banks only if the host allows it"
            assert banker not in state.bets
        if state.phase == "settled":
            last_by_third_party = state.dealer == banker


def _last_dealer(table: Table, index: int) -> str | None:
    for hand in reversed(table.hands[:index]):
        if hand.state.phase == "settled" and hand.state.dealer is not None:
            return hand.names[hand.state.dealer]
    return None


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 7), st.integers(1, 3))
def test_section9_2_with_end_no_hand_is_dealt_after_a_round_with_no_taker(seed: int, seats: int, keep: int) -> None:
    table = _table(seed, seats, nobody_banks="end", bank_keep=keep)
    for _ in range(40):
        hand = table.play()
        went_round = hand.state.reason == "no_bank" and bool(hand.state.offers)
        assert hand.after.ends_game == went_round, "the game ends exactly when the bank went round untaken"
        if hand.after.ends_game:
            assert hand.after.message.startswith("the game ends")
            assert not hand.after.retried
            return


def _model_short(table: Table, start: float, now: float, window: float, dealers: int) -> bool:
    banked = Counter(h.names[h.state.dealer] for h in table.hands
                     if h.state.phase == "settled" and h.state.dealer is not None and now - h.now < window)
    return now - start >= window and max(len(banked) - 1, 0) < dealers


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(3, 7), st.integers(5, 20), st.integers(1, 2))
def test_section9_4_the_window_ends_the_game_exactly_when_its_count_falls_short(
        seed: int, seats: int, minutes: int, dealers: int) -> None:
    table = _table(seed, seats, rotation_window_minutes=minutes, rotation_window_dealers=dealers)
    window = minutes * 60.0
    start = None
    for _ in range(60):
        hand = table.play()
        table.change_seats()
        start = hand.now if start is None else start
        short = _model_short(table, start, hand.now, window, dealers)
        if hand.state.reason == "game_ended":  # short as the hand began: no hand was dealt
            assert hand.after.ends_game
            assert not hand.state.bets
            return
        assert hand.after.ends_game == short, f"at {hand.now:.0f}s the window is short: {short}"
        if short:
            return


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 7), st.sampled_from(["all", "players", "designated"]))
def test_section9_5_fees_always_equal_the_posted_tier(seed: int, seats: int, mode: str) -> None:
    table = _table(seed, seats, fee_schedule=SCHEDULE, fee_mode=mode)
    schedule = table.settings.fee_schedule
    assert schedule is not None
    for _ in range(25):
        state = table.play().state
        if state.phase != "settled" or state.settlement is None:
            continue
        antes = {seat: b.ante for seat, b in state.bets.items()}
        for result in state.settlement.seats:
            if not result.dead and mode != "designated":
                assert -result.fee == tier_for(schedule, antes[result.seat]).player
        if mode != "players" and any(not r.dead for r in state.settlement.seats):
            assert -state.settlement.dealer_fee == tier_for(schedule, max(antes.values())).dp
        assert sum(r.net for r in state.settlement.seats) + state.settlement.dealer_net + \
            state.settlement.house == 0


def test_every_table_without_house_rules_plays_as_before() -> None:
    """No setting of section 9: the carry stays as the table gave it and nothing new is shown."""
    table = _table(7, 4)
    for _ in range(20):
        hand = table.play()
        assert "bank" not in hand.after.carry
        assert not hand.after.ends_game
        assert hand.after.notice == ""
    assert HCF.table_view(table.settings, table.carry) == {}
