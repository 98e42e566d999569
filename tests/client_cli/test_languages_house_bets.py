"""The house games' bets and their own refusals in Spanish and German (issue 28 item 5; docs/i18n.md): the
Caribbean bet summary in the table log ("spot 1 ante 10 +jackpot"), the 6 Card Poker box roles (open, blind, bonus)
in a bet's summary and in ``hcf history``, the header's jackpot. Pure: no terminal."""

from __future__ import annotations

import pytest

from client_cli.games.caribbean.choices import Choices as SpotChoices
from client_cli.games.caribbean.choices import SpotBet
from client_cli.games.caribbean.choices import bets_text as spot_bets
from client_cli.games.caribbean.refusals import bets_refusal as spot_refusal
from client_cli.games.sixcard.choices import Choices as BoxChoices
from client_cli.games.sixcard.choices import bets_text as box_bets
from client_cli.games.sixcard.refusals import bets_refusal as box_refusal
from client_cli.games.sixcard.view import history_bets, role_label
from client_cli.offers import Misfit
from client_cli.render import header_line

SPOTS = [SpotBet(1, 10, True), SpotBet(3, 5, False)]
BOXES = [(1, 10, 1), (2, 0, 5)]
FINISHED = {"bets": [{"box": 1, "seat": 1, "role": "open", "ante": 10, "bonus": 1, "decision": "raise"}],
            "draws": [{"box": 1, "kind": "buy", "fee": 5}]}



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


@pytest.mark.parametrize(("lang", "spot", "box", "ratio", "meter"), [
    ("de", "Feld 1: das Ante beträgt 5 bis 500 Chips, nicht 600",
     "Position 1: das Ante beträgt 5 Chips oder mehr, nicht 4",
     "Ihr größtes Ante (51) darf höchstens das 5-Fache Ihres kleinsten (10) sein", "Jackpot 1.234,56"),
    ("es", "posición 1: el Ante es de 5 a 500 fichas, no 600", "casilla 1: el Ante es de 5 fichas o más, no 4",
     "su Ante más grande (51) puede ser como mucho 5 veces el más pequeño (10)", "Jackpot 1.234,56"),
], indirect=["lang"])
def test_the_house_games_own_refusals_and_the_jackpot_in_the_header(lang: str, spot: str, box: str, ratio: str,
                                                                     meter: str) -> None:
    """The client's own refusal of a Caribbean or 6 Card bet the server does not offer, and the header's meter."""
    assert lang in ("de", "es")
    spots = SpotChoices(kind="bets", stack=200, min_ante=5, max_ante=500, wager=1)
    assert spot_refusal(Misfit(arg="bets", spec={"min": 5, "max": 66}, part="ante", entry={"spot": 1, "ante": 600}),
                        spots, 1) == spot
    boxes = BoxChoices(kind="bets", stack=1000, min_ante=5, ante_ratio=5)
    assert box_refusal(Misfit(arg="bets", spec=[0, {"min": 5, "max": 250}], part="ante", entry={"box": 1, "ante": 4}),
                       boxes, [(1, 4, 0)]) == box
    assert box_refusal(Misfit(arg="limits", spec={"ante_ratio": 5}), boxes, [(1, 10, 0), (3, 51, 0)]) == ratio
    header = header_line({"table": "stud", "jackpot_meter": 123456}, 0.0).plain
    assert f" · {meter}" in header
    assert "jackpot" not in header
