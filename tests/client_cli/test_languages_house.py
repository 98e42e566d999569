"""The house games in the terminal in Spanish and German (issue 28 item 5): the table log's lines, the results and
the client's own refusal of too many places, said in the chosen language (docs/i18n.md). Pure: no terminal."""

from __future__ import annotations

import pytest

from client_cli.games.caribbean.view import describe_event as caribbean_event
from client_cli.games.house import hold_problem
from client_cli.games.sixcard.view import boxes_text
from client_cli.games.sixcard.view import describe_event as sixcard_event


@pytest.mark.usefixtures("german")
def test_the_house_games_log_lines_are_german() -> None:
    names = {1: "ana"}
    assert caribbean_event({"type": "spot_played", "seat": 1, "spot": 2, "bet": 20}, names) == \
        "ana spielt Feld 2 (Back Bet 20)"
    assert caribbean_event({"type": "dealer_revealed", "cards": ["Ah", "Kd", "7c", "4s", "2h"], "qualifies": True},
                           names) == "der Dealer zeigt Ah Kd 7c 4s 2h: höchste Karte, spielt mit (A-K oder besser)"
    assert sixcard_event({"type": "cards_drawn", "seat": 1, "box": 3, "kind": "buy", "fee": 5}, names) == \
        "ana kauft eine sechste Karte für Position 3 (Gebühr 5)"
    assert boxes_text([4, 1, 2]) == "Positionen 1, 2 und 4"
    assert hold_problem(2, 1, 3, ["bo"], "spot") == \
        "Sie dürfen höchstens 1 Feld halten, solange bo weder gesetzt noch gepasst hat"


def test_english_stays_as_it_was() -> None:
    assert caribbean_event({"type": "spot_played", "seat": 1, "spot": 2, "bet": 20}, {1: "ana"}) == \
        "ana plays spot 2 (Back Bet 20)"
    assert hold_problem(2, 1, 3, ["bo"], "spot") == "you may hold at most 1 spot while bo has not bet or passed yet"
