"""Phrases: English where English is read, Spanish or German where the reader asked (server/i18n.py)."""

from __future__ import annotations

import copy
import pickle

from hypothesis import given
from hypothesis import strategies as st

from server.i18n import LANGUAGES, Phrase, environment_language, language, phrase, render_text, tr, use_language
from server.refusals import explain


def test_a_phrase_reads_as_its_english_sentence() -> None:
    said = phrase("the buy-in is {low} to {high} chips, got {asked}", low=20, high=1000, asked=5)
    assert said == "the buy-in is 20 to 1000 chips, got 5"
    assert isinstance(said, Phrase)
    assert said.msgid == "the buy-in is {low} to {high} chips, got {asked}"


def test_a_phrase_is_said_in_spanish_and_german() -> None:
    said = phrase("the buy-in is {low} to {high} chips, got {asked}", low=20, high=1000, asked=5)
    assert render_text(said, "es") == "la compra de fichas es de 20 a 1000 fichas, no 5"
    assert render_text(said, "de") == "das Buy-in beträgt 20 bis 1000 Chips, nicht 5"
    assert render_text(said, "en") == said


def test_a_phrase_inside_a_phrase_is_translated_too() -> None:
    said = explain("sit", [{"type": "greater_than_equal", "loc": ("buy_in",), "ctx": {"ge": 1}}])
    assert said == "sit: the buy-in is at least 1 chip"
    assert render_text(said, "es") == "sit: la compra de fichas: como mínimo 1 ficha"
    assert render_text(said, "de") == "sit: das Buy-in: mindestens 1 Chip"


def test_plain_text_stays_as_it_was_written() -> None:
    assert render_text("a sentence nobody wrapped", "de") == "a sentence nobody wrapped"


def test_a_phrase_survives_pickling_and_copying() -> None:
    said = phrase("seat {seat} is taken", seat=3)
    for again in (pickle.loads(pickle.dumps(said)), copy.deepcopy(said)):
        assert isinstance(again, Phrase)
        assert render_text(again, "de") == "Platz 3 ist besetzt"


def test_the_language_is_the_first_tag_we_speak() -> None:
    assert language("es-ES") == "es"
    assert language("de_DE.UTF-8") == "de"
    assert language("fr", "pt-BR") == "en"
    assert language(None) == "en"
    assert environment_language({"LANG": "de_AT.UTF-8"}) == "de"
    assert environment_language({"LANG": "de_AT.UTF-8", "LC_ALL": "es_MX.UTF-8"}) == "es"
    assert environment_language({}) == "en"


def test_the_terminal_language_is_chosen_once() -> None:
    from server.i18n import _

    try:
        assert use_language("de-CH") == "de"
        assert _("seat {seat} is taken", seat=2) == "Platz 2 ist besetzt"
    finally:
        use_language("en")
    assert _("seat {seat} is taken", seat=2) == "seat 2 is taken"


@given(st.sampled_from(LANGUAGES), st.integers(), st.text(max_size=20))
def test_any_parameters_fill_every_language(lang: str, seat: int, table: str) -> None:
    assert str(seat) in tr(lang, "seat {seat} is taken", seat=seat)
    full = "table {table} is full (all {count} seats are taken)"
    said = tr(lang, full, table=table, count=seat)
    assert table in said
    assert str(seat) in said
    assert phrase(full, table=table, count=seat) == f"table {table} is full (all {seat} seats are taken)"


def test_the_terminal_prompts_follow_the_chosen_language() -> None:
    from client_cli.parse import Choices, choices_text
    from client_cli.reasons import dead_result

    bets = Choices(kind="bets", min_ante=5, max_ante=500, min_bonus=1, max_bonus=100, stack=1000)
    try:
        use_language("es")
        assert choices_text(bets) == ("Apuestas abiertas: bet ANTE [SF FLUSH] con un Ante de 5 a 500, "
                                      "bonificaciones de 1 a 100 o 0; o pass (p)")
        use_language("de")
        assert dead_result({"dead": True, "dead_reason": "funds", "bank": 60, "owed": 120}) == (
            "tote Hand (die 60 Chips des designierten Spielers deckten die geschuldeten 120 nicht): "
            "Einsätze und Gebühr zurück")
    finally:
        use_language("en")
    assert choices_text(bets) == ("Bets are open: bet ANTE [SF FLUSH] with an Ante of 5 to 500, bonuses 1 to 100 "
                                  "or 0; or pass (p)")


def test_a_terminal_result_line_is_said_in_spanish() -> None:
    from client_cli.render import result_lines

    summary = {"number": 4, "dealer": 1, "dealer_cards": [], "dealer_qualifies": True,
               "settlement": {"seats": [{"seat": 2, "ante": -10, "raise": -10, "fee": -1, "net": -21}],
                              "dealer": {"net": 20, "fee": 0}}}
    try:
        use_language("es")
        lines = [line.plain for line in result_lines(summary, {1: "ana", 2: "bea"})]
    finally:
        use_language("en")
    assert lines[0] == "Mano n.º 4 · Jugador designado ana:  · califica"
    assert lines[1].endswith("ante -10 subida -10 cargo -1 = neto -21")
    assert lines[2] == "  Jugador designado ana: neto +20"


def test_the_terminal_log_is_said_in_german() -> None:
    from client_cli.event_words import describe_event

    try:
        use_language("de")
        sat = describe_event({"type": "player_sat", "seat": 2, "name": "bea", "stack": 500}, {2: "bea"})
        opened = describe_event({"type": "betting_opened", "commitment": "0123456789abcdef"}, {})
        started = describe_event({"type": "hand_started", "number": 3}, {})
    finally:
        use_language("en")
    assert sat == "bea setzt sich auf Platz 2 mit 500"
    assert opened == "Einsätze offen (Festlegung des Server-Seeds 0123456789ab…)"
    assert started == "-- Hand Nr. 3 --"
