"""``hcf watch --lang de`` and ``--lang es`` in a terminal (issue 28 item 5; docs/i18n.md): the live view's header
and the watcher's own line ("watching: Ctrl-C quits") in the person's language, and a table that is not there said
so in it too."""

from __future__ import annotations

from pathlib import Path

import pexpect
import pytest

from client_cli.api import request_json
from tests.client_cli.conftest import ROOT, Server, client_env, hcf

TABLE = "lang-watch"


@pytest.fixture(scope="module", autouse=True)
def _paused_table(server: Server) -> None:
    for action in ("create_table", "pause"):  # paused: no hand, nothing races the lines
        request_json("POST", f"{server.url}/api/host", {"action": action, "table": TABLE}, token=server.host_token)


def _spawn(server: Server, home: Path, *args: str) -> pexpect.spawn:
    argv = hcf("watch", "--server", server.url, *args)
    env = client_env(home, TERM="xterm-256color", LANG="C.UTF-8")
    env.pop("LC_ALL", None)
    env.pop("LANGUAGE", None)
    return pexpect.spawn(argv[0], argv[1:], cwd=str(ROOT), env=env, dimensions=(40, 140), encoding="utf-8",
                         timeout=30)


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("lang", "says"), [
    ("de", ("Tisch lang-watch", " · vom Gastgeber angehalten", "Zuschauen: Ctrl-C beendet")),
    ("es", ("Mesa lang-watch", " · en pausa por el anfitrión", "mirando: Ctrl-C sale")),
])
def test_the_watcher_sees_the_table_in_the_language(server: Server, tmp_path: Path, lang: str,
                                                   says: tuple[str, ...]) -> None:
    child = _spawn(server, tmp_path, "--table", TABLE, "--lang", lang)
    screen = (tmp_path / "screen.log").open("w", encoding="utf-8")
    child.logfile_read = screen
    try:
        for part in says:
            child.expect_exact(part)
        child.sendintr()
        child.expect(pexpect.EOF, timeout=20)
    finally:
        if child.isalive():
            child.terminate(force=True)
        screen.close()
    seen = (tmp_path / "screen.log").read_text(encoding="utf-8")
    assert "watching: Ctrl-C quits" not in seen
    assert "paused by the host" not in seen


@pytest.mark.timeout(60)
def test_a_missing_table_is_said_in_spanish(server: Server, tmp_path: Path) -> None:
    child = _spawn(server, tmp_path, "--table", "nosuch", "--lang", "es")
    child.expect(pexpect.EOF)
    child.close()
    assert f"no hay ninguna mesa llamada 'nosuch' en {server.url} (sus mesas: " in str(child.before)
    assert child.exitstatus != 0
