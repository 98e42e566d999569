"""Several trainees at a live drill in the terminal client (issue 27, item 6): the flags that make the table, and
the sentences that say whose turn it is (client_cli/drill/turns.py)."""

from __future__ import annotations

import argparse

import pytest

from client_cli.drill.turns import step_owner, turn_sentence
from client_cli.host import trainer_lines
from client_cli.runners import drill_flags


def _args(trainee: str | None, turn: int | None = None) -> argparse.Namespace:
    return argparse.Namespace(drill_trainee=trainee, trainee_turn=turn, drill_mode=None, step_seconds=None,
                              drill_steps="fees")


def test_one_name_keeps_the_single_trainee_form_and_several_take_turns() -> None:
    assert drill_flags(_args("tina")) == {"trainee": "tina", "steps": ["fees"]}
    assert drill_flags(_args("ana, ben", 2)) == {"trainees": ["ana", "ben"], "trainee_turn": 2, "steps": ["fees"]}
    assert drill_flags(_args("ana,ben")) == {"trainees": ["ana", "ben"], "trainee_turn": 1, "steps": ["fees"]}


def test_a_drill_flag_without_a_trainee_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert drill_flags(_args(None, 2)) == 2
    assert "needs its trainee" in capsys.readouterr().err


def test_the_sentences_name_whose_turn_it_is() -> None:
    drill = {"trainee": "cy", "trainees": ["ana", "ben", "cy"], "trainee_turn": 3}
    assert turn_sentence(drill) == "trainees ana, ben and cy deal in turn, 3 hands each; cy deals now"
    assert turn_sentence({"trainee": "tina", "trainees": ["tina"], "trainee_turn": 1}) == "trainee tina"
    assert step_owner({"trainee": "cy", "hand": 7, "n": 9}, "ana") == \
        "hand 7 is cy's to deal: step 9 is theirs to answer; you watch until your turn"
    assert step_owner({"trainee": "cy", "hand": 7, "n": 9}, None) is None, "no name known: the server judges"


def test_the_trainers_report_of_several_trainees_names_them_all() -> None:
    report = {"trainee": "ana and ben", "trainees": ["ana", "ben"], "scenario": "training", "total": 0}
    assert trainer_lines(report, ended=True) == ["no step answered yet; the session is over"]
    lines = trainer_lines(report | {"total": 1, "right": 1, "steps": [], "mode": "training", "by_step": {}}, ended=True)
    assert lines[0] == "trainees ana and ben at table training (the session is over)"
