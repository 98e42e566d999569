"""docs/rules/hcf.md section 8: every chip movement of a hand is a balanced transfer, and none is lost."""

from __future__ import annotations

from collections import defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from server.rules.errors import Violation
from server.rules.hcf.hand import TERMINAL, HandState, Player, decide, evolve, new_hand
from server.rules.hcf.messages import (
    AcceptBank,
    ClockExpired,
    CloseBets,
    DeclareDead,
    DeclineBank,
    Fold,
    Leave,
    Misdeal,
    PassBets,
    PlaceBets,
    Raise,
)
from server.rules.hcf.postings import hand_postings
from server.rules.hcf.settings import FEE_MODES, HcfSettings
from server.rules.places import HOUSE_BANK, stack_place

TABLE = "t"
OVERDRAFT = {HOUSE_BANK, "issuance"}


@st.composite
def hands(draw: st.DrawFn) -> tuple[HandState, list[object]]:
    profile = draw(st.sampled_from(["california", "standard"]))
    seats = draw(st.integers(2, 7 if profile == "california" else 6))
    table = HcfSettings.from_mapping({
        "profile": profile, "seats": seats, "fee_mode": draw(st.sampled_from(FEE_MODES)),
        "fee": draw(st.integers(0, 3)), "min_bank": draw(st.integers(0, 300)),
        "max_bonus_win": draw(st.none() | st.integers(1, 400)),
    })
    chosen = draw(st.lists(st.integers(1, seats), min_size=2, max_size=seats, unique=True))
    players = [Player(s, draw(st.integers(30, 1500))) for s in sorted(chosen)]
    state = new_hand(table, players, draw(st.binary(min_size=32, max_size=32)), offer_from=draw(st.integers(1, seats)))
    return state, []


def next_command(data: st.DataObject, state: HandState) -> object:
    """A legal move most of the time, an interruption (leave, clock, dead seat, misdeal) now and then."""
    seats = [p.seat for p in state.players]
    if data.draw(st.integers(0, 9)) == 0:
        seat = data.draw(st.sampled_from(seats))
        return data.draw(st.sampled_from([Leave(seat), ClockExpired(seat), DeclareDead(seat), Misdeal()]))
    if state.phase == "offer":
        seat = state.offered
        assert seat is not None
        return AcceptBank(seat) if data.draw(st.booleans()) else DeclineBank(seat)
    if state.phase == "betting":
        waiting = [s for s in state.bettors if s not in state.bets and s not in state.passed]
        if not waiting:
            return CloseBets()
        seat = waiting[0]
        if data.draw(st.integers(0, 5)) == 0:
            return PassBets(seat)
        ante = data.draw(st.integers(5, 40))
        bonuses = st.sampled_from([0, 1, 5, 20])
        return PlaceBets(seat, ante, data.draw(bonuses), data.draw(bonuses))
    seat = state.turn
    assert seat is not None
    if data.draw(st.integers(0, 3)) == 0:
        return Fold(seat)
    ante = state.bets[seat].ante
    return Raise(seat, ante * data.draw(st.integers(1, 3)))


@settings(max_examples=300, deadline=None)
@given(hands(), st.data())
def test_chips_are_never_created_or_lost_and_no_place_overdraws(case: tuple[HandState, list[object]],
                                                                 data: st.DataObject) -> None:
    state, _ = case
    accounts = {p.seat: 100 + p.seat for p in state.players}
    balances: dict[str, int] = defaultdict(int)
    for p in state.players:
        balances[stack_place(TABLE, accounts[p.seat])] = p.stack
    start_total = sum(balances.values())
    for _ in range(60):
        if state.phase in TERMINAL:
            break
        try:
            events = decide(state, next_command(data, state))  # type: ignore[arg-type]
        except Violation:
            continue
        for event in events:
            for t in hand_postings(state, event, TABLE, accounts):
                assert t.amount > 0
                balances[t.src] -= t.amount
                balances[t.dst] += t.amount
                assert balances[t.src] >= 0 or t.src in OVERDRAFT, f"{t.src} overdrawn by {t}"
            state = evolve(state, event)
    event_kind(state.phase)
    assert sum(balances.values()) == start_total
    if state.phase in TERMINAL:
        leftover = {k: v for k, v in balances.items() if k.startswith(("felt:", "fee_held:")) and v}
        assert leftover == {}, "a finished hand leaves nothing on the felt"
    if state.phase == "settled" and state.settlement is not None:
        s = state.settlement
        assert balances.get("house:fees", 0) == s.house
        for r in s.seats:
            start = next(p.stack for p in state.players if p.seat == r.seat)
            assert balances[stack_place(TABLE, accounts[r.seat])] - start == r.net
    if state.phase == "void":
        for p in state.players:
            assert balances[stack_place(TABLE, accounts[p.seat])] == p.stack, "a void hand returns everything"


def event_kind(phase: str) -> None:
    from hypothesis import event

    event(f"hand ends {phase}")
