"""Seating and presence on the pure core (server/table/seats.py): no table task, no clock, no storage.

Each test builds a :class:`Seating` value, asks a decision, and folds its events in with
``evolve``, as the runner does once the decision is committed.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.rules.game import Transfer
from server.rules.hcf.settings import HcfSettings
from server.table import seats
from server.table.commands import Presence, SetSitOut, SetWilling, Sit, TableError, TopUp
from server.table.roster import NEXT_HAND, SIT_OUT_LIMIT_SECONDS, Roster, Seated

LIMITS = HcfSettings.from_mapping({"seats": 4, "min_buy_in": 100, "max_buy_in": 2000, "default_buy_in": 500})


def table(*seated: Seated, stacks: Mapping[int, int] | None = None, in_hand: Mapping[int, int] | None = None,
          closing: bool = False) -> seats.Seating:
    roster = Roster(LIMITS.seats, {s.seat: s for s in seated})
    return seats.Seating(table="t", limits=LIMITS, roster=roster, closing=closing, in_hand=in_hand or {},
                         stacks=stacks if stacks is not None else {s.account: 500 for s in seated})


def after(t: seats.Seating, decision: seats.Decision) -> Roster:
    return seats.evolve_all(t.roster, decision.events)


def refusal(decide: object, *args: object) -> str:
    assert callable(decide)
    with pytest.raises(TableError) as refused:
        decide(*args)
    return refused.value.code


ANN = Seated(2, 7, "ann", present=True)


def test_a_player_sits_in_the_first_free_seat_with_the_default_buy_in() -> None:
    t = table(Seated(1, 9, "bob"))
    decision = seats.sit(t, Sit(7, "ann"))
    assert decision.reply == {"seat": 2, "stack": 500}
    assert decision.payloads() == [{"type": "player_sat", "seat": 2, "name": "ann", "stack": 500}]
    assert [(x.src, x.dst, x.amount) for x in decision.transfers] == [("account:7", "stack:t:7", 500)]
    assert after(t, decision).of_account(7) == Seated(2, 7, "ann", present=True)


def test_a_player_who_sits_while_a_hand_is_played_is_told_they_play_from_the_next() -> None:
    t = table(Seated(1, 9, "bob"), in_hand={1: 9})
    assert seats.sit(t, Sit(7, "ann")).reply["message"] == NEXT_HAND


@pytest.mark.parametrize(("t", "cmd", "code"), [
    (table(closing=True), Sit(7, "ann"), "table/closed"),
    (table(ANN), Sit(7, "ann"), "seat/already_seated"),
    (table(ANN), Sit(8, "cy", seat=2), "seat/taken"),
    (table(), Sit(8, "cy", seat=5), "seat/invalid"),
    (table(*(Seated(n, n, f"p{n}") for n in range(1, 5))), Sit(8, "cy"), "seat/no_free_seat"),
    (table(), Sit(8, "cy", buy_in=99), "buy_in/out_of_range"),
    (table(), Sit(8, "cy", buy_in=2001), "buy_in/out_of_range"),
])
def test_a_sit_the_table_cannot_take_is_refused_with_its_code(t: seats.Seating, cmd: Sit, code: str) -> None:
    assert refusal(seats.sit, t, cmd) == code


def test_standing_up_gives_the_stack_back_and_frees_the_seat() -> None:
    t = table(ANN, stacks={7: 730})
    decision = seats.stand_now(t, ANN, "removed")
    assert decision.payloads() == [{"type": "player_stood", "seat": 2, "name": "ann", "cashed_out": 730,
                                    "reason": "removed"}]
    assert [(x.src, x.dst, x.amount, x.kind) for x in decision.transfers] == [("stack:t:7", "account:7", 730,
                                                                               "cash_out")]
    assert after(t, decision).by_seat == {}


def test_an_empty_stack_stands_up_without_a_transfer() -> None:
    assert seats.stand_now(table(ANN, stacks={}), ANN).transfers == ()


def test_a_top_up_is_refused_during_the_players_hand_and_above_the_maximum() -> None:
    assert refusal(seats.top_up, table(ANN, in_hand={2: 7}), TopUp(7, 10)) == "table/hand_in_progress"
    assert refusal(seats.top_up, table(ANN, stacks={7: 1990}), TopUp(7, 11)) == "buy_in/out_of_range"
    assert refusal(seats.top_up, table(ANN), TopUp(8, 11)) == "seat/not_seated"
    assert seats.top_up(table(ANN, stacks={7: 1990}), TopUp(7, 10)).reply == {"stack": 2000}


def test_sitting_out_is_timed_from_the_given_moment_and_coming_back_clears_it() -> None:
    t = table(Seated(2, 7, "ann", missed_hands=1))
    out = seats.sit_out(t, SetSitOut(7, True), now=120.0)
    ann = after(t, out).by_seat[2]
    assert (ann.sitting_out, ann.sat_out_at, ann.missed_hands) == (True, 120.0, 0)
    assert out.payloads() == [{"type": "player_sat_out", "seat": 2, "name": "ann", "reason": "asked"}]
    back = seats.sit_out(table(ann, in_hand={1: 9}), SetSitOut(7, False), now=130.0)
    assert back.reply == {"sitting_out": False, "message": NEXT_HAND}
    assert back.payloads()[0]["type"] == "player_back"
    assert seats.sit_out(table(ann), SetSitOut(7, True), now=140.0).events == ()


def test_the_bank_switch_and_presence_change_only_what_they_name() -> None:
    t = table(ANN)
    assert after(t, seats.willing(t, SetWilling(7, False))).by_seat[2] == Seated(2, 7, "ann", False, present=True)
    assert seats.willing(t, SetWilling(7, True)).events == ()
    gone = seats.presence(t, Presence(7, False))
    assert gone.payloads() == [{"type": "presence", "seat": 2, "present": False}]
    assert after(t, gone).by_seat[2] == Seated(2, 7, "ann", present=False)
    assert seats.presence(t, Presence(8, False)) == seats.Decision()  # no seat here: nothing to say


def test_a_player_sat_out_ten_minutes_stands_up_and_no_one_else() -> None:
    long = Seated(1, 5, "long", sitting_out=True, sat_out_at=0.0)
    short = Seated(2, 6, "short", sitting_out=True, sat_out_at=1.0)
    t = table(long, short, Seated(3, 7, "here"))
    decision = seats.expired(t, SIT_OUT_LIMIT_SECONDS)
    assert [p["seat"] for p in decision.payloads()] == [1]
    assert decision.payloads()[0]["reason"] == "sat_out_too_long"
    assert sorted(after(t, decision).by_seat) == [2, 3]


def test_after_a_hand_the_leavers_stand_with_why() -> None:
    t = table(Seated(1, 5, "gone", leaving=True), Seated(2, 6, "cut", leaving=True, leave_reason="removed"),
              Seated(3, 7, "stays"))
    decision = seats.leavers(t)
    assert [p.get("reason") for p in decision.payloads()] == [None, "removed"]
    assert [(c.action, c.seat) for c in decision.seat_changes] == [("free", 1), ("free", 2)]
    assert sorted(after(t, decision).by_seat) == [3]


def test_taking_a_leave_back_keeps_the_seat() -> None:
    leaving = Seated(2, 7, "ann", leaving=True)
    t = table(leaving)
    assert after(t, seats.staying(t, leaving)).by_seat[2].leaving is False
    assert seats.staying(t, ANN) == seats.Decision(reply={"leaving": False})  # no leave to take back


def test_a_leave_that_is_not_the_players_own_cannot_be_taken_back() -> None:
    removed = Seated(2, 7, "ann", leaving=True, leave_reason="removed")
    assert refusal(seats.staying, table(removed), removed) == "seat/removed"
    leaving = Seated(2, 7, "ann", leaving=True)
    assert refusal(seats.staying, table(leaving, closing=True), leaving) == "seat/removed"


# ------------------------------------------------------------ invariants

commands = st.lists(st.one_of(
    st.builds(Sit, st.integers(1, 6), st.sampled_from(["a", "b", "c"]), st.one_of(st.none(), st.integers(0, 5)),
              st.one_of(st.none(), st.integers(0, 2500))),
    st.builds(TopUp, st.integers(1, 6), st.integers(1, 2000)),
    st.builds(SetSitOut, st.integers(1, 6), st.booleans()),
    st.builds(SetWilling, st.integers(1, 6), st.booleans()),
    st.builds(Presence, st.integers(1, 6), st.booleans()),
    st.integers(1, 6),  # stand this account up
), max_size=30)


def decide(t: seats.Seating, cmd: object) -> seats.Decision:
    match cmd:
        case Sit():
            return seats.sit(t, cmd)
        case TopUp():
            return seats.top_up(t, cmd)
        case SetSitOut():
            return seats.sit_out(t, cmd, now=1.0)
        case SetWilling():
            return seats.willing(t, cmd)
        case Presence():
            return seats.presence(t, cmd)
    assert isinstance(cmd, int)
    return seats.stand_now(t, seats.seated(t, cmd))


@given(commands)
def test_chips_are_conserved_and_each_account_holds_at_most_one_seat(steps: list[object]) -> None:
    """Whatever is asked, in any order: what a decision moves between account and stack sums to the
    stacks' change; a refused command changes nothing; no account sits twice, no seat holds two."""
    t, accounts = table(), dict.fromkeys(range(1, 7), 10_000)
    for cmd in steps:
        try:
            decision = decide(t, cmd)
        except TableError:
            continue  # refused: nothing was decided, so nothing changes
        stacks = dict(t.stacks)
        for x in decision.transfers:
            for place, sign in ((x.src, -1), (x.dst, 1)):
                kind, *_, account = place.split(":")
                book = stacks if kind == "stack" else accounts
                book[int(account)] = book.get(int(account), 0) + sign * x.amount
        t = seats.Seating(table="t", limits=LIMITS, roster=after(t, decision), stacks=stacks)
        assert sum(accounts.values()) + sum(stacks.values()) == 60_000
        held = [s.account for s in t.roster.by_seat.values()]
        assert len(held) == len(set(held))
        assert all(t.roster.by_seat[n].seat == n and 1 <= n <= LIMITS.seats for n in t.roster.by_seat)
        assert all(stacks.get(a, 0) <= LIMITS.max_buy_in for a in held)


def test_a_seat_absent_from_two_hands_in_a_row_sits_out_from_the_end_of_the_second() -> None:
    """docs/rules/hcf.md section 4: a clock ran out and the player made no move, twice in a row."""
    absent = Seated(1, 5, "away", missed_hands=1, missed_this_hand=True)
    t = table(absent, Seated(2, 6, "moved", missed_hands=1, missed_this_hand=True, moved_this_hand=True),
              Seated(3, 7, "new", missed_this_hand=True))
    roster, decision = seats.absences(t, [1, 2, 3, 4], now=50.0)
    assert [s.missed_hands for s in roster.by_seat.values()] == [2, 0, 1]
    assert decision.payloads() == [{"type": "player_sat_out", "seat": 1, "name": "away", "reason": "clock"}]
    assert [(c.action, c.seat, c.sitting_out) for c in decision.seat_changes] == [("flags", 1, True)]
    away = seats.evolve_all(roster, decision.events).by_seat[1]
    assert (away.sitting_out, away.sat_out_at, away.missed_hands) == (True, 50.0, 2)


def test_a_leaving_seat_sat_out_by_the_clock_has_no_flags_written_it_stands_up() -> None:
    t = table(Seated(1, 5, "away", missed_hands=1, missed_this_hand=True, leaving=True))
    roster, absent = seats.absences(t, [1], now=50.0)
    decision = absent + seats.leavers(replace_roster(t, roster))
    assert [p["type"] for p in decision.payloads()] == ["player_sat_out", "player_stood"]
    assert [c.action for c in decision.seat_changes] == ["free"]


def test_a_new_hand_forgets_the_last_ones_clocks_and_moves() -> None:
    roster = seats.hand_begins(Roster(4, {1: Seated(1, 5, "a", missed_this_hand=True, moved_this_hand=True,
                                                     missed_hands=1)}))
    assert roster.by_seat[1] == Seated(1, 5, "a", missed_hands=1)


def replace_roster(t: seats.Seating, roster: Roster) -> seats.Seating:
    return seats.Seating(table=t.table, limits=t.limits, roster=roster, stacks=t.stacks, in_hand=t.in_hand)


@given(st.lists(st.tuples(st.sampled_from(["stack:t:1", "stack:t:2", "stack:u:1", "account:1", "felt:t:1",
                                           "house:bank"]),
                          st.sampled_from(["stack:t:1", "stack:t:2", "stack:u:1", "account:2", "felt:t:2"]),
                          st.integers(1, 500)), max_size=30))
def test_the_stacks_change_by_exactly_what_the_transfers_move_into_and_out_of_this_tables_stacks(
        moves: list[tuple[str, str, int]]) -> None:
    transfers = [Transfer(src, dst, amount, "bet") for src, dst, amount in moves]
    after = seats.stacks_after({1: 1000, 2: 1000}, "t", transfers)
    into = sum(x.amount for x in transfers if x.dst.startswith("stack:t:"))
    out = sum(x.amount for x in transfers if x.src.startswith("stack:t:"))
    assert sum(after.values()) - 2000 == into - out
    assert set(after) <= {1, 2}, "another table's stacks are not this one's"
