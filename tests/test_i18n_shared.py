"""Sentences shared in a table's updates: English in the text, each client's language from the ``say`` spec
(server/i18n.py ``told``/``with_say``/``heard``; docs/i18n.md)."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from server.i18n import heard, heard_lines, joined, render_text, say_again, spec, told, with_say
from server.rules.drill.explain import feedback
from server.rules.drill.steps import KeyStep
from server.rules.hcf.bank_rules import table_notes
from server.rules.hcf.settings import HcfSettings
from server.table.hand_start import waiting_sentence

WAITING = "waiting for players: a hand needs two, one to bank and one to play"
SETTLE = KeyStep("settle_seat", {"seat": 4, "ante": 10, "raise": 20, "straight_flush_bonus": 0, "flush_bonus": -5},
                 "RULES 3.7")
WRONG_RAISE = {"seat": 4, "ante": 10, "raise": 10, "straight_flush_bonus": 0, "flush_bonus": -5}


def _over_the_wire(record: dict[str, object]) -> dict[str, object]:
    """What a client gets: the JSON of the update (no phrase survives it, only its text and spec)."""
    got: dict[str, object] = json.loads(json.dumps(record))
    return got


def test_a_waiting_message_is_said_in_each_clients_language() -> None:
    event = _over_the_wire(with_say({"type": "table_waiting", "reason": "players",
                                     "message": waiting_sentence("players", "", house_banked=False)}))
    assert event["message"] == WAITING  # an older client shows the English, as before
    assert heard(event, "message", "en") == WAITING
    assert heard(event, "message", "es") == ("esperando jugadores: una mano necesita dos, uno que haga de banca y "
                                             "otro que juegue")
    assert heard(event, "message", "de") == ("warte auf Spieler: eine Hand braucht zwei, einen für die Bank und "
                                             "einen zum Spielen")


def test_the_house_notes_title_and_lines_are_said_in_spanish() -> None:
    settings = HcfSettings(bank_keep=2, nobody_banks="end")
    (rules, rotation) = _over_the_wire(table_notes(settings, {}))["notes"]  # type: ignore[misc]
    assert heard(rules, "title", "es") == "Reglas de la casa para la banca"
    assert heard_lines(rules, "lines", "es") == [
        "un jugador puede hacer de banca hasta 2 manos seguidas; después la banca pasa al siguiente",
        "cuando la banca da la vuelta a la mesa y nadie la toma, la partida termina"]
    assert heard_lines(rules, "lines", "en") == rules["lines"]
    assert heard(rotation, "title", "de") == "Der Wechsel der Bank"


def test_the_drill_feedback_is_said_in_german_with_its_words_translated_too() -> None:
    said = feedback(SETTLE, WRONG_RAISE)
    german = say_again(_over_the_wire({"s": spec(said)})["s"], "de")
    assert german.startswith("falsch: die Erhöhung gewinnt 20 (Sie sagten: gewinnt 10); der Rest von Platz 4 war "
                             "richtig. Die richtige Antwort: Platz 4: der Pflichteinsatz (Ante) gewinnt 10, ")
    assert german == render_text(said, "de")  # the spec and the phrase say the same


def test_a_client_that_knows_no_spec_shows_the_text() -> None:
    assert heard({"message": "plain words"}, "message", "de") == "plain words"
    assert heard_lines({"lines": ["a", "b"], "say": {"lines": [None, {"id": "waiting for players"}]}}, "lines",
                       "es") == ["a", "esperando jugadores"]


_ARG = st.one_of(st.integers(-10**6, 10**6), st.text(alphabet="abcdefghij ", max_size=12))


@given(seat=_ARG, chips=st.integers(0, 10**6), parts=st.lists(_ARG, min_size=1, max_size=4))
def test_the_spec_says_again_exactly_the_english_and_the_phrase(seat: object, chips: int, parts: list[object]) -> None:
    """Whatever the arguments, English said from the spec is the text, and each language agrees with the phrase."""
    said = told("{head}. The right answer: {answer}, because {why} ({rule}: {cite}).",
                head=told("seat {seat} pays {chips}", seat=seat, chips=told("{n} chips", n=chips)),
                answer=joined([str(p) for p in parts], "; "), why=told("that is what the rule says"),
                rule="RULES 3.3", cite=told("the {game} rules, section {section}", game="High Card Flush",
                                            section="3.3"))
    wire = json.loads(json.dumps(spec(said)))
    assert say_again(wire, "en") == said
    for lang in ("es", "de"):
        assert say_again(wire, lang) == render_text(said, lang)
