"""The table reads every game fact from the game's definition (issue 24 item 2): it names no game's event or word.

Which events open a clock, which event numbers a hand, what a hand's log line holds and
the drill's words are members of :class:`~server.rules.game.Game`; the toy game's own
names (tests/toygame) prove the table follows them at a real server.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from typing import Any

import structlog
from hypothesis import given
from hypothesis import strategies as st

from server.rules.events import Event
from server.rules.games import GAMES
from server.table.pipeline import _log_events

TABLE_SOURCES = sorted((Path(__file__).parents[2] / "server" / "table").glob("*.py"))


def _event_classes(base: type[Event] = Event) -> Iterator[type[Event]]:
    for sub in base.__subclasses__():
        yield sub
        yield from _event_classes(sub)


def _game_event_types() -> set[str]:
    """Every game's own event types (the shared ones of server/rules/events.py are every game's, and the table's)."""
    return {cls.type for cls in _event_classes() if cls.__module__ != "server.rules.events"}


def _logged(payload: dict[str, Any], game: str) -> MutableMapping[str, Any]:
    with structlog.testing.capture_logs() as logs:
        _log_events([{"seq": 7, "event": payload}], GAMES[game])
    [line] = logs
    return line


def test_the_table_names_no_games_event() -> None:
    named = {(event, path.name) for path in TABLE_SOURCES for event in _game_event_types()
             if re.search(rf"""["']{event}["']""", path.read_text())}
    assert named == set()


def test_the_table_says_none_of_a_games_own_words() -> None:
    assert [path.name for path in TABLE_SOURCES if "the DP" in path.read_text()] == []


def test_each_games_clock_and_deal_events_are_its_own_events() -> None:
    types = _game_event_types()
    for game in GAMES.values():
        assert game.deal_event in types, game.name
        assert game.clocked_events <= types, game.name


def test_a_high_card_flush_settlement_is_logged_by_seat_with_the_dps_and_the_houses_nets() -> None:
    settlement = {"seats": [{"seat": 2, "net": 15}, {"seat": 3, "net": -10}], "dealer": {"net": -4}, "house": -1}
    line = _logged({"type": "hand_settled", "hand_id": 4, "settlement": settlement, "dealer": 1}, "hcf")
    assert line["ev_results"] == {2: 15, 3: -10}
    assert (line["ev_dealer_net"], line["ev_house"], line["ev_dealer"]) == (-4, -1, 1)
    assert line["event"] == "hand_settled"


def test_a_caribbean_settlement_is_logged_by_spot() -> None:
    settlement = {"spots": [{"spot": 1, "net": 10}, {"spot": 4, "net": -5}], "dealer": {"qualifies": True}}
    line = _logged({"type": "hand_settled", "settlement": settlement}, "caribbean")
    assert line["ev_results"] == {1: 10, 4: -5}
    assert "ev_dealer_net" not in line


def test_a_six_card_settlement_is_logged_by_box_with_the_houses_net() -> None:
    settlement = {"boxes": [{"box": 2, "seat": 1, "net": 30}], "house": -30}
    line = _logged({"type": "hand_settled", "settlement": settlement}, "sixcard")
    assert (line["ev_results"], line["ev_house"]) == ({2: 30}, -30)


def test_a_table_event_is_logged_with_the_tables_fields_only() -> None:
    line = _logged({"type": "player_sat", "seat": 3, "name": "ann", "stack": 500}, "hcf")
    assert {k: v for k, v in line.items() if k.startswith("ev_")} == {"ev_seat": 3, "ev_name": "ann", "ev_stack": 500}


@given(st.sampled_from(sorted(GAMES)), st.dictionaries(st.sampled_from(["cards", "seed", "server_seed", "hands",
                                                                         "player_seeds", "secret"]),
                                                        st.text(max_size=4)))
def test_a_games_log_line_holds_no_seed_and_no_dealt_hand(game: str, payload: dict[str, Any]) -> None:
    fields = GAMES[game].log_fields({"type": "cards_dealt", **payload})
    assert not {"seed", "server_seed", "hands", "player_seeds", "secret"} & set(fields)
