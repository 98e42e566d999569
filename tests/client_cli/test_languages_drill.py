"""The offline ``hcf drill`` rehearsal's lines and report speak the language asked (issue 28 item 5)."""

from __future__ import annotations

import pytest

from client_cli.drill.screen import exam_line, intro_lines, report_lines

_REPORT = {"scenario": "bank-runs-out", "right": 1, "total": 2, "by_step": {
    "first_card": {"right": 1, "total": 2}}, "steps": [
    {"n": 2, "hand": 1, "step": "first_card", "given": {"seat": 3}, "answer": {"seat": 2}, "right": False,
     "mistake": "wrong", "rule": "RULES 3.4"}]}



@pytest.mark.usefixtures("german")
def test_the_report_is_german() -> None:
    lines = report_lines(_REPORT, "training")
    assert lines[0] == "Bericht: bank-runs-out (training): 1/2 richtig, 50,0\u00a0%"
    assert lines[2].startswith("  die erste Karte ")
    assert lines[3] == "Fehler:"
    assert lines[4].startswith("  Hand 1, Schritt 2 (die erste Karte)")
    assert "Sie sagten `first 3`, die richtige Antwort ist `first 2`" in lines[4]


@pytest.mark.usefixtures("german")
def test_the_exam_and_the_opening_are_german() -> None:
    assert exam_line({"passed": True, "right_percent": 96.0, "within_percent": 95.0,
                      "marks": {"right": 95, "within": 90}}) == \
        ("Prüfung: bestanden: 96,0\u00a0% richtig (95\u00a0% nötig), 95,0\u00a0% innerhalb der Standardzeiten "
         "(90\u00a0% nötig).")
    assert intro_lines("bank runs out", "training", 8, "?") == [
        "Übung: bank runs out", "8 Schritte; nach jeder Antwort erfahren Sie, ob sie richtig oder falsch ist.", "?"]


@pytest.mark.usefixtures("spanish")
def test_the_spanish_report_writes_its_figures_the_spanish_way() -> None:
    report = {**_REPORT, "by_step": {"first_card": {"right": 1, "total": 2, "median_seconds": 2.5,
                                                    "worst_seconds": 12.25, "standard_seconds": 8}}}
    lines = report_lines(report, "exam")
    assert lines[0] == "Informe: bank-runs-out (exam): 1/2 aciertos, 50,0\u00a0%"
    assert "2,5\u00a0s" in lines[2]
    assert "12,2\u00a0s" in lines[2] or "12,3\u00a0s" in lines[2]
    assert "8\u00a0s" in lines[2]
    assert exam_line({"passed": False, "right_percent": 96.0, "within_percent": 80.0,
                      "marks": {"right": 92.5, "within": 90}}) == (
        "Examen: no aprobado: 96,0\u00a0% de aciertos (se necesita un 92,5\u00a0%), 80,0\u00a0% dentro de los "
        "tiempos estándar (se necesita un 90\u00a0%).")


@pytest.mark.usefixtures("german")
def test_the_reports_columns_line_up_however_long_the_languages_words() -> None:
    tallies = {"first_card": {"right": 1, "total": 2, "median_seconds": 2.5, "worst_seconds": 12.0,
                              "standard_seconds": 5, "within_standard": 1},
               "bank_after": {"right": 0, "total": 1, "median_seconds": 1.0, "worst_seconds": 1.0,
                              "standard_seconds": 20, "within_standard": 1}}
    table = report_lines({**_REPORT, "by_step": tallies}, "exam")[1:4]
    assert table[2].startswith("  der Stapel des designierten Spielers danach  ")
    worst = table[0].index("schlechteste") + len("schlechteste")  # each figure ends where its heading ends
    assert [line[worst - 6:worst] for line in table[1:]] == ["12,0\u00a0s", " 1,0\u00a0s"], table
    standard = table[0].index("Standard") + len("Standard")
    assert [line[standard - 5:standard] for line in table[1:]] == ["  5\u00a0s", " 20\u00a0s"], table


def test_the_english_report_is_unchanged() -> None:
    lines = report_lines(_REPORT, "exam")
    assert lines[0] == "Report: bank-runs-out (exam): 1/2 right, 50.0%"
    assert lines[2].startswith("  the first card ")
    assert lines[3] == "Mistakes:"
    assert intro_lines("t", "exam", 3, "?")[1] == "3 steps; exam: nothing is said until the report at the end."


def test_a_rehearsal_takes_lang_on_its_line() -> None:
    from client_cli.cli import build_parser

    assert build_parser().parse_args(["drill", "bank-runs-out", "--lang", "es"]).lang == "es"
