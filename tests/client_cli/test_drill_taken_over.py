"""``hcf drill --table`` stops and says why when the trainee's account is opened elsewhere (issue 23, item 14).

The browser's drill page took the account over and the terminal showed "(the connection
dropped: coming back...)" for ever. Here a second connection of the same account (as the
browser makes one) takes it over while the trainee's terminal waits at the live drill.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pexpect
import pytest

from client_cli.api import request_json
from client_cli.connection import Connection
from tests.client_cli.conftest import ROOT, Server, client_env, hcf

TABLE = "taken"
SETTINGS = {"pause_seconds": 0, "min_bank": 100, "drill": {"trainee": "tess", "mode": "training", "step_seconds": 30}}


async def _open_elsewhere(url: str, token: str) -> None:
    other = Connection(url, token=token)
    await other.connect()
    try:
        await other.join(TABLE)
    finally:
        await other.close()


@pytest.mark.timeout(120)
def test_the_trainees_terminal_says_the_account_was_opened_elsewhere_and_stops(server: Server,
                                                                              tmp_path: Path) -> None:
    # The trainee's account comes first: a drill table names an account that exists.
    request_json("POST", f"{server.url}/api/register", {"name": "tess", "password": "a-good-password"})
    request_json("POST", f"{server.url}/api/host", {"action": "create_table", "table": TABLE, "settings": SETTINGS},
                 token=server.host_token)
    argv = hcf("drill", "--table", TABLE, "--name", "tess", "--server", server.url)
    child = pexpect.spawn(argv[0], argv[1:], cwd=str(ROOT), env=client_env(tmp_path / "config"),
                          dimensions=(24, 80), encoding="utf-8", timeout=30)
    screen = (tmp_path / "screen.log").open("w", encoding="utf-8")  # what the trainee saw, for a failure
    child.logfile_read = screen
    try:
        child.expect("Password for tess")
        child.sendline("a-good-password")
        child.expect(f"Live drill at table {TABLE}")
        child.expect("Ctrl-D leaves")
        login = request_json("POST", f"{server.url}/api/login", {"name": "tess", "password": "a-good-password"})
        asyncio.run(_open_elsewhere(server.url, str(login["token"])))
        child.expect("this account was opened somewhere else")
        child.expect(pexpect.EOF, timeout=20)
        assert "coming back" not in (child.before or "")
        child.close()
        assert child.exitstatus == 1
    finally:
        if child.isalive():
            child.terminate(force=True)
        screen.close()
