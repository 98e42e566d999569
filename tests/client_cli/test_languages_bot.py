"""``hcf bot``'s lines a person reads speak the language asked (issue 28 item 5, docs/i18n.md)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from client_cli.bot_team import BotReport, RunReport
from client_cli.runners import bot_summary
from server.i18n import _, use_language
from tests.client_cli.conftest import ROOT, client_env, hcf


@pytest.fixture
def spanish() -> Iterator[None]:
    use_language("es")
    yield
    use_language("en")


def _report() -> RunReport:
    return RunReport(hands=4, bots=[BotReport(name="bot1", hands=4, net=-20, errors=[_("the table was closed")])])


@pytest.mark.usefixtures("spanish")
def test_the_summary_is_spanish() -> None:
    assert bot_summary(_report(), "main") == ["1 bots en main: 4 manos, 1 errores",
                                              "  bot1             manos    4   neto     -20",
                                              "    error: la mesa se cerró"]


def test_the_english_summary_is_unchanged() -> None:
    assert bot_summary(_report(), "main") == ["1 bots at main: 4 hands, 1 errors",
                                              "  bot1             hands    4   net     -20",
                                              "    error: the table was closed"]


def test_a_wrong_count_is_said_in_german(tmp_path: Path) -> None:
    done = subprocess.run(hcf("bot", "--count", "0", "--lang", "de"), cwd=ROOT, env=client_env(tmp_path),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip() == "Fehler: --count und --hands sind mindestens 1"
