"""The time bank and the away switch (issue 28 item 6): the pure clock decision, then the table task with in-memory
ports and a clock that moves only when the test says (docs/server.md, time bank and away)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.rules.caribbean.settings import CaribbeanSettings
from server.rules.commands import ClockExpired
from server.rules.errors import SettingsError
from server.rules.game import ClockSpec, Game
from server.rules.games import game_named
from server.rules.hcf.settings import HcfSettings
from server.table.away import due
from server.table.commands import Play, SetAway, Sit, Snapshot, TableError
from server.table.hand_clock import HandClock, bank_left, bank_seat, drawn
from server.table.runner import TableRunner, TableSetup
from server.table.time_bank import restored
from tests.support.clock import ManualClock
from tests.table.fakes import MemoryStorage, RecordingPublisher
from tests.table.test_runner import wait_for, wait_until

FAST = {"pause_seconds": 0, "offer_seconds": 1, "bet_seconds": 1, "action_seconds": 1}
seconds = st.floats(min_value=0.5, max_value=3600, allow_nan=False)


# ------------------------------------------------------------ the pure clock decision

@given(clock_seconds=seconds, bank=st.floats(min_value=0, max_value=3600), start=st.floats(0, 1e6),
       acted=st.floats(min_value=-10, max_value=8000))
def test_the_bank_never_goes_below_zero_and_never_gives_more_than_clock_and_bank(
        clock_seconds: float, bank: float, start: float, acted: float) -> None:
    turn = HandClock("decision", 2, start + clock_seconds, ClockSpec("decision", 2, clock_seconds))
    on_bank = drawn(turn, bank)
    if bank <= 0:
        assert on_bank is None, "an empty bank is never drawn: the clock's running out acts as always"
        return
    assert on_bank is not None
    assert on_bank.deadline - start <= clock_seconds + bank + 1e-6
    assert drawn(on_bank, bank) is None, "a clock draws on the bank once"
    left = bank_left(on_bank, start + clock_seconds + acted)
    assert 0 <= left <= bank
    assert left == pytest.approx(bank - min(bank, max(0.0, acted)), abs=0.01)


@given(bank=seconds)
def test_a_round_every_seat_bets_in_and_a_bank_offer_never_draw_on_a_bank(bank: float) -> None:
    bets = HandClock("bets", None, 30.0, ClockSpec("bets", None, 30.0, late=(1, 2)))
    offer = HandClock("offer", 3, 15.0, ClockSpec("offer", 3, 15.0, late=()))
    assert bank_seat(bets) is None
    assert drawn(bets, bank) is None
    assert bank_seat(offer) is None
    assert drawn(offer, bank) is None


def test_the_setting_is_seconds_from_none_to_an_hour_in_every_game() -> None:
    assert HcfSettings().time_bank_seconds == 0
    assert HcfSettings.from_mapping({"time_bank_seconds": 60}).time_bank_seconds == 60
    for game in ("hcf", "caribbean", "sixcard"):
        settings = game_named(game).settings_from_mapping({"time_bank_seconds": 30})
        assert settings.time_bank_seconds == 30
        assert settings.as_dict()["time_bank_seconds"] == 30
    with pytest.raises(SettingsError, match="time_bank_seconds"):
        HcfSettings.from_mapping({"time_bank_seconds": -1})


def test_a_restarted_table_reads_each_bank_from_the_last_use_recorded() -> None:
    events = [{"type": "time_bank_used", "_account": 2, "left": 12.0}, {"type": "player_sat", "seat": 1},
              {"type": "time_bank_used", "_account": 3, "left": 0.0}, {"type": "time_bank_used", "_account": 2,
                                                                         "left": 4.5}]
    assert restored(events) == {2: 4.5, 3: 0.0}


class OneClock:
    """A game whose hand calls for ``spec`` and whose moves are (seat, name) pairs: all ``due`` reads of a game."""

    def __init__(self, spec: ClockSpec[object] | None) -> None:
        self.spec = spec

    def clock(self, _state: object) -> ClockSpec[object] | None:
        return self.spec

    def move(self, seat: int, action: str, _args: object) -> tuple[int, str]:
        return seat, action


clocks = st.builds(ClockSpec, kind=st.sampled_from(["offer", "bets", "decision", "exchange"]),
                   seat=st.none() | st.integers(1, 7), seconds=st.just(10.0),
                   late=st.none() | st.lists(st.integers(1, 7), unique=True, max_size=7).map(tuple))


@given(spec=st.none() | clocks, away=st.sets(st.integers(1, 7)))
def test_the_table_acts_only_for_a_seat_away_and_only_as_its_clock_would(spec: ClockSpec[object] | None,
                                                                           away: set[int]) -> None:
    command = due(cast(Game, OneClock(spec)), object(), away)
    if command is None:
        assert spec is None or not away or (spec.seat is not None and spec.seat not in away) or \
            not set(spec.late_seats) & away or spec.kind not in ("bets", "exchange")
        return
    assert spec is not None
    if spec.seat is not None:
        assert spec.seat in away
        assert command == (spec.expire if spec.expire is not None else ClockExpired(spec.seat, reason="away"))
    else:
        seat, action = cast(tuple[int, str], command)
        assert seat in away
        assert seat in spec.late_seats
        assert action == {"bets": "pass", "exchange": "continue"}[spec.kind]


# ------------------------------------------------------------ the table task

@pytest.fixture
async def table(request: pytest.FixtureRequest) -> AsyncIterator[tuple[TableRunner, MemoryStorage,
                                                                      RecordingPublisher]]:
    storage, publisher = MemoryStorage(), RecordingPublisher()
    for account in (1, 2, 3):
        storage.issue(account, 5000)
    extra = getattr(request, "param", {})
    runner = TableRunner(TableSetup("t", HcfSettings.from_mapping(FAST | extra)), storage, publisher, grace=0.05,
                         clock=ManualClock())
    runner.start()
    yield runner, storage, publisher
    await runner.stop(0.5)


async def to_decisions(runner: TableRunner) -> tuple[int, int]:
    """Two players sat; the DP takes the bank, the other bets: (the DP, the player whose decision it is)."""
    for account in (1, 2):
        await runner.submit(Sit(account, f"p{account}", buy_in=1000))
    snap = await wait_for(runner, lambda s: s["hand"] and s["hand"]["offered"])
    dp = snap["hand"]["offered"]
    other = 2 if dp == 1 else 1
    await runner.submit(Play(dp, "bank", (("accept", True),)))
    await runner.submit(Play(other, "bet", (("ante", 10),)))
    await wait_for(runner, lambda s: s["hand"]["phase"] == "decisions")
    return dp, other


def published(publisher: RecordingPublisher, kind: str) -> list[dict[str, Any]]:
    return [p for _, p in publisher.public if p["type"] == kind]


@pytest.mark.parametrize("table", [{"time_bank_seconds": 5}], indirect=True)
async def test_a_clock_run_out_draws_on_the_bank_and_the_move_pays_what_it_used(table: Any) -> None:
    runner, storage, publisher = table
    _dp, player = await to_decisions(runner)
    assert runner.clock is not None
    assert runner.clock.seat == player
    started = runner.clock.deadline - 1
    await wait_for(runner, lambda _s: bool(published(publisher, "time_bank_drawn")))
    drawn_event = published(publisher, "time_bank_drawn")[0]
    assert drawn_event["name"] == f"p{player}"
    assert drawn_event["left"] == 5
    assert runner.clock.deadline == drawn_event["deadline"] == pytest.approx(started + 1 + 5)
    assert runner.hand_in_progress(), "the clock ran out, and the player still has the bank's time"
    runner.time_source.advance(2)
    acted = runner.now()
    await runner.submit(Play(player, "raise", (("amount", 10),)))
    await wait_until(lambda: bool(published(publisher, "time_bank_used")))
    used = published(publisher, "time_bank_used")[0]
    assert used["left"] == pytest.approx(5 - (acted - (started + 1)), abs=0.01)
    assert 0 < used["left"] < 5
    assert "_account" not in used, "who the account is stays in the log"
    assert runner.table.time_banks[player] == used["left"]
    assert any(e.get("_account") == player for e in storage.events if e.get("type") == "time_bank_used")
    assert not published(publisher, "player_folded")


@pytest.mark.parametrize("table", [{"time_bank_seconds": 2}], indirect=True)
async def test_an_empty_bank_lets_the_clock_act_as_it_always_did(table: Any) -> None:
    runner, _storage, publisher = table
    _dp, player = await to_decisions(runner)
    assert runner.clock is not None
    started = runner.clock.deadline - 1
    await wait_for(runner, lambda _s: bool(published(publisher, "player_folded")), timeout=8)
    assert runner.now() >= started + 1 + 2, "not before the clock and the whole bank ran out"
    assert published(publisher, "player_folded")[0]["reason"] == "clock"
    assert published(publisher, "time_bank_used")[0]["left"] == 0
    assert runner.table.time_banks[player] == 0


async def test_without_a_bank_the_clock_acts_at_once(table: Any) -> None:
    runner, _storage, publisher = table
    await to_decisions(runner)
    await wait_for(runner, lambda _s: bool(published(publisher, "player_folded")), timeout=3)
    assert not published(publisher, "time_bank_drawn")


async def test_an_away_player_is_folded_at_once_and_comes_back_with_a_move_of_their_own(table: Any) -> None:
    runner, _storage, publisher = table
    _dp, player = await to_decisions(runner)
    now = runner.now()
    reply = await runner.submit(SetAway(player, True))
    assert reply["away"] is True
    snap = (await runner.submit(Snapshot(player)))["snapshot"]
    assert runner.now() == now, "no clock ran"
    folded = published(publisher, "player_folded")[0]
    assert (folded["seat"], folded["reason"]) == (player, "away")
    assert snap["last_hand"] is not None, "the hand went on and settled without waiting"
    mine = next(s for s in snap["seats"] if s["seat"] == player)
    assert mine["away"] is True
    assert published(publisher, "player_away")[0] == {"type": "player_away", "seat": player, "name": f"p{player}",
                                                      "away": True}
    assert not runner.roster.by_seat[player].missed_this_hand, "going away is no clock run out"
    with pytest.raises(TableError):  # a move of their own, refused (no hand waits on it): they are back all the same
        await runner.submit(Play(player, "fold", ()))
    assert runner.roster.by_seat[player].away is False
    await wait_until(lambda: published(publisher, "player_away")[-1]["away"] is False)


async def test_an_away_player_declines_the_bank_and_passes_the_bets_at_once(table: Any) -> None:
    runner, _storage, publisher = table
    for account in (3, 1, 2):  # account 3 at seat 1, where the first offer goes
        await runner.submit(Sit(account, f"p{account}", buy_in=1000))
    await runner.submit(SetAway(3, True))
    snap = await wait_for(runner, lambda s: s["hand"] and s["hand"]["offered"])
    assert snap["hand"]["offered"] == 2, "seat 1 declined in the batch it was offered in"
    await wait_until(lambda: bool(published(publisher, "bank_declined")))
    assert [(e["seat"], e["reason"]) for e in published(publisher, "bank_declined")] == [(1, "away")]
    await runner.submit(Play(1, "bank", (("accept", True),)))
    snap = (await runner.submit(Snapshot(1)))["snapshot"]
    assert snap["hand"]["phase"] == "betting"
    assert snap["hand"]["seats"]["1"]["passed"], "passed in the batch that opened the bets"
    assert (await runner.submit(SetAway(3, False)))["away"] is False
    assert runner.roster.by_seat[1].away is False


async def test_the_away_switch_needs_a_seat(table: Any) -> None:
    runner, _storage, _publisher = table
    with pytest.raises(TableError) as refused:
        await runner.submit(SetAway(1, True))
    assert refused.value.code == "seat/not_seated"


async def test_at_a_house_game_an_away_player_passes_the_bets_at_once() -> None:
    storage, publisher = MemoryStorage(), RecordingPublisher()
    for account in (1, 2):
        storage.issue(account, 5000)
    runner = TableRunner(TableSetup("stud", CaribbeanSettings.from_mapping({"bet_seconds": 30, "pause_seconds": 0}),
                                    game="caribbean"), storage, publisher, grace=0.05, clock=ManualClock())
    runner.start()
    began = runner.now()
    try:
        for account in (1, 2):
            await runner.submit(Sit(account, f"p{account}", buy_in=1000))
        await runner.submit(SetAway(2, True))
        await wait_for(runner, lambda s: s["hand"] is not None and s["hand"].get("phase") == "betting", timeout=2)
        await wait_until(lambda: bool(published(publisher, "bets_passed")))
        assert [e["seat"] for e in published(publisher, "bets_passed")] == [2]
        assert runner.now() - began < 3, "the betting clock is 30 s: it never ran out"
    finally:
        await runner.stop(0.5)
