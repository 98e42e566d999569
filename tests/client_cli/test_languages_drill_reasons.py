"""A drill's reasons in the trainee's language (issue 28 item 5): the section titles its feedback cites (the
number stays the anchor into the English docs/rules), each key step's reason in this hand's facts, and a shipped
scenario's own title and about in the rehearsal."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from client_cli.drill.screen import feedback
from server.drill.play import dry_run, key_of
from server.drill.scenario import load
from server.i18n import Phrase, render_text
from server.rules.drill.sections import TITLES, cite
from tests.client_cli.conftest import ROOT, client_env, hcf
from tests.support.message_ids import phrase_ids, read_catalog, scenario_ids


def test_a_cited_sections_title_is_said_and_its_number_kept() -> None:
    assert render_text(cite("RULES 3.7"), "de").endswith("3.7, Abrechnung")
    spanish = render_text(cite("RULES-caribbean 3.5, 4"), "es")
    assert "3.5, Liquidación" in spanish
    assert spanish.endswith("4, Jackpot Progresivo")
    assert cite("RULES 7") == "the High Card Flush rules, section 7, The standard profile (the house banks, as in a " \
        "casino)"
    german = {m.id: m.string for m in read_catalog("de") if m.id}
    for (file, number), title in TITLES.items():
        rule = {"hcf.md": "RULES", "caribbean.md": "RULES-caribbean", "sixcard.md": "RULES-sixcard"}[file]
        said = cite(f"{rule} {number}")
        assert all(german.get(msgid) for msgid in phrase_ids(said)), (file, number, title)


@pytest.mark.parametrize("name", sorted({n.split("/")[-1].split(".")[0] for n in scenario_ids().values()}))
def test_every_reason_a_shipped_scenarios_key_gives_is_translated(name: str) -> None:
    german = {m.id: m.string for m in read_catalog("de") if m.id}
    for asked in key_of(dry_run(load(name))):
        why = asked.step.why
        if why:
            assert isinstance(why, Phrase), f"{name}: {asked.step.step}: {why!r} is not a phrase"
            assert all(german.get(msgid) for msgid in phrase_ids(why)), (name, asked.step.step, phrase_ids(why))


@pytest.mark.usefixtures("german")
def test_the_feedback_of_a_wrong_fee_is_german_with_its_reason_and_section() -> None:
    fees = next(a.step for a in key_of(dry_run(load("fees-all"))) if a.step.step == "fees")
    said = feedback(fees, {"fees": {}})
    assert "der Gebührenmodus ist hier all: dieser Tisch erhebt eine Gebühr von 2 Chips: jeder Spieler mit Ante " \
        "zahlt sie, und der designierte Spieler (Platz 7) ebenso" in said
    assert "3.3, Gebühr)" in said
    for english in ("the fee mode here", "each player with an Ante", ", Fee)"):
        assert english not in said


@pytest.mark.usefixtures("german")
def test_a_shipped_scenarios_title_is_german_and_a_files_own_stays() -> None:
    from client_cli.drill.screen import scenario_text  # (the rehearsal's own word for it)

    assert scenario_text("A player walks away before their turn") == "Ein Spieler geht vor seinem Zug weg"
    assert scenario_text("My own scenario") == "My own scenario"


def test_a_rehearsal_says_the_scenarios_title_and_about_in_spanish(tmp_path: Path) -> None:
    run = subprocess.run(hcf("drill", "walk-away", "--lang", "es", "--mode", "exam"), input="", capture_output=True,
                         text=True, cwd=ROOT, env=client_env(tmp_path), timeout=60, check=False)
    assert run.returncode == 0, run.stderr
    assert "Un jugador se va antes de su turno" in run.stdout
    assert "El asiento 3 deja la mesa cuando le llega el turno" in run.stdout
    assert "A player walks away" not in run.stdout
    assert "Seat 3 leaves the table" not in run.stdout
