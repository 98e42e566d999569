"""Every shipped scenario, answered with its own key, scores 100% at a real table, and the ledger is ok."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from server.drill.play import dry_run, key_of
from server.drill.scenario import load, shipped
from server.drill_runner import run
from server.rules.drill.report import key_json
from server.rules.drill.steps import STEP_KINDS

LIBRARY = shipped()


def answers_of(name: str) -> list[object]:
    scenario = load(name)
    return [step["answer"] for step in key_json(name, key_of(dry_run(scenario)))["steps"]]


def test_the_library_covers_what_the_spec_asks() -> None:
    wanted = {"bank-runs-out", "decline-passes-on", "nobody-banks", "fees-all", "fees-designated", "fees-none",
              "miscount-seat", "miscount-dp", "shuffler-fault", "clean-deal", "dp-not-qualifying-bonus",
              "keep-or-pass", "bank-keep-limit", "third-party-banker", "game-ends", "fees-schedule"}
    assert wanted <= set(LIBRARY)
    modes = {load(name).settings.fee_mode for name in LIBRARY if load(name).game == "hcf"}
    assert modes == {"all", "players", "designated", "none"}


@pytest.mark.parametrize("name", LIBRARY)
def test_a_shipped_scenario_is_named_after_its_file_and_asks_only_its_games_steps(name: str) -> None:
    scenario = load(name)
    assert scenario.name == name
    assert scenario.title
    assert scenario.about
    steps = key_of(dry_run(scenario))
    assert steps, "a scenario with nothing to answer rehearses nothing"
    assert {a.step.step for a in steps} <= set(STEP_KINDS[scenario.game])


@pytest.mark.parametrize("name", LIBRARY)
def test_the_keys_own_answers_score_everything_and_the_ledger_is_ok(name: str, tmp_path: Path) -> None:
    answers = answers_of(name)
    report = run(load(name), answers, f"sqlite:///{tmp_path / 'drill.db'}")
    assert report["ledger"] == "ok"
    assert (report["right"], report["total"]) == (len(answers), len(answers))
    assert all(step["mistake"] is None for step in report["steps"])


def hcf_server(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "server.cli", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=120, check=False)


def test_the_command_line_lists_keys_and_runs_a_scenario(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    listed = hcf_server("drill", "list", "--json", cwd=root)
    assert listed.returncode == 0
    assert {"name": "bank-runs-out", "game": "hcf", "title": load("bank-runs-out").title} in json.loads(listed.stdout)
    lines = hcf_server("drill", "list", cwd=root).stdout.splitlines()
    assert [line.split()[0] for line in lines] == LIBRARY
    key = json.loads(hcf_server("drill", "key", "bank-runs-out", cwd=root).stdout)
    assert key["scenario"] == "bank-runs-out"
    assert [s["n"] for s in key["steps"]] == list(range(1, len(key["steps"]) + 1))
    answers = [s["answer"] for s in key["steps"]]
    answers_file = tmp_path / "answers.json"
    answers_file.write_text(json.dumps(answers))
    ran = hcf_server("drill", "run", "bank-runs-out", "--answers", str(answers_file), cwd=root)
    assert ran.returncode == 0, ran.stderr
    report = json.loads(ran.stdout)
    assert (report["right"], report["total"], report["ledger"]) == (len(answers), len(answers), "ok")
    answers[0] = {"seat": 2}
    answers_file.write_text(json.dumps(answers[:-1]))  # the last step unanswered
    ran = hcf_server("drill", "run", "bank-runs-out", "--answers", str(answers_file), cwd=root)
    assert ran.returncode == 0, ran.stderr
    report = json.loads(ran.stdout)
    assert (report["right"], report["total"], report["ledger"]) == (len(answers) - 2, len(answers), "ok")
    assert [(s["n"], s["mistake"]) for s in report["steps"] if not s["right"]] == \
        [(1, "wrong"), (len(answers), "no answer")]


def test_a_bad_scenario_or_answers_file_exits_2_with_one_line(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    bad = tmp_path / "bad.json"
    bad.write_text('{"name": "bad", "seats": []}')
    answers = tmp_path / "answers.json"
    answers.write_text("[]")
    for args in (("drill", "key", "no-such-scenario"), ("drill", "key", str(bad)),
                 ("drill", "run", str(bad), "--answers", str(answers)),
                 ("drill", "run", "fees-all", "--answers", str(tmp_path / "missing.json"))):
        done = hcf_server(*args, cwd=root)
        assert done.returncode == 2, args
        assert done.stdout == ""
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert done.stderr.startswith("error: ")
    answers.write_text('[{"seat": 1}, 3]')
    done = hcf_server("drill", "run", "fees-all", "--answers", str(answers), cwd=root)
    assert (done.returncode, done.stderr.strip()) == (2, f"error: answers file {answers}: answer 2 is an object "
                                                         "or null, got 3")
