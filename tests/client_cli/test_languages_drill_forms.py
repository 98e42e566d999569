"""The offline drill's answer forms and its own lines in the trainee's language (issue 28 item 5): the list ``?``
shows, a typo's reason, where the report is kept; the typed words themselves stay English (docs/i18n.md)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from client_cli.drill.grammar import AnswerError, help_text, parse_answer
from server.i18n import spoken
from tests.client_cli.conftest import ROOT, client_env, hcf


@pytest.mark.usefixtures("german")
def test_the_answer_forms_are_german_around_the_typed_words() -> None:
    lines = help_text(("first_card", "walk_away")).splitlines()
    assert lines == ["Die Antworten (tippen Sie sie an der Eingabeaufforderung > ein):",
                     "  die erste Karte: `first PLATZ` (der Platz, der die erste Karte erhält)",
                     "  das Verlassen des Tisches: `fold` (die Hand weglegen) oder `wait` (warten)",
                     "  ? oder help: diese Formen noch einmal"]


@pytest.mark.usefixtures("german")
def test_a_typos_reason_is_a_phrase_said_in_german() -> None:
    with pytest.raises(AnswerError) as caught:
        parse_answer("first_card", "frist 2")
    assert str(caught.value) == "the answer here is `first SEAT` (the seat dealt the first card)"
    assert spoken(caught.value.reason) == \
        "die Antwort lautet hier `first PLATZ` (der Platz, der die erste Karte erhält)"


def test_the_english_forms_are_unchanged() -> None:
    assert help_text(("walk_away",)).splitlines() == [
        "The answers (type them at the > prompt):", "  the walk-away: `fold` or `wait`",
        "  ? or help: these forms again"]


@pytest.mark.parametrize(("lang", "words"), [
    ("de", ["Wem wird die Bank angeboten?", "noch kein designierter Spieler", "Mindestbank 500",
            "die Antwort lautet hier `offer PLATZ`", "Die Antworten (tippen Sie sie",
            "Dieser Bericht bleibt nur auf Ihrem Bildschirm"]),
    ("es", ["¿A quién se ofrece la banca?", "aún no hay jugador designado", "banca mínima 500",
            "aquí la respuesta es `offer ASIENTO`", "Las respuestas (escríbalas",
            "Este informe solo queda en su pantalla"]),
])
def test_a_rehearsal_reads_in_the_language_asked(tmp_path: Path, lang: str, words: list[str]) -> None:
    """``hcf drill walk-away --lang LANG`` with ``?``, a typo, then the end of the input."""
    run = subprocess.run(hcf("drill", "walk-away", "--lang", lang), input="?\nfrist 2\n", capture_output=True,
                         text=True, cwd=ROOT, env=client_env(tmp_path), timeout=60, check=False)
    assert run.returncode == 0, run.stderr
    for said in words:
        assert said in run.stdout
    for english in ("Who is offered the bank?", "no DP yet", "min bank", "the answer here is", "The answers (",
                    "This report is kept", "(the seat offered the bank)"):
        assert english not in run.stdout
