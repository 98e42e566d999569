"""The house games' bets in Spanish and German (issue 28 item 5; docs/i18n.md): the Caribbean bet summary in the
table log ("spot 1 ante 10 +jackpot"), the 6 Card Poker box roles (open, blind, bonus) in a bet's summary and in
``hcf history``. Pure: no terminal."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from client_cli.games.caribbean.choices import SpotBet
from client_cli.games.caribbean.choices import bets_text as spot_bets
from client_cli.games.sixcard.choices import bets_text as box_bets
from client_cli.games.sixcard.view import history_bets, role_label
from server.i18n import use_language

SPOTS = [SpotBet(1, 10, True), SpotBet(3, 5, False)]
BOXES = [(1, 10, 1), (2, 0, 5)]
FINISHED = {"bets": [{"box": 1, "seat": 1, "role": "open", "ante": 10, "bonus": 1, "decision": "raise"}],
            "draws": [{"box": 1, "kind": "buy", "fee": 5}]}


@pytest.fixture
def lang(request: pytest.FixtureRequest) -> Iterator[str]:
    use_language(request.param)
    try:
        yield request.param
    finally:
        use_language("en")


@pytest.mark.parametrize(("lang", "spots", "boxes", "history", "roles"), [
    ("de", "Feld 1 Ante 10 +Jackpot, Feld 3 Ante 5",
     "Position 1 Ante 10 +Bonus Bet 1 (offen), Position 2 +Bonus Bet 5 (nur Bonus)",
     "Position 1 ana            offen Ante 10 Bonus Bet 1 · mit BET · gekauft (Gebühr 5)", ("offen", "blind", "Bonus")),
    ("es", "posición 1 ante 10 +Jackpot, posición 3 ante 5",
     "casilla 1 ante 10 +bonificación 1 (abierta), casilla 2 +bonificación 5 (solo bonificación)",
     "casilla 1 ana            abierta ante 10 bonificación 1 · con APUESTA · comprada (cargo 5)",
     ("abierta", "ciega", "bonif.")),
    ("en", "spot 1 ante 10 +jackpot, spot 3 ante 5",
     "box 1 ante 10 +bonus 1 (open), box 2 +bonus 5 (bonus only)",
     "box 1 ana            open ante 10 bonus 1 · raised · bought (fee 5)", ("open", "blind", "bonus")),
], indirect=["lang"])
def test_the_house_bets_are_said_in_the_language(lang: str, spots: str, boxes: str, history: str,
                                                 roles: tuple[str, str, str]) -> None:
    assert lang in ("de", "es", "en")
    assert spot_bets(SPOTS) == spots
    assert box_bets(BOXES) == boxes
    assert [line.plain.strip() for line in history_bets(FINISHED, {1: "ana"})] == [history]
    assert tuple(role_label(role) for role in ("open", "blind", "bonus_only")) == roles
