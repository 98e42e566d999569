"""The odds queue is bounded and analyses only a table's latest settings (issue 23 item 19; docs/reliability.md).

120 setting changes from a floor link queued 120 analyses (about 1.3 s and 62 MB each); the host's new table then
got no odds for over 60 s. The worker here is a quick fake held at a gate, so what waits can be counted.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.analysis.analyze import Settings
from server.analysis.service import OddsBusyError, OddsService
from server.rules.games import game_named

HCF = game_named("hcf")


def table_settings(min_ante: int) -> Any:
    return HCF.settings_from_mapping({"min_ante": min_ante})


class GatedAnalysis:
    """A fake analysis that records what it was asked and waits at a gate (the first one holds the worker)."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.started = threading.Event()
        self.done: list[int] = []

    def __call__(self, s: Settings, _cache: Path | None) -> dict[str, Any]:
        self.started.set()
        assert self.gate.wait(10), "the test never opened the gate"
        self.done.append(s.min_ante)
        return {"min_ante": s.min_ante}


def service(tmp_path: Path, analysis: GatedAnalysis, **limits: int) -> OddsService:
    odds = OddsService(tmp_path, analyze=analysis, **limits)
    odds.background = True
    return odds


def busy(odds: OddsService, analysis: GatedAnalysis) -> Future[dict[str, Any]]:
    """The worker busy with one analysis (held at the gate)."""
    running = odds.request(table_settings(1))
    assert analysis.started.wait(10)
    return running


def test_120_changes_of_one_table_wait_as_one_analysis_of_its_latest_settings(tmp_path: Path) -> None:
    analysis = GatedAnalysis()
    odds = service(tmp_path, analysis)
    busy(odds, analysis)
    for change in range(2, 122):
        odds.prefetch(table_settings(change), table="floor-table", by="floor-table")
    odds.prefetch(table_settings(200), table="new-table", by="*")
    assert odds.queued() == 2, "one waits per table: the floor's latest settings and the host's new table"
    new_table = odds.request(table_settings(200), by="*")
    analysis.gate.set()
    assert new_table.result(10) == {"min_ante": 200}
    latest = odds.request(table_settings(121))
    assert latest.result(10) == {"min_ante": 121}
    assert analysis.done == [1, 200, 121], "the host's odds went first; no superseded settings were analyzed"


def test_the_queue_and_each_requesters_share_are_bounded(tmp_path: Path) -> None:
    analysis = GatedAnalysis()
    odds = service(tmp_path, analysis, max_queued=6, max_per_requester=2)
    busy(odds, analysis)
    for n in range(10):
        odds.prefetch(table_settings(10 + n), table=f"floor-{n}", by="floor")
    assert odds.queued() == 2, "a requester's share"
    for n in range(10):
        odds.prefetch(table_settings(30 + n), table=f"host-{n}")
    assert odds.queued() == 6, "the whole queue"
    with pytest.raises(OddsBusyError, match="analyses are waiting already: ask for the odds again in a minute"):
        odds.request(table_settings(99))
    analysis.gate.set()


ops = st.lists(st.tuples(st.sampled_from(["a", "b", "c", "d"]), st.integers(2, 30),
                         st.sampled_from([None, "floor-1", "floor-2", "*"])), max_size=60)


@settings(max_examples=40, deadline=None)
@given(ops)
def test_what_waits_is_bounded_and_each_table_waits_for_its_latest_settings_only(
        tmp_path_factory: pytest.TempPathFactory, steps: list[tuple[str, int, str | None]]) -> None:
    analysis = GatedAnalysis()
    odds = service(tmp_path_factory.mktemp("odds"), analysis, max_queued=3, max_per_requester=2)
    busy(odds, analysis)
    for table, ante, by in steps:
        odds.prefetch(table_settings(ante), table=table, by=by)
        waiting = odds.waiting()
        assert len(waiting) <= 3
        for who in ("floor-1", "floor-2", "*"):
            assert sum(1 for _, _, b in waiting if b == who) <= 2
        tables = [t for t, _, _ in waiting if t is not None]
        assert len(tables) == len(set(tables)), "one analysis waits per table"
    analysis.gate.set()
