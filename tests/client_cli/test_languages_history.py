"""``hcf history --lang es`` and ``--lang de`` in a terminal (issue 28 item 5; docs/i18n.md): the list of hands,
one hand in full and its deal check said in the person's language."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pexpect
import pytest

from tests.client_cli.conftest import ROOT, Server, client_env, hcf

TABLE = "lang-history"


def _history(server: Server, home: Path, *args: str) -> str:
    """What ``hcf history`` shows in a terminal (a pty, as a person runs it)."""
    argv = hcf("history", "--server", server.url, "--table", TABLE, *args)
    env = client_env(home, TERM="xterm-256color", LANG="C.UTF-8")
    env.pop("LC_ALL", None)
    env.pop("LANGUAGE", None)
    child = pexpect.spawn(argv[0], argv[1:], cwd=str(ROOT), env=env, dimensions=(40, 160), encoding="utf-8",
                          timeout=30)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    return str(child.before)


@pytest.fixture(scope="module")
def _played(server: Server, tmp_path_factory: pytest.TempPathFactory) -> None:
    home = tmp_path_factory.mktemp("history-bots")
    made = subprocess.run(hcf("host", "--server", server.url, "create-table", TABLE, "--set", "pause_seconds=0.2",
                              "--json"), cwd=ROOT, env=client_env(home, HCF_HOST_TOKEN=server.host_token),
                          capture_output=True, text=True, timeout=30, check=False)
    assert made.returncode == 0, made.stdout + made.stderr
    done = subprocess.run(hcf("bot", "--server", server.url, "--table", TABLE, "--count", "2", "--hands", "1",
                              "--fast", "--json"), cwd=ROOT, env=client_env(home), capture_output=True, text=True,
                          timeout=90, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["hands"] >= 1


@pytest.mark.timeout(180)
@pytest.mark.usefixtures("_played")
@pytest.mark.parametrize(("lang", "listed", "played", "english"), [
    ("es", f"manos en {TABLE} (la más reciente primero):", "jugada", "newest first"),
    ("de", f"Hände an {TABLE} (die neueste zuerst):", "gespielt", "newest first"),
])
def test_the_history_list_is_said_in_the_language(server: Server, tmp_path: Path, lang: str, listed: str,
                                                  played: str, english: str) -> None:
    seen = _history(server, tmp_path, "--lang", lang)
    assert listed in seen
    assert f"#1     {played}" in seen
    assert english not in seen


@pytest.mark.timeout(180)
@pytest.mark.usefixtures("_played")
@pytest.mark.parametrize(("lang", "says", "english"), [
    ("es", (f"Mano #1 en {TABLE} (jugada; id del servidor", "compromiso", "semilla del servidor",
            "reparto verificado"), ("server seed", "deal verified", "commitment")),
    ("de", (f"Hand #1 an {TABLE} (gespielt; Server-ID", "Festlegung", "Server-Seed", "Austeilen geprüft"),
     ("server seed", "deal verified", "commitment")),
])
def test_one_hand_and_its_deal_check_are_said_in_the_language(server: Server, tmp_path: Path, lang: str,
                                                              says: tuple[str, ...], english: tuple[str, ...]) -> None:
    seen = _history(server, tmp_path, "1", "--lang", lang)
    for part in says:
        assert part in seen, (part, seen)
    for word in english:
        assert word not in seen, (word, seen)
