"""The terminal shows a table's house rules for the bank, the rotation's status and the fee schedule (issue 26):
the table header, ``hcf host show-settings`` and ``hcf tables``, from the notes the rules themselves write
(server/rules/hcf/bank_rules.py), and the game that ended in a sentence.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from client_cli.event_words import describe_event
from client_cli.host import settings_lines
from client_cli.lobby import tables_lines
from client_cli.render import header_line, notes_lines
from server.rules.hcf.bank_rules import table_notes
from server.rules.hcf.rotation import RECORD, BankRecord
from server.rules.hcf.settings import HcfSettings

SETTINGS = HcfSettings.from_mapping({
    "bank_keep": 2, "nobody_banks": "end", "rotation_window_minutes": 40,
    "fee_schedule": [{"ante_to": 20, "player": 1, "dp": 2}, {"ante_to": 500, "player": 3, "dp": 6}]})
KEPT = {RECORD: BankRecord(last="alice", run=2, window_start=0.0, banked=((0.0, "alice"), (60.0, "alice")),
                           as_of=60.0).as_json(), "table_clock": 1860.0}
NOTES = table_notes(SETTINGS, KEPT)["notes"]
SAID = ("a player may bank up to 2 hands in a row, then the bank moves on",
        "when the bank goes round the table and nobody takes it, the game ends",
        "alice has banked 2 of 2 hands: the bank moves on",
        "the window needs 2 more dealers in 9 min",
        "Ante 1 to 20: each player pays 1, the DP pays 2", "Ante 21 to 500: each player pays 3, the DP pays 6")


def snapshot(**extra: Any) -> dict[str, Any]:
    return {"table": "main", "status": "waiting", "waiting_reason": None, "seats": [], "hand": None, **extra}


def test_the_header_shows_the_rules_the_rotation_and_the_fees() -> None:
    text = header_line(snapshot(notes=NOTES), 0.0).plain
    for sentence in SAID:
        assert sentence in text, text
    assert "House rules for the bank: " in text
    assert "Posted fees: " in text
    assert "The bank's rotation: " in text


def test_a_table_without_house_rules_has_the_header_it_always_had() -> None:
    assert header_line(snapshot(), 0.0).plain == "Table main · between hands"


def test_the_game_that_ended_is_said_in_the_header_and_the_log() -> None:
    text = header_line(snapshot(status="paused", waiting_reason="game_ended"), 0.0).plain
    assert text == "Table main · the game ended: no hand until the host reopens the table"
    ended = {"type": "table_waiting", "reason": "game_ended",
             "message": "the game ends: the bank went round the table and nobody took it"}
    assert describe_event(ended, {}) == "the game ends: the bank went round the table and nobody took it"
    warned = {"type": "table_notice", "message": "the window needs 1 more dealer in 10 min: bob could bank"}
    assert describe_event(warned, {}) == "the window needs 1 more dealer in 10 min: bob could bank"
    assert describe_event({"type": "table_notice"}, {}) == "the table warns every seat"


def test_show_settings_and_the_lobby_show_the_rules_the_rotation_and_the_fees() -> None:
    shown = "\n".join(settings_lines({"table": "main", "game": "hcf", "status": "waiting",
                                      "settings": SETTINGS.as_dict(), "pending": {}, "notes": NOTES}))
    lobby = "\n".join(tables_lines([{"name": "main", "game": "hcf", "phase": "waiting", "seats": [],
                                     "settings": SETTINGS.as_dict(), "notes": NOTES}]))
    for sentence in SAID:
        assert sentence in shown, shown
        assert sentence in lobby, lobby
    plain = "\n".join(tables_lines([{"name": "main", "game": "hcf", "phase": "waiting", "seats": [],
                                     "settings": HcfSettings().as_dict()}]))
    assert len(plain.splitlines()) == 3  # a table without house rules: its one line, as always


NOTE = st.fixed_dictionaries({"title": st.text(min_size=1, max_size=20),
                              "lines": st.lists(st.text(max_size=30), max_size=4)})


@given(st.lists(NOTE, max_size=4))
def test_every_note_is_one_line_with_its_title_and_every_sentence(notes: list[dict[str, Any]]) -> None:
    lines = notes_lines(notes)
    assert len(lines) == len(notes)
    for line, note in zip(lines, notes, strict=True):
        assert line.startswith(f"{note['title']}: ")
        for sentence in note["lines"]:
            assert sentence in line


@pytest.mark.parametrize(("reason", "said"), [("players", "Table main · waiting for players"),
                                              ("no_bank", "Table main · waiting for someone to take the bank"),
                                              ("something_new", "Table main · waiting")])
def test_what_a_table_waits_for_is_said_in_words_not_its_code(reason: str, said: str) -> None:
    assert header_line(snapshot(waiting_reason=reason), 0.0).plain == said  # it said "waiting (players)"
