"""The drill's steps said in the trainee's language (issue 28 item 5): each step's question, the dealer's view
(the table line, the dealer, each seat's bets and state, the hands shown) and a mistake's name, in the offline
rehearsal and in a live drill's view as the server sends it (its ``say`` specs)."""

from __future__ import annotations

import json

import pytest

from client_cli.drill.screen import dealer_lines, report_lines, view_lines
from client_cli.host import answer_line
from server.drill.play import dry_run
from server.drill.scenario import load
from server.drill.views import moments, view_from_json, view_json
from server.i18n import Phrase
from server.rules.drill.views import DealerView, Moment
from tests.support.message_ids import phrase_ids, read_catalog

SHIPPED = ("bank-runs-out", "fees-schedule", "caribbean-qualifier-jackpot", "sixcard-qualifier-exchange",
           "house-banked", "walk-away", "miscount-seat", "payouts")


def _moments(name: str) -> list[Moment]:
    scenario = load(name)
    return moments(scenario, dry_run(scenario))


def _sentences(view: DealerView) -> list[str]:
    return [view.table, view.dealer, view.note, *(place for place, _cards in view.shown),
            *(text for seat in view.seats for text in (seat.bets, seat.status))]


@pytest.mark.parametrize("name", SHIPPED)
def test_every_sentence_of_a_dealers_view_is_a_translated_phrase(name: str) -> None:
    german = {m.id: m.string for m in read_catalog("de") if m.id}
    for moment in _moments(name):
        for text in _sentences(moment.view):
            if text:
                assert isinstance(text, Phrase), f"{name} step {moment.n}: {text!r} is not a phrase"
                assert all(german.get(msgid) for msgid in phrase_ids(text)), f"{name}: {phrase_ids(text)}"


@pytest.mark.usefixtures("german")
def test_a_rehearsals_step_is_said_in_german() -> None:
    first = _moments("bank-runs-out")[0]
    lines = view_lines(first, 8)
    assert lines[1].startswith("High Card Flush, California: Gebührenmodus ")
    assert "Mindestbank 100" in lines[1]
    assert "noch kein designierter Spieler" in lines[2]
    assert lines[-1] == "Wem wird die Bank angeboten?"
    said = "\n".join(lines)
    for english in ("no DP yet", "min bank", "fee mode", "Who is offered the bank?", "ante ", "banking switch"):
        assert english not in said


@pytest.mark.usefixtures("german")
def test_a_seats_bets_and_states_are_said_in_german() -> None:
    said = "\n".join(line for m in _moments("walk-away") for line in view_lines(m, 9))
    assert "[hat den Tisch verlassen, ist am Zug]" in said
    assert "Ante 10" in said
    caribbean = "\n".join(line for m in _moments("caribbean-qualifier-jackpot") for line in view_lines(m, 9))
    assert "Caribbean Stud: das Haus gibt und hält die Bank" in caribbean
    assert "Feld 1: Ante " in caribbean
    assert "spot " not in caribbean


@pytest.mark.usefixtures("german")
def test_a_live_drills_view_is_said_in_the_trainees_language() -> None:
    """The view travels as JSON with its specs; the terminal says it as the rehearsal does (in German here)."""
    said = []
    for moment in _moments("sixcard-qualifier-exchange") + _moments("bank-runs-out"):
        sent = json.loads(json.dumps(view_json(moment.view)))
        assert view_from_json(sent) == moment.view
        lines = dealer_lines(view_from_json(sent), "Schritt 1", moment.asked.step.step)
        assert lines == dealer_lines(moment.view, "Schritt 1", moment.asked.step.step)
        said += lines
    assert "Position 1: Ante 10, hat getauscht, mit BET" in "\n".join(said)
    assert "Hand von Position 1: " in "\n".join(said)


def test_a_view_without_specs_still_reads_as_its_english() -> None:
    """An older server's view (no ``say``), or a spec that does not match its text: the English as sent."""
    moment = _moments("bank-runs-out")[0]
    sent = json.loads(json.dumps(view_json(moment.view)))
    sent.pop("say")
    sent["seats"][0]["say"] = {"status": {"id": "to act"}}  # not what its text says: the text wins
    view = view_from_json(sent)
    assert (view.dealer, view.seats[0].status) == ("no DP yet", str(moment.view.seats[0].status))
    assert not isinstance(view.dealer, Phrase)


@pytest.mark.usefixtures("german")
def test_a_mistakes_name_is_german_in_the_report() -> None:
    report = {"scenario": "s", "right": 0, "total": 2, "by_step": {"first_card": {"right": 0, "total": 2}},
              "steps": [{"n": 1, "hand": 1, "step": "first_card", "given": None, "answer": {"seat": 2},
                         "right": False, "mistake": "no answer", "rule": "RULES 3.4"},
                        {"n": 2, "hand": 1, "step": "first_card", "given": {"seat": 3}, "answer": {"seat": 2},
                         "right": False, "mistake": "wrong", "rule": "RULES 3.4"}]}
    lines = report_lines(report, "training")
    assert "(keine Antwort; RULES 3.4)" in lines[-2]
    assert "(falsch; RULES 3.4)" in lines[-1]


@pytest.mark.usefixtures("german")
def test_the_trainers_answer_lines_are_german() -> None:
    line = answer_line({"n": 3, "hand": 1, "step": "first_card", "given": None, "answer": {"seat": 2},
                        "right": False, "mistake": "no answer", "rule": "RULES 3.4", "seconds": 4.2})
    assert line.startswith("Hand 1, Schritt 3 (die erste Karte): ")
    assert "keine Antwort; richtig: `first 2` (RULES 3.4), 4,2\u00a0s" in line  # the time written the German way


@pytest.mark.usefixtures("german")
def test_whose_turn_it_is_is_said_in_german() -> None:
    from client_cli.drill.turns import step_owner, turn_sentence

    assert turn_sentence({"trainee": "tina"}) == "Auszubildende(r) tina"
    assert turn_sentence({"trainee": "ben", "trainees": ["ana", "ben", "cy"], "trainee_turn": 2}) == \
        "Auszubildende ana, ben und cy teilen abwechselnd aus, je 2 Hände; jetzt teilt ben aus"
    assert step_owner({"trainee": "ben", "hand": 4, "n": 7}, "ana") == \
        "Hand 4 teilt ben aus: Schritt 7 beantwortet diese Person; Sie sehen zu, bis Sie an der Reihe sind"
